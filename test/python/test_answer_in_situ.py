"""The answer of a region measured in situ (report/answer.py): its steps decide, weighed by the steps the script made;
the verdict rules on a step's speedup and range; a launch-bound eager's or a CPU's range caveat; steps that decide
nothing, or are too short for Compile Lens's own work, are the answer still, the replay said beside them as evidence
(constructed regions)."""

from __future__ import annotations

from typing import Any

import pytest
from compile_lens_runner.report import reason_text
from test_answer import _in_situ, _measurement, _region, codes, region_answer


def test_the_in_situ_step_decides_weighed_by_the_steps_the_script_made() -> None:
    region = _region("Net", 5, [], reason="it changes its buffer bn.running_mean in place")
    region["inSitu"] = _in_situ(1.31, 1.2, 1.4, 212, 1000)
    a = region_answer(region)
    assert a["verdict"] == "compile" and a["mode"] == "default" and a["number"]["kind"] == "in-situ-step"
    assert (
        a["headline"]
        == "compile it: 1.31× per step in situ (1.20–1.40×) · pays back after about 210 steps, this run made 1,000"
    )
    # the in-situ cost is the compiled warm-up's time beyond eager steps, not the compiler's count: said as what it is
    assert "The 11.7 s its compiled warm-up took beyond eager steps pays back after about 210 steps" in a["sentence"]
    region["inSitu"] = _in_situ(1.31, 1.2, 1.4, 212, 32)
    assert region_answer(region)["verdict"] == "compile-for-longer-runs"
    region["stoppedAfterCalls"] = 32  # --calls N cut the script short: its own length is not known
    assert region_answer(region)["verdict"] == "compile"


def test_a_launch_bound_eager_s_in_situ_range_says_the_host_move_it_holds_after_the_number() -> None:
    """The floor itself is measure/interleaved.host_share's (test_in_situ_interleaved.py); the answer says it beside the
    number, in the verdict's sentence, and leaves the headline to the verdict."""
    region = _region("Net", 5, [], reason="its inputs cannot be replayed safely")
    region["inSitu"] = {
        **_in_situ(1.74, 1.49, 2.0, 212, 1000),
        "hostShare": {"eagerPct": 97.0, "calls": 40, "launchBound": True, "floorPct": 14.6},
    }
    a = region_answer(region)
    assert codes(a)[-1] == "launch-bound-range" and a["verdict"] == "compile"
    said = (
        "A launch-bound eager (its host time 97% of its GPU time): the range holds a host that moves ±15% between runs."
    )
    assert a["reasons"][-1]["text"] == said and a["sentence"].endswith(said)
    assert "launch-bound" not in a["headline"]
    region["inSitu"]["hostShare"] = {"eagerPct": 20.0, "calls": 40, "launchBound": False, "floorPct": None}
    assert "launch-bound-range" not in codes(region_answer(region))


def test_a_number_timed_on_a_cpu_says_its_range_holds_a_next_process_once_beside_the_verdict() -> None:
    """The floor itself is measure/estimator.cpu_floor_pct's (test_estimator_cpu.py)."""
    region = _region("Net", 5, [], reason="its inputs cannot be replayed safely")
    region["inSitu"] = _in_situ(1.38, 1.18, 1.59, 212, 1000)
    region["device"] = "cpu"
    a = region_answer(region)
    said = "Timed on a CPU: the range allows a next process ±15% away."
    assert codes(a).count("cpu-host-range") == 1 and a["sentence"].endswith(said)
    assert "CPU" not in a["headline"]
    # a many-core host's larger move between processes is said from 8 CPUs, as the range's caveat, with what it means
    # for the verdict; never on a 2-CPU host (review 9C C5, 9E E2: "Stay eager …, a many-core CPU can move more (up to
    # 3× …)" on 2 CPUs, voiding its verdict unsaid)
    load = {
        "cpus": 2,
        "threads": 1,
        "samples": 10,
        "contendedSamples": 0,
        "othersRunning": None,
        "loadAverage": None,
        "stealPct": None,
        "contended": False,
        "reason": None,
        "fix": None,
    }
    region["inSitu"]["hostLoad"] = load
    assert region_answer(region)["sentence"].endswith(said)
    region["inSitu"]["hostLoad"] = {**load, "cpus": 16}
    assert region_answer(region)["sentence"].endswith(
        "Timed on 16 CPUs: the range allows a next process ±15% away, but a many-core CPU can move more (up to 3× "
        "between processes of one script on a 16-core VM), so the range is this process's: where a second profile's "
        "range agrees with it, the answer holds on this host."
    )
    region["device"] = "cuda"
    assert "cpu-host-range" not in codes(region_answer(region))


