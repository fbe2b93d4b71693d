"""Contention on a CPU host (docs/BENCHMARKS.md § "Eager on a contended CPU host": a replay printed 704x because
eager's multi-threaded ops waited on descheduled threads). Recorded host samples go into the decision, pure; the
verdict gives no number a voice when the host was contended; a slow first call does not leave rounds one call long.
Nothing here asserts how fast a host is."""

from __future__ import annotations

import copy
import itertools
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from compile_lens_runner.measure import host, timing
from compile_lens_runner.measure.host import LoadSample, LoadWatch, load_evidence
from compile_lens_runner.report import answer


def _samples(others: list[int | None], loads: tuple[float, float] = (1.0, 1.0)) -> list[LoadSample]:
    return [
        LoadSample(n, loads[0] if i == 0 else loads[1], steal=10 * i, jiffies=200 * i) for i, n in enumerate(others)
    ]


@pytest.mark.parametrize(
    ("others", "cpus", "threads", "contended", "fix_threads"),
    [
        ([1, 1, 2, 1, 1, 1], 2, 2, True, 1),  # run 21's editorExperience e2e: a CI run beside it, torch on 2 threads
        ([1, 1, 1, 1], 2, 2, True, 1),  # one core taken: one of torch's two threads waits every op
        ([0, 0, 1, 0], 2, 2, False, None),  # a quiet host with a blip: 1 of 4 samples
        ([1, 1, 0, 0], 2, 2, True, 1),  # half the samples contended is enough; the fix fits a contended sample
        ([2, 3, 2], 2, 2, True, 0),  # every CPU taken: no thread count fits, a quieter host is the fix
        ([1, 1, 1], 2, 1, False, None),  # one thread with a CPU free: no waits, no slicing
        ([4, 4, 4], 2, 1, True, 0),  # one thread and no CPU free: time-sliced through every round
        ([3, 3, 4], 8, 8, True, 5),  # a bigger host: the fix fits the threads to the CPUs left free
        ([3, 3, 4], 8, 4, False, None),  # ... threads that already fit
        ([None, None], 2, 2, False, None),  # a host without /proc/stat says nothing, judges nothing
    ],
)
def test_recorded_samples_decide_contention(
    others: list[int | None], cpus: int, threads: int, contended: bool, fix_threads: int | None
) -> None:
    evidence = load_evidence(_samples(others), cpus, threads)
    assert evidence["contended"] is contended
    if contended:
        assert evidence["reason"].startswith("the host was contended while timing")
        # one thread is short of CPUs when none is free: said so, not as "fewer CPUs free than 1" (review 25, C N12)
        short = "no CPU was free in " if threads == 1 else f"fewer CPUs were free than torch's {threads} threads in "
        assert short in evidence["reason"] and "load average about 1 then)" in evidence["reason"]
        # a timed run is a "run" in the legend above the verdict ("fastest of 9 runs"), not a "round" here (5A G8)
        assert "round" not in evidence["reason"]
        if threads == 1:
            assert "so every run shared the CPU with them and" in evidence["reason"]
        assert evidence["fix"].startswith(
            f"run with OMP_NUM_THREADS={fix_threads} (or torch.set_num_threads({fix_threads})"
            if fix_threads
            else host.QUIETER
        )
    else:
        assert evidence["reason"] is None and evidence["fix"] is None


def test_the_evidence_carries_the_samples_load_and_steal() -> None:
    evidence = load_evidence(_samples([2, 1, 2], loads=(3.5, 4.25)), 2, 2)
    assert evidence == {
        **evidence,
        "cpus": 2,
        "threads": 2,
        "samples": 3,
        "contendedSamples": 3,
        "othersRunning": [1, 2],
        "loadAverage": {"start": 3.5, "end": 4.25},
        "stealPct": 5.0,
    }
    assert "load average rose from 3.5 to 4.3)" in evidence["reason"]  # a load that moved: which way it went
    assert load_evidence([], 2, 2)["othersRunning"] is None and load_evidence([], 2, 2)["contended"] is False


def _mode(speedup: float, load: dict[str, Any] | None, low: float | None = None) -> dict[str, Any]:
    timing_fields: dict[str, Any] = {"valid": True}
    if load is not None:
        timing_fields["hostLoad"] = load
    return {
        "mode": "default",
        "status": "ok",
        "speedup": speedup,
        "compileSeconds": 3.0,
        "breakEvenCalls": 401.0,
        "timing": timing_fields,
        "correctness": {"ok": True},
        "speedupInterval": {"low": low or speedup * 0.95, "high": speedup * 1.05},
    }


