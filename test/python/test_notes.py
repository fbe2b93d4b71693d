"""The sentences beside a number (report/notes.py, schema 1.24): outputs that differ no more than eager's, eager taken
from another mode's pairs, a host slow through the pairs, a contended host, launch-bound eager; what qualifies a number
only where there is one. On hand-made measurements: no torch."""

from __future__ import annotations

import json
import statistics
from pathlib import Path
from typing import Any

from compile_lens_runner import formats
from compile_lens_runner.report import notes

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "reports"


def _mode(**more: Any) -> dict[str, Any]:
    timing = {"valid": True, "medianMs": 0.7, "estimateMs": 0.7}
    return {"mode": "reduce-overhead", "status": "ok", "error": None, "speedup": 2.94, "timing": timing,
            "speedupInterval": {"low": 2.76, "high": 3.79}, **more}  # fmt: skip


def test_outputs_that_differ_no_more_than_eager_s_are_no_compiler_error() -> None:
    correct = {
        "ok": True,
        "reference": "fp64",
        "maxAbsError": 0.0011523,
        "eagerRmse": 0.000312,
        "compiledRmse": 0.000291,
    }
    assert notes.mode_notes(_mode(correctness=correct)) == [  # type: ignore[arg-type]
        "outputs differ from eager by up to 0.00115, no more than eager itself differs from an fp64 copy of the model "
        "(RMSE 0.00029 vs eager's 0.00031): not a compiler error"
    ]
    assert notes.mode_notes(_mode(correctness={**correct, "reference": "none"})) == []  # type: ignore[arg-type]


def test_eager_from_another_mode_s_pairs_and_a_slow_host_are_said_only_beside_a_number() -> None:
    interval = {"low": 1.24, "high": 2.42, "runEager": {"eagerMs": 12.0, "bestEagerMs": 6.27},
                "slowHost": {"eager": 1.19, "compiled": 1.26}}  # fmt: skip
    said = notes.mode_notes(_mode(speedupInterval=interval))  # type: ignore[arg-type]
    assert said == [
        "eager took 12 ms per call at best in these pairs but 6.27 ms in another mode's pairs of this run; the host "
        "CPU does not limit compiled (CUDA graphs, or a busy GPU): the speedup uses eager's 6.27 ms (the range's upper "
        "end is what a host as slow as during these pairs gives)",
        # what the probe read, not a cause it cannot see: a quiet 16-CPU host's read 1.5× slower (review 26, item 9)
        "the host CPU ran slower through these pairs than at its fastest in this run (a 1 ms CPU probe read 1.19× "
        "slower beside eager and 1.26× slower beside compiled: other processes, or a lower CPU clock), so the range "
        "reaches what the CPU at its fastest may give; rerun for a firmer number",
    ]
    assert notes.mode_notes(_mode(speedupInterval={**interval, "runEager": None, "slowHost": {}})) == []  # type: ignore[arg-type]
    # no number (the timing voided): nothing said of one
    voided = _mode(speedupInterval=interval, timing={"valid": False, "invalidReason": "a recompile ran inside"})
    assert notes.mode_notes(voided) == []  # type: ignore[arg-type]


def test_a_contended_host_is_said_in_the_answer_s_words() -> None:
    load = {"contended": True, "reason": "the host was contended while timing", "fix": "run with OMP_NUM_THREADS=1"}
    mode = _mode(timing={"valid": True, "medianMs": 0.7, "hostLoad": load})
    assert notes.mode_notes(mode) == [  # type: ignore[arg-type]
        "The host was contended while timing. Fix: run with OMP_NUM_THREADS=1."
    ]
    # the slower CPU the range was widened for is that contention: said once, not again as the probe's reading
    # (review 3A M6: "a 1 ms CPU probe read 1.81× slower …" above "13 threads ready to run on its 2 CPUs …")
    slow = {"low": 0.17, "high": 0.52, "slowHost": {"eager": 1.81, "compiled": 1.70}}
    busy = _mode(speedupInterval=slow, timing={"valid": True, "medianMs": 0.7, "hostLoad": load})
    assert notes.mode_notes(busy) == notes.mode_notes(mode)  # type: ignore[arg-type]


