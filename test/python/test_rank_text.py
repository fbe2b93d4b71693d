"""A torchrun job's ranks in words (report/rank_text.py, schema 1.25): each rank's error at its line, what it compiled
and ran, its regions' calls and steady time, where it waited. On recorded reports: no torch."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from compile_lens_runner.report import answer, rank_text

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "reports"


def test_each_rank_says_what_it_compiled_and_ran_and_its_regions_calls() -> None:
    report = json.loads((FIXTURES / "ddp-ranks-cpu" / "report.json").read_text())
    rank1 = report["ranks"][1]
    # rank 1 alone recompiled at call 3 (batch 16 → 8): its 2 graphs, DDP's Logger call broken again in the recompiled
    # forward (4 breaks), its steady calls from call 4
    assert rank1["factsText"] == (
        "2 graphs, 4 graph breaks, recompiled at call 3 (2 compiles), 57.0 s compiling, FX graph cache 0 hits, 4 "
        "misses, 3 collectives in the profiled steps"
    )
    # a call of the region, not a training step (review 11 K3: "steady step 0.612 ms" under a chart of 3 ms steps)
    assert rank1["regionsText"] == ["DistributedDataParallel: 6 calls, 0.638 ms per call (median, steady from call 4)"]
    # the rank table's cell a count and where, the sentence in its facts (review 11 I10/J6)
    assert (
        rank1["recompilesCell"] == "at call 3 (2 compiles)"
        and rank1["recompilesText"] == "recompiled at call 3 (2 compiles)"
    )
    assert "recompilesCell" not in report["ranks"][0], "no recompile on rank 0: its cell the count, 0"
    assert rank1["labelText"] == "rank 1: ok"
    for entry in report["ranks"]:  # the fixture carries them (scripts/rederive_fixtures.py)
        assert entry["factsText"] == rank_text.facts(entry) and entry["regionsText"] == rank_text.regions(entry)
        assert entry["labelText"] == rank_text.label(entry)
        assert entry.get("recompilesCell") == rank_text.recompile_cell(entry, report)


def test_a_rank_that_failed_or_waited_says_where() -> None:
    failed: Any = {"rank": 1, "error": {"message": "CUDA out of memory"}, "failedAt": {"file": "/w/train.py", "line": 88},
                   "stack": {"waitingIn": "all_reduce", "location": {"file": "/w/train.py", "line": 42}},
                   "status": "error", "host": "host-a", "nodeRank": 0}  # fmt: skip
    report: Any = {"ranks": [failed, {"rank": 0, "stack": {"waitingIn": None, "location": None}}]}
    rank_text.attach(report)
    assert failed["errorText"] == "CUDA out of memory (at train.py:88)"
    assert failed["labelText"] == "rank 1 (host-a, node 0): error — CUDA out of memory (at train.py:88)"
    assert report["ranks"][1]["labelText"] == "rank 0", "read from its log alone: how it ended is not in the log"
    assert failed["waitingText"] == "waiting in all_reduce at train.py:42"
    assert "factsText" not in failed and failed["regionsText"] == []  # nothing recorded: nothing said
    assert report["ranks"][1]["waitingText"] == "running" and "errorText" not in report["ranks"][1]


def _failed(attempt: int, rank: int | None, line: int | None) -> Any:
    at = None if line is None else {"file": "/cluster/proj/train.py", "line": line}
    return {"attempt": attempt, "folder": "../job", "status": "partial", "failedRank": rank, "failedAt": at,
            "message": f"Rank {rank} failed"}  # fmt: skip


def test_an_attached_job_s_restarts_name_each_attempt_the_rank_that_failed_it_and_the_user_line() -> None:
    """Schema 1.27: `inspect` and the editor say a restarted job's earlier attempts in the runner's sentence."""
    report: Any = {"logs": {"files": [], "warnings": [], "attempts": [_failed(0, 1, 88)]}}
    rank_text.attach(report)
    assert report["logs"]["restartsText"] == (
        "restarted once: attempt 0 failed on rank 1 at train.py:88 (this report is attempt 1's; the earlier attempts' "
        "folders are kept)"
    )
    assert rank_text.restarts([_failed(0, 1, 88), _failed(1, None, None), _failed(2, 3, None)]) == (
        "restarted 3 times: attempt 0 failed on rank 1 at train.py:88; attempt 1 failed; attempt 2 failed on rank 3 "
        "(this report is attempt 3's; the earlier attempts' folders are kept)"
    )
    assert (rank_text.restarts([_failed(0, 1, 88), _failed(1, 0, 9)]) or "").startswith("restarted twice: ")
    quiet: Any = {"logs": {"files": [], "warnings": []}}
    rank_text.attach(quiet)
    assert "restartsText" not in quiet["logs"] and rank_text.restarts([]) is None, "no restart: nothing said"


def test_a_torchrun_region_s_graphs_and_story_say_whose_they_are() -> None:
    """Review 25 D7: the region of a torchrun job is its lowest rank's (ranks/merge.py); "1 graph" and "Call 0
    compiled" read as the job's while rank 1 had 2 graphs. They say the rank they are from: the story the rank whose
    calls it tells, the graphs and breaks the ranks whose rows count them (s29), whichever rank's regions are shown."""
    report = json.loads((FIXTURES / "ddp-ranks-cpu" / "report.json").read_text())
    alone = copy.deepcopy({**report, "ranks": []})  # one process: no rank to name
    report["ranks"][0]["report"] = None  # rank 0 wrote none: the regions shown are rank 1's
    answer.attach(report)
    [region] = report["regions"]
    assert region["story"].startswith("Rank 1: Call 0 compiled (")
    assert " · 1 graph and 3 graph breaks on rank 0 · " in region["headline"]
    answer.attach(alone)
    assert alone["regions"][0]["story"].startswith("Call 0 compiled (")
    assert " · 1 graph · " in alone["regions"][0]["headline"]


