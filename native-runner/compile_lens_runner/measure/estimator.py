"""The speedup and the interval printed with it, from paired eager/compiled rounds (pure; tested on recorded rounds).

Host noise only ever adds time, and it lands on whichever side the host CPU limits: a launch-bound eager model
picks up every hiccup of the CPU, while a CUDA-graph replay does not. The median of per-pair ratios then follows
the share of slow rounds, which changes from run to run (docs/BENCHMARKS.md §constants: one-sided noise). The fastest round of each side is what
the code costs when the host leaves it alone, and one-sided noise cannot push it down: the estimate is eager's
fastest round / compiled's fastest round, taken once each side's fastest time has been seen several times and
pairs have gone on for a second (timing.py adds pairs until then): a fastest round is the least of what the process
saw, and one of 7 pairs was luck's (8.19x where the same process's first second read 8.79x, its sibling 8.95x). It is the quiet-host speedup: a busier host makes a launch-bound eager slower
and the speedup larger.

The interval covers what the next run may show, not only the spread inside this one (ranges.of_pairs, the one
rule of targets, replays and in-situ steps): the 5th-95th percentiles of the estimate over resampled pairs (how much
it depends on which rounds happened to be fast) widened for the next run's own error, or with fewer than
ranges.MIN_RESAMPLED pairs every pair's own ratio, the estimates of the two halves of the rounds (whether the fastest
state was still improving), and a floor for what differs between processes and
that no single run shows: ranges.FLOOR_PCT, or 6 % when a side met host noise (its median round is more than 5 %
above its fastest), or for a launch-bound eager HOST_MOVE_PCT % of its GPU idle share (launch_bound_floor_pct; in situ
the same rule on eager's host time over its GPU time: in_situ_floor_pct), or on a CPU cpu_floor_pct (HOST_MOVE_PCT %:
the host sets all of both sides, for targets and in-situ steps alike). Recorded runs differed by up to 5.5 % in a
noisy side's fastest round (docs/BENCHMARKS.md §constants).

On a CPU a host that moves does not move eager and compiled alike: in one process of a CPU script the host's slow
stretches took eager's step 1.47x and compiled's 1.75x slower, and processes of it on 16-core Xeons met hosts whose
eager step took 0.84-1.87 ms and gave 1.35-1.56x (14 % apart), each range holding only its own process; the default
sample's target gave 4.84-5.49x in four processes, and 2.83x then 2.50x on a 2-core VM. Nothing inside one process
said how far the next would land (quiet pairs of blocks, 1.49-1.63x, in a run 13 % above another whose pairs read
1.32-1.42x), so the floor is the measured move (docs/BENCHMARKS.md §constants: CPU host move).

Which rounds are fast is known, not guessed: a CPU probe (host.cpu_probe, 1 ms of fixed pure-Python work) runs
before every round of either side, and the pairs go on until each side has rounds taken while the probe read the host
at its fastest state of the run (within FAST_STATE_PCT %). A host can stay slow for 10-20 s at a time
(docs/BENCHMARKS.md §constants: slow stretches), and a run that stopped inside one printed its speedup as the answer.

Eager is the same code in every pairing and is timed in each mode's pairs. So when the host CPU does not limit
the compiled side (a CUDA-graph replay: one launch per graph; or a GPU idle under GPU_BOUND_IDLE_PCT % between its
kernels), the speedup uses eager's fastest round in any mode's pairs (`run_eager`), and the interval keeps this
mode's own pairs' estimate as its upper end: what a host as slow as during these pairs would give. A compiled side
the CPU limits too stays paired with the eager rounds beside it: both met the same host in each pair.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass

from . import ranges

ESTIMATOR = "fastest-rounds"
FLOOR_NOISY_PCT = 6.0
# A launch-bound eager runs at the speed of the host CPU's fastest state, which moved a few % between processes of
# one host (docs/BENCHMARKS.md §constants: launch-bound floor): the least half-width then (launch_bound_floor_pct).
FLOOR_LAUNCH_BOUND_PCT = 5.0
# How far the host CPU's speed moved between runs, as seen by a launch-bound eager's fastest round (bench/host_drift.py;
# docs/BENCHMARKS.md §constants: host drift). The CPU-bound share of eager (its GPU idle share) moves by this much
# (launch_bound_floor_pct).
HOST_MOVE_PCT = 15.0
# On a GPU, a short call's fastest round moved between processes of one host more than inside any one of them: the
# default sample's compiled call read 0.0555-0.0606 ms in five processes on one H200 (2026-11-30; 9 % apart) while each
# process's rounds, quiet ones included, read within 2-3 % of their own fastest (docs/BENCHMARKS.md, "The default
# sample on CUDA at session 28's start"); a 4.2 ms call (localopt, H100) moved 0.2-0.8 %. A call under SHORT_CALL_MS is
# mostly fixed per-call work (guards, launches, the allocator) whose speed is the process's; nothing inside a process
# tells which way its next lands: the least half-width of such a GPU target's or replay's range (gpu_floor_pct).
GPU_PROCESS_MOVE_PCT = 6.0
SHORT_CALL_MS = 0.1
# In situ, a CUDA call whose host time (its launches) is at least this share of its GPU time is launch-bound: its GPU
# waits on the host, and a host 1/0.7 = 1.4x slower sets its time (the H200's host moved 1.6x between two processes of
# one generate() script: docs/BENCHMARKS.md, "Shapes that change on the H200").
LAUNCH_BOUND_HOST_PCT = 70.0
NOISY_SIDE_PCT = 5.0
CONFIRM_PCT = 3.0
CONFIRM_ROUNDS = 3
HOST_SHIFT_PCT = 3.0
GPU_BOUND_IDLE_PCT = 15.0
# The probe within this of its fastest: the host's fast state (its slow states read 1.5-2.2x; BENCHMARKS.md §constants).
FAST_STATE_PCT = 10.0

Pair = tuple[float, float]  # (eager ms per call, compiled ms per call) of one interleaved pair of rounds


@dataclass(frozen=True)
class Estimate:
    speedup: float
    eager_ms: float
    compiled_ms: float
    low: float
    high: float
    floor_pct: float
    noisy_sides: tuple[str, ...]
    median_ratio: float


def at_fast_state(probe_ms: float, fastest_probe_ms: float) -> bool:
    return probe_ms <= fastest_probe_ms * (1 + FAST_STATE_PCT / 100)


def launch_bound_floor_pct(host_set_pct: float) -> float:
    """The least half-width when eager is launch-bound: HOST_MOVE_PCT % of the share of eager the host CPU sets, at
    least FLOOR_LAUNCH_BOUND_PCT. That share is a target's eager GPU idle share (its profile), and in situ, where no
    trace is taken, eager's host time over its GPU time (in_situ_floor_pct). The fast-state rule does not remove that
    move: rounds count as at the host's fastest state up to FAST_STATE_PCT % above the run's fastest probe, and a
    launch-bound eager moved more than its probe (resnet18 B16 reduce-overhead 2.15x / 1.94x in two processes, eager's
    best rounds with the probe at 0.963 / 0.908 ms)."""
    return round(max(FLOOR_LAUNCH_BOUND_PCT, HOST_MOVE_PCT * host_set_pct / 100), 1)


def cpu_floor_pct() -> float:
    """The least half-width of a speedup measured on a CPU, a target's or in-situ steps': the host sets all of both
    sides (launch_bound_floor_pct of 100 %), and the ratio moved 13 % between processes (module doc)."""
    return launch_bound_floor_pct(100.0)


def gpu_floor_pct(eager_ms: float, compiled_ms: float) -> float:
    """The least half-width of a speedup a GPU target or replay measured: GPU_PROCESS_MOVE_PCT where either side's call
    is under SHORT_CALL_MS (its speed moved between processes of one host more than its rounds inside one showed),
    else ranges.FLOOR_PCT."""
    return GPU_PROCESS_MOVE_PCT if min(eager_ms, compiled_ms) < SHORT_CALL_MS else ranges.FLOOR_PCT


def in_situ_floor_pct(eager_host_pct: float | None) -> float | None:
    """In situ on CUDA: the launch-bound floor (launch_bound_floor_pct) where eager's steady calls took host time at
    least LAUNCH_BOUND_HOST_PCT % of their GPU time, else None (on a CPU: cpu_floor_pct)."""
    if eager_host_pct is None or eager_host_pct < LAUNCH_BOUND_HOST_PCT:
        return None
    return launch_bound_floor_pct(eager_host_pct)


def fastest_ratio(pairs: list[Pair]) -> float:
    return min(e for e, _ in pairs) / min(c for _, c in pairs)


def median_ratio(pairs: list[Pair]) -> float:
    """The previous estimator (median of per-pair ratios): kept in the report to show what a typical host gives."""
    return statistics.median(e / c for e, c in pairs)


def confirmed(values: list[float], pct: float = CONFIRM_PCT, rounds: int = CONFIRM_ROUNDS) -> bool:
    """The fastest time was seen at least `rounds` times (within `pct` % of it), not once by luck."""
    best = min(values)
    return sum(v <= best * (1 + pct / 100) for v in values) >= rounds


def noisy(values: list[float]) -> bool:
    return statistics.median(values) > min(values) * (1 + NOISY_SIDE_PCT / 100)


def estimate(pairs: list[Pair]) -> Estimate:
    if not pairs:
        raise ValueError("no pairs to estimate from")
    speedup = fastest_ratio(pairs)
    eager, compiled = [e for e, _ in pairs], [c for _, c in pairs]
    sides = tuple(name for name, values in (("eager", eager), ("compiled", compiled)) if noisy(values))
    floor = FLOOR_NOISY_PCT if sides else ranges.FLOOR_PCT
    half = len(pairs) // 2
    halves = [fastest_ratio(pairs[:half]), fastest_ratio(pairs[half:])] if half else []
    low, high = ranges.of_pairs(speedup, floor, pairs, fastest_ratio, [e / c for e, c in pairs], halves)
    return Estimate(
        speedup=speedup,
        eager_ms=min(eager),
        compiled_ms=min(compiled),
        low=low,
        high=high,
        floor_pct=floor,
        noisy_sides=sides,
        median_ratio=median_ratio(pairs),
    )


def host_free(gpu_idle_pct: float | None, cuda_graphs: list[str]) -> bool:
    """The host CPU does not limit the compiled side: every graph replays as a CUDA graph (one launch each), or the GPU
    sat idle under GPU_BOUND_IDLE_PCT % between its kernels. Unknown (CPU runs: no GPU idle share) counts as limited."""
    return (bool(cuda_graphs) and all(status == "captured" for status in cuda_graphs)) or (
        gpu_idle_pct is not None and gpu_idle_pct < GPU_BOUND_IDLE_PCT
    )


def adjusted(est: Estimate, eager_ms: float, compiled_ms: float) -> dict[str, float]:
    """This mode's speedup from run-wide times of each side, its interval widened to hold it (with the floor) and
    this mode's own paired estimate: {speedup, low, high, eagerMs (these pairs' fastest), bestEagerMs, compiledMs}."""
    speedup = eager_ms / compiled_ms
    low, high = ranges.floored(speedup, est.low, max(est.high, est.speedup), est.floor_pct)
    return {
        "speedup": speedup,
        "low": low,
        "high": high,
        "eagerMs": est.eager_ms,
        "bestEagerMs": eager_ms,
        "compiledMs": compiled_ms,
    }


def slow_host_ratio(probes_ms: list[float], fastest_probe_ms: float) -> float:
    """How much slower than the run's fastest state the host CPU was in a side's best rounds: its CONFIRM_ROUNDS-th
    fastest probe over the run's fastest probe (1.0 for rounds without probes: older reports)."""
    if len(probes_ms) < CONFIRM_ROUNDS or not 0 < fastest_probe_ms < float("inf"):
        return 1.0
    return max(1.0, sorted(probes_ms)[CONFIRM_ROUNDS - 1] / fastest_probe_ms)


def widened_for_slow_host(
    speedup: float, low: float, high: float, eager_ratio: float, compiled_ratio: float
) -> tuple[float, float]:
    """(low, high) reaching what a host at its fastest state could give when a side never ran there (ratio above
    1 + FAST_STATE_PCT %): at most ratio x faster on that side (all of it CPU work). A slow eager makes the speedup
    read high, a slow compiled side low. (docs/BENCHMARKS.md §constants: slow host)."""
    limit = 1 + FAST_STATE_PCT / 100
    if eager_ratio > limit:
        low = min(low, speedup / eager_ratio)
    if compiled_ratio > limit:
        high = max(high, speedup * compiled_ratio)
    return low, high


def run_eager(est: Estimate, best_eager_ms: float) -> dict[str, float] | None:
    """For a compiled side the host CPU does not limit (host_free): when eager ran more than HOST_SHIFT_PCT % faster
    elsewhere in the run than in these pairs, `adjusted` with that eager time; else None. (A compiled side the host
    CPU limits stays paired: both sides met the same host in each pair.)"""
    if best_eager_ms <= 0 or est.eager_ms <= best_eager_ms * (1 + HOST_SHIFT_PCT / 100):
        return None
    return adjusted(est, best_eager_ms, est.compiled_ms)