CONTENDED = load_evidence(_samples([1, 1, 1]), 2, 2)
QUIET = load_evidence(_samples([0, 0, 0]), 2, 2)


def _target(modes: list[dict[str, Any]]) -> Any:
    return {"target": {"kind": "function"}, "modes": modes, "environment": {"device": "cpu"}, "status": "ok"}


def recommend(modes: list[dict[str, Any]]) -> dict[str, Any]:
    a = answer.target_answer(_target(modes))
    return {"mode": a["mode"], "verdict": a["verdict"], "reason": a["sentence"]}


def region_answer(region: dict[str, Any]) -> Any:
    region.setdefault("id", "r0")
    region.setdefault("calls", [])
    return answer.region_answer(region)


def test_a_contended_number_gets_no_verdict_but_why_and_the_fix() -> None:
    rec = recommend([_mode(704.5, CONTENDED)])
    assert rec["verdict"] == "none" and rec["mode"] is None
    assert rec["reason"].startswith(
        "No verdict: 705× per call with default (669–740×), host busy, not trusted. The host was contended while timing"
    )
    assert rec["reason"].endswith(
        "Fix: run with OMP_NUM_THREADS=1 (or torch.set_num_threads(1) in the script) so torch's "
        "threads fit the CPUs other processes leave free, or profile when the host is quieter."
    )
    assert recommend([_mode(1.31, QUIET)])["verdict"] == "compile"
    assert recommend([_mode(1.31, None)])["verdict"] == "compile"  # CUDA runs and older reports: no hostLoad
    # a slower-looking contended number is no "stay eager" either
    assert recommend([_mode(0.5, CONTENDED)])["verdict"] == "none"


def test_a_contended_host_is_said_once_on_a_screen_in_the_recommendation_not_again_beside_its_mode() -> None:
    report = json.loads(
        (Path(__file__).resolve().parents[1] / "fixtures/reports/graphbreak-cpu/report.json").read_text()
    )
    default = report["modes"][0]
    default["timing"]["hostLoad"] = CONTENDED
    other = dict(copy.deepcopy(default), mode="max-autotune", speedup=0.9)  # not the answer's: it keeps its note
    report["modes"].append(other)
    answer.attach(report)
    said = next(r["text"] for r in report["answer"]["reasons"] if r["code"] == "host-contended")
    assert said in report["recommendation"]["reason"] and said.startswith("The host was contended")
    assert said not in default["notes"] and said in other["notes"]


def test_a_contended_replay_gives_its_region_and_the_script_no_verdict() -> None:
    measurement = dict(_mode(704.5, CONTENDED), mode="as-written", why="most-frequent", speedupIqrPct=2.0)
    region = {
        "name": "scale",
        "location": {"file": "/b_item.py", "line": 4},
        "options": {"mode": "default"},
        "measurements": [measurement],
        "replay": {"replayable": True, "reason": None},
        "callCount": 6,
    }
    a = region_answer(region)
    assert a["verdict"] == "none" and [r["code"] for r in a["reasons"]] == ["host-contended"]
    assert "The host was contended while timing" in a["sentence"]
    region["answer"] = a
    script = answer.script_answer({"regions": [region]})  # type: ignore[typeddict-item]
    assert script["verdict"] == "none"
    assert script["sentence"].startswith(
        "scale (line 4): no verdict: 705× per call replayed (669–740×), host busy, not trusted"
    )


class _Blocks:
    """A side whose first `slow` blocks take 10 ms a call and every later one 0.02 ms (no clock is read)."""

    def __init__(self, slow: int) -> None:
        self.slow, self.seen = slow, 0

    def __call__(self, n: int, warm: int) -> float:
        self.seen += 1
        return 10.0 if self.seen <= self.slow else 0.02


def _cfg() -> timing.TimingConfig:
    cfg = timing.TimingConfig.for_run(quick=True, rounds=None)
    cfg.host.measure = lambda: 1.0  # a steady probe: the host at its fastest state throughout
    return cfg


def test_a_slow_first_call_does_not_leave_rounds_one_call_long() -> None:
    cfg = _cfg()
    paired = timing.measure_paired(_Blocks(slow=3), _Blocks(slow=0), cfg, "method")
    assert (
        paired.eager["callsPerRound"] == 256
    )  # 0.02 ms x 256 >= 5 ms, as calibration gives a side that is fast at once
    assert paired.compiled["callsPerRound"] == 256
    alone = timing.measure_alone(_Blocks(slow=3), cfg, "method")
    assert alone["callsPerRound"] == 256


