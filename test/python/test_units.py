"""Pure parts of the runner, without starting torch.compile."""

from __future__ import annotations

import os
from typing import Any

import pytest
from compile_lens_runner import formats
from compile_lens_runner.compiler import torch_trace
from compile_lens_runner.measure import host, speedups, timing
from compile_lens_runner.measure.correctness import judge
from compile_lens_runner.measure.host import HostSpeed
from compile_lens_runner.report import answer

FIXTURE_LINE = 'V1122 10:26:57.380000 729 torch/_dynamo/convert_frame.py:276] {"dynamo_start": {"stack": []}, "frame_id": 0, "frame_compile_id": 0, "attempt": 0}'


def test_trace_parser_skips_garbage_and_truncation() -> None:
    text = "\n".join(
        [
            "not a record",
            FIXTURE_LINE,
            'V1122 10:26:57.381000 729 x.py:1] {"artifact": {"name": "compile_lens_marker", "encoding": "json"}, "has_payload": "x"}',
            '\t{"mode": "default", "phase": "timed"}',
            'V1122 10:26:57.382000 729 x.py:1] {"artifact": {"name": "recompile_reasons", "encoding": "json"}, "frame_id": 0, "frame_compile_id": 1, "has_payload": "y"}',
            "\t[\"0/0: tensor 'x' size mismatch at index 0. expected 32, actual 64\"]",
            'V1122 10:26:57.383000 729 x.py:1] {"dynamo_start": {"stack": [',  # truncated mid-write
        ]
    )
    records = torch_trace.parse(text)
    assert [r.kind for r in records] == ["dynamo_start", "artifact"]
    assert records[0].compile_id == "0/0" and records[0].phase is None
    assert records[1].compile_id == "0/1" and (records[1].mode, records[1].phase) == ("default", "timed")
    assert "expected 32, actual 64" in records[1].payload_json()[0]


def test_paired_timing_adds_pairs_until_the_fastest_round_is_confirmed() -> None:
    # calibration (n=1, timed twice, ends at once), then a host that lets eager run fast in one round out of four
    eager_times = iter([2.0, 2.0] + [4.0, 4.5, 5.0, 2.0] * 100)
    steady_host = HostSpeed(measure=lambda: 1.0)  # the host's CPU speed never moves: every round is at its fastest
    cfg = timing.TimingConfig(rounds=3, min_round_ms=0.5, max_pairs=30, max_seconds=60.0, host=steady_host)
    result = timing.measure_paired(lambda n, warm: next(eager_times), lambda n, warm: 1.0, cfg, "test")
    assert result.eager["rounds"].count(2.0) == 3 and result.stop == "converged"  # the third fast round ends it
    assert len(result.eager["rounds"]) == 12 and result.eager["extraRounds"] == 9
    assert (
        result.speedup == 2.0 and result.estimate.median_ratio == 4.25
    )  # the median of ratios follows the slow rounds
    steady = timing.measure_paired(lambda n, warm: 2.0, lambda n, warm: 1.0, cfg, "test")
    assert steady.eager["extraRounds"] == 0 and steady.speedup_spread_pct == 0.0 and steady.stop == "converged"
    drifting = iter([10.0 * 0.9**i for i in range(100)])  # every round 10 % faster: never confirmed
    capped = timing.measure_paired(
        lambda n, warm: next(drifting),
        lambda n, warm: 1.0,
        timing.TimingConfig(rounds=3, min_round_ms=0.5, max_pairs=5, max_seconds=60.0),
        "test",
    )
    assert capped.stop == "pair-cap" and len(capped.eager["rounds"]) == 5 and capped.eager["stopReason"] == "pair-cap"


def test_calibration_doubles_until_round_is_long_enough() -> None:
    calls = []
    cfg = timing.TimingConfig(rounds=3, min_round_ms=10.0, max_pairs=9, max_seconds=1.0)
    assert timing.calibrate(lambda n, warm: calls.append(n) or 1.0, cfg) == 16 and calls == [
        1,
        1,
        2,
        2,
        4,
        4,
        8,
        8,
        16,
        16,
    ]
    slow_once = iter([50.0, 1.0] + [1.0] * 20)  # one call slowed by the host does not stop the doubling
    assert timing.calibrate(lambda n, warm: next(slow_once), cfg) == 16


def recommend(modes: list[dict[str, Any]]) -> dict[str, Any]:
    """A target's recommendation from its modes, as report/answer.py decides and words it."""
    report: Any = {"target": {"kind": "function"}, "modes": modes, "environment": {"device": "cuda"}, "status": "ok"}
    a = answer.target_answer(report)
    return {"mode": a["mode"], "verdict": a["verdict"], "reason": a["sentence"]}


