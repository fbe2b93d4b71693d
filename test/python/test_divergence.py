"""Ranks compared on recorded logs (pure, no torchrun): divergence sentences, the merged insight's ranks, and the
hang sentence from recorded stack dumps."""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

from compile_lens_runner.compiler import artifacts as compiler_artifacts
from compile_lens_runner.compiler import explain
from compile_lens_runner.compiler import torch_trace as tt
from compile_lens_runner.compiler.insight import compiler_insight
from compile_lens_runner.ranks import divergence
from compile_lens_runner.ranks.collectives import sequence
from compile_lens_runner.ranks.merge import merge_insights
from compile_lens_runner.ranks.stacks import hang_sentence, main_thread, state
from compile_lens_runner.script import region_entry
from conftest import REPO

LOGS = REPO / "test" / "fixtures" / "logs"
HANG = REPO / "test" / "fixtures" / "ranks-hang"
STRAGGLER = REPO / "test" / "fixtures" / "traces" / "ranks" / "straggler"
TRAIN_LINE = 75  # bench/scripts/ddp_train.py when the logs were recorded: loss = train_model(x).square().mean()


def _insight(rank: int) -> dict[str, Any]:
    """A rank's script-mode insight from its recorded log (bench/scripts/ddp_train.py --diverge-step 3, 2 ranks, gloo):
    rank 1 trained step 3 on 8 rows instead of 16."""
    records = [r for r in tt.parse((LOGS / f"ddp-diverge-rank{rank}.log").read_text()) if r.mode == "script"]
    insight = compiler_insight(records, lambda record: None, cudagraphs=False)
    insight["phases"] = compiler_artifacts.phases(records)
    return insight


def _ranks(*, regions: bool = True) -> list[dict[str, Any]]:
    recorded = json.loads((LOGS / "ddp-diverge-regions.json").read_text())
    return [
        {
            "rank": rank,
            "compiler": _insight(rank),
            "regions": recorded[str(rank)] if regions else [],
            "collectives": None,
        }
        for rank in (0, 1)
    ]


def test_the_planted_recompile_is_one_sentence_at_the_users_line() -> None:
    found = divergence.find(_ranks())
    [recompile] = [d for d in found if d["severity"] == "error"]
    assert recompile["kind"] == "recompile" and recompile["ranks"] == [1]
    assert recompile["location"]["line"] == TRAIN_LINE and recompile["location"]["file"].endswith("ddp_train.py")
    assert recompile["message"] == (
        "rank 1 recompiled DistributedDataParallel at call 3 — input 'x' changed size in dimension 0 from 16 to 8 — "
        "rank 0 did not: the ranks ran different graphs"
    )
    # DDP's frame saw the same change on its args[0]: said once, in the user's forward's words, with its fix
    assert "mark_dynamic(x, 0)" in recompile["details"]["fix"]
    assert recompile["details"]["call"] == 3 and recompile["details"]["counts"] == {"0": 0, "1": 1}
    # rank 1 also compiled one graph more: the recompile says why, so no second sentence says it again
    assert not any(d["kind"] == "graph-count" for d in found)


def test_the_call_that_recompiled_says_the_users_change_not_ddps_view_of_it() -> None:
    """Review 25 D6: rank 1's call 3 recompiled DDP's forward (its args[0]) and the user's forward (x) on one change;
    the call's failed guard (the story's, the chart's) is the user's frame's, as its finding says it."""
    records = [r for r in tt.parse((LOGS / "ddp-diverge-rank1.log").read_text()) if r.mode == "script"]
    ids = sorted({r.compile_id for r in records if r.compile_id})
    own = region_entry.RegionRecords(SimpleNamespace(compile_ids=ids), records)  # type: ignore[arg-type]
    assert sorted(own.recompiles) == ["0/1", "4/1"]  # DDP's frame first, then the user's forward
    said = region_entry._recompile_reason(["0/1", "4/1"], own)
    assert said is not None and said[0] == "tensor 'x' size mismatch at index 0. expected 16, actual 8"
    assert explain.guard_sentence(*said) == "input 'x' changed size in dimension 0 from 16 to 8"


