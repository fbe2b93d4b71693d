"""`profile --script FILE --nproc-per-node 2`: a real torchrun job (2 processes, gloo, CPU) — the ranks' facts,
their traces, divergence at the user's line, a crashing rank, and a hang named on timeout."""

from __future__ import annotations

import json
import os
import textwrap
from pathlib import Path
from typing import Any

from compile_lens_runner.measure import interleaved, rank_calls
from conftest import REPO, Run, marker_line, run_runner, validate

DDP_TRAIN = REPO / "bench" / "scripts" / "ddp_train.py"
HANG = REPO / "test" / "fixtures" / "ranks-hang" / "hang.py"
TRAIN_LINE_MARK = "loss = train_model(x).square().mean()"
# AOT autograd without Inductor's C++ compile in every rank: the ranks' graphs, breaks and recompiles are Dynamo's
BACKEND = ("--backend", "aot_eager")


def _left_over(folder: Path, run: Run) -> list[str]:
    """Processes still running from this run: any command line naming the test's folder, and a forked run's."""
    found = [f"forked pid {pid}" for pid in run.left_running]
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                cmdline = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            except OSError:
                continue
            if str(folder) in cmdline:
                found.append(cmdline)
    return found


def _trace_events(report_dir: Path, entry: dict[str, Any]) -> list[dict[str, Any]]:
    trace = json.loads((report_dir / entry["trace"]).read_text())
    assert trace["distributedInfo"]["rank"] == entry["rank"] and trace["distributedInfo"]["world_size"] == 2
    return trace["traceEvents"]


def test_a_rank_that_recompiles_alone_is_named_at_the_users_line(tmp_path: Path) -> None:
    run = run_runner(
        "--script",
        str(DDP_TRAIN),
        "--nproc-per-node",
        "2",
        "--no-in-situ",
        "--out",
        str(tmp_path / "out"),
        "--",
        *BACKEND,
        "--steps",
        "6",
        "--diverge-step",
        "3",
    )
    assert run.code == 0, run.stderr[-3000:]
    report, report_dir = run.report, run.report_dir
    assert report["settings"]["nprocPerNode"] == 2 and "rank" not in report
    rank0, rank1 = report["ranks"]
    for entry in (rank0, rank1):
        assert entry["status"] == "ok" and entry["exitCode"] == 0 and entry["error"] is None
        # DDP's forward breaks the graph, on both ranks: its Logger call once, _inside_ddp_forward in each compile of
        # the frame after it (counted as the breaks listed add up: review 5C M9)
        assert entry["graphBreaks"] >= 3 and entry["compileSeconds"] > 0
        assert [r["callCount"] for r in entry["regions"]] == [6]
        assert entry["window"] == {"region": "r0", "fromCall": 1, "steps": 3, "skipped": None}
        steps = {e["name"] for e in _trace_events(report_dir, entry) if e.get("name", "").startswith("ProfilerStep#")}
        assert steps == {"ProfilerStep#1", "ProfilerStep#2", "ProfilerStep#3"}
        assert (report_dir / entry["torchTraceLog"]).is_file() and (report_dir / entry["report"]).is_file()
    assert rank0["collectives"] and rank0["collectives"] == rank1["collectives"]
    assert rank0["recompiles"] == 0 and rank1["recompiles"] >= 1 and rank1["graphCount"] > rank0["graphCount"]
    assert rank0["graphBreaks"] == 3 and rank1["graphBreaks"] >= rank0["graphBreaks"]  # rank 1's recompile broke again
    assert rank0["trace"] == "ranks/rank0/rank0.trace.json" and rank1["report"] == "ranks/rank1/report.json"
    line = marker_line(DDP_TRAIN, TRAIN_LINE_MARK)
    [recompile] = [d for d in report["divergence"] if d["severity"] == "error"]
    assert recompile["kind"] == "recompile" and recompile["ranks"] == [1] and recompile["location"]["line"] == line
    assert recompile["message"].startswith(
        "rank 1 recompiled DistributedDataParallel at call 3 — input 'x' changed size in dimension 0 from 16 to 8 — "
    )
    assert recompile["message"].endswith("— rank 0 did not: the ranks ran different graphs")
    compiler = report["modes"][0]["compiler"]
    assert {tuple(b["ranks"]) for b in compiler["graphBreaks"]} == {(0, 1)}
    assert compiler["recompiles"] and all(r["ranks"] == [1] for r in compiler["recompiles"])
    [region] = report["regions"]  # rank 0's calls, not replayed: each rank profiled its own calls instead
    assert (
        not region["replay"]["replayable"] and "torchrun" in region["replay"]["reason"] and region["measurements"] == []
    )
    assert [c.get("profiled", False) for c in region["calls"]] == [False, True, True, True, True, False]
    assert region["compiler"]["recompiles"] and region["compiler"]["recompiles"][0]["ranks"] == [1]


