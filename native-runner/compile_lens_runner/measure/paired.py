"""One paired measurement of eager against compiled, the only one: target modes and script regions both call it.

A side is a call with its inputs and the state it runs in. The compiled side is warmed until nothing compiles, then
eager and compiled rounds are interleaved (timing.measure_paired); if a compile still ran inside the timed rounds,
the compiled side is warmed again and timed once more. A measurement whose compiled side ran eagerly (Dynamo fell
back) keeps its rounds but no speedup: eager code timed as compiled is no measurement of compiled code.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass

from ..shapes.common import Timing
from ..shapes.mode import ModeResult
from . import timing
from .speedups import break_even_calls


@dataclass(frozen=True)
class RunCounts:
    """Guard outcomes and compiles seen over a stretch of calls (the difference of two snapshots)."""

    hits: int
    misses: int
    compiles: int
    recompiles: int

    @property
    def eager_frames(self) -> int:
        """Frame entries that found no matching compiled code and recompiled none: they ran eagerly."""
        return max(0, self.misses - self.recompiles)

    def ran_compiled(self) -> bool | None:
        """True: compiled code ran and no frame fell back; False: some frame ran eagerly; None: nothing was
        guarded (no compiled frame was entered, or the hook is unavailable on this torch)."""
        if self.eager_frames:
            return False
        if self.hits or self.compiles:
            return True
        return None

    def __sub__(self, other: RunCounts) -> RunCounts:
        return RunCounts(
            self.hits - other.hits,
            self.misses - other.misses,
            self.compiles - other.compiles,
            self.recompiles - other.recompiles,
        )


@dataclass(frozen=True)
class Side:
    """One side of a pair: a call with its inputs, and the state it runs in (grad mode, autocast, active model)."""

    call: Callable[[], object]
    context: Callable[[], contextlib.AbstractContextManager[object]] = contextlib.nullcontext


@dataclass(frozen=True)
class Watch:
    """What the compiler does while a side runs: compiles started so far, and compiled-frame counts."""

    compiles: Callable[[], int]
    snapshot: Callable[[], RunCounts]
    available: bool  # whether compiled-frame counts exist on this torch (>= 2.6)


def sync(device: str) -> None:
    if device == "cuda":
        import torch

        torch.cuda.synchronize()


def block(side: Side, device: str) -> timing.Block:
    clock = timing.make_clock(device)

    def calls(k: int) -> None:
        for _ in range(k):
            side.call()

    def run(n: int, warm: int) -> float:
        with side.context():
            return clock(calls, n, warm)

    return run


def warm(side: Side, device: str, compiles: Callable[[], int], max_calls: int = 50) -> None:
    with side.context():
        timing.warm_until_stable(side.call, lambda: sync(device), compiles, max_calls=max_calls)


def first_call_seconds(side: Side, device: str) -> float:
    with side.context():
        return timing.first_call_seconds(side.call, lambda: sync(device))


def measure(
    eager: Side,
    compiled: Side,
    device: str,
    cfg: timing.TimingConfig,
    watch: Watch,
    entry: ModeResult,
    before_attempt: Callable[[str], None],
    why_recompiled: Callable[[str, int], str],
    rewarm: Callable[[], None],
) -> None:
    """Times compiled against eager, writing the measured fields into `entry` (a mode's, or a region's measurement,
    whose compileSeconds it reads). before_attempt(phase) runs before each attempt ("timed", then "retimed");
    why_recompiled(phase, compiles) says why compiles ran inside an attempt; rewarm() warms before the retry."""
    method = timing.method_text(device, cfg, paired=True)
    fields: ModeResult = {**entry}  # into the entry once measured: a failed attempt leaves it as it was
    discarded: list[Timing] = []
    counts: RunCounts | None = None
    for attempt, phase in enumerate(("timed", "retimed")):
        before_attempt(phase)
        compiles_before, runs_before = watch.compiles(), watch.snapshot()
        paired = timing.measure_paired(block(eager, device), block(compiled, device), cfg, method)
        counts = watch.snapshot() - runs_before
        compiles = watch.compiles() - compiles_before
        timing.put_paired(fields, paired)
        if compiles == 0:
            break
        invalid: Timing = {**paired.compiled, "valid": False, "invalidReason": why_recompiled(phase, compiles)}
        fields["timing"] = invalid
        if attempt == 0:  # a second invalid measurement stays as the timing, marked invalid
            discarded.append({**invalid, "speedup": round(paired.speedup, 4)})
            rewarm()
    if discarded:
        fields["discardedTimings"] = discarded
    ran = counts.ran_compiled() if counts is not None and watch.available else None
    fields["ranCompiled"] = ran
    if watch.available and ran is not True and counts is not None:
        mark_fallback(fields, counts)
    else:
        eager_timing, compiled_timing = fields["eagerTiming"], fields["timing"]
        assert eager_timing is not None and compiled_timing is not None  # put_paired
        fields["breakEvenCalls"] = break_even_calls(
            fields["compileSeconds"], eager_timing["estimateMs"], compiled_timing["estimateMs"]
        )
    entry.update(fields)


def mark_fallback(entry: ModeResult, counts: RunCounts) -> None:
    """Eager code timed as "compiled" is no measurement of compiled code: the timing becomes invalid and the speedup
    null (the caller adds the cause once it has read the compiler's log)."""
    entry["ranCompiled"] = counts.ran_compiled()
    entry["fallback"] = {
        "eagerFrames": counts.eager_frames,
        "frameEntries": counts.hits + counts.misses,
        "cause": None,
        "fix": None,
    }
    timed = entry.get("timing")
    if timed:
        entry["timing"] = {**timed, "valid": False, "invalidReason": "Dynamo ran the compiled calls eagerly."}
    entry["speedup"] = entry["breakEvenCalls"] = None
    entry.pop("speedupInterval", None)
    entry.pop("speedupMedianRatio", None)
