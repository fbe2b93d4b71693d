"""A region's in-situ numbers in lines (report/in_situ_text.py, schema 1.24): the answer's words for each number, its
times, the compile and its pay-back, why per step, what it rests on, the steps left out, per signature; no made-up
speedup where there is no steady step. On recorded numbers: no torch."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

from compile_lens_runner import formats
from compile_lens_runner.report import answer, in_situ_text, reason_text, run_source, sentences, shape_reasons

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "reports"


def _step(speedup: float, **more: Any) -> dict[str, Any]:
    return {"speedup": speedup, "low": speedup - 0.03, "high": speedup + 0.05, "eagerMs": 2.0 * speedup,
            "compiledMs": 2.0, "pairs": 14, "samples": 60, **more}  # fmt: skip


def _region(**situ: Any) -> dict[str, Any]:
    base = {"pairs": 14, "method": "interleaved", "step": None, "call": None, "failure": None, "reason": None}
    return {"id": "r0", "calls": [], "callCount": 240, "inSitu": {**base, **situ}}


def test_the_step_line_then_its_pay_back_why_what_it_rests_on_the_steps_left_out_and_each_signature() -> None:
    signatures = [
        {"signature": "float32[1, 37, 512]; inference", "eagerMs": 0.8, "compiledMs": 0.9, "speedup": 0.889,
         "steps": {"eager": 40, "compiled": 38}, "calls": 41},
        {"signature": "float32[1, 512, 512]; inference", "eagerMs": 1.2, "compiledMs": 1.3, "speedup": 0.923,
         "steps": {"eager": 30, "compiled": 31}, "calls": 1},
    ]  # fmt: skip
    work = "GPU work 4 ms → 2.1 ms per step, 290 → 114 kernels"
    region = _region(
        step=_step(0.91, comparedBy="matched-mix", signatures=signatures),
        steadySteps={"eager": 70, "compiled": 69},
        dropped={"warm-up": 3, "switch": 29, "first on its signature": 12, "observer": 4, "compiled": 0},
        compileSeconds=2.0,
        breakEvenSteps=None,
        stepsMade=240,
        stepsPerSecond={"eager": 549.45, "compiled": 500.0},
        work={"text": work},
    )
    assert in_situ_text.lines(region) == [  # type: ignore[arg-type]
        "in situ (the middle of 14 pairs of adjacent eager/compiled blocks in this run, per signature, over the script's "
        "mix): "
        "0.91× per step in situ, eager 1.82 ms → compiled 2 ms per step",
        "  eager 549 steps/s → compiled 500 steps/s",
        f"  why: {work}",
        "  steady steps: eager 70, compiled 69; 48 steps left out: 3 in Compile Lens's compiled warm-up, 12 first at its input "
        "shape, 29 during which compiling was switched on or off, 4 in which Compile Lens saved inputs or checked for "
        "changes",
        "  float32[1, 37, 512] under torch.inference_mode(): 0.89×, 0.8 ms → 0.9 ms (41 calls)",
        "  float32[1, 512, 512] under torch.inference_mode(): 0.92×, 1.2 ms → 1.3 ms (1 call)",
    ]


def test_the_lines_leave_the_pay_back_to_the_answer_s_sentence_and_say_a_slower_one_never_pays_back() -> None:
    """One pay-back, the answer's, said in its sentence with the warm-up's time it pays back (review 4C X3: gated_service
    said "pays back after 168,037 steps, this run made 200" twice); a slower number that is the answer's never pays
    back, said here."""
    region = _region(step=_step(1.3), compileSeconds=2.0, breakEvenSteps=100, stepsMade=240)
    step = {"kind": "in-situ-step", "unit": "step", "n": 60, "value": 1.3, "direction": "faster", "text": "1.30×"}
    pays = {"code": "pays-back-after", "steps": 100, "made": 240, "unit": "step", "seconds": 2.0, "warmUp": True}
    region["answer"] = {"verdict": "compile", "number": step, "reasons": [pays], "evidence": []}
    said = "\n".join(in_situ_text.lines(region))  # type: ignore[arg-type]
    assert "pays back" not in said and "warm-up" not in said and "this run made" not in said, said
    slower = {**step, "value": 0.8, "direction": "slower"}
    region["answer"] = {"verdict": "stay-eager", "number": slower, "reasons": [{"code": "slower"}], "evidence": []}
    assert in_situ_text.lines(region)[1] == "  compiled steps are slower: it never pays back"  # type: ignore[arg-type]


def test_the_answer_s_words_for_its_numbers_are_the_lines_words() -> None:
    report = json.loads((FIXTURES / "script-shapes-cpu" / "report.json").read_text())
    for region in report["regions"]:
        numbers = [region["answer"]["number"], *region["answer"]["evidence"]]
        step = next((n for n in numbers if n and n["kind"] == "in-situ-step"), None)
        if step is None:
            continue
        lines = in_situ_text.lines(region)
        # the step's words, or its times alone where the answer's sentence says them (review 4C X3)
        words = "" if step["text"] in region["answer"]["sentence"] else f"{step['text']}, "
        assert (
            lines[0].startswith("in situ (")
            and f"): {words}eager {formats.ms(region['inSitu']['step']['eagerMs'])} → compiled " in lines[0]
        ), lines[0]
        assert lines == region["inSitu"]["lines"]  # the fixture carries them (scripts/rederive_fixtures.py)


def test_per_call_where_every_step_held_a_compile_and_no_number_where_no_step_was_steady() -> None:
    why = "something compiled in every step after the region's warm-up: no step without compiling"
    call_only = _region(call=_step(1.22), reason=why, steadySteps={"eager": 9, "compiled": 9}, dropped={"compiled": 1})
    lines = in_situ_text.lines(call_only)  # type: ignore[arg-type]
    assert lines[0].endswith(
        f": 1.22× per call in situ, eager 2.44 ms → compiled 2 ms per call; no step speedup — {why}"
    )
    assert lines[1] == "  steady steps: eager 9, compiled 9; 1 step left out, compiling"
    none = _region(pairs=0, reason="no call of it ran compiled code: every call ran eagerly", regionSeconds=None)
    assert in_situ_text.lines(none) == [  # type: ignore[arg-type]
        "in situ: no call of it ran compiled code: every call ran eagerly"  # the reason says which step: once
    ]


def test_a_failed_compiled_call_is_said_at_the_user_s_line_with_its_fix() -> None:
    failure = {"what": "a branch on a tensor's value.", "fix": "Make it branchless with torch.where.", "index": 3,
               "location": {"file": "/w/fails_at_serving.py", "line": 8}}  # fmt: skip
    (line,) = in_situ_text.lines(_region(pairs=0, failure=failure))  # type: ignore[arg-type]
    assert line == (
        "in situ: compiled call 3 failed at fails_at_serving.py:8: a branch on a tensor's value. "
        "Fix: make it branchless with torch.where."
    )


def test_separate_runs_read_in_the_words_of_an_interleaved_run_resting_on_whole_runs() -> None:
    old = _region(method="separate-runs", pairs=2, step=_step(1.2))
    in_situ_text.attach(old)  # type: ignore[arg-type]
    assert old["inSitu"]["lines"][0].startswith("in situ (2 pairs of whole runs of the script, eager and compiled): ")
    new = copy.deepcopy(_region(step=_step(1.2)))
    in_situ_text.attach(new)  # type: ignore[arg-type]
    assert new["inSitu"]["lines"][0].startswith("in situ (14 pairs")
    assert old["inSitu"]["lines"][0].split("): ")[1] == new["inSitu"]["lines"][0].split("): ")[1]


def test_the_whole_script_both_ways_as_the_separate_runs_recorded_it() -> None:
    wall = {"compiled": [5.4501, 22.9706], "eager": [0.6941, 1.1654]}
    said = in_situ_text.wall_text(wall)
    assert said == "whole script, fastest of 2 runs each: as written 5.45 s · compiling off 694 ms"
    assert in_situ_text.wall_text({"compiled": [5.0], "eager": []}) is None and in_situ_text.wall_text(None) is None


def test_the_steps_left_out_are_said_in_one_place_the_reason_too() -> None:
    assert in_situ_text.left_out({"switch": 0}) is None
    assert in_situ_text.left_out({"first on its signature": 1}) == "1 step left out, first at its input shape"
    # one why: its count is the total's, said once (review 6C X11: "3 steps left out: 3 in Compile Lens's compiled
    # warm-up")
    assert in_situ_text.left_out({"warm-up": 3}) == "3 steps left out, all in Compile Lens's compiled warm-up"
    said = reason_text.sentence({"code": "in-situ-left-out", "count": 3, "unit": "step", "dropped": {"warm-up": 3}})
    assert said == "In situ, the number leaves out 3 steps, all in Compile Lens's compiled warm-up."
    assert in_situ_text.left_out({"switch": 1200, "observer": 1}) == (
        "1,201 steps left out: 1,200 during which compiling was switched on or off, 1 in which Compile Lens saved inputs "
        "or checked for changes"
    )


# an H200 run of a bf16-autocast training loop (gpu/amp_train.py, 300 calls): its in-situ numbers as recorded
AMP_H200 = {
    "pairs": 36, "method": "interleaved", "failure": None, "reason": None, "compileSeconds": 2.65,
    "steadySteps": {"eager": 107, "compiled": 103}, "stepsMade": 300,
    "dropped": {"warm-up": 3, "switch": 72, "first on its signature": 1, "observer": 13},
    "step": {"eagerMs": 12.0903, "compiledMs": 8.1415, "speedup": 1.485, "low": 1.2623, "high": 1.7078, "pairs": 36,
             "samples": 103, "comparedBy": "signature"},
}  # fmt: skip


def test_the_answer_and_the_in_situ_lines_give_one_count_of_the_steps_a_per_step_number_leaves_out() -> None:
    """The H200 run said "4 of the script's 300 calls are left out of the number" in its answer beside "89 steps left
    out" in its in-situ lines: the number is per step, so both say its 89 steps, with the same whys."""
    region = {"id": "r0", "calls": [], "callCount": 300, "shapes": None, "inSitu": copy.deepcopy(AMP_H200)}
    (left,) = [r for r in shape_reasons.shape_reasons(region) if r["code"] == "in-situ-left-out"]  # type: ignore[arg-type]
    whys = (
        "3 in Compile Lens's compiled warm-up, 1 first at its input shape, 72 during which compiling was switched on or off, 13 in "
        "which Compile Lens saved inputs or checked for changes"
    )
    assert reason_text.sentence(left) == f"In situ, the number leaves out 89 steps: {whys}."
    assert reason_text.clause(left) == "89 steps left out"
    assert in_situ_text.lines(region)[-1] == f"  steady steps: eager 107, compiled 103; 89 steps left out: {whys}"  # type: ignore[arg-type]
    # a per-call number (every step held a compile) leaves out calls: only the calls its costs took
    per_call = {**copy.deepcopy(AMP_H200), "step": None, "call": AMP_H200["step"]}
    region["inSitu"] = per_call
    (left,) = [r for r in shape_reasons.shape_reasons(region) if r["code"] == "in-situ-left-out"]  # type: ignore[arg-type]
    assert reason_text.sentence(left) == (
        "In situ, the number leaves out 4 calls: 3 in Compile Lens's compiled warm-up, 1 first at its input shape."
    )