def test_launch_bound_eager_and_attach_writes_every_mode_s_notes() -> None:
    report: dict[str, Any] = {
        "eager": {"timing": None, "trace": None, "kernelsPerStep": 60, "gpuIdlePct": 62.4, "launchBound": True},
        "modes": [_mode()],
        "regions": [
            {"calls": [], "measurements": [_mode(speedupInterval={"low": 1, "high": 2, "slowHost": {"eager": 1.5}})]}
        ],
    }
    notes.attach(report)  # type: ignore[arg-type]
    assert report["eager"]["launchBoundText"].startswith(
        "eager is launch-bound: the GPU sat idle 62% of each step between kernels, waiting for the host CPU"
    )
    assert report["modes"][0]["notes"] == []
    assert report["regions"][0]["measurements"][0]["notes"][0].startswith("the host CPU ran slower through these pairs")
    report["eager"]["launchBound"] = False
    assert notes.launch_bound(report) is None  # type: ignore[arg-type]


def test_what_graph_breaks_cost_is_said_per_compiler_record_with_the_time_outside_the_graphs() -> None:
    brk = [{"reason": "print"}]
    assert notes.break_cost({"graphCount": 3, "graphBreaks": brk, "recompiles": []}, 0.242) == (  # type: ignore[typeddict-item]
        "the compiled code is split into 3 graphs; code between them runs eagerly (0.242 ms per call is spent outside "
        "the graphs: eager code, guards, Python)."
    )
    assert notes.break_cost({"graphCount": 1, "graphBreaks": brk, "recompiles": []}, None) == (  # type: ignore[typeddict-item]
        "one graph holds the compiled code; the code the break left out of it runs eagerly."
    )
    assert notes.break_cost({"graphCount": 0, "graphBreaks": brk, "recompiles": []}, None) == (  # type: ignore[typeddict-item]
        "nothing of it was compiled: every call ran eagerly."
    )
    assert notes.break_cost({"graphCount": 2, "graphBreaks": [], "recompiles": []}, None) is None


def test_graph_breaks_cost_the_graphs_one_call_runs_and_recompiles_are_said_apart() -> None:
    """graphbreak-cpu: 3 breaks in forward make 4 frames; the last one recompiled twice, 6 graphs in all. A call runs
    4 of them: "split into 6 graphs" counted the recompiled versions as graphs a call runs (review 25, A D3)."""
    report = json.loads((FIXTURES / "graphbreak-cpu" / "report.json").read_text())
    compiler = report["modes"][0]["compiler"]
    assert compiler["graphCount"] == 6 and len(compiler["recompiles"]) == 2 and len(compiler["graphBreaks"]) == 3
    assert notes.graphs_per_call(compiler) == 4
    assert notes.break_cost(compiler, None) == (
        "the compiled code is split into 4 graphs; code between them runs eagerly; the graph of forward after line 24 "
        "recompiled twice (6 graphs in all)."
    )  # review 4A F8: which graph recompiled, by its frame's name
    unnamed = {**compiler, "frames": [f for f in compiler["frames"] if f["compileId"] != "3/0"]}
    assert notes.break_cost(unnamed, None) == (  # type: ignore[arg-type]
        "the compiled code is split into 4 graphs; code between them runs eagerly; 2 more versions of them were "
        "compiled (6 graphs in all)."
    )
    assert compiler["breakCost"] == notes.break_cost(compiler, report["modes"][0].get("outsideGraphsMsPerStep"))
    # a frame recompiled that captured nothing made no graph: one graph a call
    frames = [{"compileId": "0/0"}, {"compileId": "0/1"}, {"compileId": "1/0"}]
    one = {"graphCount": 1, "graphBreaks": [{"reason": "print"}], "recompiles": [{}], "frames": frames}
    assert notes.break_cost(one, None) == (  # type: ignore[arg-type]
        "one graph holds the compiled code; the code the break left out of it runs eagerly."
    )