@pytest.mark.parametrize(
    "speedup, low, high, expected, verdict",
    [
        (1.0, 0.98, 1.02, None, "stay-eager"),
        (1.5, 1.47, 1.53, "reduce-overhead", "compile"),
        (1.08, 0.95, 1.2, None, "none"),  # faster by its value, not by its range: no verdict (verdict.short_of_useful)
        (1.02, 0.95, 1.09, None, "stay-eager"),  # may be no faster
        (1.25, 1.17, 1.33, "reduce-overhead", "compile"),
        (0.6, 0.55, 0.65, None, "stay-eager"),
    ],
)
def test_recommendation(speedup: float, low: float, high: float, expected: str | None, verdict: str) -> None:
    modes = [
        {
            "mode": "reduce-overhead",
            "status": "ok",
            "speedup": speedup,
            "speedupInterval": {"low": low, "high": high},
            "compileSeconds": 4.0,
            "breakEvenCalls": 100.0,
            "correctness": {"ok": True},
            "timing": {"valid": True},
        }
    ]
    rec = recommend(modes)
    assert rec["mode"] == expected and rec["verdict"] == verdict and rec["reason"].endswith(".")
    assert (
        formats.interval(low, high) in rec["reason"]
    )  # the verdict names the interval it rests on, as the panel shows it


def test_no_verdict_without_a_measurement() -> None:
    fell_back = {
        "mode": "default",
        "status": "ok",
        "speedup": None,
        "timing": {"valid": False},
        "fallback": {"cause": "forward hit the recompile limit (8)", "fix": "Set allow_unspec_int_on_nn_module."},
    }
    rec = recommend([fell_back])
    assert rec["verdict"] == "none" and rec["mode"] is None
    assert "recompile limit (8)" in rec["reason"] and "allow_unspec_int_on_nn_module" in rec["reason"]
    assert "don't compile" not in rec["reason"].lower() and "stay eager" not in rec["reason"].lower()
    failed = {
        "mode": "default",
        "status": "error",
        "speedup": None,
        "timing": None,
        "error": {"kind": "compile", "message": "Inductor failed.", "fix": "report it"},
    }
    assert recommend([failed])["verdict"] == "none" and recommend([])["verdict"] == "none"
    noisy = {
        "mode": "default",
        "status": "ok",
        "speedup": 0.76,
        "timing": {"valid": True},
        "speedupInterval": {"low": 0.71, "high": 60.9},
    }
    rec = recommend([noisy])
    assert rec["verdict"] == "none" and "varied too much" in rec["reason"] and "too noisy to say" in rec["reason"]
    wrong = {"mode": "default", "status": "ok", "speedup": 2.0, "timing": {"valid": True}, "correctness": {"ok": False}}
    assert recommend([wrong])["verdict"] == "stay-eager"  # a correctness judgement is a measurement


def test_break_even() -> None:
    assert speedups.break_even_calls(2.0, 1.0, 0.5) == 4000.0
    assert speedups.break_even_calls(2.0, 1.0, 1.5) is None


def test_judge_tolerates_float_noise_but_not_errors() -> None:
    import torch

    x = torch.randn(100)
    same = judge(torch.nn.Identity(), (x,), "inference", (x,), (x + 1e-6,), "cpu")
    assert same["ok"] and same["reference"] == "none"  # within tolerance: no reference needed
    bad = judge(torch.nn.Identity(), (x,), "inference", {"a": x}, {"a": x + 0.1}, "cpu")
    assert not bad["ok"] and bad["maxAbsError"] == pytest.approx(0.1, rel=1e-4) and bad["reference"] == "fp64"
    assert not judge(torch.nn.Identity(), (x,), "inference", x, x[:5], "cpu")["ok"]


def test_errors_name_their_kind_and_fix() -> None:
    from compile_lens_runner.errors import classify

    class OutOfMemoryError(RuntimeError):
        pass

    oom = classify(OutOfMemoryError("CUDA out of memory. Tried to allocate 2.00 GiB"), "timing mode default")
    assert oom.kind == "out-of-memory" and "timing mode default" in oom.message and "smaller" in oom.fix
    triton = classify(
        RuntimeError("Cannot find a working triton installation. Either the package is not installed"), "compiling"
    )
    assert (
        triton.kind == "triton-missing"
        and triton.fix.startswith("Install Triton")
        and "pip install triton" in triton.fix
    )
    user = classify(ValueError("bad shape"), "running the model eagerly")
    assert user.kind == "user-code" and user.message.endswith("ValueError: bad shape") and user.traceback


