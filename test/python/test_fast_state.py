"""The stop rule on rounds recorded on an H100 with a CPU probe before every round (45 s per model, eager, default
and reduce-overhead in rotation; the host was slow for long stretches, the first 18 s of GPT-2's recording at
1.5-2.2x its fastest probe). Pairs replayed from any start must land on the same speedup once the run knows how fast
its host can be; the rule without probes stopped inside the slow stretch and printed that stretch's speedup."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from compile_lens_runner.measure import estimator, timing
from compile_lens_runner.measure.host import HostSpeed

RECORDED = json.loads(
    gzip.decompress(
        (
            Path(__file__).resolve().parents[1] / "fixtures" / "timing" / "h100-probed-rounds-2026-11-23.json.gz"
        ).read_bytes()
    )
)["models"]
Round = tuple[float, float, float]  # (seconds into the recording, probe ms, ms per call)


def rounds_of(model: str, variant: str) -> list[Round]:
    m = RECORDED[model]
    index = m["variants"].index(variant)
    return [
        (t, p, ms) for v, t, p, ms in zip(m["variant"], m["seconds"], m["probeMs"], m["ms"], strict=True) if v == index
    ]


def replay(
    model: str, mode: str, start_s: float, fastest_probe_ms: float, probes: bool = True
) -> tuple[float, str, float]:
    """timing.stop_reason over recorded pairs from start_s on, as measure_paired runs it: (speedup, stop, seconds);
    "recording-ended" where the 45 s recorded ran out first."""
    cfg = timing.TimingConfig.for_run(quick=False, rounds=None)
    cfg.host.fastest_ms = fastest_probe_ms  # what the run saw before these pairs (eager alone, earlier modes)
    pairs: list[estimator.Pair] = []
    eager_probes: list[float] = []
    compiled_probes: list[float] = []
    eager = [r for r in rounds_of(model, "eager") if r[0] >= start_s]
    compiled = [r for r in rounds_of(model, mode) if r[0] >= start_s]
    for (te, pe, e), (tc, pc, c) in zip(eager, compiled, strict=False):
        cfg.host.fastest_ms = min(cfg.host.fastest_ms, pe, pc)
        pairs.append((e, c))
        eager_probes.append(pe)
        compiled_probes.append(pc)
        elapsed = max(te, tc) - start_s
        stop = timing.stop_reason(pairs, cfg, elapsed, (eager_probes, compiled_probes) if probes else None)
        if stop:
            return estimator.fastest_ratio(pairs), stop, elapsed
    return estimator.fastest_ratio(pairs), "recording-ended", elapsed


def fastest_probe(model: str) -> float:
    return min(RECORDED[model]["probeMs"])


@pytest.mark.parametrize("mode", ["default", "reduce-overhead"])
def test_pairs_that_start_in_a_slow_stretch_wait_for_the_fast_state(mode: str) -> None:
    quiet, _, _ = replay("gpt2", mode, 25.0, fastest_probe("gpt2"))
    waited, stop, seconds = replay("gpt2", mode, 0.0, fastest_probe("gpt2"))
    assert stop == "converged" and seconds > 15.0  # past the 18 s stretch, under the 30 s cap
    assert abs(waited / quiet - 1) < 0.02
    hasty, _, hasty_seconds = replay("gpt2", mode, 0.0, fastest_probe("gpt2"), probes=False)
    assert hasty_seconds < 10.0 and hasty / quiet - 1 > 0.2  # GPT-2 (4, 128): 1.66x and 2.31x against 1.33x and 1.52x


@pytest.mark.parametrize("model", ["gpt2", "vit_small"])
@pytest.mark.parametrize("mode", ["default", "reduce-overhead"])
def test_any_start_lands_within_5_percent(model: str, mode: str) -> None:
    """The issue's two failing cases (GPT-2 default 7.6 %, ViT reduce-overhead 5.8 % apart) from six starts 4 s apart."""
    runs = [replay(model, mode, start, fastest_probe(model)) for start in range(0, 24, 4)]
    assert all(stop == "converged" for _, stop, _ in runs), runs
    speedups = [speedup for speedup, _, _ in runs]
    assert max(speedups) / min(speedups) - 1 < 0.05, speedups


def test_a_run_that_has_not_seen_the_fast_state_cannot_tell_it_is_slow() -> None:
    """What the rule cannot do: a run whose every probe so far came from the slow stretch takes that stretch for the
    host's fastest state. The run's later measurements lower the reference; the speedups of a run are only as good
    as the fastest state it met."""
    blind, _, _ = replay("gpt2", "default", 0.0, float("inf"))
    assert blind / replay("gpt2", "default", 25.0, fastest_probe("gpt2"))[0] - 1 > 0.2


def test_host_speed_keeps_the_runs_fastest_probe() -> None:
    host = HostSpeed()
    probes = [host.probe() for _ in range(5)]
    assert host.fastest_ms == min(probes) and host.fast_rounds(probes) >= 1
    host.fastest_ms = 1.0
    assert host.fast_rounds([1.0, 1.1, 1.11, 2.0]) == 2
    assert HostSpeed(measure=lambda: 1.5).probe() == 1.5