def test_why_there_is_no_step_speedup_is_said_here_from_the_measurement_s_code() -> None:
    """measure/interleaved.py records a code and its numbers (noStep); the sentence is written here, `reason`."""
    said = {
        "eager-stance-only": "it was called only with compiling off: with compiling on, its calls ran inside another "
        "region's compiled code (inlined there), so they are measured as part of that region",
        "never-compiled": "no call of it ran compiled code (Dynamo stopped compiling step at its recompile limit, 8 "
        "(torch._dynamo.config.recompile_limit); later calls run eagerly): every call ran eagerly, so there is nothing compiled to compare",
        "before-interleaving": "the script's 3 calls of it all came before Compile Lens began running its calls "
        "alternately compiled and eager (it starts once 2 calls in a row compile nothing): none ran eagerly to compare "
        "with",
        "no-steady-side": "its 1 step in situ, left out (compiling), so no step was left to time",
        "no-shared-signature": "no input signature had steady steps both ways",
    }
    numbers = {
        "never-compiled": {
            "fallback": "Dynamo stopped compiling step at its recompile limit, 8 (torch._dynamo.config.recompile_limit); "
            "later calls run eagerly"
        },
        "before-interleaving": {"calls": 3, "quietCalls": 2},
        "no-steady-side": {"side": "compiled"},
    }
    for code, sentence in said.items():
        region = _region(noStep={"code": code, **numbers.get(code, {})}, dropped={"compiled": 1})
        in_situ_text.attach_reason(region)  # type: ignore[arg-type]
        assert region["inSitu"]["reason"] == sentence
    with_step = _region(step=_step(1.2), noStep=None, reason=None)
    in_situ_text.attach_reason(with_step)  # type: ignore[arg-type]
    assert with_step["inSitu"]["reason"] is None


