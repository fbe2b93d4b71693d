"""`inspect`: compiler logs made elsewhere read into a report, with no torch: tlparse's own test logs (the counts tlparse
0.4.3 gives, docs/TLPARSE-PARITY.md), damaged lines and messy rank folders (warnings, not failures), one log per rank
(ranks and divergence), and a path that holds no log (a report that says so)."""

from __future__ import annotations

import gzip
import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO, finish, runner_env, validate

TLPARSE = REPO / "test" / "fixtures" / "tlparse"
LOGS = REPO / "test" / "fixtures" / "logs"
TRAIN_LINE, FORWARD_LINE = 75, 42  # bench/scripts/ddp_train.py when ddp-diverge-rank*.log were recorded, and where
RECORDED_AT = "/work/wt/torchrun/bench/scripts/ddp_train.py"
# the runner as a Python without torch runs it: torch cannot be imported at all
NO_TORCH = (
    "import sys, runpy; sys.modules['torch'] = None; runpy.run_module('compile_lens_runner', run_name='__main__')"
)


def unmarked(path: Path) -> str:
    """A Compile Lens log with its markers taken out: a log as any run writes it."""
    kept, skip = [], False
    for line in path.read_text().split("\n"):
        if not line.startswith("\t"):
            skip = "compile_lens_marker" in line
        if not skip:
            kept.append(line)
    return "\n".join(kept)


def rank_folder(folder: Path, ranks: int, diverging: set[int]) -> None:
    """A TORCH_TRACE folder of `ranks` rank logs from the recorded 2-rank DDP logs: the diverging ranks get rank 1's
    log (it recompiled at ddp_train.py:75), the others rank 0's. (bench/ranks64.py makes a real job of 64 ranks.)"""
    folder.mkdir(parents=True)
    same, odd = unmarked(LOGS / "ddp-diverge-rank0.log"), unmarked(LOGS / "ddp-diverge-rank1.log")
    for rank in range(ranks):
        (folder / f"dedicated_log_torch_trace_rank_{rank}_x{rank:04d}.log").write_text(
            odd if rank in diverging else same
        )


