"""PyTorch's performance hints (perf_hints) recorded into the log with the user's line, on a CPU: the ops Inductor calls
ATen for (test/fixtures/why/fallback_ops.py). The user's console must not change: no INFO hint printed, and a warning on
that channel still printed as before."""

from __future__ import annotations

import glob
import os
from pathlib import Path

import pytest
from compile_lens_runner.compiler import torch_trace as tt
from compile_lens_runner.compiler.insight import compiler_insight
from conftest import REPO, run_python, runner_env

SCRIPT = REPO / "test" / "fixtures" / "why" / "fallback_ops.py"
_DRIVER = """
import logging, runpy, sys
from compile_lens_runner.compiler import perf_hints, torch_trace as tt
tt.install_watcher()
perf_hints.install()
perf_hints.install()  # a second run in the process adds nothing
runpy.run_path(sys.argv[1], run_name="__main__")
logging.getLogger("torch._inductor.graph.__perf_hints").warning("a warning the user sees as before")
tt.flush()
"""


def test_fallback_kernels_are_hints_at_the_users_lines_and_the_console_is_unchanged(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    env = dict(runner_env(), TORCH_TRACE=str(tmp_path))
    env.pop("TORCH_LOGS", None)
    proc = run_python("-c", _DRIVER, str(SCRIPT), env=env)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "FallbackKernel" not in proc.stderr and "a warning the user sees as before" in proc.stderr
    log = max(glob.glob(os.path.join(tmp_path, "*.log")), key=os.path.getsize)
    with open(log) as f:
        hints = compiler_insight(tt.parse(f.read()), lambda record: None, cudagraphs=False)["perfHints"]
    lines = SCRIPT.read_text().split("\n")
    by_op = {h["op"]: h for h in hints if h["kind"] == "fallback-kernel"}
    sort = by_op["aten.sort"]
    assert (
        sort["location"]["file"] == str(SCRIPT)
        and lines[sort["location"]["line"] - 1].strip() == "s = torch.sort(x).values"
    )
    assert "`aten.sort`" in sort["what"] and sort["fix"] and sort["message"].startswith("Using FallbackKernel:")
    assert any(op.startswith("aten.linalg_inv") for op in by_op)
    assert len([h for h in hints if h["op"] == "aten.sort"]) == 1  # recorded once, not once per install
    assert not [h for h in hints if "padding" in h["message"]]  # Inductor's own choices are not the user's to act on


def test_a_warning_on_the_channel_still_prints_when_inductor_was_imported_first() -> None:
    """Importing Inductor closes its artifact loggers' propagation and gives them no handler: their warnings reach the
    console through logging's last resort. A recorder installed then (a script that imported Inductor before the
    observer) must hand them on there, not swallow them."""
    pytest.importorskip("torch")
    driver = (
        "import logging, torch._inductor.graph\n"
        "from compile_lens_runner.compiler import perf_hints\n"
        "log = logging.getLogger('torch._inductor.graph.__perf_hints')\n"
        "assert not log.propagate and not log.handlers  # as torch leaves it\n"
        "perf_hints.install()\n"
        "log.info('Using FallbackKernel: aten.sort.stable')\n"
        "log.warning('a warning the user sees as before')\n"
    )
    env = runner_env()
    env.pop("TORCH_LOGS", None)
    proc = run_python("-c", driver, env=env)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "a warning the user sees as before" in proc.stderr and "FallbackKernel" not in proc.stderr
