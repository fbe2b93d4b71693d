"""Steady-state timing: back-to-back calls per round, rounds interleaved eager/compiled, median of per-pair ratios.

Single-call timing swung 1.12x -> 0.77x between two runs of the same H100 script (docs/BENCHMARKS.md); timing
many back-to-back calls and interleaving the two sides cancels launch jitter and slow drift.
"""
from __future__ import annotations

import gc
import statistics
import time
from dataclasses import dataclass
from typing import Callable

Block = Callable[[int], float]  # runs n back-to-back calls, returns ms per call


@dataclass(frozen=True)
class TimingConfig:
    rounds: int
    min_round_ms: float
    spread_limit_pct: float = 10.0
    max_calls: int = 1 << 16

    @staticmethod
    def for_run(quick: bool, rounds: int | None) -> "TimingConfig":
        if quick:
            return TimingConfig(rounds=rounds or 3, min_round_ms=5.0)
        return TimingConfig(rounds=rounds or 7, min_round_ms=30.0)


def method_text(device: str, cfg: TimingConfig, paired: bool) -> str:
    clock = "CUDA events around" if device == "cuda" else "time.perf_counter around"
    rounds = (f"{cfg.rounds} rounds interleaved eager/compiled; speedup = median of per-pair ratios" if paired
              else f"{cfg.rounds} rounds of eager alone")
    return f"{clock} n back-to-back calls (n doubled until a round lasts >= {cfg.min_round_ms:g} ms), {rounds}"


def make_clock(device: str) -> Callable[[Callable[[], None]], float]:
    """Returns time_block(body) -> elapsed ms of body, measured on the device's own clock."""
    if device == "cuda":
        import torch

        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)

        def cuda_block(body: Callable[[], None]) -> float:
            torch.cuda.synchronize()
            start.record()
            body()
            end.record()
            end.synchronize()
            return float(start.elapsed_time(end))

        return cuda_block

    def cpu_block(body: Callable[[], None]) -> float:
        t0 = time.perf_counter()
        body()
        return (time.perf_counter() - t0) * 1000.0

    return cpu_block


def quiet(block: Block) -> Block:
    """Runs each round with the garbage collector paused (collected first), as timeit does: a collection
    triggered by the other side's allocations must not land inside this side's round."""
    def run(n: int) -> float:
        gc.collect()
        gc.disable()
        try:
            return block(n)
        finally:
            gc.enable()
    return run


def calibrate(block: Block, cfg: TimingConfig) -> int:
    n = 1
    while n < cfg.max_calls and block(n) * n < cfg.min_round_ms:
        n *= 2
    return n


def spread_pct(values: list[float]) -> float:
    med = statistics.median(values)
    return (max(values) - min(values)) / med * 100.0 if med > 0 else 0.0


def iqr_pct(values: list[float]) -> float:
    """Interquartile range / median: how much the middle half of the ratios disagree (robust to spikes)."""
    if len(values) < 4:
        return spread_pct(values)
    q1, _, q3 = statistics.quantiles(values, n=4)
    med = statistics.median(values)
    return (q3 - q1) / med * 100.0 if med > 0 else 0.0


def summarize(rounds_ms: list[float], calls: int, method: str, extra: int = 0) -> dict:
    return {
        "medianMs": statistics.median(rounds_ms), "minMs": min(rounds_ms), "maxMs": max(rounds_ms),
        "spreadPct": round(spread_pct(rounds_ms), 2), "rounds": [round(r, 6) for r in rounds_ms],
        "callsPerRound": calls, "method": method, "extraRounds": extra,
    }


@dataclass
class PairedTiming:
    eager: dict
    compiled: dict
    speedup: float
    speedup_spread_pct: float
    speedup_iqr_pct: float


def measure_alone(block: Block, cfg: TimingConfig, method: str) -> dict:
    block = quiet(block)
    n = calibrate(block, cfg)
    return summarize([block(n) for _ in range(cfg.rounds)], n, method)


def measure_paired(eager: Block, compiled: Block, cfg: TimingConfig, method: str) -> PairedTiming:
    """Interleaves eager and compiled rounds, alternating which goes first (ABBA) so neither side always follows
    the other. While the per-pair ratios spread more than the limit, adds pairs (up to 3x rounds): launch-bound
    models on a shared host swing 30-60 % round to round, and a median over more pairs moves less run to run."""
    eager, compiled = quiet(eager), quiet(compiled)
    n_eager, n_compiled = calibrate(eager, cfg), calibrate(compiled, cfg)

    def pair(index: int) -> tuple[float, float]:
        if index % 2:
            c = compiled(n_compiled)
            return eager(n_eager), c
        e = eager(n_eager)
        return e, compiled(n_compiled)

    pairs = [pair(i) for i in range(cfg.rounds)]
    while len(pairs) < 3 * cfg.rounds and spread_pct([e / c for e, c in pairs]) > cfg.spread_limit_pct:
        pairs.append(pair(len(pairs)))
    extra = len(pairs) - cfg.rounds
    ratios = [e / c for e, c in pairs]
    return PairedTiming(
        eager=summarize([e for e, _ in pairs], n_eager, method, extra),
        compiled=summarize([c for _, c in pairs], n_compiled, method, extra),
        speedup=statistics.median(ratios),
        speedup_spread_pct=round(spread_pct(ratios), 2),
        speedup_iqr_pct=round(iqr_pct(ratios), 2),
    )


def paired_fields(paired: PairedTiming) -> dict:
    """The report fields of one paired measurement, shared by a mode entry and a script region's measurement."""
    return {"timing": dict(paired.compiled, valid=True), "speedup": round(paired.speedup, 4), "eagerTiming": paired.eager,
            "speedupSpreadPct": paired.speedup_spread_pct, "speedupIqrPct": paired.speedup_iqr_pct}