CRASH = textwrap.dedent("""
    import torch
    import torch.distributed as dist

    dist.init_process_group("gloo")
    rank = dist.get_rank()
    step = torch.compile(lambda x: torch.sin(x) * 2, backend="eager")
    for i in range(5):
        t = step(torch.ones(4))
        if rank == 1 and i == 2:
            raise RuntimeError("rank 1 gave up at step 2")  # MARK: raise
        dist.all_reduce(t)
    dist.destroy_process_group()
""")


def test_a_crashing_rank_is_named_and_the_others_keep_what_they_had(tmp_path: Path) -> None:
    script = tmp_path / "crash.py"
    script.write_text(CRASH)
    run = run_runner("--script", str(script), "--nproc-per-node", "2", "--no-in-situ", "--out", str(tmp_path / "out"))
    assert run.code == 1 and run.report["status"] == "error"
    line = marker_line(script, "MARK: raise")
    error = run.report["error"]
    assert (
        error["message"].startswith(f"Rank 1 failed at crash.py:{line}: ")
        and "rank 1 gave up at step 2" in error["message"]
    )
    assert error["message"].endswith("; rank 0 stopped with it.") and "rank 1 gave up" in error["traceback"]
    rank0, rank1 = run.report["ranks"]
    assert rank1["status"] == "error" and rank1["failedAt"]["line"] == line and rank1["exitCode"] == 1
    assert rank0["status"] in ("error", "stopped")  # its all_reduce lost its peer, or torchrun stopped it first
    assert rank0["graphCount"] == rank1["graphCount"] == 1  # what each rank compiled is kept
    assert run.report["modes"][0]["compiler"]["graphCount"] == 1 and run.report["regions"][0]["callCount"] >= 3
    assert _left_over(tmp_path, run) == []


def test_a_rank_that_never_reaches_a_collective_is_named_on_timeout(tmp_path: Path) -> None:
    # The state under test — rank 1 asleep, rank 0 in all_reduce — comes after both ranks compiled; on a busy host
    # with a cold compile cache that can take longer than a short timeout, so the timeout grows until it is reached.
    waits, sleeps = marker_line(HANG, "MARK: all_reduce"), marker_line(HANG, "MARK: rank 1 stalls")
    for timeout in (40, 120, 360):
        run = run_runner(
            "--script",
            str(HANG),
            "--nproc-per-node",
            "2",
            "--no-in-situ",
            "--timeout",
            str(timeout),
            "--out",
            str(tmp_path / f"out-{timeout}"),
        )
        assert run.code == 1 and run.report["error"]["kind"] == "timeout"
        if f"(it is at hang.py:{sleeps})" in run.report["error"]["message"]:
            break
    assert run.report["error"]["message"].endswith(
        f"Where the ranks were: rank 0 is waiting in all_reduce at hang.py:{waits}; rank 1 never reached it (it is at hang.py:{sleeps})."
    )
    assert run.report["error"]["fix"].startswith("Every rank must run the same collectives in the same order")
    rank0, rank1 = run.report["ranks"]
    assert rank0["stack"]["waitingIn"] == "all_reduce" and rank1["stack"] == {
        "waitingIn": None,
        "location": rank1["stack"]["location"],
    }
    assert rank0["status"] == rank1["status"] == "stopped" and rank1["graphCount"] == 1  # each wrote what it had
    assert (run.report_dir / rank0["stacks"]).read_text().count("all_reduce") >= 1
    assert _left_over(tmp_path, run) == []