def test_no_steady_side_counts_the_steps_from_the_calls_in_one_sentence() -> None:
    """Review 18Z Z7: b_item read "Not measured in situ: no steady eager step: 5 steps left out: 3 in …, 1 at eager's
    first call, 1 in which …" beside "6 calls": three colons, and steps beside calls with nothing to say how they are
    counted. A step runs from one call to the next, so 6 calls make 5 steps: said so, the whys in parentheses, then
    what that leaves. Every step of both sides left out: "no step was left to time", not "no eager step", which read
    as if compiled steps were timed (review 19Z Z7); "no compiled step" where the 1 steady one was eager."""
    report = json.loads((FIXTURES.parent / "traces" / "profiled-copy-cpu" / "report.json").read_text())
    (region,) = report["regions"]
    said = (
        "the script's 6 calls of it make 5 steps (each from one call to the next), all left out (3 in Compile Lens's "
        "compiled warm-up, 1 at eager's first call, 1 in which Compile Lens saved inputs or checked for changes), so no "
        "step was left to time"
    )
    in_situ_text.attach_reason(region)  # said again from its code and numbers, as the runner says it
    assert region["callCount"] == 6 and region["inSitu"]["reason"] == said
    (reason,) = [r for r in report["answer"]["reasons"] if r["code"] == "no-steady-steps"]
    assert reason["text"] == f"Not measured in situ: {said}."
    assert reason["text"].count(":") == 1
    # the other side's steady steps said as what is left: train_small's compiled side
    recorded = FIXTURES.parent / "recorded" / "train_small-cpu" / "report.json"
    reasons = [r["inSitu"]["reason"] for r in json.loads(recorded.read_text())["regions"]]
    assert (
        "the script's 12 calls of it make 11 steps (each from one call to the next); 10 were left out (4 in Compile "
        "Lens's compiled warm-up, 1 at eager's first call, 2 during which compiling was switched on or off, 3 in which "
        "Compile Lens saved inputs or checked for changes) and the 1 steady one was eager, so no compiled step was left "
        "to time"
    ) in reasons
    # one step, one why: no count before it
    assert (
        "the script's 2 calls of it make 1 step (from one call to the next), left out (compiling), so no step was left "
        "to time"
    ) in reasons
    # nothing recorded
    empty = _region(noStep={"code": "no-steady-side", "side": "eager"}, dropped={})
    in_situ_text.attach_reason(empty)  # type: ignore[arg-type]
    assert empty["inSitu"]["reason"] == "no steady eager step: none was recorded"


