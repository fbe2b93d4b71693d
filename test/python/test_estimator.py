"""The speedup estimator on round data recorded on an H100 (two runs per model, separate processes, 2026-11-22):
the runs agree where the data allows, each run's interval covers the other run, and one-sided host noise barely
moves the estimate while it moves the old median-of-ratios a lot."""

from __future__ import annotations

import json
import random
import statistics
from pathlib import Path

import pytest
from compile_lens_runner.measure import estimator, ranges

ROUNDS = json.loads(
    (Path(__file__).resolve().parents[1] / "fixtures" / "timing" / "h100-rounds-2026-11-22.json").read_text()
)["runs"]


def pairs_of(run: str, mode: str) -> list[estimator.Pair]:
    m = ROUNDS[run]["modes"][mode]
    return list(zip(m["eagerRoundsMs"], m["compiledRoundsMs"], strict=True))


def run_pairs() -> list[tuple[str, str, list[estimator.Pair], list[estimator.Pair]]]:
    """(model, mode, run 1 pairs, run 2 pairs) for every model and mode recorded twice."""
    out = []
    for run in sorted(ROUNDS):
        model, index = run.rstrip("12").rstrip("_"), run[-1]
        other = next((r for r in ROUNDS if r != run and r.rstrip("12").rstrip("_") == model), None)
        if index != "1" or other is None:
            continue
        out.extend(
            (model, mode, pairs_of(run, mode), pairs_of(other, mode))
            for mode in ROUNDS[run]["modes"]
            if mode in ROUNDS[other]["modes"]
        )
    return out


def difference(a: float, b: float) -> float:
    """As the issue's table measures it: |a - b| / mean."""
    return abs(a - b) / ((a + b) / 2)


def both_confirmed(pairs: list[estimator.Pair]) -> bool:
    return estimator.confirmed([e for e, _ in pairs]) and estimator.confirmed([c for _, c in pairs])


def test_runs_agree_within_5_percent_where_both_saw_their_fastest_rounds() -> None:
    checked = []
    for model, mode, one, two in run_pairs():
        if both_confirmed(one) and both_confirmed(two):
            a, b = estimator.fastest_ratio(one), estimator.fastest_ratio(two)
            assert difference(a, b) <= 0.05, (model, mode, a, b)
            checked.append((model, mode))
    # BERT reduce-overhead: the median of ratios gave 4.31x then 6.40x (39 %); the samples were already stable
    assert ("bert", "reduce-overhead") in checked and ("localopt", "default") in checked and len(checked) >= 5


def test_the_median_of_ratios_did_not_agree_on_launch_bound_models() -> None:
    found = {(model, mode): (one, two) for model, mode, one, two in run_pairs()}
    for key in (("bert", "reduce-overhead"), ("resnet18", "reduce-overhead")):
        one, two = found[key]
        assert difference(estimator.median_ratio(one), estimator.median_ratio(two)) > 0.2
        assert difference(estimator.fastest_ratio(one), estimator.fastest_ratio(two)) < 0.06


def test_each_runs_interval_covers_the_other_run() -> None:
    for model, mode, one, two in run_pairs():
        if (model, mode) == ("graphbreak", "reduce-overhead"):
            continue  # the sample picks one of its heads at random on every call: the work itself varies
        first, second = estimator.estimate(one), estimator.estimate(two)
        assert first.low <= second.speedup <= first.high, (model, mode, first, second.speedup)
        assert second.low <= first.speedup <= second.high, (model, mode, second, first.speedup)


def test_interval_is_wider_when_a_side_met_host_noise() -> None:
    steady = estimator.estimate(pairs_of("localopt1", "default"))
    noisy = estimator.estimate(pairs_of("bert_1", "reduce-overhead"))
    assert steady.noisy_sides == () and steady.floor_pct == ranges.FLOOR_PCT
    assert noisy.noisy_sides == ("eager",) and noisy.floor_pct == estimator.FLOOR_NOISY_PCT
    assert steady.low <= steady.speedup <= steady.high and (steady.high - steady.low) / steady.speedup < 0.05
    # resnet18 run 1 saw eager's fast state in 2 of 21 rounds: its halves disagree and the interval says so
    rare = estimator.estimate(pairs_of("resnet18_1", "reduce-overhead"))
    assert rare.high / rare.speedup > 1.2


def test_estimate_is_deterministic() -> None:
    pairs = pairs_of("resnet18_2", "reduce-overhead")
    assert estimator.estimate(pairs) == estimator.estimate(list(pairs))