def test_a_recompile_on_some_ranks_is_said_once_by_the_divergence_with_its_quick_fix() -> None:
    """Review 5C D6: one batch change on rank 1 was two findings, "Ranks diverged: … input 'x' changed size …" at the
    training line and "Recompile: Input 'x' changed size …" at the model's forward. The divergence says it; its
    recompile site is marked as said there, and its Quick Fix goes with the divergence."""
    report = json.loads((FIXTURES / "ddp-ranks-cpu" / "report.json").read_text())
    for compiler in [report["modes"][0].get("compiler"), *(r.get("compiler") for r in report["regions"])]:
        for site in (compiler or {}).get("recompileSites") or []:
            site.pop("inDivergence", None)
    divergence = next(d for d in report["divergence"] if d["kind"] == "recompile")
    divergence.pop("quickFixes", None)
    rank_text.divergences(report)
    (site,) = report["regions"][0]["compiler"]["recompileSites"]
    assert site["ranks"] == divergence["ranks"] == [1] and site["inDivergence"] is True
    assert [q["kind"] for q in divergence["quickFixes"]] == ["compile-dynamic"]
    # a site on other ranks than the divergence's is its own finding
    other = copy.deepcopy(report)
    changed = next(d for d in other["divergence"] if d["kind"] == "recompile")
    changed["ranks"] = [0]
    changed.pop("quickFixes")
    for compiler in [other["modes"][0].get("compiler"), *(r.get("compiler") for r in other["regions"])]:
        for s in (compiler or {}).get("recompileSites") or []:
            s.pop("inDivergence", None)
    rank_text.divergences(other)
    assert "inDivergence" not in other["regions"][0]["compiler"]["recompileSites"][0]
    assert "quickFixes" not in changed


def test_a_rank_s_recompiles_say_the_calls_that_set_them_off_where_one_call_recompiled_several_graphs() -> None:
    """Review 8/9/10 A10: rank 1's row read "recompiles 2", then "recompiles 2 at call 3", under the heading's
    "recompiled at call 3 on rank 1": one call recompiled DDP's wrapper and the model's forward, one event. The cell
    and the rank's facts say it as that event, the call and how many compiles it made (not graphs: the wrapper's
    captured none)."""
    report = json.loads((FIXTURES / "ddp-ranks-cpu" / "report.json").read_text())
    rank0, rank1 = report["ranks"]
    assert (rank0["recompiles"], rank1["recompiles"]) == (0, 2)
    assert rank1["recompilesText"] == "recompiled at call 3 (2 compiles)" and "recompilesText" not in rank0
    assert "recompiled at call 3 on rank 1" in report["regions"][0]["facts"]
    assert rank_text.recompile_calls(rank1, report) == "recompiled at call 3 (2 compiles)"
    recompiles = report["regions"][0]["compiler"]["recompiles"]
    # two calls' recompiles: how many calls
    later = copy.deepcopy(report)
    later["regions"][0]["compiler"]["recompiles"][1]["trigger"] = recompiles[1]["trigger"].replace("call 3", "call 5")
    assert rank_text.recompile_calls(rank1, later) is None, "each recompile a call of its own: the count says it"
    later["ranks"][1]["recompiles"] = 3
    later["regions"][0]["compiler"]["recompiles"].append(copy.deepcopy(recompiles[1]))
    assert rank_text.recompile_calls(later["ranks"][1], later) == "recompiled at calls 3 and 5 (3 compiles)"
    # several regions: whose call
    two = copy.deepcopy(report)
    two["regions"].append({**copy.deepcopy(report["regions"][0]), "name": "Other"})
    two["regions"][1]["compiler"]["recompiles"] = []
    assert rank_text.recompile_calls(rank1, two) == "recompiled at call 3 of DistributedDataParallel (2 compiles)"
    # a recompile whose call is not known, or a count the regions' records do not make up: the count alone
    unknown = copy.deepcopy(report)
    unknown["regions"][0]["compiler"]["recompiles"][0]["trigger"] = None
    assert rank_text.recompile_calls(rank1, unknown) is None
    assert rank_text.recompile_calls({**rank1, "recompiles": 4}, report) is None
    # the facts say it as the cell does
    assert rank_text.facts({**rank1}).startswith("2 graphs, 4 graph breaks, recompiled at call 3 (2 compiles), ")
    assert rank1["factsText"].startswith("2 graphs, 4 graph breaks, recompiled at call 3 (2 compiles), ")
    assert rank_text.facts({**rank1, "recompilesText": None}).startswith("2 graphs, 4 graph breaks, 2 recompiles, ")
