"""The one statistics of every speedup's range (pure): resampling, the widening for a next run, the floor, and when a
range is too wide to say. Targets' rounds (estimator.py), a script's replayed calls (through estimator.py) and its
steps in situ (interleaved.py) all take their range here, so one rule says where a next run may land. In situ the
number is the pairs of blocks' middle (middle): each pair met one host state.

A range is where a next run's estimate may land: the 5th-95th percentiles of the estimate over resampled samples
(pairs of rounds, pairs of blocks), widened for the next run's own sampling error (next_run: as a factor, so never at
or below zero), reaching whatever else the estimator knows a next run may give (the halves of the rounds; each pair's
own ratio when fewer than MIN_RESAMPLED pairs are too few to resample: of_pairs), and never narrower than a floor
around the estimate (FLOOR_PCT, or the caller's larger one: what differs between processes and no single run shows).
So no range is zero-width. A range reaching further than NOISY_FACTOR times either way from its estimate says nothing
about the next run: it is not printed as a range, the answer says "too noisy to say" (too_noisy).

Before any of it, a side's steps far above its own typical step (far_above) are interruptions, not its cost: on a
contended 2-core host the script's 0.64 ms steps took 21-209 ms when another process held the CPU, and a pair of blocks
holding one read 0.008x.
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

RESAMPLES = 1000
# the least half-width of any range, in % of its estimate (docs/BENCHMARKS.md §constants)
FLOOR_PCT = 2.0
# A next run's estimate carries its own sampling error as well as this run's: the difference of two independent
# estimates has twice the variance, so where the next run may land is this run's resampled spread times sqrt(2)
# (a prediction interval; the bare 5th-95th percentiles missed the next H100 profile on amp_train, BENCHMARKS.md).
NEXT_RUN_SCALE = math.sqrt(2)
# Fewer pairs than this are too few to resample (a resample of 3 draws the same pair three times in 1 of 9): every
# pair's own ratio bounds what a next run may give instead (of_pairs).
MIN_RESAMPLED = 4
# In situ, fewer pairs of blocks than this reach every pair's own ratio as well as the resampled middle: the middle of
# 7-8 pairs resampled held every next process's number in 420 of 462 pairings of 22 recorded H200 processes of a 60-step
# train/validate loop, reaching every pair 436 (docs/BENCHMARKS.md "Few pairs of blocks reach each pair's ratio").
# A pair's ratio is what a next run's middle can be; a target's fastest-round estimate is no one round's, so targets
# keep the resampled range alone.
FEW_BLOCK_PAIRS = 12
# a range beyond ÷3…×3 around its estimate: "too noisy to say", never printed as where a next run lands
NOISY_FACTOR = 3.0

# A step is an interruption (far_above) only where it is both this many times its side's median and FAR_MADS scaled
# median absolute deviations above it: a host that slowed for a stretch (2-3x on a contended CPU) is the pairs' to
# carry, and a side whose steps spread wide (a decode loop's growing cache, pooled) keeps its long ones.
FAR_TIMES = 5.0
FAR_MADS = 10.0
# the median absolute deviation scaled to a normal distribution's standard deviation
MAD_SCALE = 1.4826
# Fewer steps than this have no median to stand on: one of three interrupted steps is a third of them.
MIN_FAR_VALUES = 5

T = TypeVar("T")


def percentile(values: Sequence[float], q: float) -> float:
    """The q-quantile (0..1) of values, linearly interpolated."""
    ordered = sorted(values)
    pos = q * (len(ordered) - 1)
    lo = int(pos)
    hi = min(lo + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo)


def bootstrap(
    items: Sequence[T], statistic: Callable[[list[T]], float], resamples: int = RESAMPLES, seed: int = 0
) -> tuple[float, float]:
    """5th and 95th percentiles of statistic() over items drawn with replacement (seeded: a report is repeatable)."""
    rng = random.Random(seed)
    values = [statistic(rng.choices(list(items), k=len(items))) for _ in range(resamples)]
    return percentile(values, 0.05), percentile(values, 0.95)


def next_run(value: float, resampled_bounds: tuple[float, float]) -> tuple[float, float]:
    """Where a next run's estimate may land, from the 5th-95th percentiles of this run's resampled estimate. A speedup
    is a ratio, so its spread widens as a factor: low = value·(low/value)^√2, never at or below zero (a difference
    widened 10.33× at 5.07 to −3.99). Bounds on one side of the value never cross it."""
    low, high = resampled_bounds
    return value * min(1.0, low / value) ** NEXT_RUN_SCALE, value * max(1.0, high / value) ** NEXT_RUN_SCALE


def floored(value: float, low: float, high: float, floor_pct: float = FLOOR_PCT) -> tuple[float, float]:
    """(low, high) reaching at least floor_pct % either side of value: never zero-width."""
    pct = max(floor_pct, FLOOR_PCT) / 100
    return min(low, value * (1 - pct)), max(high, value * (1 + pct))


def interval(
    value: float,
    floor_pct: float = FLOOR_PCT,
    resampled: tuple[float, float] | None = None,
    reach: Iterable[float] = (),
) -> tuple[float, float]:
    """The range of a speedup `value`: its resampled 5th-95th percentiles widened for a next run (next_run), every
    value in `reach` (estimates a next run may give: the rounds' halves, each pair's own ratio), and the floor."""
    bounds = [value, *reach, *(next_run(value, resampled) if resampled is not None else ())]
    return floored(value, min(bounds), max(bounds), floor_pct)


def of_pairs(
    value: float,
    floor_pct: float,
    pairs: Sequence[T],
    statistic: Callable[[list[T]], float],
    ratios: Sequence[float],
    reach: Iterable[float] = (),
) -> tuple[float, float]:
    """The range of a speedup `value` estimated by statistic() from pairs (of rounds, of blocks) whose own ratios are
    `ratios`: resampled (interval) from MIN_RESAMPLED pairs, else reaching every pair's own ratio, so a range from
    few pairs never leaves out one of them (the ±floor alone said 1.22–1.37× of pairs at 1.35, 1.30 and 1.05×)."""
    if len(pairs) >= MIN_RESAMPLED:
        return interval(value, floor_pct, bootstrap(pairs, statistic), reach)
    return interval(value, floor_pct, reach=[*reach, *ratios])


def of_block_pairs(
    value: float, floor_pct: float, pairs: Sequence[T], statistic: Callable[[list[T]], float], ratios: Sequence[float]
) -> tuple[float, float]:
    """The range of an in-situ speedup from pairs of blocks (of_pairs), reaching every pair's own ratio from fewer than
    FEW_BLOCK_PAIRS pairs: the resampled middle of so few pairs missed where a next process of the same loop landed."""
    return of_pairs(value, floor_pct, pairs, statistic, ratios, ratios if len(pairs) < FEW_BLOCK_PAIRS else ())


def middle(items: Sequence[T], ratio: Callable[[T], float]) -> T:
    """The item at the middle of `items` by its ratio, of an even count the lower of the middle two: always one item's
    own (its times are times calls took and divide to its ratio, where a geometric mean of two is no pair's), and of
    two the smaller claim. Each pair's two sides met one host state; each side's median over the whole run took its
    sides from different host states (in one process 1.96× over pairs at 1.30-1.75×; on 13 H200 processes of one decode
    loop the run's medians spread 38 %, the pairs' middle 9 %: docs/BENCHMARKS.md "The in-situ number: the middle
    pair of blocks")."""
    return sorted(items, key=ratio)[(len(items) - 1) // 2]


def middle_ratio(ratios: Sequence[float]) -> float:
    """The middle of pairs' own ratios (middle): of an even count the lower of the middle two."""
    return middle(ratios, float)


def far_above(values: Sequence[float]) -> float | None:
    """The time beyond which one of `values` (a side's steady steps at one signature, ms) is an interruption: at least
    FAR_TIMES times their median and FAR_MADS scaled MADs above it; None where none of them is, or fewer than
    MIN_FAR_VALUES. Relative to the side's own median, so one rule serves both sides and a side that is slow at every
    step keeps its time; fewer than half of the values can lie beyond it, so the median stays a step that ran. A cost
    that recurs in the steps of one side only (a recompile, a CUDA graph recorded, a call run eagerly) is no steady
    step to begin with: the steady-step rules left it out under its own name."""
    if len(values) < MIN_FAR_VALUES:
        return None
    median = statistics.median(values)
    mad = MAD_SCALE * statistics.median(abs(v - median) for v in values)
    bound = max(FAR_TIMES * median, median + FAR_MADS * mad)
    return bound if any(v > bound for v in values) else None


def too_noisy(value: float, low: float, high: float) -> float | None:
    """How far the range reaches from its estimate (the larger of high/value, value/low) when that is beyond
    NOISY_FACTOR: a range that says nothing of the next run; None when it may be said."""
    factor = max(high / value, value / max(low, value / 1000))  # a low at or below 0: as far as ÷1000
    return round(factor, 2) if factor > NOISY_FACTOR else None


def slowest(values: list[Any]) -> Any:
    """The slowest rank's value of one call (None when a rank has none): a synchronous job is as slow as it."""
    return None if any(v is None for v in values) else max(values)
