"""Steady-state timing: rounds of back-to-back calls, eager and compiled rounds interleaved in pairs, and pairs
added until each side's fastest round has been seen several times; estimator.py turns the pairs into the speedup
and its interval.

Single-call timing swung by a third between two runs of the same script (docs/BENCHMARKS.md §constants); timing
many back-to-back calls and interleaving the two sides lets both meet the same host.
"""

from __future__ import annotations

import contextlib
import gc
import statistics
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from ..shapes.common import Timing
from ..shapes.mode import ModeResult, SpeedupInterval
from . import estimator
from .host import HostSpeed, LoadWatch

Block = Callable[[int, int], float]  # (n timed calls, untimed calls just before them) -> ms per timed call
Calls = Callable[[int], None]  # makes k back-to-back calls


@dataclass(frozen=True)
class TimingConfig:
    rounds: int  # pairs at least
    min_round_ms: float
    max_pairs: int = 60  # pairs added until each side's fastest round is confirmed, up to this many ...
    max_seconds: float = 10.0  # ... or this long
    max_calls: int = 1 << 16
    # While a side meets host noise, its fastest state may be away for seconds at a time (BENCHMARKS.md §constants):
    # pairs go on at least this long before "converged".
    min_noisy_seconds: float = 0.0
    # Pairs go on at least this long before "converged" even on quiet sides: a fastest round is the least of what the
    # process saw, and 7 pairs (0.15 s) read 8.19x where the same process's first second read 8.79x and its sibling
    # 8.95x (BENCHMARKS.md, "A target's speedup and how long its process ran").
    min_seconds: float = 0.0
    # Each timed round is preceded by this share of its calls, untimed: after the other side's GPU-bound round the
    # host CPU has idled and its first launches run slow (eager rounds after CUDA-graph replays: max 28 ms -> 3.7 ms).
    warm_fraction: float = 0.0
    # One per run, shared by its measurements (eager alone, every mode, every replayed region).
    host: HostSpeed = field(default_factory=HostSpeed, compare=False)

    @staticmethod
    def for_run(quick: bool, rounds: int | None) -> TimingConfig:
        if quick:
            planned = rounds or 3
            return TimingConfig(
                rounds=planned, min_round_ms=5.0, max_pairs=3 * planned, max_seconds=3.0, warm_fraction=0.125
            )
        # Short rounds: the host's fastest state comes in bursts of a few ms (a 1 ms pure-Python probe saw its fastest
        # time within 2 % in every process; 30 ms rounds of the same eager model spanned states and varied 10 %).
        # 30 s at most: a slow host state held 18 s in one recording (BENCHMARKS.md §constants), and the pairs wait it out.
        planned = rounds or 7
        return TimingConfig(
            rounds=planned,
            min_round_ms=5.0,
            max_pairs=max(5000, 3 * planned),
            max_seconds=30.0,
            min_seconds=1.0,
            min_noisy_seconds=8.0,
            warm_fraction=0.125,
        )


