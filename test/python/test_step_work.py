"""Why, per step (measure/step_work.py): the work per step read from a profiled window's trace, on written traces (no
torch, no timing of this host)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from compile_lens_runner import formats
from compile_lens_runner.measure import step_work
from compile_lens_runner.measure.profiling import LAUNCH_BOUND_IDLE_PCT
from compile_lens_runner.report import step_work_text


def step(n: int, ts: float, dur: float) -> dict[str, Any]:
    return {"ph": "X", "cat": "user_annotation", "name": f"ProfilerStep#{n}", "ts": ts, "dur": dur, "pid": 1, "tid": 1}


def kernel(corr: int, launch_ts: float, ts: float, dur: float) -> list[dict[str, Any]]:
    """A launch on the CPU and the kernel the GPU ran for it (later: the GPU runs behind the CPU)."""
    return [
        {
            "ph": "X",
            "cat": "cuda_runtime",
            "name": "cudaLaunchKernel",
            "ts": launch_ts,
            "dur": 2,
            "pid": 1,
            "tid": 1,
            "args": {"correlation": corr},
        },
        {
            "ph": "X",
            "cat": "kernel",
            "name": "triton_poi_fused",
            "ts": ts,
            "dur": dur,
            "pid": 0,
            "tid": 7,
            "args": {"correlation": corr},
        },
    ]


def gpu_trace(kernels_per_step: int, kernel_us: float, step_us: float, steps: int = 3) -> list[dict[str, Any]]:
    events = []
    for n in range(1, steps + 1):
        start = n * step_us
        events.append(step(n, start, step_us))
        events.append(dict(step(n, start + step_us / 2, step_us), cat="gpu_user_annotation", tid=7))  # the GPU's copy
        for k in range(kernels_per_step):
            launch = start + 1 + k
            # each kernel runs half a step after its launch: the last ones past their step's end
            events += kernel(n * 1000 + k, launch, launch + step_us / 2 + k * kernel_us, kernel_us)
    return events


def test_gpu_kernels_belong_to_the_step_that_launched_them_and_left_out_steps_do_not_count() -> None:
    events = gpu_trace(kernels_per_step=10, kernel_us=50.0, step_us=1000.0)
    work = step_work.side_work(events)
    assert work == {"device": "cuda", "steps": 3, "workMsPerStep": 0.5, "kernelsPerStep": 10.0, "profiledStepMs": 1.0}
    # a step that compiled (or ran on the other side) is left out: its kernels too
    events += kernel(99, 2000 + 5, 2000 + 600, 4000.0)  # a long kernel launched in step 2
    assert step_work.side_work(events, {2}) == dict(work, steps=2)
    assert step_work.side_work(events, {1, 2, 3}) is None


def _said(eager: Any, compiled: Any, step: Any) -> tuple[Any, str]:
    """The sides compare() sets against their walls, and the line report/step_work_text.py says of them."""
    sides = step_work.compare(eager, compiled, step)
    assert sides is not None
    return sides, step_work_text.text(sides, step)


def test_a_step_whose_gpu_idles_a_launch_bound_share_is_launch_bound_and_the_line_says_so() -> None:
    eager = step_work.side_work(gpu_trace(kernels_per_step=20, kernel_us=10.0, step_us=1000.0))  # 0.2 ms of 1 ms busy
    compiled = step_work.side_work(gpu_trace(kernels_per_step=4, kernel_us=100.0, step_us=1000.0))  # 0.4 ms busy
    assert eager and compiled
    out, text = _said(eager, compiled, {"eagerMs": 1.0, "compiledMs": 0.5})
    assert out["eager"]["busyPct"] == 20.0 and out["compiled"]["busyPct"] == 80.0
    assert out["eager"]["launchBound"] and not out["compiled"]["launchBound"]
    assert 100.0 - LAUNCH_BOUND_IDLE_PCT < 80.0
    assert text == (
        "GPU work 0.2 ms → 0.4 ms per step, 20 → 4 kernels; GPU busy 20% → 80% of the wall step: "
        "eager was launch-bound: the CPU launches were the rest; the step is 0.5 ms shorter though "
        "the GPU worked 0.2 ms more: it idled 0.7 ms less (the CPU's side)"
    )
    # wall = GPU busy + GPU idle: a saving splits into the two
    _, split = _said(compiled, eager, {"eagerMs": 1.0, "compiledMs": 0.5})
    assert split.endswith(
        "of the 0.5 ms saved per step, 0.2 ms is GPU work and 0.3 ms the GPU's idle time (the CPU's side)"
    )
    _, both = _said(eager, eager, {"eagerMs": 1.0, "compiledMs": 1.0})
    assert "both ways launch-bound" in both and "saved" not in both  # not shorter: nothing saved
    # without a steady step the busy share is of the profiled steps' own wall time, and says so
    alone, text = _said(eager, compiled, None)
    assert alone["eager"]["wallFrom"] == "profiled steps" and alone["eager"]["wallMs"] == 1.0
    assert "saved" not in text  # the profiled steps carry the profiler's overhead: no split of the saving
    assert "GPU busy 20% → 40% of the profiled step" in text
    assert step_work.compare(eager, None, None) is None


def test_on_cpu_the_work_is_the_outermost_ops_and_a_compiled_graph_counts_as_one() -> None:
    def op(name: str, ts: float, dur: float, tid: int = 1) -> dict[str, Any]:
        return {"ph": "X", "cat": "cpu_op", "name": name, "ts": ts, "dur": dur, "pid": 1, "tid": tid}

    events = [
        step(1, 0, 1000),
        op("## Call CompiledFxGraph abc", 10, 300),
        op("aten::mm", 20, 100),  # an extern kernel inside the graph
        op("autograd::engine::evaluate_function: AddmmBackward0", 400, 200),
        op("aten::mm", 410, 150),
        op("aten::add_", 700, 50),
        op("Torch-Compiled Region: 0/0", 5, 310),
    ]
    work = step_work.side_work(events)
    assert work == {"device": "cpu", "steps": 1, "workMsPerStep": 0.5, "kernelsPerStep": 3.0, "profiledStepMs": 1.0}
    out, text = _said(work, work, {"eagerMs": 0.5, "compiledMs": 0.5})
    assert text == (
        "3 → 3 ops per step, each compiled graph's call counted as one op; ops took 50% → 50% of the profiled step, "
        "the rest is Python and PyTorch's own work between ops"
    )
    assert not out["eager"]["launchBound"]
    # the profiler's overhead is in every CPU op: a steady step 100x shorter than the profiled one (serve_script on
    # a busy host: 87 ms of ops in 88.8 ms profiled steps, 0.64 ms steady) is not what the ops' time is set against
    steady, slowed = _said(work, work, {"eagerMs": 0.01, "compiledMs": 0.02})
    assert steady["eager"]["wallFrom"] == "profiled steps" and steady["eager"]["busyPct"] == 50.0
    # and the ops' share of a step the profiler made 50-100x as long is the profiler's: not said (review 6C Z2: "a
    # profiled step took 88.8 ms → 167 ms, … (without it 0.639 ms → 0.678 ms), and ops took 98% → 100%")
    assert slowed == (
        "3 → 3 ops per step, each compiled graph's call counted as one op; the profiler made these steps 100× and "
        "50.0× as long as timed, too much to tell which part of a step was ops and which was Python"
    )


def _measurement(mode: str, status: str, eager: float | None, compiled: float | None) -> Any:
    return {"mode": mode, "status": status, "eagerKernelsPerStep": eager, "kernelsPerStep": compiled}


def test_a_cpu_step_names_its_count_rule_and_says_the_replays_cpu_ops_beside_it() -> None:
    """In situ a compiled graph's call is one op (its C++ functions are not recorded there); the replay counts the ATen
    ops and C++ functions inside it. Both are said, each with its rule (review 18X X1: "6 → 2 ops per step" over
    "CPU ops / call 5 → 5")."""
    work = step_work.compare(
        {"device": "cpu", "steps": 3, "workMsPerStep": 0.5, "kernelsPerStep": 6.0, "profiledStepMs": 1.0},
        {"device": "cpu", "steps": 3, "workMsPerStep": 0.5, "kernelsPerStep": 2.0, "profiledStepMs": 1.0},
        None,
    )
    assert work is not None
    replay = step_work_text.replay_ops(
        [_measurement("max-autotune", "ok", 5.0, 1.0), _measurement("as-written", "ok", 5.0, 5.0)]
    )
    assert replay == (5.0, 5.0)  # the mode the script is written in, as its in-situ steps ran
    assert step_work_text.text(work, None, replay).startswith(
        "6 → 2 ops per step, each compiled graph's call counted as one op (the replay counts the ATen ops and "
        "generated C++ functions inside it: 5 → 5 CPU ops per call); ops took 50% → 50%"
    )
    # no replay count to set beside it: the rule alone
    assert step_work_text.replay_ops([_measurement("as-written", "error", None, None)]) is None
    assert step_work_text.replay_ops([_measurement("as-written", "ok", 5.0, None)]) is None
    assert step_work_text.text(work, None, None).startswith(
        "6 → 2 ops per step, each compiled graph's call counted as one op; ops took"
    )


def test_a_count_of_one_says_its_noun_once() -> None:
    """Review 19Y Y3: gated_service's card read "20 → 1 CPU ops per call", a typo to the eye: the noun agrees with the
    count just before it, on a CPU's ops per step and the replay's CPU ops and on a GPU's kernels."""
    cpu = step_work.compare(
        {"device": "cpu", "steps": 3, "workMsPerStep": 0.5, "kernelsPerStep": 6.0, "profiledStepMs": 1.0},
        {"device": "cpu", "steps": 3, "workMsPerStep": 0.5, "kernelsPerStep": 1.0, "profiledStepMs": 1.0},
        None,
    )
    assert cpu is not None
    said = step_work_text.text(cpu, None, (20.0, 1.0))
    assert said.startswith("6 → 1 op per step, ") and "20 → 1 CPU op per call)" in said
    assert "20 → 2 CPU ops per call)" in step_work_text.text(cpu, None, (20.0, 2.0))
    gpu = step_work.compare(
        {"device": "cuda", "steps": 3, "workMsPerStep": 0.5, "kernelsPerStep": 4.0, "profiledStepMs": 1.0},
        {"device": "cuda", "steps": 3, "workMsPerStep": 0.2, "kernelsPerStep": 1.0, "profiledStepMs": 1.0},
        None,
    )
    assert gpu is not None and step_work_text.text(gpu, None).startswith(
        "GPU work 0.5 ms → 0.2 ms per step, 4 → 1 kernel;"
    )


RECORDED = Path(__file__).resolve().parents[1] / "fixtures" / "recorded"


def test_the_recorded_cpu_cards_say_the_replays_cpu_ops_beside_their_step_counts() -> None:
    """On each recorded CPU script's card, the in-situ "ops per step" and the replay row's "CPU ops / call" are told
    apart in the same line (serve_script: "6 → 2 ops per step" read as almost everything fused, "5 → 5" as nothing)."""
    said = 0
    for path in sorted(RECORDED.glob("*/report.json")):
        for region in json.loads(path.read_text(encoding="utf-8")).get("regions") or []:
            work = (region.get("inSitu") or {}).get("work")
            replay = step_work_text.replay_ops(region.get("measurements") or [])
            if not work or work["eager"]["device"] != "cpu" or replay is None:
                continue
            noun = "CPU op" if formats.count(replay[1]) == "1" else "CPU ops"
            counts = f"{formats.count(replay[0])} → {formats.count(replay[1])} {noun} per call"
            assert "each compiled graph's call counted as one op" in work["text"], (path, work["text"])
            assert counts in work["text"], (path, work["text"])
            said += 1
    assert said >= 2  # serve_script-cpu (5 → 5) and gated_service-cpu (20 → 1)
