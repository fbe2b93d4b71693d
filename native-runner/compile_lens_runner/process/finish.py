"""The report after the worker (or torchrun) has ended: what a cancel, a timeout, a crash or an out-of-memory kill
left, said in the report; then the folder is placed (placement.py) and the result line sent."""

from __future__ import annotations

import contextlib
import os
import signal
from typing import Any

from ..progress import channel
from ..report import document as report
from ..shapes.region import Region
from ..shapes.report import Report
from .placement import place

SPEC_FILE = ".runner-spec.json"
EXIT_OK, EXIT_ERROR, EXIT_CANCELLED = 0, 1, 130


def fallback_report(spec: dict[str, Any]) -> Report:
    """The report of a run whose worker wrote none."""
    device = spec["device"] if spec["device"] in ("cpu", "cuda") else "cpu"
    name = next(iter(spec["target"].values()))
    return report.skeleton(
        {
            "kind": "sample" if "sample" in spec["target"] else "script" if "script" in spec["target"] else "function",
            "name": str(name),
        },
        {k: spec[k] for k in ("modes", "dynamic", "fullgraph", "backend", "device", "quick")},
        report.environment(device, None),
    )


def stopped_text(data: Report) -> tuple[str, str]:
    """What a stopped run had finished, and how to get the rest, in the words of its kind of run: a target's modes,
    a script's run and its regions."""
    if data["target"].get("kind") != "script":
        finished = ", ".join(m["mode"] for m in data["modes"] if m["status"] == "ok")
        if not finished:
            return "no mode was measured.", "Run again; --quick or fewer modes make a run shorter."
        return f"finished modes: {finished}.", "Run again to measure the remaining modes."
    if not any(m["mode"] == "script" for m in data["modes"]):
        return (
            "it stopped while the script was running; nothing was measured.",
            "Run again; to stop a long script early and measure what it did so far, set compileLens.scriptCalls (the CLI's --calls).",
        )
    regions = data.get("regions") or []
    # a region has its number once a replay measured it or the script's own steps did (in situ: a cancel during the
    # replays that follow the script left "no region was measured yet" beside "measured before it: 1.51× per token")
    measured = [f"{r['id']} {r['name']}{how}" for r in regions if (how := _how_measured(r)) is not None]
    if not measured:
        return "the script had run; no region was measured yet.", "Run again to measure its regions."
    return (
        f"the script had run; measured regions: {', '.join(measured)}.",
        "Run again to measure the remaining regions."
        if len(measured) < len(regions)
        else "Run again to finish the profile.",
    )


def _how_measured(region: Region) -> str | None:
    """ "" for a region a replay measured, " (in situ)" for one only its own steps did, None for neither."""
    if any(m["status"] == "ok" for m in region.get("measurements") or []):
        return ""
    situ = region.get("inSitu")
    return " (in situ)" if situ and (situ.get("step") or situ.get("call")) else None


def finish(
    spec: dict[str, Any],
    workdir: str,
    out_dir: str,
    stopped: str | None,
    code: int,
    timeout: float | None,
    hang: str | None = None,
    straggler: str | None = None,
) -> int:
    """hang: for a torchrun job stopped by --timeout or for a straggler, where its ranks were
    (rank_stacks.hang_sentence); straggler: which rank ran on long after the others finished (launch.Stragglers)."""
    path = os.path.join(workdir, "report.json")
    data = report.read_report(path) or fallback_report(spec)
    finished, rest = stopped_text(data)
    if straggler is not None:  # the job's report is what its ranks wrote: partial, with where the straggler waited
        where = f" Where the ranks were: {hang}" if hang else ""
        data["error"] = {
            "kind": "timeout",
            "message": f"A rank ran on long after the others: {straggler}.{where}",
            "fix": (
                "Every rank must run the same collectives in the same order: look for a rank-dependent "
                "branch, early exit or exception before the line named."
            ),
            "traceback": None,
        }
        data["status"] = "partial"
        report.write(path, data)
        code = EXIT_OK
    if stopped == "cancelled":
        data["error"] = {
            "kind": "cancelled",
            "message": f"The run was cancelled; {finished}",
            "fix": rest,
            "traceback": None,
        }
        data["status"] = "partial"
        exit_code = EXIT_CANCELLED
    elif stopped == "timeout":
        fix = (
            "Raise --timeout, or set --calls to stop the script after a region's Nth call."
            if data["target"].get("kind") == "script"
            else "Raise --timeout, choose fewer modes, use --quick, or profile a smaller input."
        )
        if hang:  # a torchrun job: where its ranks were
            fix = (
                "Every rank must run the same collectives in the same order: look for a rank-dependent branch, early "
                "exit or exception before the line named; if the job was only slow, raise --timeout."
            )
        where = f" Where the ranks were: {hang}" if hang else ""
        data["error"] = {
            "kind": "timeout",
            "message": f"The run exceeded --timeout {timeout:g} s; {finished}{where}",
            "fix": fix,
            "traceback": None,
        }
        data["status"] = "error"
        exit_code = EXIT_ERROR
    elif code not in (EXIT_OK, EXIT_ERROR) or report.read(path) is None:
        oom = code == -signal.SIGKILL
        what = (
            "was killed (SIGKILL), most likely by the system running out of memory,"
            if oom
            else f"was killed by signal {-code}"
            if code < 0
            else f"exited with code {code}"
        )
        data["error"] = {
            "kind": "out-of-memory" if oom else "internal",
            "message": f"The runner's worker process {what} before finishing the report.",
            "fix": "If the machine ran out of memory, use a smaller input; otherwise run again and report the stderr log.",
            "traceback": None,
        }
        data["status"] = "error"
        exit_code = EXIT_ERROR
    else:
        exit_code = EXIT_ERROR if data["status"] == "error" else EXIT_OK
    report.write(path, data)
    # the spec, and a checkpoint the worker was killed while writing, are not part of the report
    for leftover in [SPEC_FILE, *(n for n in os.listdir(workdir) if n.startswith("report.json.tmp-"))]:
        with contextlib.suppress(OSError):
            os.remove(os.path.join(workdir, leftover))
    placed = place(workdir, out_dir, failed=data["status"] == "error" or stopped is not None)
    channel.progress("done", 1.0, f"Report: {placed}")
    channel.result(data["status"], os.path.join(placed, "report.json"))
    return exit_code
