"""torch.profiler Chrome traces of a few marked steps, kernels per step and peak memory."""

from __future__ import annotations

import bisect
import json
from collections.abc import Callable
from typing import Any, TypedDict

from .compared_steps import compared_steps

PROFILED_STEPS = 3  # steps each profile records, after one unrecorded warmup step
# On CPU Inductor names its C++ kernels in a profiler trace only when they are compiled to record themselves, which
# adds a record-function handle to every kernel call: only a copy compiled for the profile gets it (kernel_profiled).
KERNEL_PROFILE_OPTION = "cpp.enable_kernel_profile"
LAUNCH_BOUND_IDLE_PCT = 30.0  # eager leaving the GPU idle this share of a step or more is launch-bound

# Wrapper events that contain real work but are not work themselves (CPU kernel counting skips them).
_CPU_WRAPPERS = (
    "ProfilerStep",
    "Torch-Compiled Region",
    "## Call CompiledFxGraph",
    "TorchDynamo Cache Lookup",
    "Pregraph bytecode",
    "AOTDispatcher",
    "CompiledFunction",
)


def _is_cpu_kernel(name: str) -> bool:
    """An outermost ATen op (eager work, or an extern kernel Inductor calls) or an Inductor C++ kernel."""
    if name.startswith(_CPU_WRAPPERS):
        return False
    return name.startswith(("aten::", "graph_")) or "cpp_fused" in name


def kernel_profiled(device: str, backend: Any) -> bool:
    """Whether a profile needs its own compile to name each kernel: Inductor's C++ kernels on CPU."""
    return device == "cpu" and backend == "inductor"


def profiled_options(mode: str | None, dynamic: bool | None) -> dict[str, Any]:
    """torch.compile options for the profile's copy: the mode's own Inductor options, each kernel recording itself
    (torch.compile takes a mode or options, not both)."""
    from torch._inductor import list_mode_options

    return {**list_mode_options(mode, dynamic), KERNEL_PROFILE_OPTION: True}


def count_kernels(events: Any, device: str) -> int:
    """CUDA: device kernels (and memcpy/memset) the profiler saw. CPU: outermost compute ops, see _is_cpu_kernel."""
    if device == "cuda":
        return sum(1 for e in events if getattr(e.device_type, "name", "") == "CUDA")
    count = 0
    for e in events:
        if getattr(e.device_type, "name", "") != "CPU" or not _is_cpu_kernel(e.name):
            continue
        parent = e.cpu_parent
        while parent is not None and not _is_cpu_kernel(parent.name):
            parent = parent.cpu_parent
        count += parent is None
    return count


def _cpu_peak_bytes(trace_path: str) -> int | None:
    with open(trace_path, encoding="utf-8") as f:
        events = json.load(f).get("traceEvents", [])
    totals = [
        e["args"]["Total Allocated"]
        for e in events
        if e.get("name") == "[memory]" and isinstance(e.get("args", {}).get("Total Allocated"), (int, float))
    ]
    return int(max(totals)) if totals else None


def union_us(intervals: list[tuple[float, float]]) -> float:
    total, end = 0.0, float("-inf")
    for start, stop in sorted(intervals):
        if stop <= end:
            continue
        total += stop - max(start, end)
        end = stop
    return total


def outside_graphs_ms(events: Any, steps: int) -> float | None:
    """Per profiled call, CPU time outside compiled graphs: eager code between graphs after a graph break, guard
    checks and Python glue. None when nothing compiled ran (eager)."""
    step_spans: list[tuple[float, float]] = [
        (e.time_range.start, e.time_range.end) for e in events if e.name.startswith("ProfilerStep")
    ]  # "ProfilerStep*" in events()
    regions: list[tuple[float, float]] = [
        (e.time_range.start, e.time_range.end) for e in events if e.name.startswith("Torch-Compiled Region")
    ]
    if not step_spans or not regions:
        return None
    inside = sum(union_us([(max(a, s), min(b, t)) for a, b in regions if a < t and b > s]) for s, t in step_spans)
    total = sum(t - s for s, t in step_spans)
    return round((total - inside) / 1000 / steps, 4)


_DEVICE_CATEGORIES = ("kernel", "gpu_memcpy", "gpu_memset")


def gpu_idle_pct(trace_events: list[dict[str, Any]]) -> float | None:
    """Share of time the GPU sat idle between a step's first kernel start and its last kernel end, over the profiled
    steps (the whole trace when it has no ProfilerStep spans), from the exported trace's events: device activities
    are what the GPU ran, on its own clock as the trace aligns it. A launch-bound model leaves the GPU waiting for the
    host CPU to issue the next kernel, so its speed depends on that CPU. None without device activity (CPU runs)."""
    spans = [
        (float(e["ts"]), float(e["ts"]) + float(e.get("dur") or 0))
        for e in trace_events
        if e.get("ph") == "X" and e.get("cat") in _DEVICE_CATEGORIES and "ts" in e
    ]
    if not spans:
        return None
    steps = [
        (float(e["ts"]), float(e["ts"]) + float(e.get("dur") or 0))
        for e in trace_events
        if e.get("ph") == "X"
        and e.get("cat") == "user_annotation"
        and str(e.get("name", "")).startswith("ProfilerStep")
    ]
    busy = span = 0.0
    for start, end in steps or [(min(a for a, _ in spans), max(b for _, b in spans) + 1)]:
        inside = [(a, b) for a, b in spans if start <= a < end]
        if inside:
            span += max(b for _, b in inside) - min(a for a, _ in inside)
            busy += union_us(inside)
    return round(max(0.0, 100.0 * (1.0 - busy / span)), 1) if span > 0 else None


