"""A torchrun job's compile phases are every rank's (schema 1.38 rankPhases, ranks/merge.rank_phases): ranks whose
phases are alike one group drawn once, each group's heading its own compiles, what made no graph and the total its
rows add up to (review 10H H3: the DDP page drew rank 0's alone under "script: 5 compiles (1 graph), 55.1 s", and
rank 1's 2-s recompile, the one compile that explained the divergence, had no row)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from compile_lens_runner.logs import inspect
from compile_lens_runner.ranks import merge
from compile_lens_runner.report import answer, compiler_text

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def _rows_s(compiler: dict[str, Any]) -> float:
    """What a group's rows add up to: each compile's outermost phases (webview/compilePhases.ts compileRowsMs)."""
    return sum(p["durMs"] for p in compiler["phases"] if p["depth"] == 0 and not p.get("cache")) / 1000


def test_the_ddp_jobs_compile_phases_are_each_ranks_with_rank_1s_recompile() -> None:
    report = json.loads((FIXTURES / "reports" / "ddp-ranks-cpu" / "report.json").read_text())
    groups = report["modes"][0]["compiler"]["rankPhases"]
    assert [g["ranks"] for g in groups] == [[0], [1]]
    rank0, rank1 = (g["compiler"] for g in groups)
    assert rank0["phasesText"].startswith(
        "5 compiles (1 graph; 4 made no graph: 3 stopped at a graph break, 1 resumed after a graph break) on "
        "rank 0, 55.1 s"
    )
    assert rank1["phasesText"].startswith(
        "7 compiles (2 graphs; 5 made no graph: 4 stopped at a graph break, 1 resumed after a graph break) on "
        "rank 1, 57.0 s"
    )
    # rank 1's recompiles have rows of their own: compiles rank 0 never made
    ids = [{p["compileId"] for p in c["phases"]} for c in (rank0, rank1)]
    assert ids[1] - ids[0] == {"0/1", "4/1"}
    for group, said in ((g, g["compiler"]["phasesText"]) for g in groups):
        total = group["compiler"]["compileSeconds"]["total"]
        assert abs(_rows_s(group["compiler"]) - total) < 0.05 * total, said
    # each compile's region, by that rank's own numbering
    assert groups[1]["regions"]["4/1"] == report["regions"][0]["name"]


def test_ranks_alike_are_one_group_whose_heading_says_whose_and_what_made_no_graph(tmp_path: Path) -> None:
    """attach-2x2: ranks 1 and 3 recompiled at the training line, ranks 0 and 2 did not."""
    report = inspect.inspect([str(FIXTURES / "attach-2x2" / "job")], str(tmp_path))
    answer.attach(report)  # as document.write says it
    script = next(m for m in report["modes"] if m["mode"] == "script")
    groups = script["compiler"]["rankPhases"]
    assert [g["ranks"] for g in groups] == [[0, 2], [1, 3]]
    said = [g["compiler"]["phasesText"] for g in groups]
    assert said[0].startswith(
        "5 compiles (1 graph; 4 made no graph: 3 captured nothing in torch.compile's wrapper of your module and Python's contextlib.py, 1 resumed after a graph break) "
        "on ranks 0 and 2, "
    ), said
    assert said[1].startswith(
        "7 compiles (2 graphs; 5 made no graph: 4 captured nothing in torch.compile's wrapper of your module and Python's contextlib.py, 1 resumed after a graph break) "
        "on ranks 1 and 3, "
    )
    # the lowest rank's rows are drawn, its total said; the other's total beside it
    entries = {e["rank"]: e for e in report["ranks"]}
    for group, text in zip(groups, said, strict=True):
        first, other = group["ranks"]
        assert f", {compiler_text.formats.seconds(entries[first]['compileSeconds'])}" in text
        assert text.endswith(
            f"; rank {first}'s drawn (rank {other}'s alike, "
            f"{compiler_text.formats.seconds(entries[other]['compileSeconds'])})"
        ), text
        assert group["compiler"]["compileSeconds"]["total"] == entries[first]["compileSeconds"]


def test_ranks_whose_phases_differ_are_not_grouped_and_a_rank_without_phases_has_none() -> None:
    rank = json.loads((FIXTURES / "attach-2x2" / "job" / "ranks" / "rank0" / "report.json").read_text())
    insight = rank["modes"][0]["compiler"]
    slower = copy.deepcopy(insight)
    for phase in slower["phases"]:
        phase["durMs"] *= 2  # times aside: alike
    renamed = copy.deepcopy(insight)
    renamed["phases"][-1]["name"] = "Inductor: something else"
    groups = merge.rank_phases([(2, slower), (0, insight), (1, renamed), (3, {**insight, "phases": []})], {})
    assert [g["ranks"] for g in groups] == [[0, 2], [1]]
    assert groups[0]["compiler"]["phases"] == insight["phases"]  # the lowest rank's drawn
    assert "rankPhases" not in groups[0]["compiler"] and "kernels" not in groups[0]["compiler"]


def test_a_group_of_many_ranks_says_the_others_totals_as_their_range() -> None:
    rank = json.loads((FIXTURES / "attach-2x2" / "job" / "ranks" / "rank0" / "report.json").read_text())
    insight = rank["modes"][0]["compiler"]
    entries: list[Any] = [{"rank": k, "compileSeconds": 5.0 + k / 10, "graphCount": 1} for k in range(64)]
    said = compiler_text.phases_text(insight, entries, list(range(64)))
    assert (
        said is not None
        and " on each rank, " in said
        and said.endswith("; rank 0's drawn (ranks 1-63 alike, 5.1–11.3 s)")
    )
    # a rank that recorded no total: none said, not a range that leaves it out
    entries[5]["compileSeconds"] = None
    assert (compiler_text.phases_text(insight, entries, [0, 5, 6]) or "").endswith(
        "; rank 0's drawn (ranks 5, 6 alike)"
    )
