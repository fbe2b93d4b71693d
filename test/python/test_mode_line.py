"""A target mode's measurement in one line (report/mode_line.py, schema 1.25: `measuredText`), as the CLI shows it: the
answer's words for its number, then its times, counts and costs. On recorded reports: no torch."""

from __future__ import annotations

import copy
import json
from pathlib import Path

from compile_lens_runner.report import answer, mode_line

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "reports"


def test_a_measured_mode_says_its_number_in_the_answer_s_words_then_its_times_counts_and_costs() -> None:
    report = json.loads((FIXTURES / "graphbreak-cpu" / "report.json").read_text())
    line = (
        "default: 1.30× per call with default, 20.7 ms/call vs eager 27.1 ms in the same rounds, kernels/step 15 → 12, "
        "6 graphs, 3 graph breaks, 2 recompiles, compile 3.4 s, break-even after 537 calls"
    )
    assert report["modes"][0]["measuredText"] == line  # the fixture carries it (scripts/rederive_fixtures.py)
    del report["modes"][0]["measuredText"]
    answer.attach(report)
    assert report["modes"][0]["measuredText"] == line
    # with a range, the eager it rests on is the fastest rounds of the interleaved pairs
    ranged = {**report["answer"]["number"], "low": 1.2, "high": 1.4, "text": "1.30× per call with default (1.20–1.40×)"}
    said = mode_line.line(report["modes"][0], ranged, report["eager"]["kernelsPerStep"])
    assert said.startswith(
        "default: 1.30× per call with default (1.20–1.40×), 20.7 ms/call vs eager 27.1 ms, fastest rounds of 3 "
        "interleaved pairs, kernels/step 15 → 12, "
    )


def test_a_mode_without_a_number_of_the_answer_s_has_no_line() -> None:
    report = json.loads((FIXTURES / "graphbreak-cpu" / "report.json").read_text())
    failed = copy.deepcopy(report)
    failed["modes"][0]["status"] = "error"
    del failed["modes"][0]["measuredText"]
    mode_line.attach(failed, failed["answer"])
    assert "measuredText" not in failed["modes"][0]
    other = copy.deepcopy(report)
    del other["modes"][0]["measuredText"]
    mode_line.attach(other, {**other["answer"], "number": None, "evidence": []})
    assert "measuredText" not in other["modes"][0]
