"""Region verdicts, pure: compile / stay eager where measured, 'none' with the reason where nothing was."""

from __future__ import annotations

from typing import Any

from compile_lens_runner.script.advice import region_recommendation, script_recommendation


def _measurement(mode: str, speedup: float, why: str = "most-frequent") -> dict[str, Any]:
    return {
        "mode": mode,
        "status": "ok",
        "error": None,
        "speedup": speedup,
        "speedupIqrPct": 2.0,
        "compileSeconds": 4.0,
        "breakEvenCalls": 1200.0,
        "why": why,
        "correctness": {"ok": True, "maxAbsError": 0.0},
    }


def _region(name: str, line: int, measurements: list[dict[str, Any]], reason: str | None = None) -> dict[str, Any]:
    region = {
        "name": name,
        "location": {"file": "/s.py", "line": line},
        "options": {"mode": "default"},
        "measurements": measurements,
        "replay": {"replayable": reason is None, "reason": reason},
    }
    region["recommendation"] = region_recommendation(region)
    return region


def test_a_measured_speedup_recommends_the_mode_it_was_measured_in() -> None:
    as_written = _region("Block", 12, [_measurement("as-written", 1.8), _measurement("as-written", 0.9, why="last")])
    assert as_written["recommendation"]["verdict"] == "compile" and as_written["recommendation"]["mode"] == "default"
    assert "default as written" in as_written["recommendation"]["reason"]  # the wording around it is advice.recommend's
    what_if = _region("Block", 12, [_measurement("as-written", 1.2), _measurement("reduce-overhead", 2.5)])
    assert what_if["recommendation"]["mode"] == "reduce-overhead"


def test_slower_regions_stay_eager_and_unmeasured_ones_get_no_verdict() -> None:
    slow = _region("step", 30, [_measurement("as-written", 0.6)])
    assert slow["recommendation"]["verdict"] == "stay-eager" and slow["recommendation"]["mode"] is None
    once = _region(
        "helper", 40, [], reason="called once: at least 3 calls are needed to measure it (the first compiles)"
    )
    assert once["recommendation"] == {
        "mode": None,
        "verdict": "none",
        "reason": ("No verdict: called once: at least 3 calls are needed to measure it (the first compiles)."),
    }
    fast = _region("Block", 12, [_measurement("as-written", 1.8)])
    summary = script_recommendation([fast, slow, once])
    assert summary["verdict"] == "compile" and summary["mode"] == "default"
    assert summary["reason"] == (
        "Block (line 12): compile (default, 1.80× per call, replayed); step (line 30): stay eager "
        "(0.60× per call, replayed); "
        "helper (line 40): not measured, called once: at least 3 calls are needed to measure it "
        "(the first compiles)."
    )
    nothing = script_recommendation([once])
    assert nothing["verdict"] == "none" and nothing["reason"].startswith("No verdict: helper (line 40): not measured")
    assert script_recommendation([])["verdict"] == "none"


def _in_situ(
    speedup: float, low: float, high: float, break_even: int | None, made: int, failure: dict[str, Any] | None = None
) -> dict[str, Any]:
    return {
        "pairs": 2,
        "step": {"speedup": speedup, "low": low, "high": high, "eagerMs": 10.0, "compiledMs": 10.0 / speedup},
        "compileSeconds": 11.7,
        "breakEvenSteps": break_even,
        "stepsMade": made,
        "failure": failure,
        "regionSeconds": None,
        "reason": None,
    }


def test_the_in_situ_step_decides_weighed_by_the_steps_the_script_made() -> None:
    region = _region(
        "Net",
        5,
        [],
        reason="it changes its buffer bn.running_mean in place, so running it again would change the script's state",
    )
    region["inSitu"] = _in_situ(1.31, 1.2, 1.4, 212, 1000)
    rec = region_recommendation(region)
    assert rec["verdict"] == "compile" and rec["mode"] == "default"
    assert (
        "1.31× per step in situ" in rec["reason"] and "pays back after 212 steps; this run made 1,000" in rec["reason"]
    )
    region["inSitu"] = _in_situ(1.31, 1.2, 1.4, 212, 32)
    rec = region_recommendation(region)
    assert rec["verdict"] == "compile-for-longer-runs" and rec["mode"] == "default"
    assert rec["reason"].startswith(
        "Compile for runs longer than 212 steps (this run made 32): steps are faster compiled"
    )
    region["stoppedAfterCalls"] = 32  # --calls N cut the script short: its own length is not known
    assert region_recommendation(region)["verdict"] == "compile"