def method_text(device: str, cfg: TimingConfig, paired: bool) -> str:
    clock = "CUDA events around" if device == "cuda" else "time.perf_counter around"
    calls = (
        f"{clock} n back-to-back calls (n doubled until a round lasts >= {cfg.min_round_ms:g} ms, and again after "
        "a round that lasted under half of that)"
    )
    if cfg.warm_fraction > 0:
        calls += f", each round after {cfg.warm_fraction:.0%} as many untimed calls"
        if device == "cuda":
            calls += " whose GPU work is still queued when the first event is recorded (no synchronize between)"
    until = (
        f"until the fastest round was seen {estimator.CONFIRM_ROUNDS} times within {estimator.CONFIRM_PCT:g} % and "
        f"{estimator.CONFIRM_ROUNDS} rounds ran while a CPU probe read the host at its fastest state of the run "
        f"(within {estimator.FAST_STATE_PCT:g} %)"
        + (f", for at least {cfg.min_seconds:g} s" if cfg.min_seconds else "")
        + (
            f" and, while a side met host noise, for at least {cfg.min_noisy_seconds:g} s"
            if cfg.min_noisy_seconds
            else ""
        )
        + f" (up to {cfg.max_pairs} rounds or {cfg.max_seconds:g} s)"
        + (
            f"; whenever the probe read slow, the timing thread moved to the one of its {len(cfg.host.cpus)} CPUs "
            "that probed fastest"
            if cfg.host.cpus
            else ""
        )
    )
    # the speedup's definition in words is said once, where the user meets it: the glossary's "next run"
    if not paired:
        return f"{calls}; eager alone, at least {cfg.rounds} rounds, {until}"
    return (
        f"{calls}; eager and compiled rounds interleaved in pairs, at least {cfg.rounds}, {until}; the speedup "
        f"and its interval from these rounds: speedupEstimator ({estimator.ESTIMATOR}, measure/estimator.py)"
    )


def first_call_seconds(call: Callable[[], object], sync: Callable[[], None]) -> float:
    """Wall time of one call to its end on the device: the compiling call's cost, as the user waits for it."""
    started = time.perf_counter()
    call()
    sync()
    return time.perf_counter() - started


def warm_until_stable(
    call: Callable[[], object],
    sync: Callable[[], None],
    compiles: Callable[[], int],
    stable_calls: int = 3,
    max_calls: int = 50,
) -> None:
    """Calls until `stable_calls` calls in a row compiled nothing (or `max_calls`): what is timed next is steady."""
    calls = stable = 0
    while stable < stable_calls and calls < max_calls:
        before = compiles()
        call()
        sync()
        calls += 1
        stable = stable + 1 if compiles() == before else 0


def make_clock(device: str) -> Callable[[Calls, int, int], float]:
    """Returns clock(calls, n, warm) -> ms per call of n timed calls that follow `warm` untimed ones, on the device's
    own clock. On CUDA nothing waits between the untimed calls and the clock's start: the first timed call's host work
    (guards, a CUDA-graph replay's input copies) overlaps the GPU work still queued, as in a serving loop. After a
    synchronize it was timed with the GPU idle, and which n a run picked decided the time (BENCHMARKS.md §constants)."""
    if device == "cuda":
        import torch

        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)

        def cuda_clock(calls: Calls, n: int, warm: int) -> float:
            torch.cuda.synchronize()
            calls(warm)
            start.record()
            calls(n)
            end.record()
            end.synchronize()
            return float(start.elapsed_time(end)) / n

        return cuda_clock

    def cpu_clock(calls: Calls, n: int, warm: int) -> float:
        calls(warm)
        t0 = time.perf_counter()
        calls(n)
        return (time.perf_counter() - t0) * 1000.0 / n

    return cpu_clock


@contextlib.contextmanager
def gc_paused() -> Iterator[Callable[[], None]]:
    """The garbage collector off for the whole measurement (collected once first), as timeit does: a collection
    triggered by one side's allocations must not land inside the other side's round. The yielded `tidy` collects
    the young generations between rounds (milliseconds, where a full collection of a process that imported
    transformers takes 50-200 ms)."""

    def tidy() -> None:
        gc.collect(1)

    gc.collect()
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield tidy
    finally:
        if was_enabled:
            gc.enable()


def calibrate(block: Block, cfg: TimingConfig) -> int:
    """Doubles n until n calls last min_round_ms; each n is timed twice (after one untimed call, as rounds are) and
    the faster kept, so one call slowed by the host does not leave every round a single call long."""
    n = 1
    while n < cfg.max_calls and min(block(n, 1), block(n, 1)) * n < cfg.min_round_ms:
        n *= 2
    return n