def test_cuda_graph_status_per_graph() -> None:
    from compile_lens_runner.compiler.insight import compiler_insight

    def line(entry: str, payload: str | None = None) -> str:
        return f"V1122 10:27:52.701000 845 torch/_dynamo/utils.py:1] {entry}" + (f"\n\t{payload}" if payload else "")

    text = "\n".join(
        [
            line('{"compilation_metrics": {"compile_id": "0/0", "graph_op_count": 5, "has_guarded_code": true}}'),
            line('{"compilation_metrics": {"compile_id": "1/0", "graph_op_count": 3, "has_guarded_code": true}}'),
            line(
                '{"compilation_metrics": {"compile_id": "2/0", "graph_op_count": 3, "cudagraph_skip_reason": "skipping cudagraphs due to cpu device (x)"}}'
            ),
            line(
                '{"chromium_event": {}, "has_payload": "a"}',
                '{"name": "CUDAGraphNode.record", "ph": "B", "args": {"compile_id": "0/0"}}',
            ),
            line(
                '{"artifact": {"name": "compile_lens_cudagraph_skip", "encoding": "json"}, "has_payload": "b"}',
                '{"message": "skipping cudagraphs due to mutated inputs (1 instances)", "compileId": null}',
            ),
        ]
    )
    graphs = compiler_insight(torch_trace.parse(text), lambda r: None, cudagraphs=True)["cudaGraphs"]
    # a run-time skip names no compile and no line here: it goes to the compile logged just before it (PyTorch decides
    # it at that graph's first run), not to every graph that was not captured
    assert [{k: g[k] for k in ("compileId", "status", "reason")} for g in graphs] == [
        {"compileId": "0/0", "status": "captured", "reason": None},
        {"compileId": "1/0", "status": "not-captured", "reason": None},
        {
            "compileId": "2/0",
            "status": "skipped",
            "reason": "skipping cudagraphs due to mutated inputs (1 instances) | skipping cudagraphs due to cpu device (x)",
        },
    ]


def test_a_noisy_side_keeps_pairs_coming_for_the_minimum_time() -> None:
    cfg = timing.TimingConfig(rounds=3, min_round_ms=1.0, max_pairs=100, max_seconds=20.0, min_noisy_seconds=8.0)
    noisy = [(2.0, 1.0)] * 3 + [(3.5, 1.0)] * 5  # eager's fastest seen 3 times, but its median is 75 % above it
    assert timing.stop_reason(noisy, cfg, elapsed_s=2.0) is None  # its fast state may not have come yet
    assert timing.stop_reason(noisy, cfg, elapsed_s=8.5) == "converged"
    assert timing.stop_reason([(2.0, 1.0)] * 3, cfg, elapsed_s=0.1) == "converged"  # steady sides stop at once
    unconfirmed = [(2.0, 1.0)] + [(3.5, 1.0)] * 7  # the fast round seen once: luck, not yet a state
    assert timing.stop_reason(unconfirmed, cfg, elapsed_s=12.0) is None
    assert timing.stop_reason(unconfirmed, cfg, elapsed_s=21.0) == "time-cap"


def test_pairs_go_on_until_each_side_ran_at_the_hosts_fastest_state() -> None:
    cfg = timing.TimingConfig(rounds=3, min_round_ms=1.0, max_pairs=100, max_seconds=30.0)
    cfg.host.fastest_ms = 0.9  # eager alone saw the host at 0.9 ms per probe
    pairs = [(5.0, 4.0)] * 5  # steady and confirmed, but every round ran while the probe read 1.6 ms
    slow = [1.6] * 5
    assert timing.stop_reason(pairs, cfg, 9.0, (slow, slow)) is None
    assert timing.stop_reason(pairs, cfg, 9.0, (slow[:2] + [0.95] * 3, slow)) is None  # eager has, compiled not yet
    assert timing.stop_reason(pairs, cfg, 9.0, ([0.95] * 3 + slow[:2], [0.9] * 5)) == "converged"
    assert timing.stop_reason(pairs, cfg, 31.0, (slow, slow)) == "time-cap"
    assert timing.stop_reason(pairs, cfg, 9.0) == "converged"  # without probes (older callers): as before


