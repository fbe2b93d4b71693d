"""A target mode's measurement in one line (report/mode_line.py, schema 1.25: `measuredText`), as the CLI shows it: the
answer's words for its number, then its times, counts and costs. On recorded reports: no torch."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from compile_lens_runner import formats
from compile_lens_runner.report import answer, mode_line, sentences
from conftest import REPO

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "reports"


def test_a_measured_mode_says_its_number_in_the_answer_s_words_then_its_times_counts_and_costs() -> None:
    report = json.loads((FIXTURES / "graphbreak-cpu" / "report.json").read_text())
    line = (
        "default: 1.30× per call with default (1.05–1.49×), 6.37 ms/call vs eager 8.25 ms, fastest rounds of 3 "
        "interleaved pairs, CPU ops/step 15 → 12, 6 graphs, 3 graph breaks, 2 recompiles, compile 3.45 s + 270 ms "
        "recompiling, break-even after about 1,800 calls"
    )
    assert report["modes"][0]["measuredText"] == line  # the fixture carries it (scripts/rederive_fixtures.py)
    del report["modes"][0]["measuredText"]
    answer.attach(report)
    assert report["modes"][0]["measuredText"] == line
    # without a range, the eager it rests on was timed in the same rounds
    bare = {k: v for k, v in report["answer"]["number"].items() if k not in ("low", "high")}
    said = mode_line.line(report["modes"][0], {**bare, "text": "1.30× per call with default"}, 15)
    assert said.startswith("default: 1.30× per call with default, 6.37 ms/call vs eager 8.25 ms in the same rounds, ")


def test_a_cpu_run_s_count_is_of_cpu_ops_a_gpu_run_s_of_kernels() -> None:
    """Review 18Y Y1: a CPU run's count is of its outermost ATen ops and Inductor's C++ functions, which the panel's
    compare and replay column call "CPU ops": never "kernels" in its lines; a GPU run's stays kernels."""
    for name in ("graphbreak-cpu", "fused-cpu", "script-in-situ-cpu", "script-kernels-cpu"):
        report = json.loads((FIXTURES / name / "report.json").read_text())
        lines = [m.get("measuredText") or "" for m in report["modes"]] + [
            m.get("measuredText") or "" for r in report.get("regions") or [] for m in r["measurements"]
        ]
        assert any("CPU ops/" in said for said in lines), name
        assert not any("kernel" in said for said in lines), name
    gpu = json.loads((FIXTURES / "h100-mlp" / "report.json").read_text())
    assert all("kernels/step " in m["measuredText"] for m in gpu["modes"] if m.get("measuredText"))


def test_the_compile_time_is_said_whole_the_recompile_beside_the_first_call_s() -> None:
    """fused-cpu: its first call compiled in 63.4 s (a cold Inductor cache) and a recompile while timing took 0.9 s
    more; the line and the headline said only the first call's compile beside the phases' total (review 25, B D2)."""
    report = json.loads((FIXTURES / "fused-cpu" / "report.json").read_text())
    mode = report["modes"][0]
    assert mode["compileSeconds"] == 63.4432 and mode["compiler"]["compileSeconds"]["total"] == 64.3222
    said = mode_line.compile_text(mode["compileSeconds"], mode["compiler"])
    assert said == "compile 63.4 s + 901 ms recompiling"
    assert f", {said}" in mode["measuredText"] and report["headline"].endswith(f" · {said}")
    assert mode_line.compile_text(3.0, None) == "compile 3 s"


def test_the_break_even_is_the_answer_s_pay_back_only() -> None:
    """One pay-back, the answer's: a mode whose number backs no verdict (too noisy, or evidence beside the answer's)
    says none, though the measurement recorded one."""
    report = json.loads((FIXTURES / "graphbreak-cpu" / "report.json").read_text())
    assert report["modes"][0]["breakEvenCalls"] is not None
    noisy = copy.deepcopy(report)
    noisy["modes"][0]["speedupInterval"].update({"low": 0.4, "high": 3.9})  # beyond ÷3…×3: too noisy to say
    answer.attach(noisy)
    assert noisy["answer"]["verdict"] == "none" and noisy["answer"]["number"]["direction"] == "too-noisy"
    assert "break-even" not in noisy["modes"][0]["measuredText"]
    evidence = copy.deepcopy(report)
    mode_line.attach(evidence, {**evidence["answer"], "number": None, "evidence": [evidence["answer"]["number"]]})
    assert "break-even" not in evidence["modes"][0]["measuredText"]


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


