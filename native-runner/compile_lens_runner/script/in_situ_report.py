"""The in-situ measurement in the observed run's report: per region `inSitu` (the script's own calls and steps compiled
against eager), and for the script `report["inSitu"]`.

Interleaved (torch >= 2.6, measure/interleaved.py): the observed run itself switched the stance between blocks of
its calls; each region's result is made once, here, from the calls the report already carries. Separate runs
(torch < 2.6: no set_stance; process/in_situ.py, in_situ_run.py): the runs, their order, the whole script's wall
time both ways, what-if modes run in situ (measure/in_situ.py)."""

from __future__ import annotations

import os
from typing import Any

from ..compiler.insight import CUDAGRAPH_MODES
from ..measure import in_situ, interleaved, step_work
from ..report import document
from ..shapes.common import InSituWindow
from ..shapes.in_situ import CompileFailure, InSituRun, RegionInSitu, WhatIf
from ..shapes.region import Region, RegionCall
from ..shapes.report import Report

FOLDER = "in_situ"


def _read(folder: str, name: str) -> dict[str, Any] | None:
    """An in-situ run's timings file (in_situ_run.py), or its plan: the runner's own files, no part of the report."""
    data = document.read(os.path.join(folder, name))
    return data if isinstance(data, dict) else None


def _run_json(name: str, data: dict[str, Any] | None, folder: str) -> InSituRun:
    side, _, rest = name.removesuffix(".json").partition("-")
    pair, _, mode = rest.partition("-")
    if data is None:
        return {
            "file": None,
            "side": side,
            "pair": int(pair),
            "mode": mode or None,
            "status": "error",
            "wallSeconds": None,
            "error": {
                "kind": "internal",
                "message": "The run ended without writing its timings (killed or crashed).",
                "fix": "See the runner's stderr log.",
                "traceback": None,
            },
            "switch": None,
            "scriptExitCode": None,
        }
    outcome = data.get("outcome") or {}
    run: InSituRun = {
        "file": os.path.join(FOLDER, name),
        "side": side,
        "pair": int(pair),
        "mode": mode or None,
        "status": outcome.get("status", "error"),
        "wallSeconds": data.get("wallSeconds"),
        "error": outcome.get("error"),
        "switch": data.get("switch"),
        "scriptExitCode": outcome.get("scriptExitCode"),
    }
    return run


def _what_if(region: Region, mode_runs: dict[str, dict[str, Any]], eager: dict[str, Any] | None) -> list[WhatIf]:
    out: list[WhatIf] = []
    for mode, run in mode_runs.items():
        mine, base = in_situ.region_in(run, region), in_situ.region_in(eager or {}, region)
        if mine is None or base is None:
            continue
        result = in_situ.compare([in_situ.calls_of(mine)], [in_situ.calls_of(base)])
        out.append(
            {
                "mode": mode,
                "step": result.get("step"),
                "call": result.get("call"),
                "compileSeconds": result.get("compileSeconds"),
                "breakEvenSteps": result.get("breakEvenSteps"),
                "reason": result.get("reason"),
                "failure": mine.get("failure"),
            }
        )
    return out


def _per_rank(compiled: list[dict[str, Any]], eager: list[dict[str, Any]]) -> list[dict[str, RegionInSitu]]:
    """For a torchrun job's runs (each holds its ranks' own runs): compare_runs per rank."""
    if not compiled or not all(doc.get("ranks") for doc in compiled + eager):
        return []
    world = min(len(doc["ranks"]) for doc in compiled + eager)
    return [
        in_situ.compare_runs([doc["ranks"][k] for doc in compiled], [doc["ranks"][k] for doc in eager])
        for k in range(world)
    ]


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


def _compared(entry: Region, calls: list[RegionCall]) -> RegionInSitu:
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
    return interleaved.compare(calls, int(entry.get("callCount") or len(calls)), fallback, records_per_size)


def slowest_rank(entry: Region, ranks: list[tuple[int, Region]]) -> None:
    """A torchrun job's region (its headline rank's entry, interleaved): its step becomes the slowest rank's, call by
    call (interleaved.slowest_calls), each rank's own step under `ranks`; `work` stays the headline rank's window."""
    own = entry.get("inSitu")
    if own is None or own.get("method") != interleaved.METHOD or len(ranks) < 2:
        return
    merged = interleaved.slowest_calls([r.get("calls") or [] for _, r in ranks])
    entry["inSitu"] = {
        **own,
        **_compared(entry, merged),
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
        result = _compared(entry, calls)
        work = (
            step_work.compare(
                _side_work("eager", windows["eager"], entry),
                _side_work("compiled", windows["compiled"], entry),
                result["step"],
            )
            if windows
            else None
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


def attach(report: Report, folder: str | None, skipped: str = "the in-situ runs were not made (--no-in-situ)") -> None:
    """Puts what the separate in-situ runs in `folder` measured into the report (its regions already built)."""
    if folder is None or not os.path.isdir(folder):
        report["inSitu"] = {
            "pairs": 0,
            "runs": [],
            "order": [],
            "repeatedBecause": None,
            "wallSeconds": None,
            "skipped": skipped,
        }
        return
    plan = _read(folder, "plan.json") or {}
    names = sorted(
        n for n in os.listdir(folder) if n.endswith(".json") and n != "plan.json" and not n.endswith(".spec.json")
    )
    expected = [f"{label}.json" for label in plan.get("order") or []]
    runs = {n: _read(folder, n) for n in dict.fromkeys(expected + names)}
    pairs = sorted({int(n.split("-")[1].removesuffix(".json")) for n in runs if n.count("-") == 1})
    complete = [k for k in pairs if runs.get(f"compiled-{k}.json") and runs.get(f"eager-{k}.json")]
    compiled = [runs[f"compiled-{k}.json"] or {} for k in complete]
    eager = [runs[f"eager-{k}.json"] or {} for k in complete]
    modes = {n.removesuffix(".json").split("-", 2)[2]: data for n, data in runs.items() if n.count("-") >= 2 and data}
    results = in_situ.compare_runs(compiled, eager)
    per_rank = _per_rank(compiled, eager)
    for entry in report.get("regions") or []:
        source = in_situ.region_in(compiled[0], entry) if compiled else None
        if source is None:
            entry["inSitu"] = None
            continue
        result: RegionInSitu = results.get(source["id"]) or {"pairs": 0, "reason": "the eager run made no call of it"}
        situ: RegionInSitu = {
            **result,
            "method": "separate-runs",
            "failure": source.get("failure"),
            "whatIf": _what_if(entry, modes, eager[0] if eager else None),
        }
        if per_rank:  # a torchrun job: its step is its slowest rank's (above); each rank's own, compared on its own
            situ["ranks"] = [
                {"rank": k, "step": own.get("step") if (own := results_k.get(source["id"])) else None}
                for k, results_k in enumerate(per_rank)
            ]
        entry["inSitu"] = situ
    wall = {
        side: [
            r["wallSeconds"]
            for r in (runs[f"{side}-{k}.json"] for k in complete)
            if r and r.get("wallSeconds") is not None
        ]
        for side in ("compiled", "eager")
    }
    report["inSitu"] = {
        "method": "separate-runs",
        "pairs": len(complete),
        "order": plan.get("order") or [],
        "repeatedBecause": plan.get("repeatedBecause"),
        "stoppedBecause": plan.get("stoppedBecause"),
        "runs": [_run_json(n, data, folder) for n, data in runs.items()],
        "wallSeconds": wall if complete else None,
        "skipped": None,
    }
