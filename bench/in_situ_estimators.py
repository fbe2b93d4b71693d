"""Candidate in-situ point estimates compared on recorded interleaved runs: where each lands against its own pairs of
blocks, how wide its range is, and how many processes of one script land inside each other's range.

    python3 bench/in_situ_estimators.py REPORT_OR_DIR [REPORT_OR_DIR ...]

Every region with an interleaved in-situ result is compared again from its stored calls as the runner compares them
(interleaved.compared: the same steady steps, signatures and pairs of blocks), per step and per call. Candidates:
  median    each side's whole-run median (per signature, over the matched mix): the estimator before session 33
  pairmed   the median of the pairs' own ratios
  middle    ranges.middle_ratio: pairmed with the lower of the middle two (the runner's number since session 33;
            session 28's table took the geometric mean of the middle two)
  geomean   the geometric mean of the pairs' own ratios (= each side's geometric mean over the pairs, divided)
  trimmed   geomean without the highest and the lowest pair's ratio (from 5 pairs)
Each range: ranges.of_pairs (bootstrap over pairs, widened for a next run) with the 2 % floor ("raw") and with the
floor the runner gives that run ("floored"). Reports read as they are; nothing is written."""

from __future__ import annotations

import itertools
import json
import math
import os
import statistics
import sys
from collections.abc import Callable
from typing import Any

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "native-runner"))
from compile_lens_runner.measure import estimator, interleaved, ranges

Range = tuple[float, float, float]  # estimate, low, high


def geomean(ratios: list[float]) -> float:
    return math.exp(statistics.fmean(math.log(r) for r in ratios))


def trimmed(ratios: list[float]) -> float:
    return geomean(sorted(ratios)[1:-1] if len(ratios) >= 5 else ratios)


ON_RATIOS: dict[str, Callable[[list[float]], float]] = {
    "pairmed": statistics.median,
    "middle": ranges.middle_ratio,
    "geomean": geomean,
    "trimmed": trimmed,
}
CANDIDATES = ("median", *ON_RATIOS)


def candidates(
    calls: list[interleaved.Call],
    picks: dict[str, list[int]],
    duration: Callable[[interleaved.Call], float | None],
    weights: dict[str, int],
    floor: float,
) -> tuple[list[float], dict[str, tuple[Range, Range]]] | None:
    """(the pairs' own ratios, candidate -> (raw range, floored range)); None without a shared signature or pairs."""
    whole = interleaved._sample(calls, picks, duration)
    mixed = interleaved._mix(whole, weights)
    pairs = interleaved.block_pairs(calls, picks, duration, whole, weights)
    if mixed is None or not pairs:
        return None
    ratios = [p.ratio for p in pairs]
    samples = [p.sample for p in pairs]

    def merged_ratio(chosen: list[interleaved.Sample]) -> float:
        merged: interleaved.Sample = {"eager": {}, "compiled": {}}
        for sample in chosen:
            for side in merged:
                for sig, values in sample[side].items():
                    merged[side].setdefault(sig, []).extend(values)
        got = interleaved._mix(merged, weights)
        return mixed[0] / mixed[1] if got is None else got[0] / got[1]

    out: dict[str, tuple[Range, Range]] = {}
    for name in CANDIDATES:
        if name == "median":
            value, items, statistic = mixed[0] / mixed[1], samples, merged_ratio
        else:
            of = ON_RATIOS[name]
            value, items, statistic = of(ratios), ratios, of  # type: ignore[assignment]
        both = []
        for pct in (ranges.FLOOR_PCT, floor):
            low, high = ranges.of_pairs(value, pct, items, statistic, ratios)
            both.append((value, low, high))
        out[name] = (both[0], both[1])
    return ratios, out


def inside(a: Range, b: Range) -> bool:
    return b[1] <= a[0] <= b[2] and a[1] <= b[0] <= a[2]


def regions(report: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    return [
        (str(r.get("name") or r.get("id")), r)
        for r in report.get("regions") or []
        if (r.get("inSitu") or {}).get("method") == interleaved.METHOD
    ]


def steady(region: dict[str, Any]) -> tuple[list[Any], Any, Any, dict[str, int]]:
    """A recorded region's calls as the runner compares them (interleaved.compared), and each signature's count."""
    recorded = [interleaved.Call.from_json(c) for c in region.get("calls") or []]
    options = region.get("options") or {}
    new_size = region.get("device") == "cuda" and options.get("mode") in ("reduce-overhead", "max-autotune")
    calls, s, pool = interleaved.compared(recorded, new_size)
    weights: dict[str, int] = {}
    for c in calls:
        weights[c.signature] = weights.get(c.signature, 0) + 1
    return calls, s, pool, weights


def main(paths: list[str]) -> int:
    rows: dict[tuple[str, str, str, str], list[tuple[str, list[float], dict[str, tuple[Range, Range]]]]] = {}
    for path in paths:
        file = os.path.join(path, "report.json") if os.path.isdir(path) else path
        with open(file) as f:
            report = json.load(f)
        for name, region in regions(report):
            calls, s, pool, weights = steady(region)
            host = interleaved.host_share(calls, s.calls["eager"])
            floor = host["floorPct"] if host and host["floorPct"] is not None else ranges.FLOOR_PCT
            if region.get("device") == "cpu":
                floor = estimator.cpu_floor_pct()
            script = (report.get("target") or {}).get("name", "?")
            for what, picks, duration in (
                ("step", s.steps, lambda c: c.step_ms),
                ("call", s.calls, lambda c: c.ms),
            ):
                got = candidates(calls, picks, duration, weights, floor)
                if got is not None:
                    key = (script, name, str(region.get("device")), what + (" (pooled)" if pool else ""))
                    rows.setdefault(key, []).append((file, *got))
    for key, runs in rows.items():
        print(f"\n## {' / '.join(key)}: {len(runs)} process(es)")
        print("run | pairs | " + " | ".join(CANDIDATES) + " | file")
        for n, (file, ratios, by_name) in enumerate(runs, 1):
            cells = []
            for name in CANDIDATES:
                (v, lo, hi), _ = by_name[name]
                mark = "" if min(ratios) <= v <= max(ratios) else " OUT"
                cells.append(f"{v:.3f} ({lo:.2f}–{hi:.2f}){mark}")
            pairs = f"{len(ratios)}: {min(ratios):.2f}–{max(ratios):.2f}"
            print(f"{n} | {pairs} | " + " | ".join(cells) + f" | {file}")
        for name in CANDIDATES:
            out = sum(1 for _, r, g in runs if not min(r) <= g[name][0][0] <= max(r))
            off = max(abs(g[name][0][0] / statistics.median(r) - 1) for _, r, g in runs)
            widths = [[g[name][k][2] / g[name][k][1] for _, _, g in runs] for k in (0, 1)]
            both = list(itertools.combinations(range(len(runs)), 2))
            held = [sum(inside(runs[i][2][name][k], runs[j][2][name][k]) for i, j in both) for k in (0, 1)]
            print(
                f"{name}: outside its pairs {out}/{len(runs)}; most off the pairs' median {100 * off:.1f} %; "
                f"width high/low raw median {statistics.median(widths[0]):.3f} max {max(widths[0]):.3f}, "
                f"floored median {statistics.median(widths[1]):.3f}; inside each other raw {held[0]}/{len(both)}, "
                f"floored {held[1]}/{len(both)}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