# (speedup, low, high, break-even steps, steps made) -> verdict, its reason code. A verdict never contradicts its number.
VERDICTS = [
    ((1.43, 1.34, 1.51, 212, 1000), "compile", "pays-back-after"),
    ((1.76, 1.27, 1.96, 2358, 60), "compile-for-longer-runs", "pays-back-after"),  # never "stay eager"
    ((1.02, 0.98, 1.04, None, 60), "stay-eager", "not-faster"),
    ((0.87, 0.78, 0.95, None, 60), "stay-eager", "slower"),
    ((1.01, 0.97, 1.09, None, 60), "stay-eager", "may-be-no-faster"),
    ((1.31, 1.02, 1.44, 500, 160), "none", "not-clearly-faster"),
    ((1.09, 0.98, 1.97, None, 60), "none", "too-noisy-to-decide"),
    ((0.42, 0.25, 0.61, None, 60), "stay-eager", "slower"),  # too wide to size, slower in every reading (8A A4)
]


@pytest.mark.parametrize(("numbers", "verdict", "code"), VERDICTS)
def test_the_in_situ_verdict_rules(
    numbers: tuple[float, float, float, int | None, int], verdict: str, code: str
) -> None:
    region = _region("Net", 5, [], reason="it runs an optimizer step")
    region["inSitu"] = _in_situ(*numbers)
    a = region_answer(region)
    assert a["verdict"] == verdict and codes(a)[0] == code, a
    noisy = "too noisy to say, " if code == "too-noisy-to-decide" else ""  # said before a number too noisy to stand by
    assert a["headline"].startswith(f"{reason_text.VERDICT_WORDS[verdict]}: {noisy}{numbers[0]:.2f}× per step in situ")
    assert (a["mode"] == "default") == (verdict in ("compile", "compile-for-longer-runs"))


def test_in_situ_steps_slower_in_every_reading_of_a_range_too_wide_to_say_stay_eager() -> None:
    """The script's own steps, 0.094× with a range wholly below 1× but too wide to say (review 8A A4): they decide
    stay eager on the direction, over a replay's, and say no size; a busy host's steps decide nothing, and are still
    the answer's number."""
    region = _region("Block", 12, [_measurement("as-written", 1.8, low=1.7, high=1.9)])
    region["inSitu"] = _in_situ(0.094, 0.0002, 0.5, None, 60)
    a = region_answer(region)
    assert a["verdict"] == "stay-eager" and a["number"]["kind"] == "in-situ-step" and codes(a)[0] == "slower"
    assert a["headline"].startswith("stay eager: slower by a noisy amount, 0.094× per step in situ")
    region["inSitu"]["hostLoad"] = {"contended": True, "reason": "other processes ran", "fix": "profile later"}
    a = region_answer(region)
    assert a["verdict"] == "none" and a["number"]["kind"] == "in-situ-step"
    assert codes(a) == ["host-contended", "replay-beside"] and a["reasons"][1]["kind"] == "compile"


def _beside(a: dict[str, Any]) -> dict[str, Any]:
    [reason] = [r for r in a["reasons"] if r["code"] == "replay-beside"]
    return reason