def test_a_side_that_stays_slow_keeps_its_calibration() -> None:
    size = timing.RoundSize(1, _cfg())
    for ms in (10.0, 9.0, 3.0):  # rounds of 1 call that last >= half of min_round_ms: no growth
        size.after_round(ms)
    assert size.n == 1
    size.after_round(2.0)
    assert size.n == 4


def test_each_paired_measurement_records_the_host_load_on_a_cpu_run() -> None:
    cfg = _cfg()
    reads = iter(_samples([2] * 100))
    watches: list[LoadWatch] = []

    def watch() -> LoadWatch:
        watches.append(LoadWatch(threads=2, cpus=2, read=lambda: next(reads)))
        return watches[-1]

    cfg.host.load_watch = watch  # type: ignore[method-assign]
    paired = timing.measure_paired(_Blocks(slow=0), _Blocks(slow=0), cfg, "method")
    load = paired.compiled["hostLoad"]
    pairs = len(paired.compiled["rounds"])
    assert load["samples"] == pairs + 1 and load["contended"] is True  # each pair's start, and after the last
    assert "hostLoad" not in paired.eager
    entry: Any = {}
    timing.put_paired(entry, paired)
    assert entry["timing"]["hostLoad"] == load
    assert host.HostSpeed().load_watch() is None  # CUDA runs (watch_load off) sample nothing


def test_busy_processes_read_as_other_runnable_threads() -> None:
    """A real sample with two busy-looping processes: they are counted as others' runnable threads (behaviour: the
    sampler reads /proc and leaves this process out; nothing is timed)."""
    if not os.path.exists("/proc/stat"):
        pytest.skip("no /proc/stat")
    spinners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(2)]
    try:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and not all(_state(p.pid) == "R" for p in spinners):
            time.sleep(0.05)
        samples = [host.sample_host() for _ in range(5)]
    finally:
        for p in spinners:
            p.kill()
            p.wait()
    assert all(s.others_running is not None and s.others_running >= 2 for s in samples)
    assert all(s.load_average is not None and s.jiffies > 0 for s in samples)


def _state(pid: int) -> str:
    with open(f"/proc/{pid}/stat") as f:
        return f.read().rpartition(")")[2].split()[0]


def test_the_observed_run_samples_the_load_at_each_switch_between_blocks(monkeypatch: Any) -> None:
    import compile_lens_runner.script.interleave as module

    current = ["default"]
    monkeypatch.setattr(module, "_current_stance", lambda: current[0])
    reads = iter(_samples([2] * 100))
    il = module.Interleaver(
        lambda name: current.__setitem__(0, name), load=LoadWatch(threads=2, cpus=2, read=lambda: next(reads))
    )
    sides = []
    for i in range(40):
        sides.append(il.before_call(None, "float32[8, 32]")[0])
        il.after_call(i == 0)
    il.end()
    switches = sum(1 for a, b in itertools.pairwise(sides) if a != b) + (sides[0] != "compiled")
    load = il.to_json()["hostLoad"]
    assert switches > 2 and load["samples"] == switches + 1 and load["contended"] is True
    assert "hostLoad" not in module.Interleaver(lambda name: None).to_json()  # CUDA: nothing sampled


def _in_situ_region(load: dict[str, Any], replayed: float | None, replay_load: dict[str, Any] | None) -> dict[str, Any]:
    step = {"speedup": 3.2, "low": 3.0, "high": 3.4, "eagerMs": 3.2, "compiledMs": 1.0, "samples": 40, "pairs": 5}
    measurements = (
        []
        if replayed is None
        else [dict(_mode(replayed, replay_load), mode="as-written", why="most-frequent", speedupIqrPct=2.0)]
    )
    return {
        "name": "scale",
        "location": {"file": "/s.py", "line": 4},
        "options": {"mode": "default"},
        "callCount": 5000,
        "measurements": measurements,
        "replay": {"replayable": replayed is not None, "reason": None if replayed else "not replayed"},
        "inSitu": {
            "method": "interleaved",
            "pairs": 5,
            "step": step,
            "compileSeconds": 3.0,
            "breakEvenSteps": 1400,
            "stepsMade": 5000,
            "failure": None,
            "regionSeconds": None,
            "reason": None,
            "hostLoad": load,
        },
    }