def test_a_replay_far_from_the_script_s_own_eager_calls_says_why_or_that_it_does_not_know() -> None:
    """Review 4B P6: train_small's r0 replay read "eager 6.20 ms" over a chart of the script's own eager calls at
    50–90 ms, nothing said: where its eager rounds took about as long as those calls, its number is its fastest round.
    Recorded on a busy host, the script's calls after the profiler window are far from every replay round."""
    report = json.loads((FIXTURES.parent / "recorded" / "train_small-cpu" / "report.json").read_text())
    r0 = report["regions"][0]
    m = r0["measurements"][0]
    replay_ms = m["eagerTiming"]["estimateMs"]
    plain = [
        c["ms"]
        for c in r0["calls"]
        if c.get("side") == "eager" and c["signature"] == m["signature"] and not c.get("observer")
    ]
    assert plain and not any(c.get("profiled") for c in r0["calls"] if c["ms"] in plain)
    script_ms = statistics.median(plain)
    assert script_ms > 3 * replay_ms  # so that every case below is far apart
    said = notes.replay_against_script(r0, m)
    assert said is not None and m["notes"][-1] == said
    shown = formats.ms_as(script_ms, formats.ms(replay_ms))
    left = sum(1 for c in r0["calls"] if c.get("side") == "eager" and c["signature"] == m["signature"]) - len(plain)
    head = (
        f"The script's own eager calls at these inputs took {shown} (median of {len(plain)}, leaving out {left} "
        "call that ran with Compile Lens's own work), "
    )
    assert left == 1  # eager's first call at these inputs, under the profiler (review 22X X2: left out unsaid)
    assert said.startswith(head)
    # rounds whose median is near the script's calls: the number is the replay's fastest round, its time the replay
    # line's, not said again here (issue 44); the rounds' median, said only here
    slow = {**m, "eagerTiming": {**m["eagerTiming"], "medianMs": script_ms * 1.1}}
    busy = notes.replay_against_script(r0, slow)
    assert busy is not None and busy.endswith(
        f" as long as the replay's eager (its fastest round): most of the replay's eager rounds took as long (their "
        f"median {formats.ms(script_ms * 1.1)}), and a busy host only adds time."
    )
    assert formats.ms(replay_ms) not in busy
    # rounds that all ran fast on a busy host: the host, which took the script's calls more than the fastest round
    # (review 10 F3: "does not know why" beside a page that said the host was busy)
    fast = {**m, "eagerTiming": {**m["eagerTiming"], "medianMs": replay_ms * 1.1}}
    assert m["timing"]["hostLoad"]["contended"]
    host = notes.replay_against_script(r0, fast)
    assert host is not None and host.startswith(head)
    # (its compiled calls at these inputs all ran inside the profiler window: no side told apart by them, review 21Y Y1)
    # the replay's number its fastest round, said once (review 23X X4)
    assert host.endswith(": other processes held the host's CPUs and delayed the script's calls.")
    # on a quiet host: nothing known of the script's slower calls, and said so
    quiet = {**fast, "timing": {**m["timing"], "hostLoad": {**m["timing"]["hostLoad"], "contended": False}}}
    unknown = notes.replay_against_script(r0, quiet)
    assert unknown is not None and unknown.startswith(head)
    assert unknown.endswith(" as long as the replay's eager (its fastest round); Compile Lens does not know why.")
    # within 2×: nothing to say
    near = {**m, "eagerTiming": {**m["eagerTiming"], "estimateMs": script_ms / 1.5}}
    assert notes.replay_against_script(r0, near) is None


