"""The in-situ estimate (interleaved.estimate, ranges.middle_ratio): each side's median over the run (times of calls
that ran, dividing to the ratio), its range reaching the pairs of blocks' middle ratio where they disagree, on a
constructed run whose whole-run medians and pairs disagree and on five recorded processes of one script (test/fixtures/timing/gated_service-cpu-5-processes.json.gz; docs/BENCHMARKS.md, "The in-situ
estimate: its pairs' middle")."""

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


def test_where_each_side_s_median_over_the_run_met_another_host_state_the_range_reaches_the_pairs() -> None:
    """Every pair reads 2.0x; a slow stretch (×2 on both sides) held most of eager's counted steps and few of
    compiled's, so each side's median over the run reads 4.0 / 1.0 ms = 4.0x, twice every pair's own: the number
    stays the medians' (times that calls took), the range reaches the pairs' 2.0x."""
    slow, quiet = (4.0, 2.0, 5, 1), (2.0, 1.0, 1, 5)
    result = interleaved.compare(run([slow] * 4 + [quiet] * 4), 1000)
    step = result["step"]
    assert step["pairs"] == 8 and all(r == pytest.approx(2.0, rel=0.01) for r in step["pairRatios"])
    assert step["eagerMs"] == pytest.approx(4.0, rel=0.03) and step["compiledMs"] == pytest.approx(1.0, rel=0.03)
    assert step["eagerMs"] / step["compiledMs"] == pytest.approx(step["speedup"], rel=1e-3)  # times divide to it
    assert step["low"] <= 2.0 and step["speedup"] <= step["high"]


def test_where_the_medians_and_the_pairs_agree_the_range_is_the_medians_own() -> None:
    """No slow stretch: the pairs' middle adds nothing to the range."""
    quiet = (2.0, 1.0, 5, 5)
    step = interleaved.compare(run([quiet] * 8), 1000)["step"]
    assert step["speedup"] == pytest.approx(2.0, rel=0.01)
    assert step["low"] < 2.0 < step["high"] and step["high"] / step["low"] < 1.1


def test_the_middle_of_an_even_count_of_ratios_is_the_geometric_mean_of_the_middle_two() -> None:
    assert ranges.middle_ratio([3.0, 1.0, 2.0]) == 2.0
    assert ranges.middle_ratio([0.5, 4.0, 2.0, 0.1]) == pytest.approx(1.0)  # between 0.5 and 2.0


RUNS = json.loads(
    gzip.decompress(
        (
            Path(__file__).resolve().parents[1] / "fixtures" / "timing" / "gated_service-cpu-5-processes.json.gz"
        ).read_bytes()
    )
)["runs"]


@pytest.mark.parametrize("what", ["step", "call"])
def test_each_recorded_process_s_range_holds_its_pairs_middle_and_its_times_divide_to_it(what: str) -> None:
    """Run 2 read 1.96x per step from each side's median over the run, above all eight of its pairs (1.30-1.75x): its
    range reaches down to where the pairs put it."""
    for recorded in RUNS:
        got = interleaved.compare(recorded["calls"], recorded["stepsMade"], on_cpu=True)[what]
        assert got["low"] <= ranges.middle_ratio(got["pairRatios"]) <= got["high"]
        assert got["eagerMs"] / got["compiledMs"] == pytest.approx(got["speedup"], rel=1e-3)
    second = interleaved.compare(RUNS[1]["calls"], RUNS[1]["stepsMade"])["step"]
    assert second["speedup"] > max(second["pairRatios"]) and second["low"] < 1.51


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
