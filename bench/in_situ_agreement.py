"""Whether profiles of one script on one GPU agree: recorded GPU reports re-estimated from their stored calls through
the runner's own in-situ estimator (script/in_situ_report.compared, as scripts/rederive_numbers.py re-derives a
report), the old rule (each side's median over the run) beside the new (the middle pair of blocks).

    python3 bench/in_situ_agreement.py REPORT_OR_DIR [REPORT_OR_DIR ...]

Per script, per step: each run's number both ways and the new range; then the spread across runs (largest over
smallest, in %) both ways, the spread within each device call (runs whose report folders share a parent: one call of
the device machine), and how many pairs of runs land inside each other's new range. Reports read as they are; nothing
is written. The table of 22 H200 runs it printed is in docs/BENCHMARKS.md ("The in-situ number: the middle pair of
blocks, re-estimated on 22 recorded H200 runs (session 33)")."""

from __future__ import annotations

import itertools
import json
import os
import sys
from typing import Any

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "native-runner"))
import in_situ_estimators
from compile_lens_runner.measure import interleaved
from compile_lens_runner.script import in_situ_report

# (file, device call, recorded speedup, old rule, new rule, new low, new high, pairs)
Run = tuple[str, str, float, float, float, float, float, int]


def _old(region: dict[str, Any]) -> float | None:
    """Each side's median over the run (the rule before session 33), on the same steady steps."""
    calls, s, _, weights = in_situ_estimators.steady(region)
    got = interleaved.estimate(calls, s.steps, lambda c: c.step_ms, weights, paired=False)
    return None if got is None else got["speedup"]


def _run(file: str) -> tuple[str, Run] | None:
    with open(file) as f:
        report = json.load(f)
    region = next(
        (r for r in report.get("regions") or [] if (r.get("inSitu") or {}).get("method") == interleaved.METHOD), None
    )
    if region is None or not (region["inSitu"].get("step") or {}).get("speedup"):
        return None
    new = in_situ_report.compared(region, region["calls"])["step"]
    old = _old(region)
    if new is None or old is None:
        return None
    script = (report.get("target") or {}).get("name", "?")
    call = os.path.dirname(os.path.dirname(file))
    run = (file, call, region["inSitu"]["step"]["speedup"], old, new["speedup"], new["low"], new["high"], new["pairs"])
    return script, run


def _spread(values: list[float]) -> float:
    return 100 * (max(values) / min(values) - 1)


def main(paths: list[str]) -> int:
    files = [os.path.join(p, "report.json") if os.path.isdir(p) else p for p in paths]
    by_script: dict[str, list[Run]] = {}
    for file in files:
        got = _run(file)
        if got is not None:
            by_script.setdefault(got[0], []).append(got[1])
    for script, runs in sorted(by_script.items()):
        print(f"\n## {script}: {len(runs)} runs")
        print("run | pairs | recorded | old (run medians) | new (middle pair) | new range | file")
        for n, (file, _, shown, old, new, low, high, pairs) in enumerate(runs, 1):
            print(f"{n} | {pairs} | {shown:.3f} | {old:.3f} | {new:.3f} | {low:.3f}–{high:.3f} | {file}")
        print(
            f"across runs: old {min(r[3] for r in runs):.3f}–{max(r[3] for r in runs):.3f} "
            f"({_spread([r[3] for r in runs]):.1f} %), new {min(r[4] for r in runs):.3f}–{max(r[4] for r in runs):.3f} "
            f"({_spread([r[4] for r in runs]):.1f} %)"
        )
        calls: dict[str, list[Run]] = {}
        for r in runs:
            calls.setdefault(r[1], []).append(r)
        for call, same in calls.items():
            if len(same) > 1:
                old = "/".join(f"{r[3]:.3f}" for r in same)
                new = "/".join(f"{r[4]:.3f}" for r in same)
                print(
                    f"within {call}: old {old} ({_spread([r[3] for r in same]):.1f} %), "
                    f"new {new} ({_spread([r[4] for r in same]):.1f} %)"
                )
        both = list(itertools.combinations(runs, 2))
        inside = sum(1 for a, b in both if b[5] <= a[4] <= b[6] and a[5] <= b[4] <= a[6])
        within5 = sum(1 for a, b in both if max(a[4], b[4]) / min(a[4], b[4]) <= 1.05)
        print(f"pairs of runs inside each other's new range: {inside}/{len(both)}; within 5 %: {within5}/{len(both)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