def test_the_timing_thread_moves_to_the_cpu_that_probes_fastest() -> None:
    """A VM's CPUs slow down 2x one at a time (H100 host, 2026-11-23): a slow probe sends the thread to the fastest."""
    speed = {0: 2.0, 1: 1.0, 2: 1.9}  # probe ms on each CPU; the thread starts on CPU 0, at half speed
    on = [0]
    pins: list[set[int]] = []

    def pin(cpus: set[int]) -> None:
        pins.append(set(cpus))
        on[0] = min(cpus) if len(cpus) == 1 else on[0]

    host = HostSpeed(measure=lambda: speed[on[0]], cpus=(0, 1, 2), pin=pin)
    with host.measuring():
        assert host.probe() == 1.0 and on == [1] and host.fastest_ms == 1.0  # the first probe looks at every CPU
        speed[1] = 1.05
        assert host.probe() == 1.05 and len(pins) == 4  # within 10 % of the fastest: it stays
        speed[1], speed[2] = 2.0, 1.02
        assert host.probe() == 1.02 and on == [2]
    assert pins[-1] == {0, 1, 2}  # the thread gets every CPU back after the measurement
    still = HostSpeed(measure=lambda: 2.0, cpus=(), pin=pin)
    assert still.probe() == 2.0 and len(pins) == 9  # no CPUs to choose from: it never moves

    def cpuset_shrank(cpus: set[int]) -> None:
        if cpus == {1}:
            raise OSError(22, "Invalid argument")  # CPU 1 was taken from the process's cpuset mid-run
        pin(cpus)

    speed.update({0: 2.0, 1: 1.0, 2: 1.5})
    shrunk = HostSpeed(measure=lambda: speed[on[0]], cpus=(0, 1, 2), pin=cpuset_shrank)
    assert shrunk.probe() == 1.5 and on == [2]  # the fastest CPU it may still use


def test_only_a_single_cuda_process_moves_its_timing_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LOCAL_WORLD_SIZE", raising=False)
    assert host.movable_cpus("cpu") == ()  # a CPU run's own threads would inherit a one-CPU mask
    allowed = tuple(sorted(os.sched_getaffinity(0)))
    assert host.movable_cpus("cuda") == (allowed if len(allowed) > 1 else ())
    monkeypatch.setenv("LOCAL_WORLD_SIZE", "2")  # torchrun ranks would crowd onto one fast CPU
    assert host.movable_cpus("cuda") == ()


def test_the_worker_tears_cupti_down_after_each_profile(monkeypatch: pytest.MonkeyPatch) -> None:
    """Kineto otherwise leaves CUPTI attached after torch.profiler, and every later kernel launch pays for it."""
    from compile_lens_runner.process.supervisor import worker_env

    monkeypatch.delenv("TEARDOWN_CUPTI", raising=False)
    assert worker_env("/tmp/w")["TEARDOWN_CUPTI"] == "1"
    monkeypatch.setenv("TEARDOWN_CUPTI", "0")  # the user's own choice stands
    assert worker_env("/tmp/w")["TEARDOWN_CUPTI"] == "0"


def test_each_timed_round_follows_untimed_calls() -> None:
    calls: list[tuple[int, int]] = []
    block = timing.warmed(
        lambda n, warm: calls.append((n, warm)) or 1.0,
        timing.TimingConfig(rounds=3, min_round_ms=1.0, warm_fraction=0.125),
    )
    assert block(64) == 1.0 and calls == [(64, 8)]
    block(4)
    assert calls[1:] == [(4, 1)]  # at least one untimed call
    plain = timing.warmed(
        lambda n, warm: calls.append((n, warm)) or 1.0, timing.TimingConfig(rounds=3, min_round_ms=1.0)
    )
    plain(16)
    assert calls[2:] == [(16, 0)]


def test_on_cuda_the_clock_starts_while_the_untimed_calls_still_run_on_the_gpu(monkeypatch: pytest.MonkeyPatch) -> None:
    """A synchronize between them would time the first call's host work (guards, input copies) with the GPU idle."""
    import torch

    log: list[str] = []
    names = iter(["start", "end"])

    class Event:
        def __init__(self, enable_timing: bool) -> None:
            self.name = next(names)

        def record(self) -> None:
            log.append(f"record {self.name}")

        def synchronize(self) -> None:
            log.append(f"wait {self.name}")

        def elapsed_time(self, other: Event) -> float:
            return 12.0

    monkeypatch.setattr(torch.cuda, "Event", Event)
    monkeypatch.setattr(torch.cuda, "synchronize", lambda: log.append("synchronize"))
    clock = timing.make_clock("cuda")
    assert clock(lambda k: log.append(f"{k} calls"), 4, 1) == 3.0
    assert log == ["synchronize", "1 calls", "record start", "4 calls", "record end", "wait end"]


def test_warming_stops_after_three_calls_in_a_row_compiled_nothing() -> None:
    compiles = iter([0, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2])  # before/after each call: the first two calls compile
    counter = {"now": 0}

    def read() -> int:
        counter["now"] = next(compiles)
        return counter["now"]

    calls: list[int] = []
    timing.warm_until_stable(lambda: calls.append(1), lambda: None, read)
    assert len(calls) == 5  # 2 compiling calls, then 3 that compiled nothing
    capped: list[int] = []
    timing.warm_until_stable(lambda: capped.append(1), lambda: None, iter(range(100)).__next__, max_calls=4)
    assert len(capped) == 4  # every call compiles: stop at the cap