def test_the_per_call_numbers_are_said_beside_the_per_step_ones_only_where_they_differ() -> None:
    """One call a step (script-in-situ-cpu) gives per call what per step said, its range a hair apart: said once."""
    region = json.loads((FIXTURES / "script-in-situ-cpu" / "report.json").read_text())["regions"][0]
    step, call = region["inSitu"]["step"], region["inSitu"]["call"]
    call.update(eagerMs=step["eagerMs"] + 0.0001, compiledMs=step["compiledMs"] - 0.0001)  # the same as said
    (line,) = [x for x in in_situ_text.lines(region) if x.startswith("in situ (")]
    # the answer leads with the step number (said there once): the line gives its times
    assert line.endswith("compiled): eager 0.862 ms → compiled 0.704 ms per step")
    call["compiledMs"] = 0.60  # per call, other times: said, on a line of its own, as the evidence it is (review H4)
    said = in_situ_text.lines(region)
    (line,) = [x for x in said if x.startswith("in situ (")]
    assert "per call" not in line
    (calls,) = [x for x in said if "per call" in x]
    assert calls.startswith(f"  {in_situ_text.CALLS_ALONE}: ")
    assert calls.endswith("eager 0.862 ms → compiled 0.6 ms per call")


def test_what_the_answer_s_sentence_says_the_lines_do_not_say_again() -> None:
    """Review 3C R3: serve_script said "too noisy to say … (a next run could land more than 3× away)" three times
    (the sentence, the step's and the call's words) and its steps left out twice; resized_step its in-situ reason
    twice ("Not measured in situ: the script's 4 calls …", then "in situ: the script's 4 calls …")."""
    recorded = FIXTURES.parent / "recorded"
    serve = json.loads((recorded / "serve_script-cpu" / "report.json").read_text())["regions"][0]
    said = "\n".join(in_situ_text.lines(serve))
    # its number on a busy host: the host said as why it decides nothing (review 9E E1), its range once
    number = serve["answer"]["number"]["text"]
    assert number.endswith("host busy, not trusted") and number in serve["answer"]["sentence"] and number not in said
    assert "(0.66–1.79×)" in serve["answer"]["sentence"] and "(0.66–1.79×)" not in said
    assert "left out" not in said and "steady steps: eager 14, compiled 9" in said
    # its steps of 21-209 ms, which the host took from 0.64 ms ones, each side's by one rule (schema 1.35)
    # not called interrupted: a step of a validation pass is the script's own work (s32's train_validate.py)
    assert "13 far above their side's median" in serve["answer"]["sentence"]
    assert said.splitlines()[-2] == (
        "  outlying steps (over 5× their side's median, one rule both ways: a pause of the host or other work of the "
        "script in them): eager 6 steps of 21.1 ms–115 ms (its median with them: 0.639 ms), compiled 7 of 24.8 ms–"
        "209 ms (its median with them: 0.678 ms); the host was contended: other processes held its CPUs"
    )
    # review 4C X3: gated_service's answer, its range and its pay-back, once: in the sentence
    gated = json.loads((recorded / "gated_service-cpu" / "report.json").read_text())["regions"][0]
    said = "\n".join(in_situ_text.lines(gated))
    assert "1.37× per step in situ (1.17–1.58×)" in gated["answer"]["sentence"] and "1.37×" not in said
    assert (
        said.startswith("in situ (the middle of 8 pairs")
        and "eager 1.30 ms → compiled 0.949 ms per step" in said
        and "pays back" not in said
    )
    resized = json.loads((recorded / "resized_step-cpu" / "report.json").read_text())["regions"][0]
    assert "before Compile Lens began running its calls alternately compiled and eager" in resized["answer"]["sentence"]
    assert in_situ_text.lines(resized) == []