@pytest.mark.parametrize("side", [0, 1])
def test_one_sided_noise_moves_the_estimate_little_and_the_median_a_lot(side: int) -> None:
    """Host noise (x1.2-2.0) on a random half of one side's rounds: while any round of that side's confirmed
    fastest state escapes it, the estimate moves at most CONFIRM_PCT; the median of ratios moves 10 % on average."""
    new_moves, old_moves = [], []
    for run in ROUNDS:
        for mode in ROUNDS[run]["modes"]:
            pairs = pairs_of(run, mode)
            hit_side = [p[side] for p in pairs]
            if not estimator.confirmed(hit_side):
                continue
            speedup, median, best = estimator.fastest_ratio(pairs), estimator.median_ratio(pairs), min(hit_side)
            for seed in range(20):
                rng = random.Random(seed)
                hit = set(rng.sample(range(len(pairs)), len(pairs) // 2))
                noisy = [
                    tuple(v * rng.uniform(1.2, 2.0) if i in hit and s == side else v for s, v in enumerate(p))
                    for i, p in enumerate(pairs)
                ]
                old_moves.append(abs(estimator.median_ratio(noisy) / median - 1))  # type: ignore[arg-type]
                if any(v <= best * (1 + estimator.CONFIRM_PCT / 100) for i, v in enumerate(hit_side) if i not in hit):
                    new_moves.append(abs(estimator.fastest_ratio(noisy) / speedup - 1))  # type: ignore[arg-type]
    assert len(new_moves) > 200
    assert max(new_moves) <= estimator.CONFIRM_PCT / 100 + 1e-9
    assert statistics.mean(old_moves) > 0.10


def test_a_gpu_bound_compiled_side_takes_eagers_fastest_round_of_the_run() -> None:
    """resnet18 run 1: eager's fastest round was 2.06 ms in the reduce-overhead pairs but 1.93 ms in the default ones;
    the CUDA-graph replay keeps the GPU busy, so the host's state does not move it: the speedup takes 1.93 ms, and run
    1 then lands within 1 % of run 2 (2.77x), where paired it was 6 % off."""
    ro, default = (
        estimator.estimate(pairs_of("resnet18_1", "reduce-overhead")),
        estimator.estimate(pairs_of("resnet18_1", "default")),
    )
    best = min(ro.eager_ms, default.eager_ms)
    shift = estimator.run_eager(ro, best)
    run2 = estimator.estimate(pairs_of("resnet18_2", "reduce-overhead")).speedup
    assert shift and shift["speedup"] == pytest.approx(best / ro.compiled_ms) and shift["bestEagerMs"] == best
    assert abs(shift["speedup"] / run2 - 1) < 0.01 < abs(ro.speedup / run2 - 1)
    assert shift["high"] >= ro.speedup and shift["low"] <= shift["speedup"]  # the pairs' own estimate stays inside
    # a compiled side the CPU limits stays paired (no CUDA graphs and a GPU idle share over 15 %, or unknown: CPU runs)
    assert estimator.run_eager(ro, ro.eager_ms * 0.99) is None  # within 3 %: nothing to take
    assert estimator.host_free(27.4, ["captured"]) and estimator.host_free(8.0, [])  # BERT (1, 8) replays: idle 27 %
    assert (
        not estimator.host_free(45.0, [])
        and not estimator.host_free(None, [])
        and not estimator.host_free(5.0 + 40, ["captured", "skipped"])
    )


def _mode(
    name: str, eager: list[float], compiled: list[float], probes: list[float], graphs: list[str], idle: float
) -> dict:
    est = estimator.estimate(list(zip(eager, compiled, strict=True)))
    return {
        "mode": name,
        "status": "ok",
        "speedup": est.speedup,
        "compileSeconds": 5.0,
        "gpuIdlePct": idle,
        "speedupInterval": {
            "low": est.low,
            "high": est.high,
            "floorPct": est.floor_pct,
            "noisySides": list(est.noisy_sides),
        },
        "eagerTiming": {"estimateMs": min(eager), "rounds": eager, "cpuProbeMs": probes},
        "timing": {"estimateMs": min(compiled), "rounds": compiled},
        "compiler": {"cudaGraphs": [{"status": s} for s in graphs]},
    }


def test_a_cuda_graph_mode_takes_eagers_fastest_round_of_the_run() -> None:
    """A host slow through the whole reduce-overhead pairing no longer inflates its speedup: the default mode's pairs saw
    eager at 1.35 ms. Eager alone (1.2 ms, before anything compiled: another process state) is not taken; a compiled
    side the host CPU limits (default, no CUDA graphs, GPU idle 40 %) stays paired."""
    from compile_lens_runner.measure import speedups as run_speedups

    def eager_at(p: float) -> float:
        return 1.5 * p

    alone = [0.8, 0.9, 1.7, 1.7, 2.6]
    report = {
        "eager": {
            "launchBound": True,
            "gpuIdlePct": 80.0,
            "timing": {"estimateMs": eager_at(0.8), "rounds": [eager_at(p) for p in alone], "cpuProbeMs": alone},
        },
        "modes": [
            _mode(
                "default",
                [eager_at(p) for p in [0.9, 1.2, 1.7]],
                [0.5 + 1.0 * p for p in [0.9, 1.2, 1.7]],
                [0.9, 1.2, 1.7],
                [],
                40.0,
            ),
            _mode("reduce-overhead", [eager_at(1.7)] * 4, [0.70, 0.71, 0.70, 0.70], [1.7] * 4, ["captured"], 30.0),
        ],
    }
    run_speedups.adjust(report["modes"], report["eager"])
    default, ro = report["modes"]
    assert ro["speedup"] == pytest.approx(eager_at(0.9) / 0.70, rel=1e-3)  # not eager_at(1.7) / 0.70, nor eager alone's
    interval = ro["speedupInterval"]
    assert interval["runEager"]["basis"] == "fastest-round" and interval["low"] <= ro["speedup"] <= interval["high"]
    assert interval["high"] >= eager_at(1.7) / 0.70  # what these pairs' own host gave stays inside
    assert "runEager" not in default["speedupInterval"]  # paired: both sides met the same host in each pair
    assert ro["breakEvenCalls"] == pytest.approx(5000 / (eager_at(0.9) - 0.70), rel=1e-2)


def test_a_side_that_never_ran_at_the_hosts_fastest_state_widens_the_interval() -> None:
    """A host busy through a whole run (H100, 2026-11-23: GPT-2 default 1.53x with the CPU probe at 1.19x / 1.26x its
    fastest in each side's best rounds, where quieter runs gave 1.34-1.41x): the interval reaches what the fastest state
    could give, and says which side was slow; a mode whose sides ran at that state keeps its interval."""
    from compile_lens_runner.measure import speedups as run_speedups

    eager, compiled = [6.16, 6.3, 6.2, 6.4], [4.03, 4.1, 4.05, 4.2]
    slow = _mode("default", eager, compiled, [1.05, 1.06, 1.08, 1.2], [], 40.0)
    slow["timing"]["cpuProbeMs"] = [1.12, 1.1, 1.15, 1.3]
    steady = _mode("max-autotune-no-cudagraphs", eager, compiled, [0.9, 0.91, 0.92, 1.2], [], 40.0)
    steady["timing"]["cpuProbeMs"] = [0.9, 0.92, 0.93, 1.0]
    report = {
        "eager": {"timing": {"estimateMs": 5.9, "rounds": [5.9] * 3, "cpuProbeMs": [0.88, 1.0, 1.0]}},
        "modes": [slow, steady],
    }
    before = dict(slow["speedupInterval"])
    run_speedups.adjust(report["modes"], report["eager"])
    interval = slow["speedupInterval"]
    assert interval["slowHost"] == {
        "eager": pytest.approx(1.08 / 0.88, abs=1e-3),
        "compiled": pytest.approx(1.15 / 0.88, abs=1e-3),
    }  # their third-fastest probes
    assert interval["low"] == pytest.approx(slow["speedup"] * 0.88 / 1.08, abs=1e-3) and interval["low"] < before["low"]
    assert (
        interval["high"] == pytest.approx(slow["speedup"] * 1.15 / 0.88, abs=1e-3) and interval["high"] > before["high"]
    )
    assert "slowHost" not in steady["speedupInterval"]


def test_a_region_gets_the_interval_a_target_gets_on_the_same_rounds() -> None:
    """One measurement path: a script region's measurements (as written and a what-if mode on one signature) go through
    the adjustments a target's modes get (run eager, the launch-bound floor, the slow host), to the same numbers."""
    import copy

    from compile_lens_runner.measure import speedups
    from compile_lens_runner.script.mode import adjust_speedups

    def eager_at(p: float) -> float:
        return 1.5 * p

    modes = [
        _mode(
            "default",
            [eager_at(p) for p in [0.9, 1.2, 1.7]],
            [0.5 + 1.0 * p for p in [0.9, 1.2, 1.7]],
            [0.9, 1.2, 1.7],
            [],
            40.0,
        ),
        _mode("reduce-overhead", [eager_at(1.7)] * 4, [0.70, 0.71, 0.70, 0.70], [1.7] * 4, ["captured"], 30.0),
    ]
    for mode in modes:
        mode["timing"]["cpuProbeMs"] = [1.0, 1.1, 1.2]
    regions = [
        dict(copy.deepcopy(m), mode=name, signature="float32[8, 64] (no_grad)", eagerGpuIdlePct=80.0)
        for m, name in zip(modes, ["as-written", "reduce-overhead"], strict=True)
    ]
    speedups.adjust(modes, {"launchBound": True, "gpuIdlePct": 80.0, "timing": None}, 0.9)
    adjust_speedups(regions, 0.9)
    fields = ("speedup", "speedupInterval", "breakEvenCalls")
    assert [{k: m.get(k) for k in fields} for m in regions] == [{k: m.get(k) for k in fields} for m in modes]
    assert (
        modes[1]["speedupInterval"]["runEager"] and modes[0]["speedupInterval"]["floorPct"] == 12.0
    )  # all three applied
    assert modes[0]["speedupInterval"].get("slowHost")


def test_a_measurement_that_was_not_taken_is_left_alone() -> None:
    from compile_lens_runner.measure import speedups as run_speedups

    unmeasured = {"mode": "default", "status": "error", "speedup": None}
    run_speedups.widen_for_slow_host(unmeasured, 0.9)
    assert unmeasured == {"mode": "default", "status": "error", "speedup": None}


def test_a_launch_bound_eager_widens_the_interval_by_its_share_of_the_hosts_speed() -> None:
    """Both sides steady, yet the host CPU ran slower in one run's fastest rounds than in the other's: resnet18 B16
    reduce-overhead gave 2.15x then 1.94x in two processes (H100, 2026-11-23, eager 78 % and 73 % GPU-idle). 15 % of
    eager's idle share either way holds the other run (10 %, the fast-state window, did not); a less launch-bound eager
    keeps 5 %."""
    from compile_lens_runner.measure import speedups as run_speedups

    def run(eager_ms: float, compiled_ms: float, idle_pct: float) -> dict:
        ro = _mode("reduce-overhead", [eager_ms] * 9, [compiled_ms] * 9, [0.9] * 9, ["captured"], 24.0)
        ro["timing"]["cpuProbeMs"] = [0.9] * 9
        assert ro["speedupInterval"]["floorPct"] == ranges.FLOOR_PCT
        run_speedups.adjust([ro], {"launchBound": True, "gpuIdlePct": idle_pct, "timing": None})
        return ro

    first, second = run(1.499, 0.696, 78.1), run(1.352, 0.695, 72.7)
    assert (first["speedupInterval"]["floorPct"], second["speedupInterval"]["floorPct"]) == (11.7, 10.9)
    assert (
        first["speedupInterval"]["low"] <= second["speedup"] and first["speedup"] <= second["speedupInterval"]["high"]
    )
    assert run(1.5061, 0.7065, 30.0)["speedupInterval"]["floorPct"] == estimator.FLOOR_LAUNCH_BOUND_PCT
    gpu_bound = _mode("default", [14.7] * 9, [4.2] * 9, [0.9] * 9, [], 1.0)
    run_speedups.adjust([gpu_bound], {"launchBound": False, "timing": None})
    assert gpu_bound["speedupInterval"]["floorPct"] == ranges.FLOOR_PCT  # localopt: 0.2-0.8 % apart


def test_a_range_from_too_few_pairs_to_resample_holds_every_pair_s_own_ratio() -> None:
    """reportA D2: graphbreak-cpu's 3 pairs of rounds (ratios 1.35, 1.30 and 1.05x) were said "1.22–1.37×", the ±6 %
    floor alone, leaving out the 1.05x pair; from MIN_RESAMPLED pairs the resampled rule holds."""
    pairs = [(27.865729, 20.704721), (8.245887, 6.366572), (27.129559, 25.744601)]
    est = estimator.estimate(pairs)
    ratios = [e / c for e, c in pairs]
    assert est.low <= min(ratios) and est.high >= max(ratios)
    assert round(est.low, 2) == 1.05 and round(est.high, 2) == 1.37
    for few in (pairs[:1], pairs[:2]):
        one = estimator.estimate(few)
        assert all(one.low <= e / c <= one.high for e, c in few) and one.low < one.speedup < one.high
    assert len(pairs_of("localopt1", "default")) >= ranges.MIN_RESAMPLED  # resampled, as before