def test_a_region_s_replay_says_its_callable_inputs_number_times_and_the_answer_s_break_even() -> None:
    """Schema 1.28: the CLI's replay line is the runner's, as a target mode's is (the replay's words, not TS's)."""
    # act40.py's region (a real CPU run): its replay, the answer's number where its steps are too few, with the pay-back
    report = json.loads((FIXTURES / "script-in-situ-cpu" / "report.json").read_text())
    r0 = report["regions"][0]
    line = (
        "torch.compile's defaults (as written) on the most frequent inputs float32[256, 1024] with grad (40 calls): 1.19× "
        "per call replayed (1.12–1.26×), 0.674 ms/call vs eager 0.801 ms, fastest rounds of 9 interleaved pairs, "
        "CPU ops/call 9 → 1, break-even after about 51,000 calls"
    )
    # the fixture carries its line (scripts/rederive_fixtures.py): its range floored for a CPU's next process reaches
    # below 1.05×, so it stays eager and says no break-even
    floored = line.replace("(1.12–1.26×)", "(1.01–1.37×)").removesuffix(", break-even after about 51,000 calls")
    assert r0["measurements"][0]["measuredText"] == floored
    r0["measurements"][0]["speedupInterval"].update({"low": 1.12, "high": 1.26})  # a range that supports compiling
    for steps in (r0["inSitu"]["step"], r0["inSitu"]["call"]):  # too few to decide: the replay is the answer's number
        steps["samples"] = answer.MIN_STEADY_STEPS - 1
    answer.attach(report)
    assert r0["measurements"][0]["measuredText"] == line
    # a replay that is evidence, not the answer's number: no break-even of its own (one pay-back, the answer's)
    number = {"kind": "replay-call", "value": 1.1883, "text": "1.19× per call replayed (1.12–1.26×)"}
    evidence = mode_line.replay_line(r0, r0["measurements"][0], number)  # type: ignore[arg-type]
    assert evidence == line.removesuffix(", break-even after about 51,000 calls")
    # a replay from before ranges backs no verdict, so no pay-back
    rangeless = copy.deepcopy(report)
    rangeless["regions"][0]["measurements"][0]["speedupInterval"] = None
    answer.attach(rangeless)
    assert rangeless["regions"][0]["measurements"][0]["measuredText"] == line.replace(
        "1.19× per call replayed (1.12–1.26×),", "no range measured, 1.19× per call replayed,"
    ).removesuffix(", break-even after about 51,000 calls")
    # a what-if mode compiles afresh on these inputs: its own compile, said as the replay's
    what_if = dict(copy.deepcopy(r0["measurements"][0]), mode="max-autotune", compileSeconds=12.5)
    number = {"kind": "replay-call", "value": 1.5, "text": "1.50× per call replayed with max-autotune"}
    said = mode_line.replay_line({**r0, "options": {"backend": "inductor"}}, what_if, number)  # type: ignore[arg-type,typeddict-item]
    assert said.startswith(
        "mode='max-autotune' on the most frequent inputs float32[256, 1024] with grad (40 calls): 1.50×"
    )
    assert said.endswith(", the replay compiled these inputs with mode='max-autotune' in 12.5 s")
    # the inputs as the measurement's signatureText says them (code read 37: one place words them)
    worded = dict(what_if, signatureText="the batch of 256")
    assert " inputs the batch of 256 (40 calls): " in mode_line.replay_line(r0, worded, number)  # type: ignore[arg-type]
    # a mode as the user writes it (review 3B D22: "mode default" read the name as a word)
    assert mode_line.script_mode({"options": {"mode": "max-autotune", "backend": "aot_eager"}}) == (  # type: ignore[typeddict-item]
        "mode='max-autotune', backend='aot_eager'"
    )
    # a call that set nothing is said as torch.compile's defaults, never as an argument it did not write (review 6C
    # Y2: torch.compile(MLP()) said as "mode='default'")
    assert r0["modeText"] == "torch.compile's defaults"
    assert r0["measurements"][0]["modeText"] == "torch.compile's defaults (as written)"
    # what else the call set that changes what compiles (review 5C Y2: dynamic=True said as "mode='default'")
    options = {"mode": "default", "dynamic": True, "fullgraph": True, "backend": "inductor"}
    assert mode_line.script_mode({"options": options}) == "dynamic=True, fullgraph=True"  # type: ignore[typeddict-item]
    eager = {"mode": "default", "backend": "eager", "dynamic": True, "fullgraph": False}
    assert mode_line.script_mode({"options": eager}) == "backend='eager', dynamic=True"  # type: ignore[typeddict-item]


