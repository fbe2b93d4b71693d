"""The steady steps that were interruptions, not the script's work (pure): per side and input signature, a step far
above the side's own median (ranges.far_above, the one rule both sides meet) is left out of the in-situ numbers and
said (schema 1.35 `inSitu.interrupted`; report/in_situ_text.py words it). On a contended 2-core host the script's
0.64 ms steps took 21-209 ms in 13 of 36 steady steps, and the pairs of blocks holding them read 0.008-1.30x: the
number was too noisy to say because of steps that measured the host."""

from __future__ import annotations

import statistics
from collections.abc import Callable

from ..shapes.in_situ import Interrupted, InterruptedSide
from . import ranges

SIDES = ("eager", "compiled")


def _side(far: list[int], ms: Callable[[int], float], medians: dict[int, float]) -> InterruptedSide | None:
    if not far:
        return None
    times = [ms(i) for i in far]
    stood_on = {medians[i] for i in far}
    return {
        "steps": len(far),
        "lowMs": round(min(times), 4),
        "highMs": round(max(times), 4),
        "medianMs": round(stood_on.pop(), 4) if len(stood_on) == 1 else None,
    }


def leave_out(
    steps: dict[str, list[int]], signature: Callable[[int], str], ms: Callable[[int], float]
) -> tuple[dict[str, list[int]], Interrupted | None]:
    """(each side's interrupted steps, what they were) of the steady steps `steps` (side -> indices, each with a
    signature and a time); None where none was."""
    far: dict[str, list[int]] = {side: [] for side in SIDES}
    medians: dict[int, float] = {}  # an interrupted step -> the median it stood far above
    for side in SIDES:
        by_signature: dict[str, list[int]] = {}
        for i in steps.get(side, []):
            by_signature.setdefault(signature(i), []).append(i)
        for group in by_signature.values():
            values = [ms(i) for i in group]
            bound = ranges.far_above(values)
            if bound is None:
                continue
            median = statistics.median(values)
            for i in group:
                if ms(i) > bound:
                    far[side].append(i)
                    medians[i] = median
    if not any(far.values()):
        return far, None
    return far, {
        "eager": _side(sorted(far["eager"]), ms, medians),
        "compiled": _side(sorted(far["compiled"]), ms, medians),
        "times": ranges.FAR_TIMES,
        "mads": ranges.FAR_MADS,
    }