class ProfileFacts(TypedDict, total=False):
    """What a profile found, under a mode's keys in the report (test_report_shapes.py: they are ModeResult's)."""

    kernelsPerStep: float | None
    outsideGraphsMsPerStep: float | None
    gpuIdlePct: float | None
    peakMemoryBytes: int | None


def profile_steps(step: Callable[[], None], device: str, trace_path: str, steps: int) -> ProfileFacts:
    """Profiles `steps` calls after one unrecorded warmup step; each call is a ProfilerStep#N in the trace."""
    import torch
    from torch.profiler import ProfilerActivity, profile, schedule

    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if device == "cuda" else [])
    facts: ProfileFacts = {}

    def on_ready(prof: Any) -> None:
        prof.export_chrome_trace(trace_path)
        facts["kernelsPerStep"] = round(count_kernels(prof.events(), device) / steps, 2)
        outside = outside_graphs_ms(prof.events(), steps)
        if outside is not None:
            facts["outsideGraphsMsPerStep"] = outside
        if device == "cuda":
            with open(trace_path, encoding="utf-8") as f:
                facts["gpuIdlePct"] = gpu_idle_pct(json.load(f).get("traceEvents", []))

    if device == "cuda":
        torch.cuda.synchronize()
        torch.cuda.reset_peak_memory_stats()
    with profile(
        activities=activities,
        schedule=schedule(wait=0, warmup=1, active=steps),
        on_trace_ready=on_ready,
        record_shapes=True,
        profile_memory=device == "cpu",
    ) as prof:
        for _ in range(steps + 1):
            step()
            if device == "cuda":
                torch.cuda.synchronize()
            prof.step()
    facts["peakMemoryBytes"] = (
        int(torch.cuda.max_memory_allocated()) if device == "cuda" else _cpu_peak_bytes(trace_path)
    )
    return facts


class KernelTimes(TypedDict):
    """Device kernels' µs per step (kernel_us_per_step); `steps`: the profiled steps they are the mean of, by the
    numbers their markers say (ProfilerStep#2 is step 2), None where the trace marks none (all of them, then)."""

    us: dict[tuple[str | None, str], float]
    steps: tuple[int, int] | None


def kernel_us_per_step(trace_path: str, steps: int) -> KernelTimes:
    """µs per profiled step of device kernels (CPU: of CPU ops; Inductor's C++ kernels are CPU ops) by (compile id, name),
    from a Chrome trace that holds only the `steps` profiled steps: the mean of the steps compared (compared_steps, the
    trace compare's rule: review 13O O2 read "0.943 µs/step" of every step on the hover, "0.891 µs/step" of steps 2–3
    in the compare, for one kernel), where the trace marks its steps; else of all of them. The compile id is that of the
    "Torch-Compiled Region: <id>" the op ran in (a kernel: where its launch ran), so equal kernel names of two compiles
    stay apart; None outside any region, or where torch does not name the id."""
    with open(trace_path, encoding="utf-8") as f:
        events = [
            e
            for e in json.load(f).get("traceEvents", [])
            if e.get("ph") == "X" and isinstance(e.get("ts"), (int, float))
        ]
    counted = compared_steps(events)

    def in_counted(ts: float) -> bool:
        return not counted or any(start <= ts < end for _, start, end in counted)

    regions: dict[tuple[Any, Any], list[tuple[float, float, str]]] = {}
    launches: dict[Any, tuple[Any, Any, float]] = {}
    for e in events:
        if e.get("name", "").startswith("Torch-Compiled Region: "):
            regions.setdefault((e.get("pid"), e.get("tid")), []).append(
                (e["ts"], e["ts"] + e.get("dur", 0), e["name"].split(": ", 1)[1])
            )
        elif e.get("cat") in ("cuda_runtime", "cuda_driver") and "correlation" in (e.get("args") or {}):
            launches[e["args"]["correlation"]] = (e.get("pid"), e.get("tid"), e["ts"])
    for spans in regions.values():
        spans.sort()

    def region_at(thread: tuple[Any, Any], ts: float) -> str | None:
        spans = regions.get(thread, [])
        at = bisect.bisect_right(spans, (ts, float("inf"), "")) - 1
        return spans[at][2] if at >= 0 and spans[at][1] >= ts else None

    # on a GPU the time is the device kernel's (a Triton kernel's launch is also a CPU op of the same name)
    timed = "kernel" if any(e.get("cat") == "kernel" for e in events) else "cpu_op"
    totals: dict[tuple[str | None, str], float] = {}
    for e in events:
        if e.get("cat") != timed:
            continue
        if timed == "kernel":  # a kernel by its launch: its region, and its step
            launch = launches.get((e.get("args") or {}).get("correlation"))
            at = launch[2] if launch else e["ts"]
            where = region_at((launch[0], launch[1]), launch[2]) if launch else None
        else:
            at, where = e["ts"], region_at((e.get("pid"), e.get("tid")), e["ts"])
        if not in_counted(at):
            continue
        key = (where, e["name"])
        totals[key] = totals.get(key, 0.0) + float(e.get("dur", 0))
    per = len(counted) or steps
    return {
        "us": {key: us / max(per, 1) for key, us in totals.items()},
        "steps": (counted[0][0], counted[-1][0]) if counted else None,
    }