def _busy_train_small(compiled_ms: list[float]) -> tuple[dict[str, Any], dict[str, Any]]:
    """train_small's r0 (recorded on a busy host: eager calls 42.6 and 23.0 ms at the replay's inputs beside a replay's
    fastest eager round of 2.77 ms) with its compiled calls at those inputs that reused compiled code timed
    `compiled_ms`, out of the profiler window; none where it is empty."""
    report = json.loads((FIXTURES.parent / "recorded" / "train_small-cpu" / "report.json").read_text())
    r0, m = report["regions"][0], report["regions"][0]["measurements"][0]
    reused = [
        c
        for c in r0["calls"]
        if c["side"] == "compiled" and c["signature"] == m["signature"] and c["event"] == "cached"
    ]
    assert [c["ms"] for c in reused] == [1.7279, 7.7894] and all(c.get("profiled") for c in reused)
    for c, ms in zip(reused, compiled_ms, strict=False):
        c["ms"], c["profiled"] = ms, False
    r0["calls"] = [c for c in r0["calls"] if c not in reused[len(compiled_ms) :]]
    assert m["timing"]["hostLoad"]["contended"] and m["timing"]["estimateMs"] == 1.6377900001316448
    return r0, m


def test_a_busy_host_s_note_says_which_side_of_the_script_s_calls_it_slowed() -> None:
    """Review 20X X1: train_small's note said the busy host "adds its own time to every call it takes" of eager calls
    12× the replay's eager, beside compiled calls on the same chart at the replay's compiled speed, and "32.8 ms
    (median)" of 2 calls: the script's compiled calls at these inputs are set against the replay's compiled time, the
    side the host slowed said, and how many calls each median is of."""
    head = (
        "The script's own eager calls at these inputs took 32.8 ms (median of 2, leaving out 1 call that ran with "
        "Compile Lens's own work), 12× as long as the replay's eager (its fastest round)"
    )
    fastest = "."
    # eager alone slowed: compiled calls about the replay's compiled time
    alone = notes.replay_against_script(*_busy_train_small([1.1, 1.73]))  # type: ignore[arg-type]
    assert alone == (
        f"{head}, while its compiled calls took 1.42 ms (median of 2), 0.9× as long as the replay's compiled: other "
        f"processes held the host's CPUs and delayed the eager calls, not the compiled ones{fastest}"
    )
    assert "every call" not in alone
    # both slowed alike: the other processes delayed every call, and the compiled side shows it
    both = notes.replay_against_script(*_busy_train_small([16.4]))  # type: ignore[arg-type]
    assert both == (
        f"{head}, and its compiled calls took 16.4 ms (one call), 10× as long as the replay's compiled: other processes "
        f"held the host's CPUs and delayed both alike{fastest}"
    )
    # no compiled call to tell the sides apart by: said as before
    none = notes.replay_against_script(*_busy_train_small([]))  # type: ignore[arg-type]
    assert none is not None and "compiled calls" not in none and none.startswith(f"{head}: ")
    busy_alone = ": other processes held the host's CPUs and delayed the script's calls."
    assert none.endswith(busy_alone)
    # the in-situ line's times (one signature's): theirs, not said again, set against the replay's
    r0, m = _busy_train_small([])
    r0["inSitu"]["call"] = {"comparedBy": "signature", "eagerMs": 32.8, "compiledMs": 1.8}
    assert notes.replay_against_script(r0, m) == (  # type: ignore[arg-type]
        "The script's own eager calls in situ took 12× as long as the replay's eager (its fastest round), while its "
        "compiled calls in situ took 1.1× as long as the replay's compiled: other processes held the host's CPUs and "
        f"delayed the eager calls, not the compiled ones{fastest}"
    )
    # the recording's compiled calls at these inputs both ran inside the profiler window (1.73 and 7.79 ms): they carry
    # its time, not the host's, so no side is told apart by them (review 21Y Y1: their 4.76 ms blamed on the host)
    report = json.loads((FIXTURES.parent / "recorded" / "train_small-cpu" / "report.json").read_text())
    recorded = report["regions"][0]["measurements"][0]["notes"][-1]
    assert recorded == f"{head}{busy_alone}"