def test_without_region_calls_each_recompiled_frame_is_named_at_its_line() -> None:
    found = [d for d in divergence.find(_ranks(regions=False)) if d["kind"] == "recompile"]
    assert sorted(d["location"]["line"] for d in found) == [42, TRAIN_LINE]
    assert all(d["ranks"] == [1] and "rank 0 did not" in d["message"] and "at call" not in d["message"] for d in found)


def test_the_same_logs_on_every_rank_do_not_diverge() -> None:
    same = [{"rank": rank, "compiler": _insight(0), "regions": [], "collectives": None} for rank in (0, 1, 2)]
    assert divergence.find(same) == []


def test_a_graph_break_on_one_rank_only() -> None:
    ranks = _ranks()
    ranks[0]["compiler"] = dict(ranks[0]["compiler"], graphBreaks=ranks[0]["compiler"]["graphBreaks"][:1])
    [gap] = [d for d in divergence.find(ranks) if d["kind"] == "graph-break"]
    assert gap["ranks"] == [1] and gap["message"].startswith(f"rank 1 broke the graph at ddp_train.py:{TRAIN_LINE} — ")
    assert gap["message"].endswith("— rank 0 did not: the ranks ran different graphs")


def test_graph_counts_are_compared_when_nothing_else_explains_them() -> None:
    insight = _insight(0)
    ranks = [
        {"rank": r, "compiler": dict(insight, graphCount=n), "regions": [], "collectives": None}
        for r, n in ((0, 1), (1, 1), (2, 3))
    ]
    [count] = divergence.find(ranks)
    assert count["kind"] == "graph-count" and count["ranks"] == [2]
    assert count["message"] == "ranks 0, 1 compiled 1 graph; rank 2 compiled 3 graphs: the ranks ran different graphs"


def test_a_cache_hit_on_one_rank_and_a_miss_on_another_is_a_warning() -> None:
    insight = _insight(0)
    hit = [p for p in insight["phases"] if p.get("cache") == "hit"]
    assert hit, "the recorded rank 0 loaded its graphs from the FX graph cache"
    missed = dict(
        insight, phases=[dict(p, cache="miss", cacheHit=False) if p.get("cache") else p for p in insight["phases"]]
    )
    found = divergence.find(
        [
            {"rank": 0, "compiler": insight, "regions": [], "collectives": None},
            {"rank": 1, "compiler": missed, "regions": [], "collectives": None},
        ]
    )
    assert all(d["kind"] == "cache" and d["severity"] == "warning" and d["ranks"] == [1] for d in found) and len(
        found
    ) == len({p["compileId"] for p in hit})
    assert found[0]["message"] == (
        "forward was loaded from the AOT autograd cache on rank 0 and compiled afresh on rank 1 (miss): the same "
        "graph, more compile time on rank 1"
    )


def test_a_backwards_cache_hit_is_no_hit_for_the_forward_compiled_afresh() -> None:
    """ddp-ranks-cpu (H200 host's CPU, 2026-11-30): rank 0's compile 4/0 missed the FX graph cache for its forward
    (47 s of codegen) and hit it for its backward; rank 1 missed both. Its last lookup alone said "forward was loaded
    from the FX graph cache on rank 0 and compiled afresh on rank 1"."""
    phase = {"compileId": "4/0", "name": "FX graph cache", "startMs": 0.0, "durMs": 0.0, "depth": 0}
    rank0 = {"phases": [dict(phase, cache="miss"), dict(phase, cache="hit")]}
    rank1 = {"phases": [dict(phase, cache="miss"), dict(phase, cache="miss")]}
    [found] = divergence.find(
        [
            {"rank": r, "compiler": insight, "regions": [], "collectives": None}
            for r, insight in ((0, rank0), (1, rank1))
        ]  # type: ignore[misc]
    )
    assert "loaded from" not in found["message"]
    assert found["message"].endswith("the FX graph cache hit for 1 of its 2 lookups on rank 0, miss on rank 1")