def inspect(*paths: Path, out: Path) -> dict[str, Any]:
    proc = subprocess.run(
        [sys.executable, "-c", NO_TORCH, "inspect", *map(str, paths), "--out", str(out)],
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


def _counts(report: dict[str, Any]) -> dict[str, int]:
    c = report["modes"][0]["compiler"]
    return {
        "compiles": c["compiledFrames"],
        "graphBreaks": sum(b["count"] for b in c["graphBreaks"]),
        "recompiles": len(c["recompiles"]),
        "failures": len(c["compileFailures"]),
        "restarts": len(c["restarts"]),
        "hits": c["cache"]["fxGraph"]["hit"] + c["cache"]["aotAutograd"]["hit"],
        "misses": c["cache"]["fxGraph"]["miss"] + c["cache"]["aotAutograd"]["miss"],
    }


# what tlparse 0.4.3 counts in the same logs (compile_directory.json, failures_and_restarts.html)
TLPARSE_COUNTS = {
    "comp_metrics.log": {
        "compiles": 3,
        "graphBreaks": 0,
        "recompiles": 0,
        "failures": 0,
        "restarts": 2,
        "hits": 0,
        "misses": 0,
    },
    "comp_failure.log": {
        "compiles": 1,
        "graphBreaks": 0,
        "recompiles": 0,
        "failures": 1,
        "restarts": 0,
        "hits": 0,
        "misses": 0,
    },
    "cache_hit_miss.log.gz": {
        "compiles": 2,
        "graphBreaks": 0,
        "recompiles": 0,
        "failures": 0,
        "restarts": 0,
        "hits": 1,
        "misses": 2,
    },
    "simple_corrupted_json.log.gz": {
        "compiles": 1,
        "graphBreaks": 0,
        "recompiles": 0,
        "failures": 0,
        "restarts": 0,
        "hits": 0,
        "misses": 1,
    },
}


@pytest.mark.parametrize("name", sorted(TLPARSE_COUNTS))
def test_tlparse_logs_give_tlparses_counts(name: str, tmp_path: Path) -> None:
    report = inspect(TLPARSE / name, out=tmp_path / "out")
    assert report["status"] == "ok" and report["target"]["kind"] == "logs"
    assert _counts(report) == TLPARSE_COUNTS[name]
    assert report["recommendation"]["verdict"] == "none" and report["modes"][0]["timing"] is None  # nothing was timed


def test_a_failed_compile_and_restarts_are_said_with_their_reasons(tmp_path: Path) -> None:
    [failure] = inspect(TLPARSE / "comp_failure.log", out=tmp_path / "a")["modes"][0]["compiler"]["compileFailures"]
    assert failure == {
        "compileId": "0/0",
        "failType": "BackendCompilerFailed",
        "reason": "backend='broken_backend' raised:\nRuntimeError: broken backend",
    }
    restarts = inspect(TLPARSE / "comp_metrics.log", out=tmp_path / "b")["modes"][0]["compiler"]["restarts"]
    assert [r["compileId"] for r in restarts] == ["0/0", "1/0"] and "skip function graph_break" in restarts[0]["reason"]


def test_a_damaged_payload_is_a_warning_not_a_failure(tmp_path: Path) -> None:
    report = inspect(TLPARSE / "simple_corrupted_json.log.gz", out=tmp_path / "out")
    assert report["status"] == "ok"
    assert report["logs"]["files"][0]["damagedPayloads"] == 1
    assert report["logs"]["warnings"] == [
        f"{TLPARSE / 'simple_corrupted_json.log.gz'}: 1 record with a damaged JSON payload skipped"
    ]


def test_cut_lines_are_counted_and_the_rest_is_read(tmp_path: Path) -> None:
    text = (LOGS / "cpu-fused-recompile.log").read_text().splitlines(keepends=True)
    damaged = tmp_path / "damaged.log"
    damaged.write_text(
        "".join(text[:10]) + 'V1124 12:00:00.000000 1 x.py:1] {"dynamo_start": {"sta\n' + "".join(text[10:])
    )
    report = inspect(damaged, out=tmp_path / "out")
    assert report["status"] == "ok" and report["logs"]["files"][0]["unreadableLines"] == 1
    assert "1 unreadable line skipped (the first at line 11)" in report["logs"]["warnings"][0]
    assert _counts(report)["recompiles"] == 1  # what the rest of the log says is kept


def test_a_messy_rank_folder_gives_ranks_and_warnings(tmp_path: Path) -> None:
    folder = TLPARSE / "multi_rank_messy_input"
    report = inspect(folder, out=tmp_path / "out")
    assert report["status"] == "ok" and [r["rank"] for r in report["ranks"]] == [0, 1]
    assert sorted(report["logs"]["warnings"]) == [
        f"{folder / 'another.log'}: empty, skipped",
        f"{folder / 'some_other_file.txt'}: not a TORCH_TRACE log (.log or .log.gz), skipped",
    ]
    assert [d for d in report["divergence"] if d["severity"] == "error"] == []  # two copies of one log


def _rank_folder(tmp_path: Path) -> Path:
    """ddp-diverge-rank{0,1}.log (rank 1 trained step 3 on a smaller batch) as TORCH_TRACE names rank logs, the
    Compile Lens markers taken out: a log as any run writes it."""
    folder = tmp_path / "torch_trace"
    folder.mkdir()
    for rank in (0, 1):
        data = unmarked(LOGS / f"ddp-diverge-rank{rank}.log").encode()
        (folder / f"dedicated_log_torch_trace_rank_{rank}_ab{rank}cd.log.gz").write_bytes(gzip.compress(data))
    first = (LOGS / "ddp-diverge-rank1.log").read_text().split("\n")[0]
    (folder / "dedicated_log_torch_trace_rank_1_small.log").write_text(first + "\n")  # a compile subprocess's own log
    return folder


def test_one_log_per_rank_gives_the_ranks_and_their_divergence_at_the_line(tmp_path: Path) -> None:
    folder = _rank_folder(tmp_path)
    report = inspect(folder, out=tmp_path / "out")
    assert not any(f["marked"] for f in report["logs"]["files"])
    assert [r["rank"] for r in report["ranks"]] == [0, 1] and "status" not in report["ranks"][0]
    assert report["ranks"][0]["recompiles"] == 0 and report["ranks"][1]["recompiles"] == 2
    assert report["logs"]["warnings"] == [
        f"{folder / 'dedicated_log_torch_trace_rank_1_small.log'}: another log of rank 1, "
        f"smaller than {folder / 'dedicated_log_torch_trace_rank_1_ab1cd.log.gz'}; skipped"
    ]
    # without the regions a profile run records, the two frames rank 1 recompiled in that call (DDP's and the
    # model's forward) are two divergences: at the training line and at the model's forward
    recompiles = [d for d in report["divergence"] if d["kind"] == "recompile"]
    assert [(d["ranks"], d["location"]["line"]) for d in recompiles] == [([1], TRAIN_LINE), ([1], FORWARD_LINE)]
    assert all(d["location"]["file"] == RECORDED_AT for d in recompiles)  # the machine's paths: the CLI maps them
    assert recompiles[1]["message"] == (
        "rank 1 recompiled forward — input 'x' changed size in dimension 0 from 16 to 8 — rank 0 did not: the ranks ran different graphs"
    )
    compiler = report["modes"][0]["compiler"]
    assert compiler["recompiles"] and all(r["ranks"] == [1] for r in compiler["recompiles"])
    # the headline rank's generated code, guards and graphs are saved with the report
    graphs = [c["fxGraph"] for c in compiler["compiles"] if c["fxGraph"]]
    assert graphs and (tmp_path / "out" / graphs[0]).read_text().startswith(
        "# The FX graph Dynamo captured for compile"
    )


def test_a_path_with_no_log_is_a_report_that_says_so(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    (tmp_path / "empty" / "notes.txt").write_text("hello")
    report = inspect(tmp_path / "empty", out=tmp_path / "out")
    assert report["status"] == "error" and report["error"]["kind"] == "bad-target"
    assert report["error"]["message"].startswith(f"No compiler log found in {tmp_path / 'empty'}")
    assert "TORCH_TRACE=" in report["error"]["fix"]


def test_inspect_imports_no_torch() -> None:
    """The whole inspect path, read in a Python where importing torch fails (NO_TORCH): run above, and no module of
    the runner it loads imports torch at module level."""
    code = (
        "import sys; sys.modules['torch'] = None; import compile_lens_runner.cli, compile_lens_runner.logs.inspect; "
        "print(sorted(m for m in sys.modules if m.startswith('torch')))"
    )
    proc = subprocess.run([sys.executable, "-c", code], env=runner_env(), capture_output=True, text=True, check=True)
    assert proc.stdout.strip() == "['torch']"


def test_a_copy_of_the_report_folder_keeps_working(tmp_path: Path) -> None:
    """Paths in the report are relative to it: the saved guards open from a moved copy of the folder too."""
    report = inspect(TLPARSE / "comp_metrics.log", out=tmp_path / "out")
    shutil.copytree(tmp_path / "out", tmp_path / "moved")
    guards = [c["guards"] for c in report["modes"][0]["compiler"]["compiles"] if c["guards"]]
    assert guards and (tmp_path / "moved" / guards[0]).is_file()
    assert json.loads((tmp_path / "moved" / "report.json").read_text())["target"]["name"] == "comp_metrics"


def test_64_ranks_read_with_the_divergence_grouped(tmp_path: Path) -> None:
    """(How long 64 ranks take to read is bench/ranks64.py's, in docs/BENCHMARKS.md: no test times this host.)"""
    rank_folder(tmp_path / "torch_trace", 64, {3, 17, 41})
    report = inspect(tmp_path / "torch_trace", out=tmp_path / "out")
    assert [r["rank"] for r in report["ranks"]] == list(range(64))
    assert [r["rank"] for r in report["ranks"] if r["recompiles"]] == [3, 17, 41]
    recompiles = [d for d in report["divergence"] if d["kind"] == "recompile"]
    assert [d["location"]["line"] for d in recompiles] == [TRAIN_LINE, FORWARD_LINE]
    assert recompiles[1]["message"] == (
        "ranks 3, 17, 41 recompiled forward — input 'x' changed size in dimension 0 from 16 to 8 — ranks 0-2, "
        "4-16, 18-40, 42-63 did not: the ranks ran different graphs"
    )


def test_a_cpu_logs_codegen_is_said_as_c_plus_plus(tmp_path: Path) -> None:
    """Review 22X X3: a log whose generated code is C++ (its report's device "cpu", the legend's "C++ compile") says
    its codegen bar in those words, not "kernel codegen"."""
    log = REPO / "test" / "fixtures" / "recorded" / "explore-cpu" / "torch_trace"
    report = inspect(next(log.glob("*.log")), out=tmp_path / "out")
    assert report["environment"]["device"] == "cpu"
    labels = [label for p in report["modes"][0]["compiler"]["phases"] for label in p.get("labels") or []]
    assert any(label.startswith("Inductor: C++ codegen") for label in labels), labels
    assert not any("kernel codegen" in label for label in labels), labels