def test_a_replayed_break_even_beyond_the_scripts_calls_is_not_a_compile() -> None:
    region = _region("act", 3, [_measurement("as-written", 1.8)])
    region["callCount"] = 40
    rec = region_recommendation(region)
    assert rec["verdict"] == "compile-for-longer-runs" and rec["reason"].startswith(
        "Compile for runs longer than 1,200 calls (this run made 40): "
    )


def test_a_failed_compiled_call_is_never_a_compile() -> None:
    failure = {
        "what": "a branch on a tensor's value (`if y.sum() > 0:`)",
        "fix": "Use torch.where.",
        "location": {"file": "/srv/fails_at_serving.py", "line": 14},
        "index": 3,
    }
    region = _region("serve", 4, [_measurement("as-written", 1.8)])
    region["inSitu"] = _in_situ(1.8, 1.7, 1.9, 10, 100, failure)
    region["recommendation"] = region_recommendation(region)
    assert region["recommendation"]["verdict"] == "none"
    summary = script_recommendation([region, _region("Block", 12, [_measurement("as-written", 1.8)])])
    assert summary["verdict"] == "none" and summary["reason"].startswith(
        "Fix first: a compiled call failed at fails_at_serving.py:14: a branch on a tensor's value"
    )


def test_in_situ_steps_too_noisy_to_decide_leave_the_verdict_to_the_replay() -> None:
    region = _region("Block", 12, [_measurement("as-written", 1.8)])
    region["inSitu"] = _in_situ(1.3, 0.6, 2.0, None, 40)
    rec = region_recommendation(region)
    assert (
        rec["verdict"] == "compile"
        and "(In situ: the script's steps varied too much to decide (1.30× per step" in rec["reason"]
    )
    not_replayable = _region("Net", 5, [], reason="it runs an optimizer step")
    not_replayable["inSitu"] = _in_situ(1.3, 0.6, 2.0, None, 40)
    assert region_recommendation(not_replayable)["reason"].startswith("No verdict: the script's steps varied too much")


def test_a_measurement_too_noisy_for_a_verdict_is_no_verdict_in_the_region_and_the_summary() -> None:
    noisy = dict(_measurement("as-written", 1.07), speedupInterval={"low": 1.01, "high": 128.11})
    region = _region("TinyMLP", 22, [noisy])
    assert region["recommendation"]["verdict"] == "none" and region["recommendation"]["reason"].startswith(
        "No verdict:"
    )
    summary = script_recommendation([region])
    assert summary["verdict"] == "none"
    assert summary["reason"] == "No verdict: TinyMLP (line 22): no verdict, the rounds varied too much to decide."
    assert "stay eager" not in summary["reason"]


def test_a_cuda_graph_mode_recommended_on_cpu_says_its_cuda_graphs_did_nothing() -> None:
    region = _region("Block", 12, [_measurement("as-written", 1.2), _measurement("reduce-overhead", 2.5)])
    assert "CUDA graphs" not in region["recommendation"]["reason"], "no device known: nothing said"
    on_cpu = _region("Block", 12, [_measurement("as-written", 1.2), _measurement("reduce-overhead", 2.5)])
    on_cpu["device"] = "cpu"
    reason = region_recommendation(on_cpu)["reason"]
    assert reason.startswith("Use reduce-overhead") and "On CPU, reduce-overhead's CUDA graphs do nothing" in reason


def test_a_notebook_region_is_named_by_its_cell_and_cell_line() -> None:
    region = _region("Net", 17, [_measurement("as-written", 0.6)])
    region["location"] = {"file": "/nb.ipynb", "line": 2, "cell": 2}
    assert script_recommendation([region])["reason"] == "Net (cell 3, line 2): stay eager (0.60× per call, replayed)."