def test_collective_sequences_from_rank_traces() -> None:
    rank0 = sequence(str(STRAGGLER / "rank0.trace.json"))
    rank1 = sequence(str(STRAGGLER / "rank1.trace.json"))
    assert [c["name"] for c in rank0] == ["c10d::allreduce_"] * 3 and [c["step"] for c in rank0] == [0, 1, 2]
    assert [c["name"] for c in rank1] == [c["name"] for c in rank0]
    agree = [{"rank": r, "compiler": None, "regions": [], "collectives": s} for r, s in ((0, rank0), (1, rank1))]
    assert divergence.find(agree) == []
    skipped = [
        {"rank": 0, "compiler": None, "regions": [], "collectives": rank0},
        {
            "rank": 1,
            "compiler": None,
            "regions": [],
            "collectives": [*rank1[:1], {"name": "c10d::broadcast_", "step": 1}],
        },
        {"rank": 2, "compiler": None, "regions": [], "collectives": rank0},
    ]
    [differ] = divergence.find(skipped)
    assert differ["kind"] == "collectives" and differ["ranks"] == [1]
    assert differ["message"] == (
        "the ranks' collectives differ in the profiled steps (rank 0 issued 3; rank 1 issued 2; rank 2 issued 3); the first "
        "difference is collective #2: rank 0 c10d::allreduce_, rank 1 c10d::broadcast_, rank 2 c10d::allreduce_ — a "
        "collective not matched on every rank hangs the job or mixes up its data"
    )


def test_merged_insight_names_the_ranks_of_each_finding() -> None:
    merged = merge_insights([(1, _insight(1)), (0, _insight(0))])
    assert merged["graphCount"] == 1  # rank 0's numbers head the merged insight
    assert [b["ranks"] for b in merged["graphBreaks"]] == [[0, 1], [0, 1]]
    assert [r["ranks"] for r in merged["recompiles"]] == [[1], [1]]
    # compile ids are each rank's own numbering: rank 1's, seen on no other rank, are not passed off as rank 0's
    assert [r["compileId"] for r in merged["recompiles"]] == [None, None]
    # DDP's frame and the user's forward recompiled on one change of x: one finding, at the user's forward
    assert [(s["ranks"], s["location"]["function"]) for s in merged["recompileSites"]] == [([1], "forward")]


def _states() -> dict[int, dict[str, Any] | None]:
    return {rank: state(main_thread((HANG / f"rank{rank}.stacks.txt").read_text())) for rank in (0, 1)}


def test_an_older_runners_rank_reports_merge_in_todays_words() -> None:
    # an attached job's folder (test/fixtures/attach-2x2) as the runner of schema 1.15 wrote it: its recompiles said
    # "(16 -> 8)", which inspect showed beside today's "from 16 to 8" (the fixture's words are re-derived: put back);
    # merged, each finding is said from its guard failure and break pattern as the runner says them now, in the
    # library frame the old sentence named
    ranks = REPO / "test" / "fixtures" / "attach-2x2" / "job" / "ranks"
    text = [(ranks / f"rank{r}" / "report.json").read_text().replace("from 16 to 8;", "(16 -> 8);") for r in range(4)]
    reports = [json.loads(t) for t in text]
    recorded = reports[1]["regions"][0]["compiler"]
    assert all("(16 -> 8)" in r["explanation"]["what"] for r in recorded["recompiles"])
    merged = merge_insights([(r, report["regions"][0]["compiler"]) for r, report in enumerate(reports)])
    assert [r["explanation"]["what"] for r in merged["recompiles"]] == [
        "A tensor made inside library code you called (PyTorch code) changed size in dimension 0 from 16 to 8; the "
        "compiled code had been specialised to 16, so it was recompiled for 8. The call's input 'x' changed size in "
        "dimension 0 from 16 to 8, which caused it.",
        "Input 'x' changed size in dimension 0 from 16 to 8; the compiled code had been specialised to 16, so it was "
        "recompiled for 8.",
    ]
    assert [r["ranks"] for r in merged["recompiles"]] == [[1, 3], [1, 3]]
    # one change of the user's input, recompiled by both of the call's parts (around DDP's graph breaks): one finding
    [site] = merged["recompileSites"]
    assert site["explanation"] == {
        **merged["recompiles"][1]["explanation"],
        "what": "Input 'x' changed size in dimension 0 from 16 to 8; the compiled code had been specialised to 16, so "
        "the call recompiled 2 parts of it (the graphs around its graph breaks) for 8.",
    }
    # DDP's breaks in the runner's sentence for their pattern
    assert [b["explanation"]["pattern"] for b in merged["graphBreaks"]] == ["ddp-internals", "ddp-internals"]