def test_the_cli_header_says_which_run_on_which_device_and_how_it_ended_each_time_the_report_is_written() -> None:
    """Schema 1.29: the CLI's first line after 'Compile Lens — ' (test/unit/regionDigest.test.ts: shown as carried)."""
    report = json.loads((FIXTURES / "graphbreak-cpu" / "report.json").read_text())
    device = report["environment"]["deviceName"]
    assert report["headerText"] == f"graphbreak on cpu ({device}): ok"
    report["status"] = "error"  # a run that ended otherwise, written again
    answer.attach(report)
    assert report["headerText"] == f"graphbreak on cpu ({device}): error"
    # a function target, as its user wrote it, not the folder name "fused-compile_target"
    fused = json.loads((FIXTURES / "fused-cpu" / "report.json").read_text())
    assert fused["headerText"].startswith("compile_target in fused.py on cpu (")
    # schema 1.33: what its traces are, beside each timeline pane (review 3C R7: composed in TypeScript); a report
    # read from logs has no trace
    assert report["profilerNote"]["label"] == "slower than timed"
    assert report["profilerNote"]["text"].endswith("The answer's numbers come from runs without it.")
    assert sentences.profiler_note({**report, "target": {"kind": "logs", "name": "train"}}) is None
    # review 4B P5: a rank's own report says which rank it is, in every title of it (report.titleText)
    report["rank"] = {"rank": 1, "worldSize": 4}
    answer.attach(report)
    assert report["titleText"] == "graphbreak, rank 1 of 4"
    assert report["headerText"] == f"graphbreak, rank 1 of 4 on cpu ({device}): error"


def test_a_compile_whose_fx_graph_cache_lookups_all_missed_says_the_cache_was_cold() -> None:
    """Review 3C R10: explore's 52.5 s, fused's 63.4 s and gated_service's 68.9 s compiles of one small model, with
    nothing on screen saying Inductor built its code afresh (every FX graph cache lookup missed)."""
    cold = {"cache": {"fxGraph": {"hit": 0, "miss": 2, "bypass": 0}}}
    assert mode_line.cold_cache(cold) == " (a cold compile cache: later runs load it)"  # type: ignore[arg-type]
    assert mode_line.cold_cache({"cache": {"fxGraph": {"hit": 1, "miss": 1, "bypass": 0}}}) == ""  # type: ignore[arg-type]
    assert mode_line.cold_cache({"cache": {"fxGraph": {"hit": 0, "miss": 0, "bypass": 0}}}) == ""  # type: ignore[arg-type]
    region = json.loads((REPO / "test" / "fixtures" / "recorded" / "explore-cpu" / "report.json").read_text())[
        "regions"
    ][0]
    assert sentences.region_facts(region, (), "notebook")[-1] == (
        "52.5 s compiling in the notebook's own calls (a cold compile cache: later runs load it)"
    )


def test_a_measurement_timed_again_says_why_in_one_sentence() -> None:
    """Schema 1.33 (review 3C R8: the surfaces led the discarded timing's reason with a bare "re-measured:")."""
    fused = json.loads((FIXTURES / "fused-cpu" / "report.json").read_text())
    said = fused["modes"][0]["remeasuredText"]
    assert said.startswith("Timed again, its first timing discarded: input 'x' changed size in dimension 0")
    graphbreak = json.loads((FIXTURES / "graphbreak-cpu" / "report.json").read_text())
    assert not any("remeasuredText" in m for m in graphbreak["modes"] if not m.get("discardedTimings"))


def test_a_region_is_said_by_its_name_its_id_only_where_another_region_shares_it() -> None:
    """Schema 1.33 (review 3B D22: "r0"/"r1" led every region heading and pane)."""
    regions: Any = [{"id": "r0", "name": "forward"}, {"id": "r1", "name": "Net"}, {"id": "r2", "name": "forward"}]
    assert sentences.region_labels(regions) == {"r0": "forward (r0)", "r1": "Net", "r2": "forward (r2)"}
    report = json.loads((FIXTURES / "script-kernels-cpu" / "report.json").read_text())
    assert [r["label"] for r in report["regions"]] == ["normalize", "TinyMLP"]