# The verdict rules, one row per case: (speedup, low, high, break-even steps, steps made) -> verdict, words in the
# region's reason, and words in the script's headline. A verdict never contradicts its number.
VERDICTS = [
    # faster (interval clears 1.05x), pays back within the run
    (
        (1.43, 1.34, 1.51, 212, 1000),
        "compile",
        "pays back after 212 steps; this run made 1,000",
        "compile (default, 1.43× per step in situ (1.34–1.51×))",
    ),
    # faster, pays back only after more steps than the run made: its own verdict, never "stay eager"
    (
        (1.76, 1.27, 1.96, 2358, 60),
        "compile-for-longer-runs",
        "Compile for runs longer than 2,358 steps (this run made 60)",
        "compile for runs longer than 2,358 steps (default, 1.76× per step in situ (1.27–1.96×); this run made 60)",
    ),
    # not faster: the interval stays under 1.05x
    (
        (1.02, 0.98, 1.04, None, 60),
        "stay-eager",
        "compiled steps are not faster",
        "stay eager (1.02× per step in situ (0.98–1.04×))",
    ),
    (
        (0.87, 0.78, 0.95, None, 60),
        "stay-eager",
        "compiled steps are slower",
        "stay eager (0.87× per step in situ (0.78–0.95×))",
    ),
    # the estimate under 1.05x, its interval reaching over it: may be no faster
    (
        (1.01, 0.97, 1.09, None, 60),
        "stay-eager",
        "may be no faster",
        "stay eager (1.01× per step in situ (0.97–1.09×))",
    ),
    # faster by the estimate, not by the interval: no verdict (and the headline says no "stay eager")
    ((1.31, 1.02, 1.44, 500, 160), "none", "may be faster compiled, but not clearly", "no verdict"),
    # too wide to decide
    ((1.09, 0.98, 1.97, None, 60), "none", "varied too much to decide", "no verdict"),
]


def test_the_verdict_rules_table() -> None:
    for (speedup, low, high, after, made), verdict, reason, headline in VERDICTS:
        region = _region("Net", 5, [], reason="it runs an optimizer step")
        region["inSitu"] = dict(_in_situ(speedup, low, high, after, made), method="interleaved", call=None)
        region["inSitu"]["step"].update(pairs=6, comparedBy="signature")
        region["recommendation"] = rec = region_recommendation(region)
        assert rec["verdict"] == verdict, (speedup, low, high, rec)
        assert reason in rec["reason"], rec["reason"]
        summary = script_recommendation([region])
        assert headline in summary["reason"], summary["reason"]
        assert "best" not in summary["reason"]
        if verdict in ("compile", "compile-for-longer-runs"):
            assert rec["mode"] == "default" and summary["verdict"] == verdict
        else:
            assert (rec["mode"] is None and "stay eager" not in summary["reason"]) or verdict == "stay-eager"


def test_a_region_none_of_whose_calls_ran_compiled_code_gets_no_number() -> None:
    region = _region("TransformerEncoder", 9, [], reason="every call ran eagerly")
    region["inSitu"] = {
        "method": "interleaved",
        "pairs": 0,
        "step": None,
        "call": None,
        "failure": None,
        "regionSeconds": {"compiled": 1.0, "eager": 0.03},
        "stepsMade": 60,
        "reason": "no call of it ran compiled code (a graph break): every call ran eagerly, so there is nothing compiled to compare",
    }
    rec = region_recommendation(region)
    assert rec["verdict"] == "none" and "torch.compile made no graph of TransformerEncoder that ran" in rec["reason"]
    assert "x" not in rec["reason"].split("ran:")[0].replace("TransformerEncoder", "")
    assert "no verdict" in script_recommendation([dict(region, recommendation=rec)])["reason"].lower()


def test_in_situ_and_replay_apart_beyond_their_intervals_are_said() -> None:
    region = _region(
        "Block", 12, [dict(_measurement("as-written", 1.9), speedupInterval={"low": 1.8, "high": 2.0, "floorPct": 2.0})]
    )
    region["inSitu"] = dict(
        _in_situ(1.43, 1.34, 1.51, 10, 1000),
        method="interleaved",
        call={"speedup": 1.2, "low": 1.1, "high": 1.3, "eagerMs": 1.2, "compiledMs": 1.0},
    )
    region["inSitu"]["step"].update(pairs=6, comparedBy="signature")
    rec = region_recommendation(region)
    assert (
        rec["verdict"] == "compile"
        and "disagree beyond their intervals: the verdict rests on the in-situ steps" in rec["reason"]
    )
    region["inSitu"]["call"].update(speedup=1.85, low=1.75, high=1.95)
    assert "disagree" not in region_recommendation(region)["reason"]


def test_one_pair_of_interleaved_blocks_is_no_in_situ_verdict() -> None:
    region = _region("Net", 5, [], reason="it runs an optimizer step")
    region["inSitu"] = dict(_in_situ(1.8, 1.7, 1.9, 10, 1000), method="interleaved", call=None)
    region["inSitu"]["step"].update(pairs=1, comparedBy="signature")
    rec = region_recommendation(region)
    assert rec["verdict"] == "none" and "1.8x" not in rec["reason"]
    region["inSitu"]["step"]["pairs"] = 2
    assert region_recommendation(region)["verdict"] == "compile"
