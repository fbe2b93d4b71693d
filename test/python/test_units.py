"""Pure parts of the runner, without starting torch.compile."""
from __future__ import annotations

from pathlib import Path

import pytest

from compile_lens_runner import advice, timing, torch_trace
from compile_lens_runner.correctness import compare

FIXTURE_LINE = 'V1122 10:26:57.380000 729 torch/_dynamo/convert_frame.py:276] {"dynamo_start": {"stack": []}, "frame_id": 0, "frame_compile_id": 0, "attempt": 0}'


def test_trace_parser_skips_garbage_and_truncation() -> None:
    text = "\n".join([
        "not a record", FIXTURE_LINE,
        'V1122 10:26:57.381000 729 x.py:1] {"artifact": {"name": "compile_lens_marker", "encoding": "json"}, "has_payload": "x"}',
        '\t{"mode": "default", "phase": "timed"}',
        'V1122 10:26:57.382000 729 x.py:1] {"artifact": {"name": "recompile_reasons", "encoding": "json"}, "frame_id": 0, "frame_compile_id": 1, "has_payload": "y"}',
        '\t["0/0: tensor \'x\' size mismatch at index 0. expected 32, actual 64"]',
        'V1122 10:26:57.383000 729 x.py:1] {"dynamo_start": {"stack": [',  # truncated mid-write
    ])
    records = torch_trace.parse(text)
    assert [r.kind for r in records] == ["dynamo_start", "artifact"]
    assert records[0].compile_id == "0/0" and records[0].phase is None
    assert records[1].compile_id == "0/1" and (records[1].mode, records[1].phase) == ("default", "timed")
    assert "expected 32, actual 64" in records[1].payload_json()[0]


def test_paired_timing_adds_pairs_while_ratios_spread() -> None:
    eager_times = iter([2.0, 2.0, 9.0] + [2.0] * 100)  # calibration (n=1 ends at once), then a spiked pair
    cfg = timing.TimingConfig(rounds=3, min_round_ms=0.5)
    result = timing.measure_paired(lambda n: next(eager_times), lambda n: 1.0, cfg, "test")
    assert result.speedup == 2.0 and result.eager["extraRounds"] == 6 and len(result.eager["rounds"]) == 9
    assert result.speedup_iqr_pct == 0.0  # one spike among nine pairs does not move the middle half
    steady = timing.measure_paired(lambda n: 2.0, lambda n: 1.0, cfg, "test")
    assert steady.eager["extraRounds"] == 0 and steady.speedup_spread_pct == 0.0


def test_calibration_doubles_until_round_is_long_enough() -> None:
    calls = []
    cfg = timing.TimingConfig(rounds=3, min_round_ms=10.0)
    assert timing.calibrate(lambda n: calls.append(n) or 1.0, cfg) == 16 and calls == [1, 2, 4, 8, 16]


@pytest.mark.parametrize("speedup, iqr, expected", [(1.0, 1.0, None), (1.5, 2.0, "reduce-overhead"), (1.08, 20.0, None),
                                                  (1.25, 8.0, "reduce-overhead")])
def test_recommendation(speedup: float, iqr: float, expected: str | None) -> None:
    modes = [{"mode": "reduce-overhead", "status": "ok", "speedup": speedup, "speedupSpreadPct": 90.0, "speedupIqrPct": iqr,
              "compileSeconds": 4.0, "breakEvenCalls": 100.0, "correctness": {"ok": True}}]
    rec = advice.recommend(modes)
    assert rec["mode"] == expected and rec["reason"].endswith(".")


def test_break_even() -> None:
    assert advice.break_even_calls(2.0, 1.0, 0.5) == 4000.0
    assert advice.break_even_calls(2.0, 1.0, 1.5) is None


def test_compare_tolerates_float_noise_but_not_errors() -> None:
    import torch

    x = torch.randn(100)
    assert compare((x,), (x + 1e-6,))["ok"]
    bad = compare({"a": x}, {"a": x + 0.1})
    assert not bad["ok"] and bad["maxAbsError"] == pytest.approx(0.1, rel=1e-4)
    assert not compare(x, x[:5])["ok"]


def test_errors_name_their_kind_and_fix() -> None:
    from compile_lens_runner.errors import classify

    class OutOfMemoryError(RuntimeError):
        pass

    oom = classify(OutOfMemoryError("CUDA out of memory. Tried to allocate 2.00 GiB"), "timing mode default")
    assert oom.kind == "out-of-memory" and "timing mode default" in oom.message and "smaller" in oom.fix
    triton = classify(RuntimeError("Cannot find a working triton installation. Either the package is not installed"), "compiling")
    assert triton.kind == "triton-missing" and triton.fix.startswith("Install Triton") and "pip install triton" in triton.fix
    user = classify(ValueError("bad shape"), "running the model eagerly")
    assert user.kind == "user-code" and user.message.endswith("ValueError: bad shape") and user.traceback


def test_cuda_graph_status_per_graph() -> None:
    from compile_lens_runner.insight import compiler_insight

    def line(entry: str, payload: str | None = None) -> str:
        return f"V1122 10:27:52.701000 845 torch/_dynamo/utils.py:1] {entry}" + (f"\n\t{payload}" if payload else "")

    text = "\n".join([
        line('{"compilation_metrics": {"compile_id": "0/0", "graph_op_count": 5, "has_guarded_code": true}}'),
        line('{"compilation_metrics": {"compile_id": "1/0", "graph_op_count": 3, "has_guarded_code": true}}'),
        line('{"compilation_metrics": {"compile_id": "2/0", "graph_op_count": 3, "cudagraph_skip_reason": "skipping cudagraphs due to cpu device (x)"}}'),
        line('{"chromium_event": {}, "has_payload": "a"}', '{"name": "CUDAGraphNode.record", "ph": "B", "args": {"compile_id": "0/0"}}'),
        line('{"artifact": {"name": "compile_lens_cudagraph_skip", "encoding": "json"}, "has_payload": "b"}',
             '{"message": "skipping cudagraphs due to mutated inputs (1 instances)", "compileId": null}'),
    ])
    graphs = compiler_insight(torch_trace.parse(text), lambda r: None, cudagraphs=True)["cudaGraphs"]
    assert graphs == [
        {"compileId": "0/0", "status": "captured", "reason": None},
        {"compileId": "1/0", "status": "skipped", "reason": "skipping cudagraphs due to mutated inputs (1 instances)"},
        {"compileId": "2/0", "status": "skipped", "reason": "skipping cudagraphs due to cpu device (x) | skipping cudagraphs due to mutated inputs (1 instances)"},
    ]