def test_the_script_s_last_call_far_above_its_side_says_why_no_number_counts_it() -> None:
    """Review F4: serve_script's call 63 at 1.02 s (2,500× the steady calls) drawn as compiled code reused, said
    nowhere. It is the script's last call, so no step follows it, and the first after compiling was switched back on
    (the steps of such switches are left out too), with the observer's state check around it: said in the lines and
    its mark's tooltip, from the call's own record, not again in the chart's legend under the lines (review 24X X3)."""
    recorded = FIXTURES.parent / "recorded"
    serve = json.loads((recorded / "serve_script-cpu" / "report.json").read_text())["regions"][0]
    last = serve["calls"][-1]
    assert (last["index"], last["side"], serve["calls"][-2]["side"], last["observer"]) == (
        63,
        "compiled",
        "eager",
        True,
    )
    said = (
        "call 63 (1.02 s), the script's last: no step follows it, so no number counts it; it is the first call after "
        "compiling was switched back on, with Compile Lens's state check around it"
    )
    assert in_situ_text.last_call_line(serve) == said
    assert serve["inSitu"]["lines"][-1] == f"  {said}" and said not in serve["chartNotes"]
    assert last["said"].startswith("the script's last call: no step follows it, so no number counts it; it is the")
    # without the switch or the check, what is known is said; a last call near its side's median says nothing
    quiet = copy.deepcopy(serve)
    quiet["calls"][-2]["side"] = "compiled"
    quiet["calls"][-1].pop("observer")
    assert in_situ_text.last_call(quiet) == "no step follows it, so no number counts it"
    quiet["calls"][-1]["ms"] = 0.41
    assert in_situ_text.last_call(quiet) is None


def test_the_steps_per_second_are_the_inverse_of_the_times_shown_above_them() -> None:
    """Review 16 Y3: serve_script's "eager 0.484 ms → compiled 0.471 ms per step" over "eager 2,065 steps/s → compiled
    2,121 steps/s", the runner's unrounded rates: 1000 / 0.484 is 2,066 and 1000 / 0.471 is 2,123."""
    step = {**_step(1.028), "eagerMs": 0.48428, "compiledMs": 0.47128}
    region = _region(step=step, stepsPerSecond={"eager": 1000 / 0.48428, "compiled": 1000 / 0.47128})
    said = in_situ_text.lines(region)  # type: ignore[arg-type]
    assert said[0].endswith("eager 0.484 ms → compiled 0.471 ms per step")
    assert said[1] == "  eager 2,066 steps/s → compiled 2,123 steps/s"
    # the recorded one: each rate shown is 1000 over its time shown
    recorded = json.loads((FIXTURES.parent / "recorded" / "serve_script-cpu" / "report.json").read_text())
    shown = next(
        in_situ_text.lines(r) for r in recorded["regions"] if any("steps/s" in x for x in in_situ_text.lines(r))
    )
    times = re.search(r"eager ([\d.]+) ms → compiled ([\d.]+) ms per step$", shown[0])
    rates = re.search(r"eager ([\d,]+) steps/s → compiled ([\d,]+) steps/s", next(x for x in shown if "steps/s" in x))
    assert times and rates
    for ms, rate in zip(times.groups(), rates.groups(), strict=True):
        assert int(rate.replace(",", "")) == round(1000 / float(ms))


