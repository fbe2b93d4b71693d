"""The one rule of every speedup's range (measure/ranges.py): where a next run may land, never zero-width, and not
said at all when it reaches beyond ÷3…×3 of its estimate."""

from __future__ import annotations

import math

from compile_lens_runner.measure import ranges


def test_where_a_next_run_may_land_is_the_resampled_spread_as_a_factor_to_the_power_sqrt2() -> None:
    """A next run's estimate has its own error too: the range a report says is a prediction interval. A speedup is a
    ratio: its spread is a factor (÷1.09 and ×1.04 here), widened as one."""
    low, high = ranges.next_run(1.2, (1.1, 1.25))
    assert math.isclose(low, 1.2 / (1.2 / 1.1) ** math.sqrt(2)) and math.isclose(
        high, 1.2 * (1.25 / 1.2) ** math.sqrt(2)
    )
    assert ranges.next_run(1.2, (1.21, 1.3))[0] == 1.2  # bounds on one side of the value never cross it


def test_a_low_never_reaches_zero_or_below() -> None:
    """reportC D2: explore-cpu's first recording (2 cores at load 11.45) said 10.33× with a low of −3.99 (its resampled
    0.21 widened as a difference)."""
    low, high = ranges.next_run(10.3264, (0.2065, 14.0))
    assert 0 < low < 0.2065 and high > 14.0
    assert ranges.interval(10.3264, 6.0, (0.2065, 14.0))[0] > 0
    assert ranges.too_noisy(10.3264, low, high) is not None  # and it is still too wide to say


def test_a_range_is_never_zero_width_and_reaches_what_a_next_run_may_give() -> None:
    assert ranges.interval(1.5) == (1.5 * 0.98, 1.5 * 1.02)  # nothing resampled: the floor
    assert ranges.floored(0.53, 0.53, 0.53) == (0.53 * 0.98, 0.53 * 1.02)  # an older report's point: the floor
    assert ranges.interval(1.5, 6.0) == (1.5 * 0.94, 1.5 * 1.06)  # a caller's larger floor (a noisy side)
    low, high = ranges.interval(1.5, resampled=(1.4, 1.55), reach=[1.7])
    assert math.isclose(low, 1.5 / (1.5 / 1.4) ** math.sqrt(2)) and high == 1.7


def test_a_range_beyond_three_times_either_way_is_too_noisy_to_say() -> None:
    assert ranges.too_noisy(1.07, 1.01, 128.11) == round(128.11 / 1.07, 2)  # a recorded "next run 1.01–128.11×"
    assert ranges.too_noisy(1.0, 0.3, 1.2) == round(1 / 0.3, 2)
    assert ranges.too_noisy(1.0, -0.2, 1.2) == 1000.0  # a widened low below zero: as far as it can be said
    assert ranges.too_noisy(1.22, 0.87, 1.32) is None and ranges.too_noisy(1.0, 1 / 3, 3.0) is None


def test_the_slowest_rank_is_the_jobs_value_and_a_rank_without_one_leaves_none() -> None:
    assert ranges.slowest([1.0, 3.0, 2.0]) == 3.0 and ranges.slowest([1.0, None]) is None


def test_a_step_far_above_its_side_s_median_is_an_interruption_and_a_side_s_own_spread_is_not() -> None:
    """serve_script on the contended 2-core VM: 0.4-0.7 ms steps and 21-115 ms ones among them (the host held the
    CPU); a bound above the steady steps and below every interrupted one. A side slow at every step, a side whose
    steps spread wide (a decode loop's cache growing 1-10 ms) and a step only 3x the median have none."""
    steady = [0.40, 0.39, 0.43, 0.61, 0.67, 0.60, 0.75, 0.54, 0.43, 0.39, 0.38, 0.39, 1.07, 3.14]
    interrupted = [104.4, 115.0, 21.1, 45.1, 95.3, 59.9]
    bound = ranges.far_above(steady + interrupted)
    assert bound is not None and max(steady) < bound < min(interrupted)
    assert ranges.far_above([50.0, 51.0, 49.0, 50.5, 52.0, 48.0]) is None
    assert ranges.far_above([1.0 + 0.5 * k for k in range(19)]) is None
    assert ranges.far_above([1.0, 1.02, 0.98, 1.01, 0.99, 3.0]) is None


def test_fewer_than_half_of_the_steps_are_ever_interruptions_and_few_steps_have_none() -> None:
    """Beyond the bound is far above the median: the median stays a step that ran; below MIN_FAR_VALUES steps one
    interrupted step is a large share of them, and there is no median to stand on."""
    half = [0.5] * 5 + [100.0] * 5
    assert ranges.far_above(half) is None
    bound = ranges.far_above([0.5] * 6 + [100.0] * 5)
    assert bound is not None and sum(v > bound for v in [0.5] * 6 + [100.0] * 5) == 5
    assert ranges.far_above([0.5, 0.5, 0.5, 100.0]) is None
