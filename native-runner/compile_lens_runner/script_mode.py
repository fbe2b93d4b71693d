"""--script: runs an unmodified user script and reports every torch.compile in it, at the user's source lines.

Nothing in the script is patched: TORCH_TRACE (set by the supervisor before torch is imported) records every
compile, break and recompile; they are read back after the script ends, however it ends.
"""
from __future__ import annotations

import os
import runpy
import sys
from typing import TYPE_CHECKING, Any

from . import compiler_artifacts
from . import torch_trace as tt
from .errors import classify
from .insight import compiler_insight

if TYPE_CHECKING:
    from .worker import Run

MODE = "script"


def run_script(run: "Run", path: str, args: list[str]) -> None:
    path = os.path.abspath(path)
    entry: dict[str, Any] = {"mode": MODE, "status": "ok", "error": None, "compileSeconds": None, "timing": None, "speedup": None,
             "breakEvenCalls": None, "trace": None, "kernelsPerStep": None, "compiler": None, "peakMemoryBytes": None,
             "scriptExitCode": 0}
    run.report["target"] = {"kind": "script", "name": os.path.splitext(os.path.basename(path))[0], "file": path,
                            "function": None, "line": None}
    run.report["settings"]["scriptArgs"] = args
    if not os.path.isfile(path):
        from .errors import RunnerError

        raise RunnerError("bad-target", f"Script not found: {path}", "Check the path passed to --script.")
    run.progress("script", 0.05, f"Running {os.path.basename(path)}")
    tt.mark(MODE, "script")
    saved_argv, saved_path = sys.argv, list(sys.path)
    sys.argv = [path, *args]
    sys.path.insert(0, os.path.dirname(path))
    try:
        runpy.run_path(path, run_name="__main__")
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        entry["scriptExitCode"] = code
        if code != 0:
            entry.update(status="error", error={"kind": "user-code", "message": f"The script exited with status {code}.",
                                                "fix": "See the script's own output in the log.", "traceback": None})
    except BaseException as exc:  # the script's own failure is a finding; its compiles are still reported
        entry.update(status="error", error=classify(exc, f"running {os.path.basename(path)}").to_json(), scriptExitCode=1)
    finally:
        sys.argv, sys.path[:] = saved_argv, saved_path
    tt.mark(MODE, "done")
    run.progress("insight", 0.9, "Reading the compiler's log")
    insight = compiler_insight(run.records(MODE), lambda record: "a call made by the script", cudagraphs=run.device == "cuda")
    insight["torchTraceLog"] = run.trace_log_relpath()
    compiler_artifacts.attach(insight, run.records(MODE), run.workdir, MODE, None, 0)
    entry["compiler"] = insight
    entry["compileSeconds"] = insight["compileSeconds"]["total"]
    run.report["modes"].append(entry)
    if entry["error"]:
        run.report["error"] = entry["error"]
    run.report["recommendation"] = {"mode": None, "reason": (
        "Script mode reports what torch.compile did in the script as written; it does not time eager against "
        "compiled, so profile a --target to get a mode recommendation.")}