def test_steps_that_decide_nothing_are_the_answer_and_a_decisive_replay_is_said_beside_them() -> None:
    """An H200's decode loop read "stay eager: 1.21× per call replayed (1.04–1.38×)" in one process and "no verdict:
    1.15× per step in situ, not clearly faster" in the next: the replay led wherever the steps decided nothing. The
    steps' number is the answer's wherever there are enough of them, their verdict theirs; the replay, timed apart
    from the script's steps, is a reason with its number, its range and what it alone would say."""
    region = _region("Block", 12, [_measurement("as-written", 1.02, low=0.98, high=1.04)])
    region["inSitu"] = _in_situ(1.15, 1.01, 1.30, None, 400)
    a = region_answer(region)
    assert a["verdict"] == "none" and a["mode"] is None
    assert a["number"]["kind"] == "in-situ-step" and a["number"]["value"] == 1.15
    assert codes(a) == ["not-clearly-faster", "near-the-bar", "replay-beside"]
    beside = _beside(a)
    assert {k: beside[k] for k in ("kind", "value", "low", "high", "what")} == {
        "kind": "stay-eager",
        "value": 1.02,
        "low": 0.98,
        "high": 1.0404,  # floored: never zero-width (the replay's own ±2%)
        "what": "not faster compiled",
    }
    assert a["headline"] == "no verdict: 1.15× per step in situ (1.01–1.30×) · not clearly faster · near the 1.05× bar"
    assert a["sentence"] == (
        "No verdict: 1.15× per step in situ (1.01–1.30×). Compiled may be faster, but not clearly: the range does not "
        "clear 1.05×. Its range's low end 1.01× falls short of the 1.05× bar by under 5%: a next run may say compile. The replay, timed apart from the script's own steps: 1.02× per call replayed (0.98–1.04×), which "
        "alone would say stay eager (not faster compiled); the answer rests on the script's own steps."
    )
    # the replay's number is evidence, labelled as a replay, never a second answer
    assert [n["kind"] for n in a["evidence"]] == ["replay-call"]
    # a replay that would say "compile it" is said so, beside steps too noisy to decide
    region["measurements"] = [_measurement("as-written", 1.8, low=1.7, high=1.9)]
    region["inSitu"] = _in_situ(1.3, 0.6, 2.0, None, 40)
    a = region_answer(region)
    assert a["verdict"] == "none" and a["number"]["kind"] == "in-situ-step"
    assert a["headline"] == "no verdict: too noisy to say, 1.30× per step in situ (0.60–2.00×)"
    assert _beside(a)["kind"] == "compile" and "which alone would say compile it (pays back after" in a["sentence"]
    # a replay deciding nothing either is said as that
    region["measurements"] = [_measurement("as-written", 1.1, low=0.5, high=2.4)]
    assert (
        "1.10× per call replayed (0.50–2.40×), which decides nothing either (too noisy to decide)"
        in (region_answer(region)["sentence"])
    )
    # no replay: why not, beside the steps
    alone = _region("Net", 5, [], reason="it runs an optimizer step")
    alone["inSitu"] = _in_situ(1.3, 0.6, 2.0, None, 40)
    a = region_answer(alone)
    assert (
        a["verdict"] == "none"
        and a["number"]["kind"] == "in-situ-step"
        and codes(a) == ["too-noisy-to-decide", "replay-not-possible"]
    )


def test_steps_too_short_for_compile_lens_s_own_work_give_no_verdict_on_their_own_number() -> None:
    """In situ eager pays torch.compile's wrapper at the eager stance and the observer's work around each call: where
    that could change the verdict (ownCost), the steps decide nothing, however clear their range, and their number
    is the answer's still, the caveat said after it; a replay is said beside it."""
    region = _region("Block", 12, [_measurement("as-written", 0.6, low=0.55, high=0.65)])
    region["inSitu"] = _in_situ(1.43, 1.34, 1.51, 212, 1000)
    assert region_answer(region)["verdict"] == "compile"  # the same steps without the tool's cost said
    region["inSitu"]["ownCost"] = {"ms": 0.05, "eagerMs": 0.2, "pct": 25.0, "unit": "step"}
    a = region_answer(region)
    assert a["verdict"] == "none" and a["number"]["kind"] == "in-situ-step"
    assert codes(a) == ["in-situ-own-cost", "replay-beside"] and _beside(a)["kind"] == "stay-eager"
    assert a["headline"] == (
        "no verdict: 1.43× per step in situ (1.34–1.51×) · eager's 0.2 ms per step is too short to time in situ"
    )
    assert "at the eager stance each call still passes through torch.compile's wrapper" in a["sentence"]
    assert "0.60× per call replayed (0.55–0.65×), which alone would say stay eager" in a["sentence"]
    alone = _region("Net", 5, [], reason="it runs an optimizer step")
    alone["inSitu"] = {**region["inSitu"]}
    a = region_answer(alone)
    assert a["verdict"] == "none" and a["number"]["kind"] == "in-situ-step" and codes(a)[0] == "in-situ-own-cost"


