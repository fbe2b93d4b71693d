"""A torchrun job's region heading (its headline and facts) and its rank rows count one thing: each graph or graph
break count the heading says names whose it is, and is what those ranks' rows say (s29: ddp-ranks-cpu's "3 graph
breaks" over rows of 2, attach-2x2's merged 3 over ranks 1 and 3's 4, "1 graph on rank 0 · 3 breaks")."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from compile_lens_runner.logs import inspect
from compile_lens_runner.report import answer, rank_text

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"

# "1 graph and 3 graph breaks on ranks 0 and 2", "2 graphs on each rank", "1–2 graphs and 3–4 graph breaks per rank",
# "1 graph and 3 graph breaks (in compiles that made no graph) on rank 0"
_COUNTED = re.compile(
    r"(\d+)(?:–(\d+))? graphs?(?: and (\d+)(?:–(\d+))? graph breaks?(?: \(in (?:a compile|compiles) that made no graph\))?)?"
)
_WHOSE = re.compile(r" (on each rank|on ranks? [\d, and-]+|per rank)$")
_ANY_COUNT = re.compile(r"\b\d+(?:–\d+)? (?:graphs?|graph breaks?|breaks?)\b")


def _ranks(said: str, every: list[int]) -> list[int]:
    """ "on ranks 0-2 and 5" -> [0, 1, 2, 5]; "on each rank", "per rank" -> every rank."""
    if said in ("on each rank", "per rank"):
        return every
    out: list[int] = []
    for part in re.split(r", | and ", said.removeprefix("on ").removeprefix("ranks ").removeprefix("rank ")):
        low, _, high = part.partition("-")
        out += range(int(low), int(high or low) + 1)
    return out


def disagreements(phrases: list[str], rows: dict[int, tuple[int | None, int | None]]) -> list[str]:
    """Each phrase of a heading that counts graphs or graph breaks without saying whose, or says a count those ranks'
    rows (rank: (graphs, graph breaks)) do not."""
    wrong = []
    for phrase in phrases:
        if not _ANY_COUNT.search(phrase) or "call" in phrase:  # "6 calls", "recompiled at call 3 on rank 1"
            continue
        whose = _WHOSE.search(phrase)
        counted = _COUNTED.fullmatch(phrase[: whose.start()]) if whose else None
        if whose is None or counted is None:
            wrong.append(f"{phrase!r}: whose count is it?")
            continue
        low_graphs, high_graphs, low_breaks, high_breaks = counted.groups()
        for rank in _ranks(whose.group(1), sorted(rows)):
            graphs, breaks = rows[rank]
            if not int(low_graphs) <= (graphs or 0) <= int(high_graphs or low_graphs):
                wrong.append(f"{phrase!r}: rank {rank}'s row says {graphs} graphs")
            if not int(low_breaks or 0) <= (breaks or 0) <= int(high_breaks or low_breaks or 0):
                wrong.append(f"{phrase!r}: rank {rank}'s row says {breaks} graph breaks")
    return wrong


def _ddp() -> dict[str, Any]:
    return json.loads((FIXTURES / "reports" / "ddp-ranks-cpu" / "report.json").read_text())


def _attach_2x2(tmp_path: Path) -> dict[str, Any]:
    report = inspect.inspect([str(FIXTURES / "attach-2x2" / "job")], str(tmp_path))
    answer.attach(report)  # as document.write says it
    return report


@pytest.mark.parametrize("fixture", ["ddp-ranks-cpu", "attach-2x2"])
def test_a_merged_heading_counts_as_its_rank_rows_do(fixture: str, tmp_path: Path) -> None:
    report = _ddp() if fixture == "ddp-ranks-cpu" else _attach_2x2(tmp_path)
    (region,) = report["regions"]  # one region: each rank row's counts are that region's
    rows = {e["rank"]: (e["graphCount"], e["graphBreaks"]) for e in report["ranks"]}
    headline = region["headline"].split(" · ")[1:]  # after the verdict
    assert disagreements(region["facts"], rows) == disagreements(headline, rows) == []
    assert report["headline"] == f"{region['headline']} — {region['label']}"


def test_attach_2x2_says_each_ranks_count(tmp_path: Path) -> None:
    """Ranks 1 and 3 trained step 3 on half the batch: they recompiled, made a second graph and broke once more."""
    report = _attach_2x2(tmp_path)
    (region,) = report["regions"]
    # review 15 U3: each in a DDP frame that made no graph (rank 1's fourth in its recompile of DDP's wrapper); review
    # 16 X7: said after each count, not as a clause of its own
    assert region["facts"][1:4] == [
        "1 graph and 3 graph breaks (in compiles that made no graph) on ranks 0 and 2",
        "2 graphs and 4 graph breaks (in compiles that made no graph) on ranks 1 and 3",
        "recompiled at call 3 on ranks 1 and 3",
    ]
    assert [(r["rank"], r["regions"][0]["graphBreaks"]) for r in report["ranks"]] == [(0, 3), (1, 4), (2, 3), (3, 4)]


def test_the_check_fails_on_the_headings_reviewers_found() -> None:
    """Before s29: a count said without whose (attach-2x2's merged "3 graph breaks"), and a count said as rank 0's
    that is not (ddp-ranks-cpu's rows of 2 under "3")."""
    rows = {0: (1, 3), 1: (2, 4), 2: (1, 3), 3: (2, 4)}
    assert disagreements(["1 graph on rank 0", "3 graph breaks"], rows) == [
        "'1 graph on rank 0': rank 0's row says 3 graph breaks",  # a heading leaves breaks out where no rank had one
        "'3 graph breaks': whose count is it?",
    ]
    assert disagreements(["3 breaks"], rows) == ["'3 breaks': whose count is it?"]
    assert disagreements(["1 graph and 3 graph breaks on each rank"], rows) == [
        "'1 graph and 3 graph breaks on each rank': rank 1's row says 2 graphs",
        "'1 graph and 3 graph breaks on each rank': rank 1's row says 4 graph breaks",
        "'1 graph and 3 graph breaks on each rank': rank 3's row says 2 graphs",
        "'1 graph and 3 graph breaks on each rank': rank 3's row says 4 graph breaks",
    ]
    assert disagreements(["1 graph and 3 graph breaks on rank 0"], {0: (1, 2)}) == [
        "'1 graph and 3 graph breaks on rank 0': rank 0's row says 2 graph breaks"
    ]
    assert disagreements(["1–2 graphs and 3–4 graph breaks per rank"], rows) == []


def _entry(rank: int, counts: tuple[int, int] | None) -> dict[str, Any]:
    region: dict[str, Any] = {"id": "r0", "name": "Model", "callCount": 6}
    if counts is not None:
        region.update(graphCount=counts[0], graphBreaks=counts[1], recompiles=0)
    return {"rank": rank, "regions": [region]}


def test_region_counts_say_whose_they_are() -> None:
    same = [_entry(r, (1, 0)) for r in range(4)]
    assert rank_text.region_counts("r0", same) == ["1 graph on each rank"]
    assert rank_text.region_counts("r1", same) == []  # no rank counted a region r1
    two = [_entry(0, (1, 0)), _entry(1, (2, 1)), _entry(2, (1, 0))]
    assert rank_text.region_counts("r0", two) == [
        "1 graph and 0 graph breaks on ranks 0 and 2",
        "2 graphs and 1 graph break on rank 1",
    ]
    # a rank that wrote no report is not named: the rest are not "each rank"
    assert rank_text.region_counts("r0", [*same[:3], _entry(3, None)]) == ["1 graph on ranks 0-2"]
    # more differing counts than a heading can list: their range per rank
    many = [_entry(r, (1 + r % 4, r)) for r in range(8)]
    assert rank_text.region_counts("r0", many) == ["1–4 graphs and 0–7 graph breaks per rank"]
    assert rank_text.region_counts("r0", [*many, _entry(8, None)]) == [
        "1–4 graphs and 0–7 graph breaks per rank on ranks 0-7"
    ]


def test_a_merged_break_says_each_ranks_count_at_its_line(tmp_path: Path) -> None:
    """attach-2x2's one site at the training line: the merged count was rank 0's 3, said "3 graph breaks at this line"
    beside "on all 4 ranks" while ranks 1 and 3 broke there 4 times. Each rank's count is kept (rankCounts) and said
    with whose it is, on the site every surface lists and on each break under it."""
    report = _attach_2x2(tmp_path)
    compiler = report["regions"][0]["compiler"]
    (site,) = compiler["breakSites"]
    assert site["rankCounts"] == {"0": 3, "1": 4, "2": 3, "3": 4}
    assert site["countText"] == "3 graph breaks at this line on ranks 0 and 2, 4 on ranks 1 and 3"
    assert (
        [b["countText"] for b in compiler["graphBreaks"]]
        == [
            "1 graph break at this line on ranks 0 and 2, 2 on ranks 1 and 3",  # DDP's Logger call, again after the recompile
            "2 graph breaks at this line on each rank",
        ]
    )
    # the site's counts on each rank are what the ranks' rows count
    rows = {str(e["rank"]): e["regions"][0]["graphBreaks"] for e in report["ranks"]}
    assert site["rankCounts"] == rows


def test_a_job_read_from_its_logs_counts_each_rank_as_its_row_does(tmp_path: Path) -> None:
    """fixtures/logs/ddp-diverge-rank{0,1}.log: the rows counted one break per site (2 and 2) under the compiler's
    "3 graph breaks at 1 site", said as the job's; rank 1 broke there 4 times."""
    logs = [str(FIXTURES / "logs" / f"ddp-diverge-rank{rank}.log") for rank in (0, 1)]
    report = inspect.inspect(logs, str(tmp_path))
    answer.attach(report)
    assert [(e["graphCount"], e["graphBreaks"], e["recompiles"]) for e in report["ranks"]] == [(1, 3, 0), (2, 4, 2)]
    assert report["modes"][0]["compiler"]["countsText"] == (
        "1 graph, 3 graph breaks and 0 recompiles on rank 0; 2 graphs, 4 graph breaks and 2 recompiles on rank 1; "
        "0 failed compiles and 0 restarts across the ranks"
    )


def test_a_rank_of_several_regions_says_each_ones_counts_beside_its_script_wide_row() -> None:
    """A row's graphs and breaks are the rank's whole script's; under two regions' headings each region's count is in
    the row too, so the heading's numbers are there to read."""
    two: Any = {
        "rank": 1,
        "graphCount": 3,
        "graphBreaks": 5,
        "regions": [
            {"id": "r0", "name": "Encoder", "callCount": 6, "graphCount": 1, "graphBreaks": 3, "recompiles": 0},
            {"id": "r1", "name": "Head", "callCount": 6, "graphCount": 2, "graphBreaks": 2, "recompiles": 1},
        ],
    }
    assert rank_text.regions(two) == [
        "Encoder: 6 calls, 1 graph, 3 graph breaks",
        "Head: 6 calls, 2 graphs, 2 graph breaks",
    ]
    assert rank_text.region_counts("r1", [two]) == ["2 graphs and 2 graph breaks on rank 1"]
    one = {**two, "regions": two["regions"][:1]}  # one region: the row's counts are its
    assert rank_text.regions(one) == ["Encoder: 6 calls"]
