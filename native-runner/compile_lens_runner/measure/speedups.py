"""The speedups once every measurement that shares one eager is timed (a target's modes; a script region's
measurements on one signature): eager is timed again in each one's pairs, so each speedup can use what the whole
run saw of the host (estimator.py says why). Targets and regions go through the same adjustments.

On CUDA, an eager that leaves the GPU idle most of the time runs at the speed the host CPU has at that moment, and a
host may spend seconds at a time slow. Against a compiled side the host CPU does not limit (CUDA graphs, a busy GPU)
eager is taken at its fastest round of the run (estimator.run_eager); a compiled side the host CPU limits stays paired
with the eager rounds beside it. A side that never ran while the host was at its fastest state of the run widens the
interval towards what that state could give (estimator.widened_for_slow_host).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..shapes.common import SlowSides, Timing
from ..shapes.mode import ModeResult
from ..shapes.report import Eager
from . import estimator, ranges


def break_even_calls(compile_s: float | None, eager_ms: float | None, compiled_ms: float | None) -> float | None:
    """Calls after which the compile time is paid back; None when compiled is not faster."""
    if compile_s is None or eager_ms is None or compiled_ms is None or compiled_ms >= eager_ms:
        return None
    return round(compile_s * 1000.0 / (eager_ms - compiled_ms), 1)


def _estimate(mode: ModeResult) -> estimator.Estimate:
    interval, speedup, eager, compiled = mode["speedupInterval"], mode["speedup"], mode["eagerTiming"], mode["timing"]
    assert speedup is not None and eager is not None and compiled is not None  # _paired
    return estimator.Estimate(
        speedup=speedup,
        eager_ms=eager["estimateMs"],
        compiled_ms=compiled["estimateMs"],
        low=interval["low"],
        high=interval["high"],
        floor_pct=interval["floorPct"],
        noisy_sides=tuple(interval["noisySides"]),
        median_ratio=mode.get("speedupMedianRatio") or 0.0,
    )


def _paired(mode: ModeResult) -> bool:
    """It holds the paired timings the adjustments work on (whether its number may be said: report/answer.py)."""
    return bool(
        mode.get("speedupInterval")
        and mode.get("eagerTiming")
        and mode.get("timing")
        and mode.get("speedup") is not None
    )


def adjust(
    entries: Sequence[ModeResult], eager: Eager, fastest_probe: float | None = None, on_cpu: bool = False
) -> None:
    """Rewrites each measured entry's speedup, interval (runEager and slowHost say how) and break-even calls in place.

    entries: measurements that share one eager: a target's modes, or a script region's measurements on one signature;
    eager: what is known of that eager alone ("timing" when it was timed alone, "launchBound", "gpuIdlePct");
    fastest_probe: the host's fastest state of the run (default: the fastest CPU probe among these timings);
    on_cpu: measured on a CPU, whose host moves between processes (estimator.cpu_floor_pct); else on a GPU, where a
    short call moved between processes too (estimator.gpu_floor_pct)."""
    # Eager from the entries' pairs only: eager alone ran before anything was compiled or profiled, and a process that has
    # not loaded the compiler yet ran eager faster (docs/BENCHMARKS.md), so taking it would mix two process states.
    timings = [t for t in (m.get("eagerTiming") for m in entries) if t and "estimateMs" in t]
    if not timings:
        return
    if fastest_probe is None:
        fastest_probe = min(
            (
                p
                for t in [eager["timing"], *timings, *(m["timing"] for m in entries)]
                if t
                for p in t.get("cpuProbeMs") or []
            ),
            default=0.0,
        )
    pooled_probes = [p for t in timings for p in t.get("cpuProbeMs") or []]
    for entry in filter(_paired, entries):
        est = _estimate(entry)
        free = compiled_host_free(entry)
        shift = estimator.run_eager(est, min(t["estimateMs"] for t in timings)) if free else None
        interval = entry["speedupInterval"]
        if shift:
            entry["speedup"] = round(shift["speedup"], 4)
            interval.update({"low": round(shift["low"], 4), "high": round(shift["high"], 4)})
            interval["runEager"] = {
                "eagerMs": shift["eagerMs"],
                "bestEagerMs": round(shift["bestEagerMs"], 6),
                "compiledMs": round(shift["compiledMs"], 6),
                "basis": "fastest-round",
            }
            entry["breakEvenCalls"] = break_even_calls(
                entry["compileSeconds"], shift["bestEagerMs"], shift["compiledMs"]
            )
        if eager.get("launchBound"):
            widen_to_floor(entry, estimator.launch_bound_floor_pct(eager.get("gpuIdlePct") or 0.0))
        if on_cpu:
            widen_to_floor(entry, estimator.cpu_floor_pct())
        else:
            widen_to_floor(entry, estimator.gpu_floor_pct(*_side_ms(entry)))
        widen_for_slow_host(entry, fastest_probe, pooled_probes if shift else None, free)


def _side_ms(entry: ModeResult) -> tuple[float, float]:
    """(eager, compiled) ms per call of a measured entry, as its speedup takes them."""
    eager, compiled = entry.get("eagerTiming"), entry.get("timing")
    assert eager is not None and compiled is not None  # _paired

    def ms(t: Timing) -> float:
        return float(t["estimateMs"] if "estimateMs" in t else t["medianMs"])

    return ms(eager), ms(compiled)


def widen_to_floor(entry: ModeResult, floor_pct: float) -> None:
    interval, speedup = entry["speedupInterval"], entry["speedup"]
    if interval["floorPct"] >= floor_pct or speedup is None:  # an interval has a speedup
        return
    low, high = ranges.floored(speedup, interval["low"], interval["high"], floor_pct)
    interval.update({"low": round(low, 4), "high": round(high, 4), "floorPct": floor_pct})


def compiled_host_free(entry: ModeResult) -> bool:
    insight = entry.get("compiler")
    graphs = [g["status"] for g in (insight.get("cudaGraphs") if insight else None) or []]
    return estimator.host_free(entry.get("gpuIdlePct"), graphs)


def widen_for_slow_host(
    entry: ModeResult, fastest_probe: float, eager_probes: list[float] | None = None, host_free: bool | None = None
) -> None:
    """Widens a measured entry's interval in place (and says so in slowHost) where a side never ran at the host's
    fastest state of the run; eager_probes: the probes of the eager rounds the speedup took (default: its pairs')."""
    if not _paired(entry):
        return
    interval, speedup, eager, compiled = (
        entry["speedupInterval"],
        entry["speedup"],
        entry["eagerTiming"],
        entry["timing"],
    )
    assert speedup is not None and eager is not None and compiled is not None  # _paired
    free = compiled_host_free(entry) if host_free is None else host_free
    eager_ratio = estimator.slow_host_ratio(
        eager.get("cpuProbeMs") or [] if eager_probes is None else eager_probes, fastest_probe
    )
    compiled_ratio = 1.0 if free else estimator.slow_host_ratio(compiled.get("cpuProbeMs") or [], fastest_probe)
    low, high = estimator.widened_for_slow_host(speedup, interval["low"], interval["high"], eager_ratio, compiled_ratio)
    if (low, high) != (interval["low"], interval["high"]):
        interval.update({"low": round(low, 4), "high": round(high, 4)})
        slow: SlowSides = {}
        if eager_ratio > 1 + estimator.FAST_STATE_PCT / 100:
            slow["eager"] = round(eager_ratio, 3)
        if compiled_ratio > 1 + estimator.FAST_STATE_PCT / 100:
            slow["compiled"] = round(compiled_ratio, 3)
        interval["slowHost"] = slow
