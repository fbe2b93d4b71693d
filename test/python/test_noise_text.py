"""Review 14R R7: "No verdict: too noisy to say, 1.07× … It varied too much to decide" named no cause. The sentence
says what varied, from the times the number rests on, and never a range a next run may land in (issue 44)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from compile_lens_runner.report import noise_text, reason_text

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def test_a_replay_too_noisy_to_decide_says_each_sides_rounds() -> None:
    report = json.loads((FIXTURES / "reports" / "script-kernels-cpu" / "report.json").read_text())
    mlp = report["regions"][1]
    answer = mlp["answer"]
    assert answer["verdict"] == "none" and answer["number"]["tooNoisy"]["why"] == "range-too-wide"
    said = (
        "It varied too much to decide: eager's slowest of 9 rounds took 180× as long as its fastest, compiled's 1.65×. "
        "Profile again when the host is quieter, or with more --rounds."
    )
    assert [r["text"] for r in answer["reasons"] if r["code"] == "too-noisy-to-decide"] == [said]
    assert said in answer["sentence"]
    # the range too wide to say stays unsaid (its high end, 128×, nowhere)
    assert "128" not in answer["sentence"]


def test_the_side_that_varied_the_more_is_said_first_and_a_side_without_rounds_not_at_all() -> None:
    m: Any = {"timing": {"rounds": [1.23, 9.87]}, "eagerTiming": {"rounds": [2.05, 2.21, 2.13]}}
    number: Any = {"kind": "target-rounds", "unit": "call", "n": 3, "value": 1.0, "index": 0}
    assert noise_text.what_varied(number, None, [m]) == (
        "compiled's slowest of 2 rounds took 8.02× as long as its fastest, eager's 1.08×"
    )
    assert noise_text.what_varied(number, None, [{**m, "eagerTiming": None}]) == (
        "compiled's slowest of 2 rounds took 8.02× as long as its fastest"
    )
    assert noise_text.what_varied(number, None, [{"timing": {"rounds": [1.0]}}]) is None
    assert noise_text.what_varied({**number, "index": 3}, None, [m]) is None


def test_in_situ_too_noisy_to_decide_says_its_blocks_ratios() -> None:
    in_situ: Any = {"pairs": 4, "step": {"pairRatios": [0.41, 1.2, 2.9, 1.0]}}
    number: Any = {"kind": "in-situ-step", "unit": "step", "n": 40, "value": 1.1}
    said = noise_text.what_varied(number, in_situ, [])
    assert said == "its 4 pairs of eager and compiled blocks gave ratios from 0.41× to 2.90×"
    assert noise_text.what_varied({**number, "kind": "in-situ-call"}, in_situ, []) is None  # no call ratios
    # only the too-noisy reason is given it; with none said, the sentence as before
    reasons: Any = [{"code": "too-noisy-to-decide"}, {"code": "slower"}]
    noise_text.say_what_varied(reasons, number, in_situ, [])
    assert reasons[0]["what"] == said and "what" not in reasons[1]
    assert reason_text.sentence(reasons[0]).startswith(f"It varied too much to decide: {said}. Profile again")
    assert reason_text.sentence({"code": "too-noisy-to-decide"}) == (
        "It varied too much to decide: profile again when the host is quieter, or with more --rounds."
    )