@dataclass
class RoundSize:
    """One side's calls per round: calibrated, then doubled again after a round that lasted under half of
    min_round_ms. Calibration can meet only slow calls (a side's first calls, eager ops waiting on a descheduled
    thread: 10 ms where later calls took 0.018 ms) and stop at one call; rounds of one fast call then measure the
    clock and the host's jitter (BENCHMARKS.md § "Eager on a contended CPU host"). Rounds are per call, so rounds
    before the growth still compare."""

    n: int
    cfg: TimingConfig

    def after_round(self, ms_per_call: float) -> None:
        if ms_per_call * self.n >= self.cfg.min_round_ms / 2:
            return
        while self.n < self.cfg.max_calls and ms_per_call * self.n < self.cfg.min_round_ms:
            self.n *= 2


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


def summarize(
    rounds_ms: list[float],
    calls: int,
    method: str,
    extra: int = 0,
    stop: str = "planned",
    probes_ms: list[float] | None = None,
    load: LoadWatch | None = None,
) -> Timing:
    summary: Timing = {
        "medianMs": statistics.median(rounds_ms),
        "minMs": min(rounds_ms),
        "maxMs": max(rounds_ms),
        "estimateMs": min(rounds_ms),
        "spreadPct": round(spread_pct(rounds_ms), 2),
        "rounds": [round(r, 6) for r in rounds_ms],
        "callsPerRound": calls,
        "method": method,
        "extraRounds": extra,
        "stopReason": stop,
    }
    if probes_ms:
        summary["cpuProbeMs"] = [round(p, 4) for p in probes_ms]
    if load is not None:
        summary["hostLoad"] = load.evidence()
    return summary


@dataclass
class PairedTiming:
    eager: Timing
    compiled: Timing
    speedup: float
    speedup_spread_pct: float
    speedup_iqr_pct: float
    estimate: estimator.Estimate
    stop: str


def warmed(block: Block, cfg: TimingConfig) -> Callable[[int], float]:
    """n -> ms per call of n timed calls after cfg.warm_fraction of as many untimed ones (at least one)."""

    def run(n: int) -> float:
        return block(n, max(1, int(n * cfg.warm_fraction)) if cfg.warm_fraction > 0 else 0)

    return run


def measure_alone(block: Block, cfg: TimingConfig, method: str) -> Timing:
    """Eager alone, before anything is compiled: rounds until its fastest round is confirmed (as for pairs)."""
    load = cfg.host.load_watch()
    with gc_paused() as tidy, cfg.host.measuring():
        size = RoundSize(calibrate(block, cfg), cfg)
        timed = warmed(block, cfg)
        rounds: list[float] = []
        probes: list[float] = []
        started = time.monotonic()
        stop = None
        while stop is None:
            if load is not None:
                load.sample()
            tidy()
            probes.append(cfg.host.probe())
            rounds.append(timed(size.n))
            size.after_round(rounds[-1])
            stop = stop_reason([(r, r) for r in rounds], cfg, time.monotonic() - started, (probes, probes))
        if load is not None:
            load.sample()
    return summarize(rounds, size.n, method, len(rounds) - cfg.rounds, stop, probes, load)


def stop_reason(
    pairs: list[estimator.Pair],
    cfg: TimingConfig,
    elapsed_s: float,
    probes: tuple[list[float], list[float]] | None = None,
) -> str | None:
    """Why to stop adding pairs now, or None to add another. Each side's fastest round must repeat, and (with probes:
    the CPU probe taken before each side's rounds) enough of its rounds must have run while the host was at its
    fastest state of the run. Pairs go on for cfg.min_seconds in any case (a fastest round of a few pairs is luck's),
    and a side that met host noise keeps them coming for cfg.min_noisy_seconds: its fastest state may simply not have
    come yet."""
    if len(pairs) < cfg.rounds:
        return None
    eager, compiled = [e for e, _ in pairs], [c for _, c in pairs]
    settled = elapsed_s >= cfg.min_seconds and (
        elapsed_s >= cfg.min_noisy_seconds or not (estimator.noisy(eager) or estimator.noisy(compiled))
    )
    at_fast_state = probes is None or all(cfg.host.fast_rounds(side) >= estimator.CONFIRM_ROUNDS for side in probes)
    if settled and at_fast_state and estimator.confirmed(eager) and estimator.confirmed(compiled):
        return "converged"
    if len(pairs) >= cfg.max_pairs:
        return "pair-cap"
    if elapsed_s >= cfg.max_seconds:
        return "time-cap"
    return None


