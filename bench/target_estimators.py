"""Candidate target speedup estimates compared on recorded paired rounds: how each moves with the count of pairs a
process ran, and how far sibling processes (the same target, mode and host) land from each other.

    python3 bench/target_estimators.py [REPORT_OR_DIR ...]   (default: /work/gpu-results and test/fixtures)

A group is the processes of one target and mode recorded in one directory tree (one session's host) with the same
device, torch and --quick; test/fixtures/timing/h100-rounds-2026-11-22.json adds its two runs per model. Candidates,
each on the first k pairs (k = 7, 15, 30, 60, the pairs of the first second, all):
  fastest   eager's fastest round / compiled's fastest round (the estimator before session 28)
  3rd       each side's third-fastest round, divided (the fastest time confirmed: timing.py's stopping rule)
  q05..q25  each side's 5th / 10th / 20th / 25th percentile round, divided
  q50       each side's median round, divided
  pairmed   the median of the pairs' own ratios (the estimator before schema 1.4)
Each range: ranges.of_pairs with the halves and the floor the runner gives (6 % for a noisy side, the launch-bound or
CPU floor where the report says so). Reports read as they are; nothing is written."""

from __future__ import annotations

import glob
import itertools
import json
import os
import statistics
import sys
from collections import defaultdict
from collections.abc import Callable
from typing import Any

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "native-runner"))
from compile_lens_runner.measure import estimator, ranges
from compile_lens_runner.measure.estimator import Pair

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KS: tuple[int | str | None, ...] = (7, 15, 30, 60, "1s", None)
Process = tuple[str, list[Pair], float, int]  # name, pairs, the runner's floor beyond the noisy one, pairs in 1 s


def within_second(eager: list[float], compiled: list[float], calls: tuple[int, int], probes: list[float]) -> int:
    """How many pairs ran in their first second: each round's timed and 12.5 % untimed calls and its probe (1 ms
    where none was recorded), no more than the runner's clock saw (timing.TimingConfig.min_seconds)."""
    elapsed = 0.0
    for count, (e, c) in enumerate(zip(eager, compiled, strict=True), start=1):
        elapsed += ((e * calls[0] + c * calls[1]) * 1.125 + (sum(probes[2 * count - 2 : 2 * count]) or 2.0)) / 1000
        if elapsed >= 1.0:
            return count
    return len(eager)


def first(pairs: list[Pair], k: int | str | None, second: int) -> list[Pair]:
    return pairs if k is None else pairs[: second if k == "1s" else int(k)]


def sides_quantile(q: float) -> Callable[[list[Pair]], float]:
    def statistic(pairs: list[Pair]) -> float:
        return ranges.percentile([e for e, _ in pairs], q) / ranges.percentile([c for _, c in pairs], q)

    return statistic


def sides_nth(n: int) -> Callable[[list[Pair]], float]:
    def statistic(pairs: list[Pair]) -> float:
        m = min(n, len(pairs)) - 1
        return sorted(e for e, _ in pairs)[m] / sorted(c for _, c in pairs)[m]

    return statistic


CANDIDATES: dict[str, Callable[[list[Pair]], float]] = {
    "fastest": estimator.fastest_ratio,
    "3rd": sides_nth(3),
    "q05": sides_quantile(0.05),
    "q10": sides_quantile(0.10),
    "q20": sides_quantile(0.20),
    "q25": sides_quantile(0.25),
    "q50": sides_quantile(0.50),
    "pairmed": lambda pairs: statistics.median(e / c for e, c in pairs),
}


def floor_of(pairs: list[Pair], extra_floor: float) -> float:
    eager, compiled = [e for e, _ in pairs], [c for _, c in pairs]
    noisy = estimator.noisy(eager) or estimator.noisy(compiled)
    return max(estimator.FLOOR_NOISY_PCT if noisy else ranges.FLOOR_PCT, extra_floor)


def ranged(pairs: list[Pair], statistic: Callable[[list[Pair]], float], extra_floor: float) -> tuple[float, ...]:
    value = statistic(pairs)
    half = len(pairs) // 2
    halves = [statistic(pairs[:half]), statistic(pairs[half:])] if half >= 2 else []
    low, high = ranges.of_pairs(
        value, floor_of(pairs, extra_floor), pairs, statistic, [e / c for e, c in pairs], halves
    )
    return value, low, high


