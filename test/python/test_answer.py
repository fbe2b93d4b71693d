"""The answer, decided once (report/answer.py) and said in one place (report/sentences.py): per region and per report a
verdict, the one number it rests on, its reasons as codes; the headline and the sentence every surface shows."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from compile_lens_runner.report import answer, in_situ_text, reason_text

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def fixture(name: str) -> dict[str, Any]:
    return json.loads((FIXTURES / (name if "/" in name else f"reports/{name}") / "report.json").read_text())


# real runs (test/fixtures/recorded/README.md): train_small.py's four regions; the e2e workspace's notebook
TRAIN_SMALL, NOTEBOOK = "recorded/train_small-cpu", "recorded/explore-cpu"


def answered(report: dict[str, Any]) -> dict[str, Any]:
    answer.attach(report)
    return report


def _measurement(
    mode: str, speedup: float, why: str = "most-frequent", low: float = 0.0, high: float = 0.0
) -> dict[str, Any]:
    m: dict[str, Any] = {
        "mode": mode,
        "status": "ok",
        "error": None,
        "speedup": speedup,
        "compileSeconds": 4.0,
        "breakEvenCalls": 4000.0 / (2.0 - 2.0 / speedup) if speedup > 1 else None,  # compile over the time saved
        "why": why,
        "correctness": {"ok": True, "maxAbsError": 0.0},
        "eagerTiming": {"rounds": [1.0] * 12, "medianMs": 2.0, "estimateMs": 2.0},
        "timing": {"rounds": [1.0] * 12, "medianMs": 2.0 / speedup, "estimateMs": 2.0 / speedup},
    }
    if low:
        m["speedupInterval"] = {"low": low, "high": high, "floorPct": 2.0}
    return m


def _region(
    name: str, line: int, measurements: list[dict[str, Any]], reason: str | None = None, calls: int = 5000
) -> dict[str, Any]:
    return {
        "id": "r0",
        "name": name,
        "location": {"file": "/s.py", "line": line},
        "options": {"mode": "default"},
        "callCount": calls,
        "calls": [],
        "measurements": measurements,
        "replay": {"replayable": reason is None, "reason": reason},
    }


def _in_situ(
    speedup: float,
    low: float,
    high: float,
    break_even: int | None,
    made: int,
    failure: dict[str, Any] | None = None,
    pairs: int = 12,  # ranges.FEW_BLOCK_PAIRS: a range that needs no word on its pairs
) -> dict[str, Any]:
    return {
        "method": "interleaved",
        "pairs": pairs,
        "step": {
            "speedup": speedup,
            "low": low,
            "high": high,
            "eagerMs": 10.0,
            "compiledMs": 10.0 / speedup,
            "samples": 40,
            "pairs": pairs,
            "comparedBy": "signature",
        },
        "call": None,
        "compileSeconds": 11.7,
        "breakEvenSteps": break_even,
        "stepsMade": made,
        "failure": failure,
        "regionSeconds": None,
        "reason": None,
    }


def region_answer(region: dict[str, Any], failed: dict[str, Any] | None = None) -> dict[str, Any]:
    return dict(answer.region_answer(region, failed))  # type: ignore[arg-type]


def codes(a: dict[str, Any]) -> list[str]:
    return [r["code"] for r in a["reasons"]]


# --- targets ----------------------------------------------------------------------------------------------------


def test_a_target_says_the_verdict_its_number_with_mode_and_range_then_its_facts() -> None:
    report = fixture("graphbreak-cpu")
    report["modes"][0]["speedupInterval"] = {"low": 1.25, "high": 1.36, "floorPct": 2.0}
    a = answered(report)["answer"]
    assert a["verdict"] == "compile" and a["mode"] == "default" and a["number"]["kind"] == "target-rounds"
    assert report["headline"] == (
        "compile it: 1.30× per call with default (1.25–1.36×) · pays back after about 1,800 calls · 6 graphs · 3 breaks · "
        "2 recompiles · compile 3.45 s + 270 ms recompiling"
    )
    assert report["recommendation"] == {"mode": "default", "verdict": "compile", "reason": a["sentence"]}
    assert (
        a["sentence"]
        == "Compile: 1.30× per call with default (1.25–1.36×). Its 3.45 s compile pays back after about 1,800 calls. "
        "Timed on a CPU: the range allows a next process ±15% away."
    )  # a report that recorded no host's CPUs: no many-core caveat (review 9C C5)


def test_a_number_a_backend_without_kernels_measured_says_it_is_dynamos_cost() -> None:
    """backend="eager" (recorded: print_step-cpu's region) compiles nothing to kernels: its speedup says so beside it,
    in the headline and the sentence; the same region as Inductor, and a target given --backend eager, likewise. On a
    CPU what Inductor generates is C++ functions, as every other CPU surface says (review 19X X3 / 19Y Y3: "generates
    kernels" on a CPU-only page); on a GPU, kernels."""
    recorded = json.loads((FIXTURES / "recorded" / "print_step-cpu" / "report.json").read_text())
    region = recorded["regions"][0]
    assert region["options"]["backend"] == "eager" and region["answer"]["number"] is not None
    assert region["device"] == "cpu"
    assert " · backend eager: no C++ functions · " in region["answer"]["headline"]
    assert "Backend eager compiles nothing to C++ functions: " in region["answer"]["sentence"]
    assert "Inductor (the default backend) generates fused C++ functions." in region["answer"]["sentence"]
    assert "kernel" not in region["answer"]["sentence"]
    on_gpu = json.loads(json.dumps(recorded))
    on_gpu["regions"][0]["device"] = "cuda"
    gpu = answered(on_gpu)["regions"][0]["answer"]
    assert " · backend eager: no kernels · " in gpu["headline"]
    assert "Backend eager compiles nothing to kernels: " in gpu["sentence"]
    assert "Inductor (the default backend) generates kernels." in gpu["sentence"] and "C++" not in gpu["sentence"]
    region["options"]["backend"] = "inductor"
    assert "backend-no-kernels" not in [r["code"] for r in answered(recorded)["regions"][0]["answer"]["reasons"]]
    target = fixture("graphbreak-cpu")
    target["settings"]["backend"] = "aot_eager"
    # its clause past the headline's length on a CPU: said in the sentence, in full
    assert "Backend aot_eager compiles nothing to C++ functions: " in answered(target)["answer"]["sentence"]
    target["environment"]["device"] = "cuda"
    assert "backend aot_eager: no kernels" in answered(target)["headline"]


def test_a_pay_back_is_the_one_the_times_beside_it_give_never_a_recorded_one() -> None:
    """reportA D1: "pays back after 537 calls" beside 8.25 vs 6.37 ms/call, whose 3.4 s compile pays back after 1,835:
    the 537 was an older estimator's breakEvenCalls (its medians' 27.13 vs 20.70 ms)."""
    report = fixture("graphbreak-cpu")
    report["modes"][0]["breakEvenCalls"] = 536.6
    a = answered(report)["answer"]
    number, pays = a["number"], next(r for r in a["reasons"] if r["code"] == "pays-back-after")
    assert (number["eagerMs"], number["compiledMs"]) == (8.245887, 6.366572)
    assert pays["steps"] == math.ceil(3447.6 / (8.245887 - 6.366572)) == 1835


@pytest.mark.parametrize("name", ["graphbreak-cpu", "script-in-situ-cpu"])
def test_every_pay_back_a_fixture_says_is_its_numbers_compile_over_the_time_it_saves(name: str) -> None:
    report = fixture(name)
    if name == "script-in-situ-cpu":  # its replay's range as recorded before the CPU floor (1.01–1.37×: stay eager)
        region = report["regions"][0]
        region["measurements"][0]["speedupInterval"].update({"low": 1.12, "high": 1.26})
        for steps in (region["inSitu"]["step"], region["inSitu"]["call"]):  # too few: the replay is the answer's
            steps["samples"] = answer.MIN_STEADY_STEPS - 1
    report = answered(report)
    answers = [report["answer"], *(r["answer"] for r in report.get("regions") or [])]
    said = [(a["number"], r) for a in answers for r in a["reasons"] if r["code"] == "pays-back-after"]
    assert said
    for number, pays in said:
        saved_ms = number["eagerMs"] - number["compiledMs"]
        assert pays["steps"] == math.ceil(pays["seconds"] * 1000 / saved_ms), (number, pays)


def test_a_target_with_nothing_measured_says_why_and_a_failed_run_its_error_first() -> None:
    counter = answered(fixture("counter-cpu"))
    assert counter["answer"]["verdict"] == "none" and codes(counter["answer"]) == ["ran-eagerly"]
    assert counter["headline"] == "no verdict: default's compiled calls ran eagerly"
    assert (
        "ran eagerly, so nothing compiled was measured (forward hit the recompile limit"
        in counter["recommendation"]["reason"]
    )
    failed = fixture("graphbreak-cpu")
    failed["modes"] = []
    failed.update(
        status="error", error={"kind": "out-of-memory", "message": "Ran out of memory", "fix": "Use a smaller batch."}
    )
    assert answered(failed)["headline"] == "ran out of memory"
    assert failed["recommendation"]["reason"].startswith(
        "The script ran out of memory: Ran out of memory. Fix: use a smaller batch."
    )
    # a cancel is the user's: said in its own words, never "The script cancelled: The run was cancelled; …"
    cancelled = fixture("graphbreak-cpu")
    cancelled["modes"] = []
    cancelled.update(
        status="partial",
        error={"kind": "cancelled", "message": "The run was cancelled; no mode was measured.", "fix": "Run again."},
    )
    assert answered(cancelled)["headline"] == "cancelled"
    assert cancelled["recommendation"]["reason"].startswith(
        "The run was cancelled; no mode was measured. Fix: run again."
    )


def test_the_target_rules_wrong_results_contention_noise_and_a_slower_mode() -> None:
    wrong = _measurement("default", 1.5, low=1.4, high=1.6)
    wrong["correctness"] = {"ok": False, "maxAbsError": 1.0}
    report = fixture("graphbreak-cpu")
    report["modes"] = [wrong]
    assert answered(report)["answer"]["verdict"] == "stay-eager" and codes(report["answer"]) == ["wrong-results"]
    noisy = _measurement("default", 1.07, low=1.01, high=128.11)
    report["modes"] = [noisy]
    a = answered(report)["answer"]
    assert a["verdict"] == "none"
    # the range too wide to say where a next run lands is kept for the record, never said (issue 44: "1.01–128.11×")
    assert a["number"]["tooNoisy"] == {
        "why": "range-too-wide",
        "factor": 119.73,
        "side": "faster",
        "low": 1.01,
        "high": 128.11,
    }
    assert "low" not in a["number"] and "128" not in report["headline"]
    assert "faster by a noisy amount" in report["headline"]
    report["modes"] = [_measurement("default", 0.6, low=0.58, high=0.62)]
    assert answered(report)["answer"]["verdict"] == "stay-eager"
    assert codes(report["answer"]) == ["slower", "cpu-host-range"]  # graphbreak-cpu ran on a CPU
    report["modes"] = [_measurement("default", 1.01, low=0.97, high=1.09)]
    assert codes(answered(report)["answer"]) == ["may-be-no-faster", "cpu-host-range"]
    report["modes"] = [_measurement("default", 1.1, low=1.02, high=1.2)]  # faster by its value, not by its range
    assert answered(report)["answer"]["verdict"] == "none"
    assert codes(report["answer"]) == ["not-clearly-faster", "near-the-bar", "cpu-host-range"]


def test_a_number_points_faster_or_slower_only_where_it_could_support_a_verdict() -> None:
    """Its direction (schema 1.26): no surface gives a number too noisy to decide, or timed on a busy host, a
    direction word, a colour or a pay-back."""
    report = fixture("graphbreak-cpu")

    def said(m: dict[str, Any]) -> tuple[str, str]:
        report["modes"] = [m]
        n = answered(report)["answer"]["number"]
        return n["direction"], n["directionText"]

    assert said(_measurement("default", 1.3, low=1.25, high=1.36)) == ("faster", "faster")
    # a slowdown as a user reads it, not "0.60× (slower)" read as 60 % slower (review 3B N9)
    assert said(_measurement("default", 0.6, low=0.58, high=0.62)) == ("slower", "compiled takes 1.67× as long")
    assert ". Compiled takes 1.67× as long as eager." in answered(report)["answer"]["sentence"]
    assert said(_measurement("default", 1.07, low=0.3, high=128.11)) == ("too-noisy", "too noisy to say")
    assert said(_measurement("default", 1.5, low=0.8, high=2.0)) == ("too-noisy", "too noisy to say")  # > 2x wide
    # a range too wide to say that lies wholly above 1×: the direction, never a size nor a colour (review 8A A4)
    assert said(_measurement("default", 1.07, low=1.01, high=128.11)) == (
        "too-noisy",
        "faster by a noisy amount",  # "faster, too noisy to size" read as a typo of "say" (review 9E E1)
    )
    busy = _measurement("default", 1.3, low=1.25, high=1.36)
    busy["timing"]["hostLoad"] = {"contended": True, "reason": "other processes ran", "fix": "profile later"}
    assert said(busy) == ("host-busy", "host busy, not trusted")
    # too noisy for a range on a busy host: the host is why it decides nothing, said after it as for any number timed
    # there, so a CodeLens cut to its number still says "host busy" (review 9E E1: "no verdict: slower, too noisy to
    # size, 0.35×" left it out)
    noisy = _measurement("default", 0.35, low=0.0002, high=0.9)
    noisy["timing"]["hostLoad"] = busy["timing"]["hostLoad"]
    assert said(noisy) == ("host-busy", "host busy, not trusted")
    a = answered(report)["answer"]
    assert a["verdict"] == "none" and codes(a) == ["host-contended"]
    assert a["number"]["text"] == (
        "0.35× per call with default (a next run could land more than 3× away, though below 1×), host busy, not trusted"
    )
    assert a["headline"].startswith(f"no verdict: {a['number']['text']}") and "too noisy" not in a["headline"]


def test_compiled_slower_in_every_reading_stays_eager_by_an_amount_never_said() -> None:
    """train_small's step read "No verdict: too noisy to say, 0.094× per call replayed (a next run could land more
    than 3× away)" (review 8A A4): where the range, too wide to say, lies wholly below 1×, compiled is slower wherever
    a next run lands. It stays eager on that direction, and no surface says by how much; a range that reaches 1× is
    too noisy to say which way, and says so."""
    report = fixture("graphbreak-cpu")
    report["modes"] = [_measurement("default", 0.094, low=0.0002, high=0.5)]
    a = answered(report)["answer"]
    n = a["number"]
    assert a["verdict"] == "stay-eager" and codes(a)[0] == "slower"
    assert n["tooNoisy"] == {"why": "range-too-wide", "factor": 470.0, "side": "slower", "low": 0.0002, "high": 0.5}
    assert "low" not in n
    assert n["text"] == (
        "slower by a noisy amount, 0.094× per call with default (a next run could land more than "
        "3× away, though below 1×)"
    )
    assert (n["direction"], n["directionText"]) == ("too-noisy", "slower by a noisy amount")
    assert a["sentence"].startswith(
        f"Stay eager: {n['text']}. Compiled is slower than eager wherever a next run lands."
    )
    assert "as long" not in a["sentence"] and "0.5" not in a["headline"]  # no size: neither a slowdown nor the range
    # the range said, wider than 2× but wholly below 1×: stays eager too, its size too wide to say
    report["modes"] = [_measurement("default", 0.42, low=0.25, high=0.61)]
    wide = answered(report)["answer"]
    assert wide["verdict"] == "stay-eager" and codes(wide)[0] == "slower"
    assert wide["number"]["text"] == "0.42× per call with default (0.25–0.61×), slower by a noisy amount"
    # one that reaches above 1×: which way is too noisy to say
    report["modes"] = [_measurement("default", 0.094, low=0.0002, high=1.5)]
    either = answered(report)["answer"]
    assert either["verdict"] == "none" and either["number"]["tooNoisy"]["side"] == "either"
    assert either["number"]["text"] == (
        "too noisy to say, 0.094× per call with default (a next run could land more than 3× away)"
    )
    # every mode slower in every reading, or no verdict: one that may be faster keeps it open
    report["modes"] = [
        _measurement("default", 0.094, low=0.0002, high=0.5),
        _measurement("max-autotune", 0.8, low=0.2, high=3.1),
    ]
    assert answered(report)["answer"]["verdict"] == "none"
    # timed on a busy host: the host's, not the compiler's direction
    busy = _measurement("default", 0.094, low=0.0002, high=0.5)
    busy["timing"]["hostLoad"] = {"contended": True, "reason": "other processes ran", "fix": "profile later"}
    report["modes"] = [busy]
    assert answered(report)["answer"]["verdict"] == "none"


# --- regions ----------------------------------------------------------------------------------------------------


def test_a_replayed_region_recommends_the_mode_it_was_measured_in_weighed_by_the_scripts_calls() -> None:
    a = region_answer(_region("Block", 12, [_measurement("as-written", 1.8, low=1.7, high=1.9)]))
    assert a["verdict"] == "compile" and a["mode"] == "default" and a["number"]["kind"] == "replay-call"
    assert (
        a["headline"]
        == "compile it: 1.80× per call replayed (1.70–1.90×) · pays back after about 4,500 calls, this run made 5,000"
    )
    what_if = region_answer(
        _region(
            "Block",
            12,
            [
                _measurement("as-written", 1.2, low=1.1, high=1.3),
                _measurement("reduce-overhead", 2.5, low=2.3, high=2.7),
            ],
        )
    )
    assert what_if["mode"] == "reduce-overhead"
    short = region_answer(_region("act", 3, [_measurement("as-written", 1.8, low=1.7, high=1.9)], calls=40))
    assert (
        short["verdict"] == "compile-for-longer-runs"
        and "pays back after about 4,500 calls, this run made 40" in short["headline"]
    )


def test_a_number_without_a_range_gets_no_verdict_and_no_direction() -> None:
    """reportC D3: "compile for longer runs: 1.84× per call replayed" and "0.97× slower" from reports before ranges: a
    value alone is a zero-width range, and says nothing of where a next run lands."""
    for speedup in (1.84, 0.97, 3.0):
        a = region_answer(_region("Block", 12, [_measurement("as-written", speedup)]))
        assert a["verdict"] == "none" and a["mode"] is None and codes(a) == ["no-range"]
        assert a["number"]["direction"] == "too-noisy" and a["number"]["directionText"] == "no range measured"
        assert a["headline"] == f"no verdict: no range measured, {speedup:.2f}× per call replayed"
        assert "pays back" not in a["sentence"] and "faster" not in a["sentence"] and "slower" not in a["sentence"]
    target = fixture("graphbreak-cpu")
    del target["modes"][0]["speedupInterval"]
    t = answered(target)["answer"]
    assert t["verdict"] == "none" and codes(t) == ["no-range"] and t["number"]["direction"] == "too-noisy"
    assert t["headline"].startswith("no verdict: no range measured, 1.30× per call with default · 6 graphs")


def test_unmeasured_regions_get_no_verdict_and_say_why() -> None:
    once = region_answer(_region("helper", 40, [], reason="called once: at least 3 calls are needed"))
    assert once["verdict"] == "none" and once["number"] is None
    assert once["headline"] == "no verdict: not replayable: called once: at least 3 calls are needed"
    assert region_answer(dict(_region("helper", 40, []), callCount=0))["headline"] == "no verdict: never called"
    failed = dict(_measurement("as-written", 1.8), status="error", speedup=None)
    failed["error"] = {"kind": "out-of-memory", "message": "CUDA out of memory", "fix": "Use a smaller batch."}
    assert (
        region_answer(_region("Net", 3, [failed]))["headline"]
        == "no verdict: measuring default failed: CUDA out of memory"
    )


def test_a_failed_compiled_call_leads_then_what_was_measured_before_it() -> None:
    failure = {
        "what": "a branch on a tensor's value (`if y.sum() > 0:`)",
        "fix": "Use torch.where.",
        "location": {"file": "/srv/fails_at_serving.py", "line": 14},
        "index": 3,
    }
    region = _region("serve", 4, [_measurement("as-written", 1.8)])
    region["inSitu"] = _in_situ(1.8, 1.7, 1.9, 10, 100, failure)
    a = region_answer(region)
    assert a["verdict"] == "none" and codes(a)[0] == "compiled-call-failed"
    assert (
        a["headline"]
        == "compiled call 3 fails at fails_at_serving.py:14 · measured before it: 1.80× per step in situ (1.70–1.90×)"
    )
    assert a["sentence"].startswith(
        "Fix first: compiled call 3 failed at fails_at_serving.py:14: a branch on a tensor's value"
    )


def test_a_run_that_ran_out_of_memory_leads_every_region_with_it_at_the_users_line() -> None:
    region = _region("Net", 5, [], reason="it runs an optimizer step")
    region["inSitu"] = _in_situ(0.58, 0.55, 0.60, None, 41)
    oom = {
        "code": "failed",
        "kind": "out-of-memory",
        "what": "CUDA out of memory.",
        "fix": None,
        "file": "/w/train.py",
        "line": 41,
    }
    a = region_answer(region, oom)
    assert a["verdict"] == "none" and codes(a)[:2] == ["failed", "slower"]
    assert a["headline"] == "ran out of memory at train.py:41 · measured before it: 0.58× per step in situ (0.55–0.60×)"


def test_below_torch_2_6_a_region_rests_on_its_replay_and_says_so_in_one_reason() -> None:
    """No torch.compiler.set_stance before torch 2.6: no in-situ measurement (script/mode.py), one reason code."""
    report = fixture(NOTEBOOK)
    del report["regions"][0]["inSitu"]  # what a run without set_stance records: no region measured in situ
    report["inSitu"] = {
        "pairs": 0,
        "runs": [],
        "order": [],
        "repeatedBecause": None,
        "wallSeconds": None,
        "skipped": "…",
    }
    report["environment"]["torch"] = "2.5.1+cu124"
    a = answered(report)["regions"][0]["answer"]
    [reason] = [r for r in a["reasons"] if r["code"] == "no-in-situ"]
    assert (
        a["number"]["kind"] == "replay-call" and reason["kind"] == "no-set-stance" and reason["torch"] == "2.5.1+cu124"
    )
    assert "torch 2.5.1+cu124 has no torch.compiler.set_stance (PyTorch 2.6 and later)" in a["sentence"]
    report["environment"]["torch"] = "2.13.0"
    reasons = answered(report)["regions"][0]["answer"]["reasons"]
    assert [r["kind"] for r in reasons if r["code"] == "no-in-situ"] == ["turned-off"]


def test_a_region_neither_replayed_nor_measured_in_situ_says_both_and_rests_on_neither() -> None:
    rank = json.loads((FIXTURES / "attach-2x2" / "job" / "ranks" / "rank0" / "report.json").read_text())
    a = answered(rank)["regions"][0]["answer"]
    assert a["verdict"] == "none" and a["number"] is None
    # what the user can do, not four clauses of why a replay would hang (the fixture's older words re-derived)
    assert a["headline"].startswith("no verdict: torchrun ranks are not timed against eager · ")
    assert "to time the model against eager, profile it in one process, without torchrun." in a["sentence"]
    # recorded under attach: no in-situ run, and no --no-in-situ passed (the fixture's older words re-derived)
    assert [r["kind"] for r in a["reasons"] if r["code"] == "no-in-situ"] == ["attached"]
    # whose launcher: the user's, which Compile Lens only watched (review 25, B N11)
    assert (
        "Not measured in situ: the job was started by your own launcher; Compile Lens only watched it" in a["sentence"]
    )
    assert "--no-in-situ" not in a["sentence"]
    assert "replay." not in a["sentence"]


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
        "noStep": {"code": "never-compiled", "fallback": "a graph break"},
    }
    in_situ_text.attach_reason(region)  # the measurement's code in words, as answer.attach says it first
    a = region_answer(region)
    assert a["verdict"] == "none" and a["number"] is None and codes(a) == ["ran-eagerly"]
    assert (
        "no call of it ran compiled code (a graph break): every call ran eagerly, so there is nothing compiled"
        in (a["sentence"])
    )
    assert "compiled (compiles included)" not in a["headline"] and " 1 s" not in a["headline"]


def test_in_situ_and_replay_apart_beyond_their_ranges_are_said() -> None:
    region = _region("Block", 12, [_measurement("as-written", 1.9, low=1.8, high=2.0)])
    region["inSitu"] = dict(
        _in_situ(1.43, 1.34, 1.51, 10, 1000),
        call={"speedup": 1.2, "low": 1.1, "high": 1.3, "eagerMs": 1.2, "compiledMs": 1.0, "samples": 40, "pairs": 6},
    )
    a = region_answer(region)
    assert a["verdict"] == "compile" and "replay-disagrees" in codes(a)
    assert "The replay gave 1.90× per call (1.80–2.00×), apart from the in-situ range" in a["sentence"]
    region["inSitu"]["call"].update(speedup=1.85, low=1.75, high=1.95)
    assert "replay-disagrees" not in codes(region_answer(region))


def test_a_cuda_graph_mode_recommended_on_cpu_says_its_cuda_graphs_did_nothing() -> None:
    region = _region(
        "Block",
        12,
        [_measurement("as-written", 1.2, low=1.1, high=1.3), _measurement("reduce-overhead", 2.5, low=2.3, high=2.7)],
    )
    assert "cuda-graphs-idle-on-cpu" not in codes(region_answer(region)), "no device known: nothing said"
    region["device"] = "cpu"
    a = region_answer(region)
    assert "cuda-graphs-idle-on-cpu" in codes(a) and "On CPU, reduce-overhead's CUDA graphs do nothing" in a["sentence"]


def test_the_shape_hook_leads_the_headline_before_the_verdict(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 43's extension point: a shape code with its words in reason_text.SENTENCES and in LEADING leads."""
    monkeypatch.setitem(
        reason_text.SENTENCES, "recompile-limit", (lambda r: "hit the recompile limit", lambda r: "It hit the limit.")
    )
    monkeypatch.setattr(reason_text, "LEADING", reason_text.LEADING | {"recompile-limit"})
    monkeypatch.setattr(answer, "shape_reasons", lambda region: [{"code": "recompile-limit"}])
    region = _region("Block", 12, [_measurement("as-written", 1.8, low=1.7, high=1.9)])
    assert region_answer(region)["headline"].startswith("hit the recompile limit · compile it: 1.80× per call replayed")