def test_outputs_that_differ_from_eager_s_are_the_runner_s_sentence() -> None:
    """Schema 1.33: every surface composed "numeric mismatch vs eager: …" on its own."""
    report = json.loads((FIXTURES / "graphbreak-cpu" / "report.json").read_text())
    mode = report["modes"][0]
    mode["correctness"] = {"ok": False, "maxAbsError": 0.5, "message": "max abs error 0.5 > atol 1e-4"}
    answer.attach(report)
    assert mode["mismatchText"] == "Compiled outputs differ from eager's: max abs error 0.5 > atol 1e-4"
    mode["correctness"] = {"ok": True, "maxAbsError": 0.0}
    assert mode_line.mismatch_text(mode) is None


def test_the_modes_table_legend_is_the_runner_s_plain_sentence() -> None:
    """Review 4A F11: "speedup = eager's fastest round / compiled's fastest round over interleaved pairs" (the code's
    words, composed in TS): the runner says it plainly, with the runs it took (report.speedupNote)."""
    report = json.loads((FIXTURES / "graphbreak-cpu" / "report.json").read_text())
    runs = len(report["modes"][0]["eagerTiming"]["rounds"])
    assert report["speedupNote"] == (
        f"Speedup: eager's time ÷ compiled time, each side's fastest of {runs} runs, the two taking turns (a busy host "
        "only adds time). Next run: where another run's speedup may land."
    )
    for m in report["modes"]:
        m["speedupInterval"] = None  # no range: no legend for one
    answer.attach(report)
    assert "speedupNote" not in report


def test_a_replay_s_inputs_are_said_among_the_script_s_input_shapes() -> None:
    """Which inputs a region's replay ran, among how many (review 6B S: the panel composed "most frequent, 1 call" for
    one of ten shapes called once each): a tie is one of the tied, a lone shape the only one."""
    recorded = FIXTURES.parent / "recorded"

    def said(name: str) -> list[str | None]:
        report = json.loads((recorded / name / "report.json").read_text())
        return [mode_line.inputs_text(r, m) for r in report["regions"] for m in r["measurements"]]

    assert said("train_small-cpu") == [
        "one of 2 input shapes, 6 calls each",
        "one of 10 input shapes, each called once",
    ]
    assert said("warmup_step-cpu") == ["the most frequent of 2 input shapes, 6 calls"]
    assert said("serve_script-cpu") == ["its only input shape, 64 calls"]
    failure = json.loads((FIXTURES / "script-in-situ-failure-cpu" / "report.json").read_text())["regions"][0]
    assert [m["inputsText"] for m in failure["measurements"]] == [
        "the most frequent of 2 input shapes, 3 calls",
        "the last of 2 input shapes, 1 call",
    ]


def test_a_replay_s_time_and_eager_s_beside_it_are_said_in_one_unit() -> None:
    """Review 8 A15: "0.0644 ms/call vs eager 0.327 ms" (then "64.4 µs/call vs eager 0.327 ms"): one unit per pair."""
    report = json.loads((FIXTURES.parent / "recorded" / "gated_service-cpu" / "report.json").read_text())
    said = [m["measuredText"] for r in report["regions"] for m in r["measurements"] if "measuredText" in m]
    assert any("64.4 µs/call vs eager 327 µs," in s for s in said), said
    assert formats.ms_as(0.0644, formats.ms(0.327)) == "0.0644 ms"  # the other way round: the compiled time's unit


def test_a_replay_s_times_divide_to_its_speedup_as_shown() -> None:
    """Review 15U U1: "0.71× … 13.7 µs/call vs eager 9.65 µs" (those give 0.70×): a digit more each where three would
    divide to another shown speedup; where eager's time is not the one the number is the ratio of, as before."""
    report = json.loads((FIXTURES / "script-kernels-cpu" / "report.json").read_text())
    region = next(r for r in report["regions"] if r["name"] == "normalize")
    m, number = region["measurements"][0], region["answer"]["number"]
    assert number["value"] == 0.7053 and number["eagerMs"] == m["eagerTiming"]["estimateMs"]
    said = mode_line.replay_line(region, m, number)
    assert ", 13.68 µs/call vs eager 9.652 µs, fastest rounds of 3 interleaved pairs" in said, said
    assert formats.speedup(9.652 / 13.68) == "0.71×" and formats.speedup(9.65 / 13.7) == "0.70×"
    other = mode_line.replay_line(region, m, {**number, "eagerMs": number["eagerMs"] * 0.9})
    assert ", 13.7 µs/call vs eager 9.65 µs, " in other, other
