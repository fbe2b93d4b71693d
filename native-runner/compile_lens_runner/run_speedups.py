"""The speedups of a target run once every mode is timed: eager is timed alone and again in every mode's pairs, so
each mode's speedup can use what the whole run saw of the host (estimator.py says why).

On CUDA, a launch-bound eager runs at the speed the host CPU has at that moment, and a host may spend seconds at a
time slow. Every eager round carries a CPU probe (timing.cpu_probe), so eager is read at the CPU's fastest state
over all its rounds (estimator.at_cpu); the compiled side too, from its own pairs, unless the host CPU does not limit
it (CUDA graphs: its fastest round). Otherwise (CPU runs, a GPU-bound eager) each mode keeps its paired fastest
rounds, taking eager's fastest round of the run when the compiled side is host-free.
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
    cpu_bound = eager.get("launchBound") is True and bool(pooled)
    fastest_probe = min(p for _, p in pooled) if cpu_bound else 0.0
    eager_at_cpu = estimator.at_cpu([r for r, _ in pooled], [p for _, p in pooled], fastest_probe) if cpu_bound else 0.0
    for mode in filter(_measured, report["modes"]):
        est = _estimate(mode)
        graphs = [g["status"] for g in (mode.get("compiler") or {}).get("cudaGraphs") or []]
        free = estimator.host_free(mode.get("gpuIdlePct"), graphs)
        if cpu_bound:
            compiled = est.compiled_ms if free else estimator.at_cpu(mode["timing"]["rounds"], mode["eagerTiming"].get("cpuProbeMs") or [], fastest_probe)
            shift: dict[str, float] | None = estimator.adjusted(est, eager_at_cpu, compiled)
        else:
            shift = estimator.run_eager(est, min(t["estimateMs"] for t in timings), free)
        if not shift:
            continue
        interval = mode["speedupInterval"]
        mode["speedup"] = round(shift["speedup"], 4)
        interval.update(low=round(shift["low"], 4), high=round(shift["high"], 4))
        interval["runEager"] = {"eagerMs": shift["eagerMs"], "bestEagerMs": round(shift["bestEagerMs"], 6),
                                "compiledMs": round(shift["compiledMs"], 6), "basis": "cpu-normalized" if cpu_bound else "fastest-round"}
        if cpu_bound:
            interval["runEager"]["cpuProbeMinMs"] = round(fastest_probe, 4)
        mode["breakEvenCalls"] = advice.break_even_calls(mode["compileSeconds"], shift["bestEagerMs"], shift["compiledMs"])
