"""The in-situ estimate (interleaved.estimate, ranges.middle): the middle pair of blocks' own ratio, its times that
pair's median calls (times calls took, dividing to the ratio), on constructed runs where one side met a slow stretch
and on five recorded processes of one script (test/fixtures/timing/gated_service-cpu-5-processes.json.gz;
docs/BENCHMARKS.md, "The in-situ number: the middle pair of blocks, re-estimated on 22 recorded H200 runs")."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest
from compile_lens_runner.measure import interleaved, ranges
from compile_lens_runner.measure.schedule import ORDER
from test_in_situ_interleaved import calls

SIG = "float32[128, 1024]; inference"
BLOCK = 6


def run(pairs: list[tuple[float, float, int, int]]) -> list[dict[str, Any]]:
    """A run's calls: a compiled warm-up, then per pair (eager step ms, compiled step ms, eager steady steps, compiled
    steady steps) its two blocks of BLOCK calls in ABBA order; the calls past a block's steady steps carry the
    observer's work, so their steps do not count."""
    spec: list[tuple[str, int]] = [("compiled", 0)] * 3
    observed: dict[int, dict[str, Any]] = {}
    for k in range(2 * len(pairs)):
        side = ORDER[k % 4]
        steady = pairs[k // 2][2] if side == "eager" else pairs[k // 2][3]
        observed.update({len(spec) + i: {"observer": True} for i in range(BLOCK) if i > steady})
        spec += [(side, k + 1)] * BLOCK

    def step(side: str, block: int) -> float:
        return 1.0 if block == 0 else pairs[(block - 1) // 2][0 if side == "eager" else 1]

    return calls(spec, step, SIG, observed)


def _old_rule(recorded: list[dict[str, Any]]) -> float:
    """Each side's median over the run (the rule before session 33), on the same steady steps."""
    calls, s, _ = interleaved.compared([interleaved.Call.from_json(c) for c in recorded])
    got = interleaved.estimate(calls, s.steps, lambda c: c.step_ms, {SIG: len(calls)}, paired=False)
    assert got is not None
    return got["speedup"]


def _step_times(recorded: list[dict[str, Any]], side: str) -> set[float]:
    return {round(c["stepMs"], 4) for c in recorded if c["side"] == side and c["stepMs"] is not None}


def test_a_slow_stretch_on_one_side_moves_the_run_s_medians_and_not_the_middle_pair() -> None:
    """Every pair reads 2.0x. In the first run a slow stretch (x2 on both sides) held most of eager's counted steps and
    few of compiled's, so each side's median over the run reads 4.0 / 1.0 ms = 4.0x; in the second no stretch: 2.0x.
    The middle pair reads 2.0x in both, its times a pair's own calls, dividing to it."""
    slow, quiet = (4.0, 2.0, 5, 1), (2.0, 1.0, 1, 5)
    stretched, even = run([slow] * 4 + [quiet] * 4), run([(2.0, 1.0, 5, 5)] * 8)
    assert _old_rule(stretched) == pytest.approx(4.0, rel=0.03) and _old_rule(even) == pytest.approx(2.0, rel=0.03)
    for recorded in (stretched, even):
        step = interleaved.compare(recorded, 1000)["step"]
        assert step["pairs"] == 8 and all(r == pytest.approx(2.0, rel=0.01) for r in step["pairRatios"])
        assert step["speedup"] == pytest.approx(2.0, rel=0.01)
        assert step["eagerMs"] / step["compiledMs"] == pytest.approx(step["speedup"], rel=1e-3)  # times divide to it
        assert step["eagerMs"] in _step_times(recorded, "eager")  # times calls took
        assert step["compiledMs"] in _step_times(recorded, "compiled")
        assert step["low"] < 2.0 < step["high"]


def test_of_an_even_count_of_pairs_the_number_is_the_lower_middle_pair_s_with_its_own_times() -> None:
    """Four pairs at 1.5, 2.0, 2.5 and 3.0x: the number is 2.0x (the lower of the middle two, one pair's own; their
    geometric mean 2.24x is no pair's), its times that pair's 4.0 and 2.0 ms; the range reaches every pair (fewer than
    ranges.MIN_RESAMPLED pairs would; four are resampled)."""
    recorded = run([(3.0, 1.0, 5, 5), (4.0, 2.0, 5, 5), (2.5, 1.0, 5, 5), (1.5, 1.0, 5, 5)])
    step = interleaved.compare(recorded, 1000)["step"]
    assert sorted(step["pairRatios"]) == pytest.approx([1.5, 2.0, 2.5, 3.0])
    assert step["speedup"] == pytest.approx(2.0) and (step["eagerMs"], step["compiledMs"]) == (4.0, 2.0)
    assert step["low"] < 2.0 < step["high"]
    odd = interleaved.compare(run([(3.0, 1.0, 5, 5), (4.0, 2.0, 5, 5), (2.5, 1.0, 5, 5)]), 1000)["step"]
    assert odd["speedup"] == pytest.approx(2.5) and (odd["eagerMs"], odd["compiledMs"]) == (2.5, 1.0)
    assert odd["low"] <= 2.0 and odd["high"] >= 3.0  # three pairs: the range reaches each one's own ratio


def test_the_middle_of_an_even_count_of_ratios_is_the_lower_of_the_middle_two() -> None:
    assert ranges.middle_ratio([3.0, 1.0, 2.0]) == 2.0
    assert ranges.middle_ratio([0.5, 4.0, 2.0, 0.1]) == 0.5  # of 0.5 and 2.0, a pair's own and the smaller claim


RUNS = json.loads(
    gzip.decompress(
        (
            Path(__file__).resolve().parents[1] / "fixtures" / "timing" / "gated_service-cpu-5-processes.json.gz"
        ).read_bytes()
    )
)["runs"]


@pytest.mark.parametrize("what", ["step", "call"])
def test_each_recorded_process_s_number_is_its_pairs_middle_and_its_times_divide_to_it(what: str) -> None:
    """Run 2 read 1.96x per step from each side's median over the run, above all eight of its pairs (1.30-1.75x): the
    middle pair puts it among them."""
    for recorded in RUNS:
        got = interleaved.compare(recorded["calls"], recorded["stepsMade"], on_cpu=True)[what]
        assert got["speedup"] == pytest.approx(ranges.middle_ratio(got["pairRatios"]), rel=1e-3)
        assert got["low"] <= got["speedup"] <= got["high"]
        assert got["eagerMs"] / got["compiledMs"] == pytest.approx(got["speedup"], rel=1e-3)
    second = interleaved.compare(RUNS[1]["calls"], RUNS[1]["stepsMade"])["step"]
    assert min(second["pairRatios"]) <= second["speedup"] <= max(second["pairRatios"]) < 1.96


def test_compile_lens_s_own_work_on_an_eager_call_is_said_where_it_is_not_small_against_eager_s_step() -> None:
    """At the eager stance each call still passes through torch.compile's wrapper and between the observer's work (up
    to OWN_CALL_MS a call): against a 0.2 ms eager step that is 25 %, against a 2 ms one 2.5 % (under MAX_OWN_PCT)."""
    short = interleaved.compare(run([(0.2, 0.1, 5, 5)] * 4), 1000, on_cpu=True)
    assert short["ownCost"] == {"ms": interleaved.OWN_CALL_MS, "eagerMs": 0.2, "pct": 25.0, "unit": "step"}
    assert interleaved.compare(run([(2.0, 1.0, 5, 5)] * 4), 1000, on_cpu=True)["ownCost"] is None
    # where every step held a compile the number is per call: the call's own time is what the work is set against
    calls = [{**c, "stepMs": None} for c in run([(0.2, 0.1, 5, 5)] * 4)]
    assert interleaved.compare(calls, 1000, on_cpu=True)["ownCost"] == {
        "ms": interleaved.OWN_CALL_MS,
        "eagerMs": 0.1,
        "pct": 50.0,
        "unit": "call",
    }


def test_on_cuda_the_own_work_counts_only_where_the_host_sets_eager_s_time() -> None:
    """The wrapper and the observer cost host time: a GPU-bound eager call (host time a fraction of its GPU time) runs
    them while its kernels run; a launch-bound one (host time its whole GPU time) waits for them."""
    gpu_bound = [{**c, "hostMs": c["ms"] * 0.2} for c in run([(0.2, 0.1, 5, 5)] * 4)]
    assert interleaved.compare(gpu_bound, 1000)["ownCost"] is None
    launch_bound = [{**c, "hostMs": c["ms"]} for c in run([(0.2, 0.1, 5, 5)] * 4)]
    assert interleaved.compare(launch_bound, 1000)["ownCost"] == {
        "ms": interleaved.OWN_CALL_MS,
        "eagerMs": 0.2,
        "pct": 25.0,
        "unit": "step",
    }


def test_from_few_pairs_of_blocks_the_range_reaches_every_pair_and_from_many_the_resampled_middle_decides() -> None:
    """Seven pairs of an H200 train/validate process (0.585-0.829x): a next process read 0.800x, above the resampled
    middle's range; from fewer than ranges.FEW_BLOCK_PAIRS pairs the range reaches every pair's own ratio. Twelve
    pairs with one far pair are resampled alone: the far pair does not stretch the range."""
    seven = [0.585, 0.6, 0.672, 0.683, 0.717, 0.748, 0.829]
    few = interleaved.compare(run([(2.0 * r, 2.0, 5, 5) for r in seven]), 1000)["step"]
    assert few["pairs"] == 7 and few["speedup"] == pytest.approx(0.683, rel=1e-3)
    assert few["low"] <= 0.585 and few["high"] >= 0.829
    resampled = ranges.of_pairs(0.683, ranges.FLOOR_PCT, seven, ranges.middle_ratio, seven)
    assert resampled[1] < 0.8  # the rule before: the next process's 0.800x outside
    twelve = [1.0, 0.98, 1.02, 0.99, 1.01, 1.0, 0.97, 1.03, 1.0, 0.99, 1.01, 1.5]
    many = interleaved.compare(run([(2.0 * r, 2.0, 5, 5) for r in twelve]), 1000)["step"]
    assert many["pairs"] == ranges.FEW_BLOCK_PAIRS and many["high"] < 1.2
