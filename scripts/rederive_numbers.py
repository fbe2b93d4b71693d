"""A recorded measurement's numbers as the runner derives them now, from what it recorded: a target's or replay's
speedup and range from its pairs of rounds, its break-even calls, its range floored; an interleaved region's in-situ
result from its calls (a torchrun job's from its ranks' calls). A part of rederive_fixtures.py (which puts the runner on
the path)."""

from __future__ import annotations

import json
import os
from typing import Any

from compile_lens_runner.measure import estimator, interleaved, ranges, speedups, timing
from compile_lens_runner.script import in_situ_report


def fastest_rounds(mode: dict[str, Any]) -> None:
    """A mode timed before the fastest-rounds estimator (no `speedupEstimator`) had for its speedup the median of its
    per-pair ratios, which the per-call times shown beside it do not give (fused-cpu: 0.53× beside 9.34 ms against
    eager's 6.88 ms, 0.74×): its pairs of rounds estimated as the runner estimates them now (timing.put_paired)."""
    eager, compiled = mode.get("eagerTiming") or {}, mode.get("timing") or {}
    if mode.get("speedupEstimator") or mode.get("speedup") is None or not eager.get("rounds"):
        return
    pairs = list(zip(eager["rounds"], compiled["rounds"], strict=True))
    est = estimator.estimate(pairs)
    eager["estimateMs"], compiled["estimateMs"] = est.eager_ms, est.compiled_ms
    mode.update(
        {
            "speedup": round(est.speedup, 4),
            "speedupEstimator": estimator.ESTIMATOR,
            "speedupInterval": timing.interval(est),
            "speedupMedianRatio": round(est.median_ratio, 4),
        }
    )


def break_even(entry: dict[str, Any]) -> None:
    """A measurement's break-even calls at the per-call times its speedup is the ratio of (eager's fastest round of the
    run where the speedup took it: runEager), as the runner records it: one left from an older estimator disagreed
    with them (graphbreak-cpu: 537 calls beside 8.25 vs 6.37 ms/call, which give 1,835)."""
    eager, compiled = entry.get("eagerTiming") or {}, entry.get("timing") or {}
    if entry.get("speedup") is None or "estimateMs" not in eager or "estimateMs" not in compiled:
        return
    shift = (entry.get("speedupInterval") or {}).get("runEager")
    eager_ms = shift["bestEagerMs"] if shift else eager["estimateMs"]
    entry["breakEvenCalls"] = speedups.break_even_calls(entry.get("compileSeconds"), eager_ms, compiled["estimateMs"])


def few_pairs(entry: dict[str, Any]) -> None:
    """A range from fewer than ranges.MIN_RESAMPLED pairs of rounds reaching every pair's own ratio, as the runner's
    does now (ranges.of_pairs): an older one was the floor alone and left out a pair (graphbreak-cpu: 1.22–1.37× of
    pairs at 1.35, 1.30 and 1.05×)."""
    interval, eager, compiled = entry.get("speedupInterval"), entry.get("eagerTiming") or {}, entry.get("timing") or {}
    rounds = list(zip(eager.get("rounds") or [], compiled.get("rounds") or [], strict=True))
    if not interval or not rounds or len(rounds) >= ranges.MIN_RESAMPLED:
        return
    ratios = [e / c for e, c in rounds]
    interval.update({"low": round(min(interval["low"], *ratios), 4), "high": round(max(interval["high"], *ratios), 4)})


def below_zero(entry: dict[str, Any]) -> None:
    """A range an older runner widened as a difference, to a low at or below zero (explore-cpu: 10.33× with a low of
    −3.99), from its pairs of rounds as the runner widens it now (ranges.next_run: as a factor)."""
    interval, eager, compiled = entry.get("speedupInterval"), entry.get("eagerTiming") or {}, entry.get("timing") or {}
    if not interval or interval["low"] > 0 or not eager.get("rounds"):
        return
    est = estimator.estimate(list(zip(eager["rounds"], compiled["rounds"], strict=True)))
    interval.update({k: v for k, v in timing.interval(est).items() if k in ("low", "high")})


def below_zero_in_situ(region: dict[str, Any]) -> None:
    """The same for an interleaved in-situ step or call speedup (serve_script-cpu: 0.94× with a low of −0.35), from
    the region's recorded calls as the runner compares them now, where that gives the recorded speedup."""
    situ = region.get("inSitu") or {}
    said = [k for k in ("step", "call") if situ.get(k) and situ[k]["low"] <= 0]
    if not said or situ.get("method") != interleaved.METHOD:
        return
    fresh = interleaved.compare(region["calls"], situ["stepsMade"], on_cpu=region.get("device") == "cpu")
    for k in said:
        if fresh.get(k) and fresh[k]["speedup"] == situ[k]["speedup"]:
            situ[k].update({"low": fresh[k]["low"], "high": fresh[k]["high"]})


