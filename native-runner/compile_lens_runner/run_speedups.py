"""The speedups of a target run once every mode is timed: eager is timed alone and again in every mode's pairs, so
each mode's speedup can use what the whole run saw of the host (estimator.py says why).

On CUDA, an eager that leaves the GPU idle most of the time runs at the speed the host CPU has at that moment, and a
host may spend seconds at a time slow. Every eager round carries a CPU probe (timing.cpu_probe), so against a
compiled side the host CPU does not limit (CUDA graphs, a busy GPU) eager is taken at the CPU's fastest state over
all its rounds of the run (estimator.cpu_normalized), else at its fastest round of the run (estimator.run_eager). A
compiled side the host CPU limits stays paired with the eager rounds beside it.
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
    """Rewrites each measured mode's speedup, interval (runEager says how) and break-even calls in place."""
    eager = report["eager"]
    timings = [t for t in [eager["timing"]] + [m.get("eagerTiming") for m in report["modes"]] if t and "estimateMs" in t]
    if not timings:
        return
    pooled = [(r, p) for t in timings for r, p in zip(t["rounds"], t.get("cpuProbeMs") or [])]
    idle = eager.get("gpuIdlePct")
    cpu_bound = idle is not None and idle >= estimator.CPU_BOUND_IDLE_PCT and bool(pooled)
    normalized = estimator.cpu_normalized([r for r, _ in pooled], [p for _, p in pooled]) if cpu_bound else 0.0
    for mode in filter(_measured, report["modes"]):
        est = _estimate(mode)
        graphs = [g["status"] for g in (mode.get("compiler") or {}).get("cudaGraphs") or []]
        if not estimator.host_free(mode.get("gpuIdlePct"), graphs):
            continue
        shift = (estimator.adjusted(est, normalized, est.compiled_ms) if cpu_bound
                 else estimator.run_eager(est, min(t["estimateMs"] for t in timings), True))
        if not shift:
            continue
        interval = mode["speedupInterval"]
        mode["speedup"] = round(shift["speedup"], 4)
        # a host as slow as a typical round of these pairs gives their median ratio: the interval reaches it
        high = max(shift["high"], mode.get("speedupMedianRatio") or 0.0)
        interval.update(low=round(shift["low"], 4), high=round(high, 4))
        interval["runEager"] = {"eagerMs": shift["eagerMs"], "bestEagerMs": round(shift["bestEagerMs"], 6),
                                "compiledMs": round(shift["compiledMs"], 6), "basis": "cpu-normalized" if cpu_bound else "fastest-round"}
        if cpu_bound:
            interval["runEager"]["cpuProbeMinMs"] = round(min(p for _, p in pooled), 4)
        mode["breakEvenCalls"] = advice.break_even_calls(mode["compileSeconds"], shift["bestEagerMs"], shift["compiledMs"])
