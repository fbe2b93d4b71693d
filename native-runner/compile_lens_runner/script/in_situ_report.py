"""The in-situ measurement in the observed run's report: per region `inSitu` (the script's own calls and steps compiled
against eager), and for the script `report["inSitu"]`.

The observed run itself switched the stance between blocks of its calls (measure/interleaved.py); each region's
result is made once, here, from the calls the report already carries. A torch without torch.compiler.set_stance
(before 2.6) has no in-situ number: the report says why, and each region's answer rests on its replay."""

from __future__ import annotations

import os
from typing import Any

from ..measure import interleaved, rank_calls, step_work
from ..report import step_work_text
from ..shapes.common import InSituWindow
from ..shapes.in_situ import CompileFailure, RegionInSitu, StepWork
from ..shapes.mode import CUDAGRAPH_MODES
from ..shapes.region import Region, RegionCall
from ..shapes.report import Report


def _side_work(side: str, window: InSituWindow, entry: Region) -> step_work.SideWork | None:
    """The side's work per step if its window's steps were this region's. Step N of the window begins at the region's
    call fromCall + N; a step whose call ran on the other side (a new signature runs compiled first) or compiled is
    left out."""
    trace = window.get("trace")
    if window.get("region") != entry["id"] or not trace:
        return None
    calls = {c["index"]: c for c in entry.get("calls") or []}
    left_out = set()
    for n in range(1, int(window.get("steps") or 0) + 1):
        c = calls.get(int(window["fromCall"] or 0) + n)  # a window that recorded steps opened at a call
        if c is None or c.get("side") != side or c.get("compileIds") or c.get("stepCompiles"):
            left_out.add(n)
    return step_work.side_work(step_work.read_trace(trace), left_out)


def compared(entry: Region, calls: list[RegionCall]) -> RegionInSitu:
    fallback = next(
        (
            reason
            for c in entry.get("calls") or []
            if c.get("side") == "compiled" and (reason := c.get("fallbackReason"))
        ),
        None,
    )
    # under CUDA graphs each new size records a graph of its own: a compiled call's first at a size is no steady step
    options = entry.get("options") or {}
    records_per_size = entry.get("device") == "cuda" and options.get("mode") in CUDAGRAPH_MODES
    made = int(entry.get("callCount") or len(calls))
    return interleaved.compare(calls, made, fallback, records_per_size, entry.get("device") == "cpu")


def slowest_rank(entry: Region, ranks: list[tuple[int, Region]]) -> None:
    """A torchrun job's region (its headline rank's entry, interleaved): its step becomes the slowest rank's, call by
    call (rank_calls.slowest_calls), each rank's own step under `ranks`; `work` stays the headline rank's window."""
    own = entry.get("inSitu")
    if own is None or own.get("method") != interleaved.METHOD or len(ranks) < 2:
        return
    each = [r.get("calls") or [] for _, r in ranks]
    result = compared(entry, rank_calls.slowest_calls(each))
    # whose step each point is: the step chart beside the headline rank's call chart (review 3B M2)
    slowest = rank_calls.slowest_ranks(each)
    by_index = [{c["index"]: c for c in calls} for calls in each]
    for point in result.get("stepPoints") or []:
        point["rank"] = ranks[slowest[point["index"]]][0]
        # a rank that waited on another's compile has the step's time, the one that compiled its compile mark
        compiled = [
            k for (k, _), own in zip(ranks, by_index, strict=True) if (own[point["index"]].get("stepCompiles") or 0) > 0
        ]
        if compiled:
            point["compiledOn"] = compiled
    entry["inSitu"] = {
        **own,
        **result,
        "slowestRank": True,
        "ranks": [{"rank": k, "step": situ.get("step") if (situ := r.get("inSitu")) else None} for k, r in ranks],
    }


def attach_interleaved(
    report: Report,
    schedule: dict[str, Any],
    failures: dict[str, CompileFailure | None],
    windows: dict[str, InSituWindow],
    workdir: str,
) -> None:
    """Each region's in-situ result from its own calls in this run (interleaved), and the schedule they ran in.
    failures: per region id, its compiled call that failed (or None); windows: per side, its profiled window
    (Interleaver.profile_json): the region whose steps both windows profiled gets `work`."""
    for entry in report.get("regions") or []:
        calls = entry.get("calls") or []
        result = compared(entry, calls)
        sides = (
            step_work.compare(
                _side_work("eager", windows["eager"], entry),
                _side_work("compiled", windows["compiled"], entry),
                result["step"],
            )
            if windows
            else None
        )
        work: StepWork | None = (
            {**sides, "text": step_work_text.text(sides, result["step"])} if sides is not None else None
        )
        situ: RegionInSitu = {**result, "work": work, "failure": failures.get(entry["id"]), "whatIf": []}
        if schedule.get("hostLoad"):
            situ["hostLoad"] = schedule["hostLoad"]
        entry["inSitu"] = situ
    shown: dict[str, InSituWindow] = {
        side: {**w, "trace": os.path.relpath(trace, workdir) if (trace := w.get("trace")) else None}
        for side, w in windows.items()
    }
    report["inSitu"] = {
        "method": interleaved.METHOD,
        "pairs": 0,
        "runs": [],
        "order": [],
        "repeatedBecause": None,
        "stoppedBecause": schedule.get("stoppedBecause"),
        "wallSeconds": None,
        "skipped": None,
        "schedule": schedule,
        "windows": shown or None,
    }


def skipped(report: Report, why: str) -> None:
    """No in-situ measurement in this run (--no-in-situ, or a torch without set_stance): why."""
    report["inSitu"] = {
        "pairs": 0,
        "runs": [],
        "order": [],
        "repeatedBecause": None,
        "wallSeconds": None,
        "skipped": why,
    }
