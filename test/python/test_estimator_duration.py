"""How long a target's pairs go on, on rounds of two pairs of sibling processes recorded on one H200 (the default
sample, back to back, sessions 27 and 28). A fastest round is the least of what a process saw, so a process that
stopped after the planned 7 pairs (0.15 s) gave a speedup its sibling's range did not hold; a least second of pairs
(timing.TimingConfig.min_seconds) lands each inside the other's range (docs/BENCHMARKS.md, "A target's speedup and
how long its process ran")."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

from compile_lens_runner.measure import estimator, timing

PROCESSES: dict[str, dict[str, Any]] = json.loads(
    (
        Path(__file__).resolve().parents[1] / "fixtures" / "timing" / "h200-gatedblock-processes-2026-11-30.json"
    ).read_text()
)["processes"]


def replayed(name: str, cfg: timing.TimingConfig) -> tuple[list[estimator.Pair], str | None]:
    """The recorded pairs up to where timing.stop_reason stops under cfg (all of them and None where it would not
    have stopped yet). Elapsed time counts each round's timed and untimed calls and its probe: no more than the
    runner's clock saw."""
    p = PROCESSES[name]
    cfg.host.fastest_ms = min(p["eagerProbeMs"] + p["compiledProbeMs"])
    pairs: list[estimator.Pair] = []
    elapsed_s = 0.0
    rounds = zip(p["eagerRoundsMs"], p["compiledRoundsMs"], p["eagerProbeMs"], p["compiledProbeMs"], strict=True)
    for e, c, pe, pc in rounds:
        pairs.append((e, c))
        calls_ms = e * p["eagerCallsPerRound"] + c * p["compiledCallsPerRound"]
        elapsed_s += (calls_ms * (1 + cfg.warm_fraction) + pe + pc) / 1000
        probes = (p["eagerProbeMs"][: len(pairs)], p["compiledProbeMs"][: len(pairs)])
        stop = timing.stop_reason(pairs, cfg, elapsed_s, probes)
        if stop:
            return pairs, stop
    return pairs, None


def first_second(name: str) -> list[estimator.Pair]:
    """The pairs of a process's first cfg.min_seconds: where a process whose sides stayed quiet stops now."""
    cfg = timing.TimingConfig.for_run(quick=False, rounds=None)
    quiet = dataclasses.replace(cfg, min_noisy_seconds=0.0, host=cfg.host)
    pairs, stop = replayed(name, quiet)
    assert stop == "converged"
    return pairs


def test_a_quiet_process_keeps_pairs_coming_for_the_least_second() -> None:
    quiet = PROCESSES["s28-1"]
    assert quiet["stopReason"] == "converged" and len(quiet["eagerRoundsMs"]) == 7  # as recorded
    cfg = timing.TimingConfig.for_run(quick=False, rounds=None)
    assert cfg.min_seconds >= 1.0
    pairs, stop = replayed("s28-1", cfg)
    assert stop is None  # its 7 pairs (0.15 s) no longer end the measurement
    before = dataclasses.replace(cfg, min_seconds=0.0, host=cfg.host)
    assert replayed("s28-1", before) == (pairs, "converged")  # the least second is what holds it


def test_a_second_of_pairs_lands_inside_the_sibling_process_range() -> None:
    sibling = PROCESSES["s27-2"]
    low, high = sibling["speedupInterval"]["low"], sibling["speedupInterval"]["high"]
    seven = estimator.estimate(
        list(zip(PROCESSES["s27-1"]["eagerRoundsMs"], PROCESSES["s27-1"]["compiledRoundsMs"], strict=True))[:7]
    )
    assert not low <= seven.speedup <= high  # 8.19x after 7 pairs, against the sibling's 8.62-9.13x
    pairs = first_second("s27-1")
    assert len(pairs) > 30
    est = estimator.estimate(pairs)
    assert low <= est.speedup <= high and est.low <= sibling["speedup"] <= est.high
    assert abs(est.speedup / sibling["speedup"] - 1) < 0.05