def _floor(entry: dict[str, Any], on_cpu: bool) -> float:
    if on_cpu:
        return estimator.cpu_floor_pct()
    eager, compiled = entry.get("eagerTiming") or {}, entry["timing"]
    ms = [t.get("estimateMs", t.get("medianMs")) for t in (eager, compiled)]
    return estimator.gpu_floor_pct(*ms) if all(isinstance(x, float) for x in ms) else 0.0


def process_floor(report: dict[str, Any]) -> None:
    """A target's or replay's range at least the floor the runner gives it now (speedups.adjust): on a CPU
    estimator.cpu_floor_pct, on a GPU estimator.gpu_floor_pct; in-situ steps on a CPU cpu_floor_pct
    (interleaved.compare). An older one held its own process only (gated_service.py on one Xeon: 1.38× and 1.56× in two
    processes; the default sample on one H200: 9.03× and 9.82×; neither in the other's range)."""
    device = report.get("environment", {}).get("device")
    on_cpu = device == "cpu"
    for mode in report["modes"] if device else []:
        if mode.get("speedupInterval") and mode.get("speedup") is not None and mode.get("timing"):
            speedups.widen_to_floor(mode, _floor(mode, on_cpu))
    for region in report.get("regions") or []:
        region_cpu = region.get("device", device) == "cpu"
        for m in region["measurements"]:
            if m.get("speedupInterval") and m.get("speedup") is not None and m.get("timing"):
                speedups.widen_to_floor(m, _floor(m, region_cpu))
        if not region_cpu:
            continue
        situ = region.get("inSitu") or {}
        for number in (situ.get("step"), situ.get("call")):  # an older method's (separate runs) too
            cpu = estimator.cpu_floor_pct()
            if number and "low" in number and number.get("floorPct", 0.0) < cpu:
                low, high = ranges.floored(number["speedup"], number["low"], number["high"], cpu)
                number.update({"low": round(low, 4), "high": round(high, 4), "floorPct": cpu})


def in_situ(region: dict[str, Any], folder: str | None) -> None:
    """An interleaved region's in-situ result as today's rules give it from its recorded calls (interleaved.compare:
    the steps left out and why, per step too, the numbers); a torchrun job's from each rank's recorded calls, as
    ranks/merge.py combines them (the rank reports beside the job's, under `folder`)."""
    situ = region.get("inSitu")
    if not situ or situ.get("method") != "interleaved":
        return
    if not situ.get("slowestRank"):
        region["inSitu"] = {**situ, **in_situ_report.compared(region, region["calls"])}
        return
    ranks = [(rank, region) for rank in range(len(situ.get("ranks") or []))]
    stored = [os.path.join(folder or "", "ranks", f"rank{rank}", "report.json") for rank, _ in ranks[1:]]
    if folder is not None and all(os.path.exists(path) for path in stored):
        for path, (rank, _) in zip(stored, ranks[1:], strict=True):
            with open(path, encoding="utf-8") as f:
                ranks[rank] = (rank, next(r for r in json.load(f).get("regions") or [] if r["id"] == region["id"]))
        in_situ_report.slowest_rank(region, ranks)
    elif len(ranks) == 2:
        _two_ranks_from_series(region)


def _two_ranks_from_series(region: dict[str, Any]) -> None:
    """A two-rank job recorded without its other rank's report: the slowest calls rebuilt from the headline rank's
    calls and the series' (slowest) times, and each step's rank told apart by whether its time is the headline's."""
    situ = region["inSitu"]
    times = {int(p[3]): p for side in ("compiled", "eager") for p in situ["series"][side]}
    merged = [
        {**c, "ms": times[c["index"]][0], "stepMs": times[c["index"]][1], "stepCompiles": times[c["index"]][2]}
        for c in region["calls"]
        if c["index"] in times
    ]
    result = in_situ_report.compared(region, merged)
    own = {c["index"]: c for c in region["calls"]}
    for point in result.get("stepPoints") or []:
        call, time = own[point["index"]], times[point["index"]]
        point["rank"] = 0 if call.get("stepMs") == time[1] else 1
        compiled = [0] if call.get("stepCompiles") else []
        if time[2] > (call.get("stepCompiles") or 0):  # the merged step's compiles are the rank that compiled most's
            compiled.append(1)
        if compiled:
            point["compiledOn"] = compiled
    region["inSitu"] = {**situ, **result}
