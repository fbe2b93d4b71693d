"""torchrun --max-restarts under `attach`: one launcher of two ranks (gloo), rank 1 fails on the first attempt,
torchrun restarts every worker into the same --out folder. (Two launchers on one host restart through rendezvous
rounds whose timing varies run to run, torchrun's own churn: one launcher keeps the test deterministic; the
launcher's identity, not its restart count, is what attach reads, so the healthy node of a multi-node job that
restarts on a rendezvous change is handled the same way.) The restarted workers are not refused: the
second attempt writes DIR/attempt1/, the first attempt's files stay as they were, and `inspect DIR` reads the newest
attempt as the run and says the earlier one failed on rank 1 at its line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from conftest import finish, runner_env, validate
from test_attach import _free_port

# no process group: gloo's rendezvous across restarts (its store keys from the failed attempt) is torch's to get right,
# not attach's; torchrun restarts every worker of the group all the same
SCRIPT = """import os
import sys
from pathlib import Path

import torch

rank = int(os.environ["RANK"])
step = torch.compile(lambda x: (x * 2).relu(), backend="eager")
failed_once = Path(sys.argv[1])
for i in range(3):
    y = step(torch.ones(4))
    if rank == 1 and i == 1 and not failed_once.exists():
        failed_once.touch()
        raise RuntimeError("rank 1 fails on the first attempt")
"""
RAISE_LINE = SCRIPT.split("\n").index('        raise RuntimeError("rank 1 fails on the first attempt")') + 1


def test_a_restarted_job_writes_its_next_attempt_and_inspect_says_the_first_failed(tmp_path: Path) -> None:
    script = tmp_path / "restart_train.py"
    script.write_text(SCRIPT)
    job = tmp_path / "job"
    launcher = subprocess.run(
        [
            sys.executable,
            "-m",
            "torch.distributed.run",
            "--nproc-per-node",
            "2",
            "--master-port",
            str(_free_port()),
            "--max-restarts",
            "1",
            "-m",
            "compile_lens_runner",
            "attach",
            "--out",
            str(job),
            "--device",
            "cpu",
            str(script),
            str(tmp_path / "failed-once"),
        ],
        env=runner_env(),
        check=False,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert launcher.returncode == 0 and "already holds a run" not in launcher.stderr, launcher.stderr[-3000:]
    # the first attempt's folders are kept as the attempt left them; the second attempt wrote beside them
    first = json.loads((job / "ranks" / "rank1" / "attach.json").read_text())
    assert first["attempt"] == 0 and json.loads((job / "ranks" / "rank1" / "exit.json").read_text())["code"] == 1
    for rank in (0, 1):
        again = json.loads((job / "attempt1" / "ranks" / f"rank{rank}" / "attach.json").read_text())
        assert again["attempt"] == 1 and again["launcher"]["runId"] == first["launcher"]["runId"]
        assert json.loads((job / "attempt1" / "ranks" / f"rank{rank}" / "exit.json").read_text())["code"] == 0

    proc = subprocess.run(
        [sys.executable, "-m", "compile_lens_runner", "inspect", str(job), "--out", str(tmp_path / "out")],
        env=runner_env(),
        check=False,
        capture_output=True,
        text=True,
        timeout=120,
    )
    run = finish(proc.returncode, proc.stdout, proc.stderr)
    assert run.report is not None, proc.stderr[-2000:]
    validate(run.report)
    report = run.report
    assert report["status"] == "ok" and [r["status"] for r in report["ranks"]] == ["ok", "ok"]
    assert report["logs"]["attached"] == "../job/attempt1"
    [attempt] = report["logs"]["attempts"]
    assert attempt["attempt"] == 0 and attempt["folder"] == "../job" and attempt["status"] != "ok"
    assert attempt["failedRank"] == 1 and attempt["failedAt"]["line"] == RAISE_LINE
    assert attempt["failedAt"]["file"] == str(script) and attempt["message"].startswith(
        f"Rank 1 failed at restart_train.py:{RAISE_LINE}"
    )
    # said in one sentence by the runner (schema 1.27), as `inspect` and the editor show it
    assert report["logs"]["restartsText"].startswith(
        f"restarted once: attempt 0 failed on rank 1 at restart_train.py:{RAISE_LINE} (this report is attempt 1's"
    )
    # every path of the run is the newest attempt's, and there
    for entry in report["ranks"]:
        assert entry["report"].startswith("../job/attempt1/") and (tmp_path / "out" / entry["report"]).is_file()
