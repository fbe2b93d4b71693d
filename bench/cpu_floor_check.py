"""Each CPU profile's speedup with its range as recorded and as floored for a next process (estimator.cpu_floor_pct),
and whether each pair of profiles lands inside each other's range, both ways.

    python3 bench/cpu_floor_check.py REPORT_OR_DIR [REPORT_OR_DIR ...]

The number is the answer's: a script's first region's step in situ (its calls compared again as the runner compares
them, without the floor and with it), else a target's first measured mode (its range as recorded, which a runner
with the floor already floored, then floored as speedups.adjust floors it). Reports read as they are; nothing is
written."""

from __future__ import annotations

import itertools
import json
import os
import sys
from typing import Any

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "native-runner"))
from compile_lens_runner.measure import estimator, interleaved, ranges

Number = tuple[float, float, float]  # speedup, low, high


def numbers(report: dict[str, Any]) -> tuple[str, Number, Number] | None:
    """(what, as recorded, floored for a CPU's next process), or None when the report has no speedup."""
    for region in report.get("regions") or []:
        situ = region.get("inSitu") or {}
        if situ.get("method") != interleaved.METHOD or not situ.get("step"):
            continue
        made = int(situ.get("stepsMade") or len(region["calls"]))
        old, new = (interleaved.compare(region["calls"], made, on_cpu=cpu)["step"] for cpu in (False, True))
        if old is None or new is None:
            continue
        said = (new["speedup"], new["low"], new["high"])
        return "per step in situ, unfloored", (old["speedup"], old["low"], old["high"]), said
    for mode in report.get("modes") or []:
        interval = mode.get("speedupInterval")
        if mode.get("speedup") is None or not interval:
            continue
        speedup = float(mode["speedup"])
        low, high = ranges.floored(speedup, interval["low"], interval["high"], estimator.cpu_floor_pct())
        what = f"per call, {mode['mode']}, recorded with a {interval['floorPct']} % floor"
        return what, (speedup, interval["low"], interval["high"]), (speedup, low, high)
    return None


def inside(a: Number, b: Number) -> bool:
    """a's speedup inside b's range and b's inside a's."""
    return b[1] <= a[0] <= b[2] and a[1] <= b[0] <= a[2]


def main(paths: list[str]) -> int:
    runs: list[tuple[str, Number, Number]] = []
    for path in paths:
        file = os.path.join(path, "report.json") if os.path.isdir(path) else path
        if not os.path.exists(file):
            print(f"{file}: no report")
            continue
        with open(file) as f:
            report = json.load(f)
        got = numbers(report)
        if got is None:
            print(f"{file}: no speedup")
            continue
        what, old, new = got
        runs.append((file, old, new))
        print(
            f"{len(runs)}. {file} ({report.get('environment', {}).get('device')}, {report.get('createdAt')}): {what} "
            f"{old[0]:.2f}× ({old[1]:.2f}–{old[2]:.2f}×), floored {new[1]:.2f}–{new[2]:.2f}×"
        )
    for label, k in (("before the floor", 1), ("floored", 2)):
        pairs = list(itertools.combinations(range(len(runs)), 2))
        held = [(i, j) for i, j in pairs if inside(runs[i][k], runs[j][k])]
        missed = ", ".join(f"{i + 1}–{j + 1}" for i, j in pairs if (i, j) not in held)
        print(f"{label}: {len(held)} of {len(pairs)} pairs each inside the other's range; not: {missed or 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