def test_contended_steps_in_situ_give_no_verdict_and_a_quiet_replay_is_said_beside_them() -> None:
    alone = region_answer(_in_situ_region(CONTENDED, None, None))
    assert alone["verdict"] == "none" and alone["sentence"].startswith(
        "No verdict: 3.20× per step in situ (3.00–3.40×), host busy, not trusted. The host was contended while timing"
    )
    assert "Fix: run with OMP_NUM_THREADS=1" in alone["sentence"]
    # the steps' number is the answer's still: a quiet replay, timed apart from them, is evidence (answer.py)
    replayed = region_answer(_in_situ_region(CONTENDED, 1.4, QUIET))
    assert replayed["verdict"] == "none" and replayed["number"]["kind"] == "in-situ-step"
    assert "1.40× per call replayed (1.33–1.47×), which alone would say compile it" in replayed["sentence"]
    both = region_answer(_in_situ_region(CONTENDED, 1.4, CONTENDED))
    assert both["verdict"] == "none" and "The host was contended while timing" in both["sentence"]
    quiet = region_answer(_in_situ_region(QUIET, None, None))
    assert quiet["verdict"] == "compile" and "3.20× per step in situ" in quiet["sentence"]


def test_the_headline_says_a_contended_number_is_so() -> None:
    # in the number's own words (every surface that shows the number says it), and not again as a reason after it
    assert region_answer(_in_situ_region(CONTENDED, None, None))["headline"] == (
        "no verdict: 3.20× per step in situ (3.00–3.40×), host busy, not trusted"
    )
    assert region_answer(_in_situ_region(CONTENDED, 1.4, QUIET))["headline"] == (
        "no verdict: 3.20× per step in situ (3.00–3.40×), host busy, not trusted"
    )
    replay_only = _in_situ_region(QUIET, 704.5, CONTENDED)
    replay_only["inSitu"] = None
    assert (
        region_answer(replay_only)["headline"]
        == "no verdict: 705× per call replayed (669–740×), host busy, not trusted"
    )
    mode = dict(_mode(704.5, CONTENDED), compiler={"graphCount": 1, "graphBreaks": [], "recompiles": []})
    assert answer.target_answer(_target([mode]))["headline"].startswith(
        "no verdict: 705× per call with default (669–740×), host busy, not trusted · 1 graph"
    )


def test_a_load_average_is_one_level_or_which_way_it_went_in_fresh_and_recorded_words() -> None:
    """Review 3C R1: "load average 9.72 to 9.72"; D14: "9.75 to 9.37", two readings within the host's own noise read as
    a range to decode (a recorded report keeps its runner's words unless re-derived)."""
    assert host.load_words({"start": 9.72, "end": 9.721}) == ", load average about 9.7 then"
    assert host.load_words({"start": 9.75, "end": 9.37}) == ", load average about 9.6 then"
    assert host.load_words({"start": 12.13, "end": 12.36}) == ", load average about 12.2 then"
    assert host.load_words({"start": 3.5, "end": 4.25}) == ", load average rose from 3.5 to 4.3"
    assert host.load_words({"start": 9.0, "end": 2.0}) == ", load average fell from 9 to 2"
    # a small load in its own digits (the code read's item 11: 0.01 -> 0.04 read "rose from 0.0 to 0.0")
    assert host.load_words({"start": 0.01, "end": 0.04}) == ", load average rose from 0.01 to 0.04"
    assert host.load_words({"start": 0.5, "end": 0.25}) == ", load average fell from 0.5 to 0.25"
    assert host.load_words({"start": 0.0, "end": 0.001}) == ", load average rose from 0 to 0.001"


def test_a_load_average_whose_ends_read_alike_is_one_level_whatever_share_counts_as_steady(monkeypatch: Any) -> None:
    """Never "rose from 9.7 to 9.7": ends that read alike are one level, even where LOAD_STEADY would call them moved."""
    monkeypatch.setattr(host, "LOAD_STEADY", 0.0)
    assert host.load_words({"start": 9.72, "end": 9.74}) == ", load average about 9.7 then"
    assert host.load_words({"start": 9.72, "end": 9.76}) == ", load average rose from 9.7 to 9.8"
    fixtures = Path(__file__).resolve().parents[1] / "fixtures"
    said = [p for p in fixtures.rglob("report.json") if re.search(r"load average \d+\.\d+ to", p.read_text())]
    assert said == []
