"""Why, per step (pure; tested on written traces): what the device did in a step of the script's own, both ways, from
the trace of each side's profiled window in the interleaved run (script/interleave.py), set beside the steady wall
step of the same side.

On a GPU the work is the GPU's: the time it was busy (the union of its kernels, copies and fills) and how many it ran,
per step. The rest of the wall step is the GPU waiting on the CPU, which launches the kernels: a step whose GPU sat
idle LAUNCH_BOUND_IDLE_PCT of it or more is launch-bound. On a CPU there is no separate device: the work is the time
in the step's outermost compute ops (ATen ops, and a compiled graph's call, which counts as one op: Inductor's C++
kernels are not named in a trace unless compiled to record themselves), the rest is Python and PyTorch's own work between ops.
"""

from __future__ import annotations

import json
from typing import Any, TypedDict

from ..shapes.in_situ import InSituSpeedup, StepWorkSide
from .profiling import LAUNCH_BOUND_IDLE_PCT, union_us

_DEVICE = ("kernel", "gpu_memcpy", "gpu_memset")
_CPU_WORK = ("aten::", "## Call CompiledFxGraph", "cpp_fused", "graph_")


def _cpu_work(name: str) -> bool:
    return name.startswith(_CPU_WORK)


def read_trace(path: str) -> list[dict[str, Any]]:
    with open(path, encoding="utf-8") as f:
        events = json.load(f).get("traceEvents", [])
    return [e for e in events if e.get("ph") == "X" and isinstance(e.get("ts"), (int, float))]


def _step_of(name: str) -> int:
    return int(name.split("#", 1)[1])


class SideWork(TypedDict):
    """What one side's trace shows, under a step-work side's keys (test_report_shapes.py: they are StepWorkSide's)."""

    device: str
    steps: int
    workMsPerStep: float
    kernelsPerStep: float
    profiledStepMs: float


class Sides(TypedDict):
    """A region's step work but its line (report/step_work_text.py says it), under a step work's keys
    (test_report_shapes.py: they are StepWork's)."""

    eager: StepWorkSide
    compiled: StepWorkSide


def side_work(events: list[dict[str, Any]], left_out: set[int] | None = None) -> SideWork | None:
    """{device, steps, workMsPerStep, kernelsPerStep, profiledStepMs} over the trace's ProfilerStep#N spans (it holds
    only the window's recorded steps) but those in left_out (a step that compiled, or ran on the other side). A
    kernel belongs to the step its launch ran in (the GPU runs it later); a CPU op to the step it started in. None
    without a step to count."""
    # the CPU's step spans (on a GPU the trace repeats each on the GPU's timeline, as gpu_user_annotation)
    spans = sorted(
        (float(e["ts"]), float(e["ts"]) + float(e.get("dur") or 0), _step_of(str(e["name"])))
        for e in events
        if e.get("cat") == "user_annotation" and str(e.get("name", "")).startswith("ProfilerStep#")
    )
    kept = [(a, b, n) for a, b, n in spans if n not in (left_out or set())]
    if not kept:
        return None

    def step_at(ts: float) -> int | None:
        return next((n for a, b, n in kept if a <= ts < b), None)

    launches = {
        (e.get("args") or {}).get("correlation"): float(e["ts"])
        for e in events
        if e.get("cat") in ("cuda_runtime", "cuda_driver") and "correlation" in (e.get("args") or {})
    }
    device = [e for e in events if e.get("cat") in _DEVICE]
    per: dict[int, list[tuple[float, float]]] = {n: [] for _, _, n in kept}
    if device:
        kind = "cuda"
        for e in device:
            n = step_at(launches.get((e.get("args") or {}).get("correlation"), float(e["ts"])))
            if n is not None:
                per[n].append((float(e["ts"]), float(e["ts"]) + float(e.get("dur") or 0)))
        work_us = sum(union_us(v) for v in per.values())
    else:
        kind = "cpu"
        for e in _outermost([e for e in events if e.get("cat") == "cpu_op" and _cpu_work(str(e.get("name", "")))]):
            n = step_at(float(e["ts"]))
            if n is not None:
                per[n].append((float(e["ts"]), float(e["ts"]) + float(e.get("dur") or 0)))
        work_us = sum(b - a for v in per.values() for a, b in v)
    count = sum(len(v) for v in per.values())
    n = len(kept)
    return {
        "device": kind,
        "steps": n,
        "workMsPerStep": round(work_us / 1000 / n, 4),
        "kernelsPerStep": round(count / n, 2),
        "profiledStepMs": round(sum(b - a for a, b, _ in kept) / 1000 / n, 4),
    }


def _outermost(ops: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The ops not inside another of them on the same thread (an ATen op a compiled graph or another op called)."""
    out: list[dict[str, Any]] = []
    ends: dict[tuple[Any, Any], float] = {}
    for e in sorted(ops, key=lambda e: (float(e["ts"]), -float(e.get("dur") or 0))):
        thread, start = (e.get("pid"), e.get("tid")), float(e["ts"])
        if start < ends.get(thread, float("-inf")):
            continue
        ends[thread] = start + float(e.get("dur") or 0)
        out.append(e)
    return out


def _against_wall(work: SideWork, wall: float | None) -> StepWorkSide:
    """The side's work set against its wall step: the steady one on a GPU, whose kernel times the profiler leaves
    alone; the profiled steps' own on a CPU (or without a steady step), where the profiler's overhead is in every op
    and an op time beside the unprofiled step read 87 ms of ops in a 0.64 ms step."""
    wall_ms, wall_from = (
        (wall, "steady steps") if wall and work["device"] == "cuda" else (work["profiledStepMs"], "profiled steps")
    )
    busy = round(min(100.0, 100.0 * work["workMsPerStep"] / wall_ms), 1) if wall_ms else None
    return {
        **work,
        "wallMs": wall_ms,
        "wallFrom": wall_from,
        "busyPct": busy,
        "launchBound": work["device"] == "cuda" and busy is not None and busy <= 100.0 - LAUNCH_BOUND_IDLE_PCT,
    }


def compare(eager: SideWork | None, compiled: SideWork | None, step: InSituSpeedup | None) -> Sides | None:
    """The region's `inSitu.work` but its line (report/step_work_text.py says it): each side's work, its busy share of
    the side's steady wall step on a GPU (step: inSitu.step; without one, and on a CPU, of the profiled steps' own
    wall time, which carries the profiler's overhead), and whether it was launch-bound. None unless both sides have a
    recorded step."""
    if eager is None or compiled is None:
        return None
    return {
        "eager": _against_wall(eager, step["eagerMs"] if step else None),
        "compiled": _against_wall(compiled, step["compiledMs"] if step else None),
    }