def test_torchrun_that_starts_no_rank_is_said_so(tmp_path: Path) -> None:
    """torchrun itself failed (no torch.distributed, a bad command): no rank directory, no made-up rank failure."""
    from compile_lens_runner.process.finish import fallback_report
    from compile_lens_runner.ranks import merge as rank_merge

    spec = {
        "target": {"script": "train.py"},
        "modes": ["default"],
        "dynamic": "auto",
        "fullgraph": False,
        "backend": "inductor",
        "device": "cpu",
        "quick": False,
    }
    assert rank_merge.merge(str(tmp_path), 2, lambda: fallback_report(spec), stacks_requested=False) is None
    report = json.loads((tmp_path / "report.json").read_text())
    validate(report)
    assert report["status"] == "error" and report["error"]["message"].startswith(
        "torchrun (python -m torch.distributed.run) started no rank"
    )
    assert [r["status"] for r in report["ranks"]] == ["killed", "killed"] and report["divergence"] == []


def test_in_situ_under_torchrun_switches_every_rank_on_the_same_call(tmp_path: Path) -> None:
    """The observed torchrun job is the measurement (gloo, CPU): every rank's schedule is fixed by call count, so the
    ranks ran their DDP steps at the same stance, call by call, and each rank compared its own steps."""
    run = run_runner(
        "--script",
        str(DDP_TRAIN),
        "--nproc-per-node",
        "2",
        "--out",
        str(tmp_path / "out"),
        "--quick",
        "--",
        *BACKEND,
        "--steps",
        "40",
    )
    assert run.code == 0, run.stderr[-3000:]
    assert run.report["inSitu"]["method"] == "interleaved" and run.report["inSitu"]["schedule"]["fixedForRanks"] is True
    sides, own_regions = [], []
    for rank in run.report["ranks"]:
        own = json.loads((run.report_dir / rank["report"]).read_text())
        [region] = own["regions"]
        own_regions.append(region)
        sides.append([(c["side"], c["block"], bool(c.get("profiled"))) for c in region["calls"]])
        assert region["inSitu"]["method"] == "interleaved" and region["inSitu"]["stepsMade"] == 40
    # the same calls switched and were profiled on both ranks (the windows hold their blocks by call count)
    assert sides[0] == sides[1] and {s for s, _, _ in sides[0]} == {"compiled", "eager"}
    # the job's step is its slowest rank's, call by call; each rank's own step is kept beside it (rank 0's report is
    # the job's: its calls are the headline's, its own step is under ranks)
    [region] = run.report["regions"]
    situ = region["inSitu"]
    assert situ["slowestRank"] is True
    assert situ["ranks"] == [
        {"rank": 0, "step": interleaved.compare(region["calls"], 40, on_cpu=True)["step"]},
        {"rank": 1, "step": own_regions[1]["inSitu"]["step"]},
    ]
    job = interleaved.compare(rank_calls.slowest_calls([region["calls"], own_regions[1]["calls"]]), 40, on_cpu=True)
    assert situ["step"] == job["step"] and situ["steadySteps"] == job["steadySteps"]
    # whose each drawn step is: the rank whose step time it is (review 3B M2)
    times = [{c["index"]: c.get("stepMs") for c in r} for r in (region["calls"], own_regions[1]["calls"])]
    for point in situ["stepPoints"]:
        assert times[point["rank"]][point["index"]] == max(t[point["index"]] for t in times), point
    assert sum(p["counted"] for p in situ["stepPoints"]) == sum(situ["steadySteps"].values())
    assert situ["step"] is not None and situ["step"]["low"] <= situ["step"]["speedup"] <= situ["step"]["high"]
    assert situ["work"] is not None and situ["work"]["eager"]["device"] == "cpu"  # the headline rank's own windows
    assert _left_over(tmp_path, run) == []
