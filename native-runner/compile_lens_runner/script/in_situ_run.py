"""One in-situ run of the script (a worker process the supervisor starts, process/in_situ.py): the unmodified script
as written (side "compiled", or with every torch.compile of it set to a what-if mode), or with compiling turned off
by PyTorch's own switch (side "eager": torch.compiler.set_stance("force_eager"), set before the script runs; its
torch.compile calls still return their usual objects, which run eagerly). Same argv, environment and seeds.

Nothing else runs in it: no compiler log (TORCH_TRACE is not set), no replay, no input capture, no state check,
no profiler. The light recorder (in_situ_recorder.py) times the regions' calls; what it writes is read by
in_situ_report.py into the observed run's report.
"""

from __future__ import annotations

import json
import os
import time
from typing import Any

from ..compiler.failure import headline
from ..run import import_torch
from .in_situ_recorder import LightRecorder
from .mode import execute, script_environment
from .notebook import convert


def _turn_compiling_off(torch: Any) -> str:
    """PyTorch's own switch; returns how it was turned off, for the report."""
    set_stance = getattr(getattr(torch, "compiler", None), "set_stance", None)
    if set_stance is not None:
        set_stance("force_eager")
        return 'torch.compiler.set_stance("force_eager")'
    torch._dynamo.config.disable = True  # torch < 2.6
    return "torch._dynamo.config.disable = True"


def main(spec: dict[str, Any]) -> int:
    job = spec["inSitu"]
    side, out = job["side"], job["out"]
    rank = (spec.get("rank") or {}).get("rank")
    if rank is not None:  # a rank of a torchrun job: one file per rank, merged by the supervisor
        out = out.replace(".json", f".rank{rank}.json")
    path = os.path.abspath(spec["target"]["script"])
    args = spec["target"].get("args", [])
    # the run's timings file (read back by script/in_situ_report.py): the runner's own, no part of the report
    result: dict[str, Any] = {
        "side": side,
        "pair": job["pair"],
        "mode": job.get("mode"),
        "switch": None,
        "wallSeconds": None,
        "outcome": None,
        "regions": [],
    }
    torch = import_torch()
    if side == "eager":
        result["switch"] = _turn_compiling_off(torch)
    runnable = path
    if path.endswith(".ipynb"):
        runnable = convert(
            path, os.path.join(os.path.dirname(out), f"notebook-{side}-{job['pair']}-{rank or 0}")
        ).script
    recorder = LightRecorder(spec.get("calls"), job.get("mode"))
    with script_environment([path, *args], os.path.dirname(path), chdir=runnable != path):
        started = time.perf_counter()
        outcome = execute(runnable, os.path.basename(path), recorder)
        result["wallSeconds"] = round(time.perf_counter() - started, 4)
    result["regions"] = recorder.to_json()
    failure = next((r["failure"] for r in result["regions"] if r["failure"]), None)
    error = outcome["error"]
    if failure and error:  # the script failed because a compiled call did: said at the user's line
        outcome["error"] = {
            "kind": "compile",
            "message": f"A compiled call failed: {headline(failure)}.",
            "fix": failure["fix"],
            "traceback": error.get("traceback"),
        }
    result["outcome"] = outcome
    tmp = f"{out}.tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(result, f)
    os.replace(tmp, out)
    return 0