def test_a_replay_far_from_eager_calls_made_inside_the_profiler_window_says_the_profiler_is_why() -> None:
    """Four fixtures said "Compile Lens does not know why" of eager calls at 0.1-0.3 ms beside replays at 0.005-0.04
    ms: every one of those calls ran inside the in-situ profiler window (eager's first block), the profiler's own time
    in each op (docs/BENCHMARKS.md, "A replay far from the script's own eager calls")."""
    for name in ("warmup_step-cpu", "warmup_step-cpu-shape-fix-on", "explore-cpu"):
        r0 = json.loads((FIXTURES.parent / "recorded" / name / "report.json").read_text())["regions"][0]
        said = notes.replay_against_script(r0, r0["measurements"][0])
        assert said is not None and "inside Compile Lens's profiler window" in said and "not know" not in said
    r0 = json.loads((FIXTURES.parent / "recorded" / "warmup_step-cpu" / "report.json").read_text())["regions"][0]
    m = r0["measurements"][0]  # the replay's eager: 0.00612 ms
    eager = [c for c in r0["calls"] if c.get("side") == "eager"]
    assert eager and all(c.get("profiled") for c in eager)

    def with_plain(ms: float) -> dict:  # a call of the same signature after the window: compared alone
        return {**r0, "calls": [*r0["calls"], {**eager[0], "index": 7, "ms": ms, "profiled": False}]}

    short = notes.replay_against_script(with_plain(0.04), m)  # type: ignore[arg-type]
    assert short is not None and short.startswith(
        "The script's own eager calls at these inputs took 40 µs (one call, leaving out "
    )
    assert "passes through torch.compile's wrapper" in short
    # the script's time in the unit of the replay's "eager 6.12 µs" just above it, never "0.207 ms" (review 13P P8)
    assert with_plain(0.207) and notes.replay_against_script(with_plain(0.207), m).startswith(  # type: ignore[arg-type, union-attr]
        "The script's own eager calls at these inputs took 207 µs (one call, leaving out 3 calls that ran with Compile Lens's own work), 34× as long"
    )
    # a call 33× the replay's, not that short: this recording's busy host (review 10 F3), not "does not know why"
    assert notes.replay_against_script(with_plain(0.2), m).endswith("held the host's CPUs and delayed both alike.")  # type: ignore[arg-type, union-attr]


def test_a_region_s_contended_host_is_said_once_in_its_answer_not_again_beside_its_replay() -> None:
    """Review 6B L: serve_script (recorded on a busy 2-CPU host) showed the host paragraph twice, in situ's samples
    in the answer and the replay's beside its measurement, each with the same fix."""
    from compile_lens_runner.report import answer

    report = json.loads((FIXTURES.parent / "recorded" / "serve_script-cpu" / "report.json").read_text())
    region = report["regions"][0]
    replay = region["measurements"][0]
    assert replay["timing"]["hostLoad"]["contended"] and region["inSitu"]["hostLoad"]["contended"]
    answer.attach(report)
    said = [r["text"] for r in region["answer"]["reasons"] if r["code"] == "host-contended"]
    assert len(said) == 1 and "8 threads" in said[0]
    assert notes.contended(replay) not in replay["notes"]  # type: ignore[arg-type]
    assert not [n for n in replay["notes"] if "contended" in n], replay["notes"]
    # where the answer does not say it, the replay's own note stays
    region["answer"]["reasons"] = [r for r in region["answer"]["reasons"] if r["code"] != "host-contended"]
    replay["notes"] = notes.mode_notes(replay)  # type: ignore[arg-type]
    notes.host_said_once(region)  # type: ignore[arg-type]
    assert notes.contended(replay) in replay["notes"]  # type: ignore[arg-type]
