"""The worker process: imports torch, then runs a compile target (target/) or a script (script/; on a torchrun rank
with ranks/ observing it), checkpointing report.json as it goes.

It runs under the supervisor (process/supervisor.py) with TORCH_TRACE pointing into the report directory; the
supervisor enforces the timeout and cancellation and finishes the report if this process is stopped.
"""

from __future__ import annotations

import atexit
import json
import signal

from .errors import RunnerError, classify
from .progress import channel
from .ranks.paths import RankInfo
from .ranks.script import RankScript
from .report import document
from .run import Run
from .script.mode import run_script
from .target.mode import TargetRun


def main(spec_path: str) -> int:
    channel.claim_stdout()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the supervisor decides what a Ctrl-C means
    # registered first, so it runs last: after the script's own exit handlers, where only the interpreter's and
    # its libraries' teardown is left (the supervisor stops a worker that hangs there, process/supervisor.py)
    atexit.register(channel.send, {"type": "exiting"})
    with open(spec_path, encoding="utf-8") as f:
        spec = json.load(f)
    run = Run(spec)
    try:
        run.setup()
        if "script" in spec["target"]:
            info = RankInfo.from_spec(spec)
            rank = RankScript(info) if info is not None and info.world_size > 1 else None
            run_script(run, spec["target"]["script"], spec["target"].get("args", []), rank)
        else:
            TargetRun(run).execute()
    except RunnerError as err:
        document.fail(run.report, err.to_json())
    except Exception as exc:
        document.fail(run.report, classify(exc, "running the target").to_json())
    run.checkpoint()
    if run.report.get("error"):
        run.report["status"] = "error"
        document.write(run.report_path, run.report)
    channel.progress("done", 1.0, f"Finished: {run.report['status']}")
    return 1 if run.report["status"] == "error" else 0