def as_dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def from_reports(paths: list[str]) -> dict[tuple, list[Process]]:
    files: list[str] = []
    for path in paths:
        files += glob.glob(os.path.join(path, "**", "*.json"), recursive=True) if os.path.isdir(path) else [path]
    groups: dict[tuple, list[Process]] = defaultdict(list)
    for file in sorted(set(files)):
        try:
            with open(file) as f:
                report = json.load(f)
        except (OSError, ValueError):
            continue
        if not isinstance(report, dict) or not isinstance(report.get("modes"), list):
            continue
        target, env, eager = (as_dict(report.get(k)) for k in ("target", "environment", "eager"))
        cpu = env.get("device") == "cpu"
        extra = estimator.cpu_floor_pct() if cpu else 0.0
        if eager.get("launchBound"):
            extra = max(extra, estimator.launch_bound_floor_pct(eager.get("gpuIdlePct") or 0.0))
        session = next((p for p in file.split(os.sep) if p.startswith("s2")), "fixtures")
        for mode in filter(lambda m: isinstance(m, dict), report["modes"]):
            e = as_dict(mode.get("eagerTiming")).get("rounds")
            c = as_dict(mode.get("timing")).get("rounds")
            if not e or not c or len(e) != len(c):
                continue
            key = (
                session,
                target.get("name") or target.get("file"),
                mode["mode"],
                env.get("deviceName") or env.get("device"),
                env.get("torch"),
                bool(as_dict(report.get("settings")).get("quick")),
            )
            t, et = as_dict(mode.get("timing")), as_dict(mode.get("eagerTiming"))
            probes = [
                p for pair in zip(et.get("cpuProbeMs") or [], t.get("cpuProbeMs") or [], strict=False) for p in pair
            ]
            calls = (et.get("callsPerRound") or 1, t.get("callsPerRound") or 1)
            name = os.path.relpath(file, "/work/gpu-results")
            groups[key].append((name, list(zip(e, c, strict=True)), extra, within_second(e, c, calls, probes)))
    return groups


def from_h100_fixture() -> dict[tuple, list[Process]]:
    path = os.path.join(ROOT, "test", "fixtures", "timing", "h100-rounds-2026-11-22.json")
    with open(path) as f:
        runs = json.load(f)["runs"]
    groups: dict[tuple, list[Process]] = defaultdict(list)
    for run, data in sorted(runs.items()):
        model = run.rstrip("12").rstrip("_")
        for mode, m in data["modes"].items():
            pairs = list(zip(m["eagerRoundsMs"], m["compiledRoundsMs"], strict=True))
            calls = (m["callsPerRound"][0], m["callsPerRound"][1])
            second = within_second(m["eagerRoundsMs"], m["compiledRoundsMs"], calls, [])
            groups[("h100-11-22", model, mode, "H100", "2.11", False)].append((run, pairs, 0.0, second))
    return groups


def main(paths: list[str]) -> None:
    groups = from_reports(paths or ["/work/gpu-results", os.path.join(ROOT, "test", "fixtures", "reports")])
    groups.update(from_h100_fixture())
    siblings = {k: v for k, v in groups.items() if len(v) >= 2}
    # per candidate and k: [(spread %, both inside?, mean width %)] over groups
    summary: dict[tuple[str, int | str | None], list[tuple[float, bool, float, int]]] = defaultdict(list)
    for key, procs in sorted(siblings.items(), key=str):
        print(f"\n== {' / '.join(str(k) for k in key)}")
        for name, pairs, _, second in procs:
            print(f"   {name}: {len(pairs)} pairs, {second} in the first second")
        for cand, statistic in CANDIDATES.items():
            cells = []
            for k in KS:
                # each process as it would have stopped after k pairs (all of them when it ran fewer)
                got = [ranged(first(pairs, k, second), statistic, extra) for _, pairs, extra, second in procs]
                values = [g[0] for g in got]
                spread = (max(values) / min(values) - 1) * 100
                inside = all(a[1] <= b[0] <= a[2] for a, b in itertools.permutations(got, 2))
                width = statistics.fmean((g[2] - g[1]) / g[0] * 100 for g in got)
                summary[(cand, k)].append((spread, inside, width, len(procs)))
                cells.append(
                    f"k={k or 'all'}: "
                    + ",".join(f"{v:.3g}" for v in values)
                    + f" ±{spread:.1f}% {'in' if inside else 'OUT'} w{width:.0f}"
                )
            print(f"   {cand:8s} " + " | ".join(cells))
    print(
        "\n== over all sibling groups: median spread %, max spread %, groups whose processes all land in each other's range, mean width %"
    )
    for cand in CANDIDATES:
        row = []
        for k in KS:
            rows = summary[(cand, k)]
            spreads = [r[0] for r in rows]
            row.append(
                f"k={k or 'all'}: {statistics.median(spreads):.1f}/{max(spreads):.1f}% in {sum(r[1] for r in rows)}/{len(rows)} w{statistics.fmean(r[2] for r in rows):.0f}"
            )
        print(f"   {cand:8s} " + " | ".join(row))


if __name__ == "__main__":
    main(sys.argv[1:])