def measure_paired(eager: Block, compiled: Block, cfg: TimingConfig, method: str) -> PairedTiming:
    """Interleaves eager and compiled rounds, alternating which goes first (ABBA) so neither side always follows
    the other, and adds pairs until each side's fastest round is confirmed at the host's fastest state (or a cap is
    reached): a launch-bound side on a busy host may be fast in only a few rounds out of twenty (estimator.py)."""
    load = cfg.host.load_watch()
    with gc_paused() as tidy, cfg.host.measuring():
        n_eager, n_compiled = RoundSize(calibrate(eager, cfg), cfg), RoundSize(calibrate(compiled, cfg), cfg)
        eager_timed, compiled_timed = warmed(eager, cfg), warmed(compiled, cfg)
        eager_probes: list[float] = []
        compiled_probes: list[float] = []

        def eager_round() -> float:
            tidy()
            eager_probes.append(cfg.host.probe())
            ms = eager_timed(n_eager.n)
            n_eager.after_round(ms)
            return ms

        def compiled_round() -> float:
            tidy()
            compiled_probes.append(cfg.host.probe())
            ms = compiled_timed(n_compiled.n)
            n_compiled.after_round(ms)
            return ms

        def pair(index: int) -> estimator.Pair:
            if load is not None:  # at each pair's start, and after the last: the host as both sides met it
                load.sample()
            if index % 2:
                c = compiled_round()
                return eager_round(), c
            e = eager_round()
            return e, compiled_round()

        pairs: list[estimator.Pair] = []
        started = time.monotonic()
        stop = None
        while stop is None:
            pairs.append(pair(len(pairs)))
            stop = stop_reason(pairs, cfg, time.monotonic() - started, (eager_probes, compiled_probes))
        if load is not None:
            load.sample()
    extra = len(pairs) - cfg.rounds
    ratios = [e / c for e, c in pairs]
    return PairedTiming(
        eager=summarize([e for e, _ in pairs], n_eager.n, method, extra, stop, eager_probes),
        compiled=summarize([c for _, c in pairs], n_compiled.n, method, extra, stop, compiled_probes, load),
        speedup=estimator.fastest_ratio(pairs),
        speedup_spread_pct=round(spread_pct(ratios), 2),
        speedup_iqr_pct=round(iqr_pct(ratios), 2),
        estimate=estimator.estimate(pairs),
        stop=stop,
    )


def put_paired(entry: ModeResult, paired: PairedTiming) -> None:
    """Writes the report fields of one paired measurement into a mode entry or a script region's measurement."""
    est = paired.estimate
    entry.update(
        {
            "timing": {**paired.compiled, "valid": True},
            "speedup": round(paired.speedup, 4),
            "eagerTiming": paired.eager,
            "speedupSpreadPct": paired.speedup_spread_pct,
            "speedupIqrPct": paired.speedup_iqr_pct,
            "speedupEstimator": estimator.ESTIMATOR,
            "speedupInterval": interval(est),
            "speedupMedianRatio": round(est.median_ratio, 4),
        }
    )


def interval(est: estimator.Estimate) -> SpeedupInterval:
    """The report's speedupInterval of an estimate (a recorded mode re-estimated says it the same way)."""
    return {
        "low": round(est.low, 4),
        "high": round(est.high, 4),
        "floorPct": est.floor_pct,
        "noisySides": list(est.noisy_sides),
    }
