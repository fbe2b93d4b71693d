"""`attach` under the user's own launcher: two torchrun launchers on this host (--nnodes 2, c10d rendezvous, gloo),
each starting one rank of bench/scripts/ddp_train.py through `-m compile_lens_runner attach`; then `inspect` on the
folder gives the ranks (with their hosts and nodes), their traces and the planted divergence at its line. A rank
whose folder never came back is said; a folder holding an earlier run is refused."""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from compile_lens_runner.report import answer
from conftest import REPO, finish, marker_line, run_launchers, runner_env, validate

DDP_TRAIN = REPO / "bench" / "scripts" / "ddp_train.py"
TRAIN_LINE_MARK = "loss = train_model(x).square().mean()"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _inspect(job: Path, out: Path) -> dict:
    proc = subprocess.run(
        [sys.executable, "-m", "compile_lens_runner", "inspect", str(job), "--out", str(out)],
        env=runner_env(),
        check=False,
        capture_output=True,
        text=True,
        timeout=120,
    )
    run = finish(proc.returncode, proc.stdout, proc.stderr)
    assert run.report is not None, proc.stderr[-2000:]
    validate(run.report)
    return run.report


@pytest.fixture(scope="module")
def job(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[subprocess.CompletedProcess[str]]]:
    root = tmp_path_factory.mktemp("attach")
    port = _free_port()
    done = run_launchers(
        *(
            [
                "--nnodes",
                "2",
                "--nproc-per-node",
                "1",
                "--rdzv-backend",
                "c10d",
                "--rdzv-endpoint",
                f"127.0.0.1:{port}",
                "--node-rank",
                str(node),
                "--max-restarts",
                "0",
                "-m",
                "compile_lens_runner",
                "attach",
                "--out",
                str(root / "job"),
                str(DDP_TRAIN),
                "--backend",
                "aot_eager",  # no Inductor C++ compile in each rank: what is read here is Dynamo's and the ranks'
                "--steps",
                "6",
                "--diverge-step",
                "3",
            ]
            for node in (0, 1)
        )
    )
    return root / "job", done


def test_two_launchers_under_attach_give_the_ranks_and_the_divergence_at_its_line(job, tmp_path: Path) -> None:
    folder, launchers = job
    assert [launcher.returncode for launcher in launchers] == [0, 0], (
        launchers[0].stderr[-2000:] + launchers[1].stderr[-2000:]
    )
    # the program's own output is left to it (rank 0 prints its steps), nothing of the runner's protocol is in it
    assert any("step 0:" in launcher.stdout for launcher in launchers) and not any(
        '"type": "progress"' in launcher.stdout for launcher in launchers
    )
    report = _inspect(folder, tmp_path / "out")
    assert report["status"] == "ok" and report["target"]["kind"] == "script" and report["settings"]["nprocPerNode"] == 2
    ranks = report["ranks"]
    assert [r["rank"] for r in ranks] == [0, 1] and all(r["status"] == "ok" for r in ranks)
    assert sorted(r["nodeRank"] for r in ranks) == [0, 1] and all(r["host"] == socket.gethostname() for r in ranks)
    for entry in ranks:  # every path is relative to the report, and there
        for key in ("trace", "report", "torchTraceLog"):
            assert (tmp_path / "out" / entry[key]).is_file(), (key, entry[key])
        # what the editor opens is a copy in the report's own folder (it reads no other); the attach folder is kept
        assert entry["trace"] == f"attached/ranks/rank{entry['rank']}/rank{entry['rank']}.trace.json"
        assert (folder / "ranks" / f"rank{entry['rank']}" / f"rank{entry['rank']}.trace.json").is_file()
    guards = [c["guards"] for c in report["modes"][0]["compiler"]["compiles"] if c["guards"]]
    assert guards and all(
        g.startswith("attached/ranks/rank0/compiler/") and (tmp_path / "out" / g).is_file() for g in guards
    )
    # no in-situ run under attach, and the user passed no --no-in-situ: said as attach's own
    assert report["inSitu"]["skipped"] == answer.ATTACHED
    assert [r["kind"] for r in report["answer"]["reasons"] if r["code"] == "no-in-situ"] == ["attached"]
    assert ranks[0]["collectives"] and ranks[0]["collectives"] == ranks[1]["collectives"]
    assert ranks[0]["recompiles"] == 0 and ranks[1]["recompiles"] >= 1
    [recompile] = [d for d in report["divergence"] if d["severity"] == "error"]
    assert recompile["kind"] == "recompile" and recompile["ranks"] == [1]
    assert recompile["location"]["line"] == marker_line(DDP_TRAIN, TRAIN_LINE_MARK)
    assert recompile["message"].startswith("rank 1 recompiled DistributedDataParallel at call 3")
    # inspect reads the ranks' folders as they are: a second read gives the same
    assert _inspect(folder, tmp_path / "again")["ranks"][1]["recompiles"] == ranks[1]["recompiles"]
    assert {"attach.json", "exit.json", "report.json"} <= {p.name for p in (folder / "ranks" / "rank1").iterdir()}


def test_a_rank_whose_folder_never_came_back_is_said(job, tmp_path: Path) -> None:
    folder, _ = job
    copy = tmp_path / "job"
    shutil.copytree(folder, copy)
    shutil.rmtree(copy / "ranks" / "rank1")
    # the world size is known from the rank that wrote
    report = _inspect(copy, tmp_path / "out")
    assert [r["status"] for r in report["ranks"]] == ["ok", "missing"]
    assert report["error"]["message"].startswith(
        "Rank 1 wrote nothing (no folder under ranks/): their node never started "
        "them, or their folders were not copied back; this report has what rank 0 wrote."
    )
    assert report["modes"][0]["compiler"]["graphCount"] >= 1  # what rank 0 had is kept


def test_a_rank_that_died_is_read_from_its_log(job, tmp_path: Path) -> None:
    folder, _ = job
    copy = tmp_path / "job"
    shutil.copytree(folder, copy)
    (copy / "ranks" / "rank1" / "exit.json").unlink()
    (copy / "ranks" / "rank1" / "report.json").unlink()
    report = _inspect(copy, tmp_path / "out")
    rank1 = report["ranks"][1]
    assert rank1["status"] == "killed" and rank1["recompiles"] >= 1  # its compiler log was read
    assert report["error"]["message"].startswith("Rank 1 failed: Rank 1 ended without writing its report")


def test_a_folder_holding_an_earlier_run_is_refused(job) -> None:
    folder, _ = job
    proc = subprocess.run(
        [sys.executable, "-m", "compile_lens_runner", "attach", "--out", str(folder), str(DDP_TRAIN)],
        env={k: v for k, v in runner_env().items() if k not in ("RANK", "WORLD_SIZE")},
        check=False,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 2 and "already holds a run (attach never overwrites one)" in proc.stderr
    assert json.loads((folder / "ranks" / "rank0" / "exit.json").read_text())["code"] == 0  # untouched