def test_too_few_steps_leave_the_verdict_to_the_replay() -> None:
    """Fewer than answer.MIN_STEADY_STEPS steps (or pairs of blocks) rest no verdict: the replay decides, and says
    so (unchanged by the steps' number leading wherever there are enough)."""
    region = _region("Block", 12, [_measurement("as-written", 1.8, low=1.7, high=1.9)])
    region["inSitu"] = _in_situ(1.3, 0.6, 2.0, None, 40)
    region["inSitu"]["step"]["samples"] = 2
    a = region_answer(region)
    assert a["verdict"] == "compile" and a["number"]["kind"] == "replay-call"
    assert "in-situ-too-few" in codes(a) and "replay-beside" not in codes(a)


@pytest.mark.parametrize(
    ("numbers", "verdict", "code"),
    [(n, v, c) for n, v, c in VERDICTS if c in ("not-faster", "slower", "may-be-no-faster", "not-clearly-faster")][:4],
)
def test_a_replay_s_range_decides_by_the_in_situ_rule(
    numbers: tuple[float, float, float, int | None, int], verdict: str, code: str
) -> None:
    """One rule for one range, however it was measured: an H200's decode loop read "stay eager: 1.21× per call
    replayed (1.04–1.38×)" in one process and "no verdict" on its steps' 1.52× (0.99–1.75×) in the next."""
    value, low, high = numbers[:3]
    a = region_answer(_region("Block", 12, [_measurement("as-written", value, low=low, high=high)]))
    assert a["number"]["kind"] == "replay-call" and (a["verdict"], codes(a)[0]) == (verdict, code), a


def test_the_tool_s_own_cost_on_eager_withholds_only_a_verdict_it_could_change() -> None:
    """An H200 server's steps: 0.94× (0.78–1.08×) at eager's 1.47 ms a step, "stay eager"; the next process, its host
    2× faster, 0.95× (0.81–1.09×) at 0.767 ms, "no verdict" (the tool's 50 µs a call past 5% of the step). Less that
    cost, eager's step makes the number lower still: the verdict holds, and says so."""
    region = _region("Net", 5, [], reason="it runs an optimizer step")
    region["inSitu"] = _in_situ(0.95, 0.81, 1.09, None, 240)
    region["inSitu"]["ownCost"] = {"ms": 0.05, "eagerMs": 0.767, "pct": 6.5, "unit": "step"}
    a = region_answer(region)
    assert a["verdict"] == "stay-eager" and a["number"]["kind"] == "in-situ-step"
    assert codes(a)[:2] == ["may-be-no-faster", "in-situ-own-cost-holds"]
    assert "without that much, the verdict would be the same" in a["sentence"]
    assert "too short to time" not in a["headline"]
    # a number the cost could move across 1.05×: no verdict, as before
    region["inSitu"] = _in_situ(1.43, 1.34, 1.51, 212, 1000)
    region["inSitu"]["ownCost"] = {"ms": 0.05, "eagerMs": 0.2, "pct": 25.0, "unit": "step"}
    assert region_answer(region)["verdict"] == "none"


def test_one_pair_of_blocks_gives_no_range_and_no_verdict_and_says_so_before_its_number() -> None:
    region = _region("Net", 5, [], reason="it runs an optimizer step")
    region["inSitu"] = _in_situ(1.8, 1.7, 1.9, 10, 1000, pairs=1)
    a = region_answer(region)
    assert a["verdict"] == "none" and a["number"]["tooNoisy"] == {"why": "too-few-pairs"} and "low" not in a["number"]
    assert a["headline"].startswith("no verdict: too few blocks to say, 1.80× per step in situ (1 block each way)")
    region["inSitu"] = _in_situ(1.8, 1.7, 1.9, 10, 1000, pairs=2)
    assert region_answer(region)["verdict"] == "compile"
