"""A verdict decided by a hair says so (report/verdict.near_the_bar): an H200's decode loop profiled twice read "no
verdict: 1.24× per step in situ (1.02–1.66×)" and "compile for longer runs: 1.27× (1.08–1.46×)", 2.5 % apart, because
each range's low end sat within a few % of the 1.05× bar. Each keeps its verdict and says a next run may give the other,
in situ, replayed and for a target's modes alike (constructed numbers and regions)."""

from __future__ import annotations

from typing import Any

import pytest
from compile_lens_runner import formats
from compile_lens_runner.report import verdict
from compile_lens_runner.shapes.answer import AnswerNumber
from test_answer import _in_situ, _measurement, _region, answered, codes, fixture, region_answer


def _number(value: float, low: float, high: float) -> AnswerNumber:
    return verdict.directed(
        verdict.ranged({"kind": "in-situ-step", "unit": "step", "n": 40, "value": value}, low, high), False
    )


def _near(a: dict[str, Any]) -> dict[str, Any]:
    """The answer's near-the-bar reason; {} where it has none."""
    return next((r for r in a["reasons"] if r["code"] == "near-the-bar"), {})


# (value, low, high) -> the verdict a next run may give, or None where the verdict is not decided by a hair
NEAR = [
    ((1.24, 1.02, 1.66), "compile"),  # the H200's "no verdict"
    ((1.27, 1.08, 1.46), "none"),  # and its "compile for longer runs"
    ((1.5, 1.3, 1.7), None),  # clears the bar by far
    ((1.02, 0.98, 1.06), None),  # stays eager on its value, its low end 7 % under the bar
    ((1.04, 1.0, 1.09), None),  # stays eager on its value, however near its low end
    ((1.2, 1.05, 1.3), "none"),  # its low end on the bar: compile, by nothing at all
    ((1.05, 1.0, 1.1), "compile"),  # its value on the bar: not clearly faster
    ((1.2, 1.1025, 1.3), "none"),  # 5 % over the bar, the edge
    ((1.2, 1.1026, 1.3), None),
    ((1.1, 0.9975, 1.2), "compile"),  # 5 % under the bar, the edge
    ((1.1, 0.9974, 1.2), None),
    ((1.3, 1.02, 2.5), None),  # too wide to decide anything: no bar to be near
]


@pytest.mark.parametrize(("numbers", "other"), NEAR)
def test_a_low_end_within_5_percent_of_the_bar_says_the_verdict_a_next_run_may_give(
    numbers: tuple[float, float, float], other: str | None
) -> None:
    number = _number(*numbers)
    short = verdict.short_of_useful(number)
    decision = verdict.Decision(short[0], number, [short[1]]) if short else verdict.Decision("compile", number)
    said = [r for r in verdict.near_the_bar(decision) if r["code"] == "near-the-bar"]
    assert [r.get("mayGive") for r in said] == ([other] if other else [])
    if other:
        assert said[0]["low"] == numbers[1] and said[0]["value"] == verdict.MIN_USEFUL_SPEEDUP


def test_two_in_situ_profiles_either_side_of_the_bar_tell_one_story() -> None:
    region = _region("Decode", 7, [], reason="it runs an optimizer step")
    region["inSitu"] = _in_situ(1.24, 1.02, 1.66, None, 400)
    undecided = region_answer(region)
    region["inSitu"] = _in_situ(1.27, 1.08, 1.46, 5000, 400)
    longer = region_answer(region)
    assert (undecided["verdict"], longer["verdict"]) == ("none", "compile-for-longer-runs")  # verdicts unchanged
    assert codes(undecided)[:2] == ["not-clearly-faster", "near-the-bar"]
    assert codes(longer)[:2] == ["pays-back-after", "near-the-bar"]
    for a in (undecided, longer):
        assert a["headline"].endswith(" · near the 1.05× bar") and len(a["headline"]) <= 200
    assert _near(undecided)["text"] == (
        "Its range's low end 1.02× falls short of the 1.05× bar by under 5%: a next run may say compile."
    )
    assert _near(longer)["text"] == (
        "Its range's low end 1.08× clears the 1.05× bar by under 5%: a next run may say not clearly faster."
    )
    assert _near(longer)["text"] in longer["sentence"]
    region["inSitu"] = _in_situ(1.5, 1.3, 1.7, 212, 1000)
    assert not _near(region_answer(region))


def test_a_replay_and_a_target_s_modes_near_the_bar_say_so_too() -> None:
    replayed = region_answer(_region("Block", 12, [_measurement("as-written", 1.27, low=1.08, high=1.46)]))
    assert replayed["number"]["kind"] == "replay-call" and replayed["verdict"] in ("compile", "compile-for-longer-runs")
    assert _near(replayed)["mayGive"] == "none"
    undecided = region_answer(_region("Block", 12, [_measurement("as-written", 1.24, low=1.02, high=1.66)]))
    assert undecided["verdict"] == "none" and _near(undecided)["mayGive"] == "compile"
    report = fixture("graphbreak-cpu")
    report["modes"] = [_measurement("default", 1.24, low=1.02, high=1.66)]
    a = answered(report)["answer"]
    assert a["verdict"] == "none" and codes(a)[:2] == ["not-clearly-faster", "near-the-bar"]
    report["modes"] = [_measurement("default", 1.02, low=0.98, high=1.06)]
    assert not _near(answered(report)["answer"])


@pytest.mark.parametrize(
    ("low", "said"),
    [
        (1.0495, "Its range's low end 1.0495× falls short of the 1.05× bar by under 5%: a next run may say compile."),
        (
            1.0505,
            "Its range's low end 1.0505× clears the 1.05× bar by under 5%: a next run may say not clearly faster.",
        ),
        (1.05, "Its range's low end 1.05× clears the 1.05× bar by under 5%: a next run may say not clearly faster."),
    ],
)
def test_a_low_end_a_hair_from_the_bar_is_said_to_the_digits_that_tell_it_from_the_bar(low: float, said: str) -> None:
    """Code read 38 (1): a low of 1.0495 read "Its range's low end 1.05× falls short of the 1.05× bar"."""
    region = _region("Decode", 7, [], reason="it runs an optimizer step")
    region["inSitu"] = _in_situ(1.08, low, 1.12, 5, 400)
    assert _near(region_answer(region))["text"] == said


def test_the_fewest_digits_that_keep_a_speedup_from_another() -> None:
    assert [formats.speedup_apart(v, 1.05) for v in (1.0495, 1.0505, 1.05, 1.2, 1.049)] == [
        "1.0495×",
        "1.0505×",
        "1.05×",
        "1.20×",
        "1.049×",
    ]


def test_no_near_the_bar_beside_a_no_verdict_a_failure_gave() -> None:
    """Code read 38 (5): a target whose other mode timed out, the measured one 1.08× (1.06–1.12×): "no verdict" from the
    failure, and no "a next run may say not clearly faster" beside it; a compile near the bar still says it."""
    report = fixture("graphbreak-cpu")
    report["modes"] = [_measurement("default", 1.08, low=1.06, high=1.12)]
    assert _near(answered(report)["answer"])["mayGive"] == "none"
    report["status"] = "timeout"
    report["error"] = {"kind": "timeout", "message": "the run timed out", "fix": None}
    a = answered(report)["answer"]
    assert a["verdict"] == "none" and codes(a)[0] == "failed" and not _near(a)
    report["modes"] = [_measurement("default", 1.24, low=1.02, high=1.66)]  # not clearly faster, and failed
    assert not _near(answered(report)["answer"])