def test_every_in_situ_line_s_times_divide_to_its_speedup() -> None:
    """Review 17 Y1: gated_service's per-call evidence read "3.82× … eager 0.429 ms → compiled 0.112 ms" (3.83×): each
    in-situ line of every fixture report says its times at the digits that divide to the speedup beside them."""
    unit = {"ms": 1.0, "µs": 1e-3, "s": 1e3}
    said = re.compile(
        r"([\d.]+)× per (?:call|step) in situ[^,]*, eager ([\d.]+) (ms|µs|s) → compiled ([\d.]+) (ms|µs|s)"
    )
    seen = 0
    for path in sorted(FIXTURES.parent.rglob("report.json")):
        for region in json.loads(path.read_text()).get("regions") or []:
            for line in (region.get("inSitu") or {}).get("lines") or []:
                for shown, eager, eu, compiled, cu in said.findall(line):
                    seen += 1
                    ratio = float(eager) * unit[eu] / (float(compiled) * unit[cu])
                    assert formats.speedup(ratio) == f"{shown}×", f"{path}: {line}"
    assert seen >= 2  # gated_service-cpu and decode_static: their per-call evidence


def _said(report: dict[str, Any]) -> list[str]:
    """Every sentence-like string of a report: its regions' and its answer's words (not paths, codes or modes)."""
    out: list[str] = []

    def walk(x: object) -> None:
        if isinstance(x, dict):
            for v in x.values():
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)
        elif isinstance(x, str) and " " in x:
            out.append(x)

    walk([report["answer"], report["recommendation"], *report["regions"]])
    return out


def test_a_notebooks_report_says_the_notebooks_calls_never_the_scripts() -> None:
    """Review 19X X4: explore.ipynb's region read "Not measured in situ: the script's 5 calls of it …" and "52.5 s
    compiling in the script's own calls": the user ran a notebook (settings.notebook), so every sentence that names
    what ran names the notebook; the same report without its notebook says the script's."""
    report = json.loads((FIXTURES.parent / "recorded" / "explore-cpu" / "report.json").read_text())
    assert report["settings"]["notebook"] and run_source.noun(report) == "notebook"
    (region,) = report["regions"]
    assert region["inSitu"]["reason"].startswith("the notebook's 5 calls of it make 4 steps")
    assert "52.5 s compiling in the notebook's own calls (a cold compile cache: later runs load it)" in region["facts"]
    assert "Not measured in situ: the notebook's 5 calls of it" in region["answer"]["sentence"]
    assert region["measurements"][0]["notes"][0].startswith("The notebook's own eager calls at these inputs took")
    # the host's fix is the measurement's own words, recorded as it timed (measure/host.py), not said here
    said = [s for s in _said(report) if "torch.set_num_threads" not in s]
    assert not [s for s in said if re.search(r"\b[Tt]he script\b|this script's", s)]
    script = copy.deepcopy(report)
    del script["settings"]["notebook"]
    answer.attach(script)
    assert run_source.noun(script) == "script"
    assert script["regions"][0]["inSitu"]["reason"].startswith("the script's 5 calls of it make 4 steps")
    assert sentences.region_facts(script["regions"][0])[-1].startswith("52.5 s compiling in the script's own calls")
    # the reasons that name it: a failure, a region never called
    failed = {"code": "failed", "kind": "user-code", "what": "NameError: x", "fix": None}
    assert reason_text.sentence(failed, "notebook").startswith("The notebook ")  # type: ignore[arg-type]
    assert reason_text.sentence(failed).startswith("The script ")  # type: ignore[arg-type]
    assert reason_text.sentence({"code": "never-called"}, "notebook") == "The notebook never called it."