def test_a_hang_is_named_from_the_ranks_stacks() -> None:
    """Recorded from fixtures/ranks-hang/hang.py: rank 1 sleeps before the all_reduce rank 0 waits in."""
    states = _states()
    assert states[0]["waitingIn"] == "all_reduce" and states[0]["location"]["line"] == 10
    assert states[1]["waitingIn"] is None and states[1]["location"]["line"] == 9
    assert (
        hang_sentence(states)
        == "rank 0 is waiting in all_reduce at hang.py:10; rank 1 never reached it (it is at hang.py:9)."
    )
    assert hang_sentence({0: states[0], 1: None}) == (
        "rank 0 is waiting in all_reduce at hang.py:10; rank 1 did not answer the request for its Python stack."
    )


def test_ranks_waiting_in_different_collectives() -> None:
    waiting = _states()[0]
    other = dict(waiting, waitingIn="barrier", location=dict(waiting["location"], line=12))
    assert hang_sentence({0: waiting, 1: other}) == (
        "rank 0 is waiting in all_reduce at hang.py:10; rank 1 is waiting in barrier at hang.py:12: the ranks wait in "
        "different collectives."
    )


def test_a_rank_whose_script_failed_after_it_was_told_to_stop_is_stopped() -> None:
    """On a timeout both ranks get SIGTERM; the one blocked in all_reduce may see its peer go and fail before its own
    snapshot: that failure is the stop's consequence (a fresh-clone CI run saw it), while a rank that failed on its
    own before any stop is an error."""
    from compile_lens_runner.ranks.merge import RankRun

    def status(exit_record: dict[str, Any]) -> str:
        return RankRun(rank=0, report={}, how="final", exit=exit_record, stacks=None).status

    assert status({"code": 1, "stopped": True}) == "stopped"
    assert status({"code": 1, "stopped": False}) == status({"code": 1}) == "error"
    assert status({"code": 0, "stopped": True}) == "ok"


def test_a_recompile_that_joined_its_lines_site_gives_the_site_its_ranks() -> None:
    """graphbreak-cpu's two recompiles at line 24 are one site (recompile_sites._joined: the second guarded at ModuleList's
    `idx = operator.index(idx)`); on a job where each rank had one of them, the site was on both ranks."""
    report = json.loads((REPO / "test" / "fixtures" / "reports" / "graphbreak-cpu" / "report.json").read_text())
    first, joined = report["modes"][0]["compiler"]["recompiles"]
    insight = {"graphCount": 1, "graphBreaks": [], "compileSeconds": {"total": 0.0}}
    merged = merge_insights([(0, {**insight, "recompiles": [first]}), (1, {**insight, "recompiles": [joined]})])
    assert [(s["count"], s["ranks"]) for s in merged["recompileSites"]] == [(2, [0, 1])]
