"""The speedups of a target run once every mode is timed: eager is timed again in every mode's pairs, so each mode's
speedup can use what the whole run saw of the host (estimator.py says why).

On CUDA, an eager that leaves the GPU idle most of the time runs at the speed the host CPU has at that moment, and a
host may spend seconds at a time slow. Against a compiled side the host CPU does not limit (CUDA graphs, a busy GPU)
eager is taken at its fastest round of the run (estimator.run_eager); a compiled side the host CPU limits stays paired
with the eager rounds beside it. A side that never ran while the host was at its fastest state of the run widens the
interval towards what that state could give (estimator.widened_for_slow_host).
"""
from __future__ import annotations

from typing import Any

from . import advice, estimator


def _estimate(mode: dict[str, Any]) -> estimator.Estimate:
    interval = mode["speedupInterval"]
    return estimator.Estimate(speedup=mode["speedup"], eager_ms=mode["eagerTiming"]["estimateMs"], compiled_ms=mode["timing"]["estimateMs"],
                              low=interval["low"], high=interval["high"], floor_pct=interval["floorPct"],
                              noisy_sides=tuple(interval["noisySides"]), median_ratio=mode.get("speedupMedianRatio") or 0.0)


def _measured(mode: dict[str, Any]) -> bool:
    return bool(mode.get("speedupInterval") and mode.get("eagerTiming") and mode.get("timing") and mode.get("speedup") is not None)


def adjust(report: dict[str, Any]) -> None:
    """Rewrites each measured mode's speedup, interval (runEager and slowHost say how) and break-even calls in place."""
    # Eager from the modes' pairs only: eager alone ran before anything was compiled or profiled, and a process that has
    # not loaded the compiler yet ran BERT's eager up to 5 % faster (H100, 2026-11-23: 3.10 ms alone, 3.21-3.35 ms in
    # the pairs of the same processes), so taking it would mix two process states into one speedup.
    timings = [t for t in (m.get("eagerTiming") for m in report["modes"]) if t and "estimateMs" in t]
    if not timings:
        return
    every_probe = [p for t in [report["eager"].get("timing")] + timings + [m.get("timing") for m in report["modes"]]
                   if t for p in t.get("cpuProbeMs") or []]
    fastest_probe = min(every_probe, default=0.0)
    pooled_probes = [p for t in timings for p in t.get("cpuProbeMs") or []]
    for mode in filter(_measured, report["modes"]):
        est = _estimate(mode)
        free = compiled_host_free(mode)
        shift = estimator.run_eager(est, min(t["estimateMs"] for t in timings)) if free else None
        interval = mode["speedupInterval"]
        if shift:
            mode["speedup"] = round(shift["speedup"], 4)
            interval.update(low=round(shift["low"], 4), high=round(shift["high"], 4))
            interval["runEager"] = {"eagerMs": shift["eagerMs"], "bestEagerMs": round(shift["bestEagerMs"], 6),
                                    "compiledMs": round(shift["compiledMs"], 6), "basis": "fastest-round"}
            mode["breakEvenCalls"] = advice.break_even_calls(mode["compileSeconds"], shift["bestEagerMs"], shift["compiledMs"])
        if report["eager"].get("launchBound"):
            widen_to_floor(mode, estimator.launch_bound_floor_pct(report["eager"].get("gpuIdlePct") or 0.0))
        widen_for_slow_host(mode, fastest_probe, pooled_probes if shift else None, free)


def widen_to_floor(entry: dict[str, Any], floor_pct: float) -> None:
    interval = entry["speedupInterval"]
    if interval["floorPct"] >= floor_pct:
        return
    speedup = entry["speedup"]
    interval.update(low=round(min(interval["low"], speedup * (1 - floor_pct / 100)), 4),
                    high=round(max(interval["high"], speedup * (1 + floor_pct / 100)), 4), floorPct=floor_pct)


def compiled_host_free(entry: dict[str, Any]) -> bool:
    graphs = [g["status"] for g in (entry.get("compiler") or {}).get("cudaGraphs") or []]
    return estimator.host_free(entry.get("gpuIdlePct"), graphs)


def widen_for_slow_host(entry: dict[str, Any], fastest_probe: float, eager_probes: list[float] | None = None,
                        host_free: bool | None = None) -> None:
    """Widens a measured entry's interval in place (and says so in slowHost) where a side never ran at the host's
    fastest state of the run; eager_probes: the probes of the eager rounds the speedup took (default: its pairs')."""
    if not _measured(entry):
        return
    interval = entry["speedupInterval"]
    free = compiled_host_free(entry) if host_free is None else host_free
    eager_ratio = estimator.slow_host_ratio(entry["eagerTiming"].get("cpuProbeMs") or [] if eager_probes is None else eager_probes, fastest_probe)
    compiled_ratio = 1.0 if free else estimator.slow_host_ratio(entry["timing"].get("cpuProbeMs") or [], fastest_probe)
    low, high = estimator.widened_for_slow_host(entry["speedup"], interval["low"], interval["high"], eager_ratio, compiled_ratio)
    if (low, high) != (interval["low"], interval["high"]):
        interval.update(low=round(low, 4), high=round(high, 4))
        interval["slowHost"] = {side: round(ratio, 3) for side, ratio in (("eager", eager_ratio), ("compiled", compiled_ratio))
                                if ratio > 1 + estimator.FAST_STATE_PCT / 100}
