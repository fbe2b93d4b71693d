"""Region verdicts, pure: compile / stay eager where measured, 'none' with the reason where nothing was."""
from __future__ import annotations

from typing import Any

from compile_lens_runner.script.advice import region_recommendation, script_recommendation


def _measurement(mode: str, speedup: float, why: str = "most-frequent") -> dict[str, Any]:
    return {"mode": mode, "status": "ok", "error": None, "speedup": speedup, "speedupIqrPct": 2.0, "compileSeconds": 4.0,
            "breakEvenCalls": 1200.0, "why": why, "correctness": {"ok": True, "maxAbsError": 0.0}}


def _region(name: str, line: int, measurements: list[dict[str, Any]], reason: str | None = None) -> dict[str, Any]:
    region = {"name": name, "location": {"file": "/s.py", "line": line}, "options": {"mode": "default"},
              "measurements": measurements, "replay": {"replayable": reason is None, "reason": reason}}
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
    once = _region("helper", 40, [], reason="called once: at least 3 calls are needed to measure it (the first compiles)")
    assert once["recommendation"] == {"mode": None, "verdict": "none", "reason": (
        "No verdict: called once: at least 3 calls are needed to measure it (the first compiles).")}
    fast = _region("Block", 12, [_measurement("as-written", 1.8)])
    summary = script_recommendation([fast, slow, once])
    assert summary["verdict"] == "compile" and summary["mode"] == "default"
    assert summary["reason"] == ("Block (line 12): compile (default, 1.80x); step (line 30): stay eager (best 0.60x); "
                                 "helper (line 40): not measured, called once: at least 3 calls are needed to measure it "
                                 "(the first compiles).")
    nothing = script_recommendation([once])
    assert nothing["verdict"] == "none" and nothing["reason"].startswith("No verdict: helper (line 40): not measured")
    assert script_recommendation([])["verdict"] == "none"


def _in_situ(speedup: float, low: float, high: float, break_even: int | None, made: int, failure: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"pairs": 2, "step": {"speedup": speedup, "low": low, "high": high, "eagerMs": 10.0, "compiledMs": 10.0 / speedup},
            "compileSeconds": 11.7, "breakEvenSteps": break_even, "stepsMade": made, "failure": failure, "regionSeconds": None,
            "reason": None}


def test_the_in_situ_step_decides_weighed_by_the_steps_the_script_made() -> None:
    region = _region("Net", 5, [], reason="it changes its buffer bn.running_mean in place, so running it again would change the script's state")
    region["inSitu"] = _in_situ(1.31, 1.2, 1.4, 212, 1000)
    rec = region_recommendation(region)
    assert rec["verdict"] == "compile" and rec["mode"] == "default"
    assert "1.31x per step in situ" in rec["reason"] and "pays back after 212 steps; this run made 1,000" in rec["reason"]
    region["inSitu"] = _in_situ(1.31, 1.2, 1.4, 212, 32)
    rec = region_recommendation(region)
    assert rec["verdict"] == "stay-eager" and "pays back after 212 steps and this run made 32" in rec["reason"]
    region["stoppedAfterCalls"] = 32  # --calls N cut the script short: its own length is not known
    assert region_recommendation(region)["verdict"] == "compile"


def test_a_replayed_break_even_beyond_the_scripts_calls_is_not_a_compile() -> None:
    region = _region("act", 3, [_measurement("as-written", 1.8)])
    region["callCount"] = 40
    rec = region_recommendation(region)
    assert rec["verdict"] == "stay-eager" and "this script made 40 calls" in rec["reason"]


def test_a_failed_compiled_call_is_never_a_compile() -> None:
    failure = {"what": "a branch on a tensor's value (`if y.sum() > 0:`)", "fix": "Use torch.where.",
               "location": {"file": "/srv/fails_at_serving.py", "line": 14}, "index": 3}
    region = _region("serve", 4, [_measurement("as-written", 1.8)])
    region["inSitu"] = _in_situ(1.8, 1.7, 1.9, 10, 100, failure)
    region["recommendation"] = region_recommendation(region)
    assert region["recommendation"]["verdict"] == "none"
    summary = script_recommendation([region, _region("Block", 12, [_measurement("as-written", 1.8)])])
    assert summary["verdict"] == "none" and summary["reason"].startswith(
        "Fix first: a compiled call failed at fails_at_serving.py:14: a branch on a tensor's value")


def test_in_situ_steps_too_noisy_to_decide_leave_the_verdict_to_the_replay() -> None:
    region = _region("Block", 12, [_measurement("as-written", 1.8)])
    region["inSitu"] = _in_situ(1.3, 0.6, 2.0, None, 40)
    rec = region_recommendation(region)
    assert rec["verdict"] == "compile" and "(In situ: the script's steps varied too much to decide (1.3x per step" in rec["reason"]
    not_replayable = _region("Net", 5, [], reason="it runs an optimizer step")
    not_replayable["inSitu"] = _in_situ(1.3, 0.6, 2.0, None, 40)
    assert region_recommendation(not_replayable)["reason"].startswith("No verdict: the script's steps varied too much")


def test_a_measurement_too_noisy_for_a_verdict_is_no_verdict_in_the_region_and_the_summary() -> None:
    noisy = dict(_measurement("as-written", 1.07), speedupInterval={"low": 1.01, "high": 128.11})
    region = _region("TinyMLP", 22, [noisy])
    assert region["recommendation"]["verdict"] == "none" and region["recommendation"]["reason"].startswith("No verdict:")
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
    assert script_recommendation([region])["reason"] == "Net (cell 3, line 2): stay eager (best 0.60x)."
