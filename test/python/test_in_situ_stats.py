"""measure/in_situ.py on recorded calls: matching, steady state, step speedup, interval, compile cost, break-even."""

from __future__ import annotations

import random

import pytest
from compile_lens_runner.measure import in_situ
from compile_lens_runner.measure.in_situ import Call

SIG = "float32[32, 8]; grad"


def run(steps: list[float], compiles: dict[int, int] | None = None, sigs: dict[int, str] | None = None) -> list[Call]:
    """Calls whose step i lasts steps[i] (the last call has no step); a call's own time is half its step."""
    compiles = compiles or {}
    calls = []
    for i, step in enumerate(steps):
        last = i == len(steps) - 1
        calls.append(
            Call(i, (sigs or {}).get(i, SIG), step / 2, None if last else step, compiles.get(i, 0), compiles.get(i, 0))
        )
    return calls


def test_warmup_is_compile_cost_and_steady_steps_give_the_speedup() -> None:
    compiled = run([2000.0] + [5.0] * 20, {0: 2})
    eager = run([12.0] + [10.0] * 20)
    result = in_situ.compare([compiled], [eager])
    assert result["steadyFromCall"] == 1 and result["warmupCalls"] == 1
    assert result["step"]["speedup"] == 2.0 and result["step"]["samples"] == 19  # the last call has no matched step
    assert result["step"]["low"] <= 2.0 * 0.98 and result["step"]["high"] >= 2.0 * 1.02  # the floor
    assert result["compileSeconds"] == round((2000 - 12) / 1000, 4)
    # 1 warm-up step + 1988 ms / (10 - 5) ms per step
    assert result["breakEvenSteps"] == 1 + 398 and result["stepsMade"] == 21 and result["paysBack"] is False
    assert result["stepsPerSecond"] == {"eager": 100.0, "compiled": 200.0}


def test_recurring_recompile_is_in_the_step_cost_a_first_time_one_in_the_compile_cost() -> None:
    # call 10 compiles a new signature (a short last batch): once, compile cost; call 15 recompiles SIG: recurring
    sigs = {10: "float32[8, 8]; grad"}
    compiled = run([1000.0] + [5.0] * 9 + [505.0] + [5.0] * 4 + [105.0] + [5.0] * 5, {0: 1, 10: 1, 15: 1}, sigs)
    eager = run([10.0] * 21, sigs=sigs)
    result = in_situ.compare([compiled], [eager])
    assert result["laterFirstCompiles"] == 1 and result["lateCompiles"] == 1
    steady_and_late = result["step"]["samples"] + 1
    assert result["lateCompileMs"] == 100.0
    assert abs(result["step"]["compiledMs"] - (5.0 + 100.0 / steady_and_late)) < 1e-3
    assert result["compileSeconds"] == round((1000 - 10 + 500) / 1000, 4)


def test_calls_after_the_runs_differ_are_not_compared() -> None:
    compiled = run([100.0] + [5.0] * 9, {0: 1}, {6: "float32[4, 8]; grad"})
    eager = run([10.0] * 10)
    result = in_situ.compare([compiled], [eager])
    assert result["matchedCalls"] == 6 and "from call 6 on" in result["unmatched"]
    assert result["step"]["samples"] == 4  # steps 1..4: step 5 ends at the first unmatched call


def test_two_calls_that_both_compile_still_get_a_number() -> None:
    compiled = run([900.0, 800.0], {0: 1, 1: 1}, {1: "float32[5, 8]; grad"})
    eager = run([3.0, 2.0], sigs={1: "float32[5, 8]; grad"})
    result = in_situ.compare([compiled], [eager])
    assert result["step"] is None and "never reached a call without compiling" in result["reason"]
    assert result["regionSeconds"] == {"compiled": round((900 + 400) / 1000, 6), "eager": round((3 + 1) / 1000, 6)}


def test_interval_covers_every_eager_run_against_every_compiled_run() -> None:
    pair1 = ([10.0] * 30, [5.0] * 30)
    pair2 = ([11.0] * 30, [5.0] * 30)
    est = in_situ.estimate([pair1[0], pair2[0]], [pair1[1], pair2[1]])
    assert est is not None and est["low"] <= 2.0 and est["high"] >= 2.2
    assert [r["speedup"] for r in est["perRun"]] == [2.0, 2.2]


def test_two_noisy_runs_land_inside_each_others_interval() -> None:
    rng = random.Random(3)

    def noisy(base: float) -> list[float]:
        return [base * (1 + abs(rng.gauss(0, 0.05))) for _ in range(40)]

    first = in_situ.estimate([noisy(10.0)], [noisy(6.0)])
    second = in_situ.estimate([noisy(10.0)], [noisy(6.0)])
    assert first is not None and second is not None
    assert first["low"] <= second["speedup"] <= first["high"]
    assert second["low"] <= first["speedup"] <= second["high"]


def test_another_pair_when_few_steps_or_a_boundary_is_inside_the_interval() -> None:
    few = in_situ.compare([run([100.0] + [5.0] * 4, {0: 1})], [run([10.0] * 5)])
    assert in_situ.needs_another_pair(few) == "3 steady steps"
    close = in_situ.compare([run([100.0] + [9.9] * 30, {0: 1})], [run([10.0] * 31)])
    assert "straddles 1.00×" in (in_situ.needs_another_pair(close) or "")
    clear = in_situ.compare([run([100.0] + [5.0] * 30, {0: 1})], [run([10.0] * 31)])
    assert in_situ.needs_another_pair(clear) is None


def test_regions_are_matched_by_order_line_and_name() -> None:
    region = {"id": "r0", "name": "Net", "location": {"file": "/t.py", "line": 3}, "calls": []}
    moved = dict(region, location={"file": "/t.py", "line": 4})
    assert in_situ.region_in({"regions": [region]}, dict(region)) is not None
    assert in_situ.region_in({"regions": [moved]}, region) is None


def test_a_torchrun_jobs_step_is_its_slowest_ranks_call_by_call() -> None:
    def rank_run(steps: list[float], wall: float) -> dict:
        calls = [
            {
                "index": c.index,
                "signature": c.signature,
                "ms": c.ms,
                "stepMs": c.step_ms,
                "compiles": c.compiles,
                "stepCompiles": c.step_compiles,
            }
            for c in run(steps, {0: 1})
        ]
        return {
            "regions": [
                {
                    "id": "r0",
                    "name": "DDP",
                    "location": {"file": "/t.py", "line": 9},
                    "calls": calls,
                    "callCount": len(calls),
                    "failure": None,
                }
            ],
            "wallSeconds": wall,
            "outcome": {"status": "ok"},
        }

    job = in_situ.slowest_rank([rank_run([100.0, 5.0, 9.0, 5.0], 3.0), rank_run([90.0, 8.0, 6.0, 5.0], 4.0)])
    assert [c["stepMs"] for c in job["regions"][0]["calls"]] == [100.0, 8.0, 9.0, None]
    assert job["wallSeconds"] == 4.0 and len(job["ranks"]) == 2


def test_another_regions_compiles_in_every_step_leave_the_calls_steady_and_no_step() -> None:
    # the region's own calls compile only at call 0, but another region recompiles inside every step
    compiled = [Call(i, SIG, 5.0 if i else 900.0, 50.0, 1 if i == 0 else 0, 1) for i in range(6)]
    eager = [Call(i, SIG, 10.0, 12.0) for i in range(6)]
    result = in_situ.compare([compiled], [eager])
    assert result["steadyFromCall"] == 1 and result["call"]["speedup"] == 2.0
    assert result["step"] is None and "another region's compiles" in result["reason"]
    assert result["lateCompiles"] == 0 and result["laterFirstCompiles"] == 0


def probed(steps: list[float], probe_ms: float, compiles: dict[int, int] | None = None, every: int = 16) -> list[Call]:
    """run() with the recorder's host probe before call 0 and every `every`-th call (marked observer)."""
    return [
        Call(
            c.index,
            c.signature,
            c.ms,
            c.step_ms,
            c.compiles,
            c.step_compiles,
            probe_ms if c.index % every == 0 else None,
            c.index % every == 0,
        )
        for c in run(steps, compiles)
    ]


def noisy_steps(rng: random.Random, ms: float, count: int = 200) -> list[float]:
    return [ms * (1 + abs(rng.gauss(0, 0.03))) for _ in range(count)]


def profile(rng: random.Random, pairs: list[tuple[float, float, float, float]]) -> tuple[dict, list[str]]:
    """A profile as process/in_situ.py runs it: pairs while needs_another_pair asks. pairs[k]: (eager step ms, eager
    probe ms, compiled step ms, compiled probe ms) of pair k. Returns the last result and the reasons given."""
    compiled, eager, reasons = [], [], []
    for eager_ms, eager_probe, compiled_ms, compiled_probe in pairs:
        compiled.append(probed([900.0, *noisy_steps(rng, compiled_ms)], compiled_probe, {0: 1}))
        eager.append(probed(noisy_steps(rng, eager_ms, 201), eager_probe))
        result = in_situ.compare(compiled, eager)
        why = in_situ.needs_another_pair(result)
        if why is None:
            return result, reasons
        reasons.append(why)
    raise AssertionError(f"asked for a pair past the {len(pairs)} modelled: {reasons}")


def test_a_compiled_run_at_half_speed_host_asks_another_pair_and_two_profiles_then_agree() -> None:
    # gpt2 generate() on an H100 VM, profiled twice (docs/BENCHMARKS.md): fast state eager ~5.7, compiled ~3.95 ms per
    # step; a run in a slow vCPU state (probe 1.8x the fastest) reads eager 8.55, compiled 5.36 / 6.03. (The fast
    # eager runs recorded 5.57 and 5.81: modelled here within the 2 % floor, at 5.65-5.75.)
    rng = random.Random(7)
    first, why_first = profile(
        rng, [(5.7, 1.0, 5.36, 1.8), (5.65, 1.02, 6.03, 1.8), (5.7, 1.0, 3.95, 1.01), (5.7, 1.0, 3.96, 1.0)]
    )
    second, why_second = profile(rng, [(8.55, 1.8, 3.93, 1.0), (5.75, 1.0, 3.97, 1.03), (5.7, 1.0, 3.95, 1.0)])
    assert len(why_first) == 3 and all("pair 1: compiled never ran at the host's fast state" in w for w in why_first)
    assert why_second and "pair 1: eager never ran at the host's fast state" in why_second[0]
    assert first["pairs"] == 4 and first["step"]["fastStateSteps"][0] == {"eager": 175, "compiled": 0}
    a, b = first["step"], second["step"]
    assert a["pairsUsed"] == [3, 4] and [n["pair"] for n in a["pairsNotUsed"]] == [1, 2]
    assert b["pairsUsed"] == [2, 3] and [(n["pair"], n["why"]) for n in b["pairsNotUsed"]] == [
        (1, "eager never ran at the host's fast state")
    ]
    assert "slowHost" not in a and "slowHost" not in b
    assert a["low"] <= b["speedup"] <= a["high"] and b["low"] <= a["speedup"] <= b["high"], (a, b)
    assert 1.35 < a["speedup"] < 1.55 and 1.35 < b["speedup"] < 1.55

    # what the runs gave without the host's state: the two profiles disagree (the recorded 1.008x vs 1.83x)
    def strip(runs):
        return [[Call(c.index, c.signature, c.ms, c.step_ms, c.compiles, c.step_compiles) for c in r] for r in runs]

    rng = random.Random(7)
    blind = [
        in_situ.compare(
            strip([probed([900.0, *noisy_steps(rng, c)], 1.0, {0: 1}) for _, _, c, _ in pairs]),
            strip([probed(noisy_steps(rng, e, 201), 1.0) for e, _, _, _ in pairs]),
        )["step"]
        for pairs in ([(5.7, 0, 5.36, 0), (5.65, 0, 6.03, 0)], [(8.55, 0, 3.93, 0), (5.75, 0, 3.97, 0)])
    ]
    assert not blind[0]["low"] <= blind[1]["speedup"] <= blind[0]["high"]


def test_a_side_that_never_met_the_fast_state_widens_the_interval_and_says_so() -> None:
    rng = random.Random(1)
    compiled = [probed([900.0, *noisy_steps(rng, 5.4)], 1.8, {0: 1}) for _ in range(3)]
    eager = [probed(noisy_steps(rng, 5.7, 201), 1.0) for _ in range(3)]
    result = in_situ.compare(compiled, eager)
    step = result["step"]
    assert "compiled never ran at the host's fast state" in (in_situ.needs_another_pair(result) or "")  # 3 of 4 pairs
    compiled.append(probed([900.0, *noisy_steps(rng, 5.4)], 1.8, {0: 1}))
    eager.append(probed(noisy_steps(rng, 5.7, 201), 1.0))
    result = in_situ.compare(compiled, eager)
    step = result["step"]
    assert step["slowHost"] == {"compiled": 1.8} and in_situ.needs_another_pair(result) is None  # 4 pairs: no more
    assert step["pairsUsed"] == [] and len(step["pairsNotUsed"]) == 4  # no pair at the fast state: all pairs count
    assert [r["pair"] for r in step["perRun"]] == [1, 2, 3, 4]
    assert step["high"] >= step["speedup"] * 1.8 - 1e-3  # a fast host could make the compiled step up to 1.8x faster


def test_probes_all_at_the_fast_state_change_no_number() -> None:
    rng = random.Random(2)
    compiled = probed([900.0, *noisy_steps(rng, 5.0, 100)], 1.0, {0: 1})
    eager = probed(noisy_steps(rng, 9.0, 101), 1.05)
    unprobed = [
        [Call(c.index, c.signature, c.ms, c.step_ms, c.compiles, c.step_compiles, None, c.observer) for c in r]
        for r in (compiled, eager)
    ]
    with_probes, without = in_situ.compare([compiled], [eager]), in_situ.compare(*([r] for r in unprobed))
    host_fields = ("fastStateSteps", "pairsUsed", "pairsNotUsed", "fastStateProbeMs", "fasterProbesMs")
    step_host = {k: with_probes["step"].pop(k) for k in host_fields}
    assert step_host == {
        "fastStateSteps": [{"eager": 87, "compiled": 87}],
        "pairsUsed": [1],
        "pairsNotUsed": [],
        "fastStateProbeMs": 1.0,
        "fasterProbesMs": [],
    }
    assert "fastStateSteps" not in without["step"] and with_probes["step"] == without["step"]
    assert all(with_probes["call"].pop(k) is not None for k in host_fields) and with_probes["call"] == without["call"]


def test_the_steps_beside_a_probe_are_not_steady() -> None:
    steps = [900.0] + [5.0] * 40
    steps[15] = steps[16] = steps[31] = steps[32] = 50.0  # the probe before calls 16 and 32 (and a CPU move)
    compiled = probed(steps, 1.0, {0: 1})
    eager = probed([10.0] * 41, 1.0)
    view = in_situ.view(compiled, eager)
    assert not {15, 16, 31, 32} & set(view.steady_steps) and 17 in view.steady_steps
    assert not {16, 32} & set(view.steady_calls) and 15 in view.steady_calls
    assert in_situ.compare([compiled], [eager])["step"]["speedup"] == 2.0


def test_a_pair_whose_sides_kept_different_steps_is_resampled_side_by_side() -> None:
    # the probe before call 64 reads slow in the compiled run only: its steps near it leave the compiled side
    rng = random.Random(4)
    compiled = probed([900.0, *noisy_steps(rng, 5.0, 100)], 1.0, {0: 1})
    compiled = [
        Call(
            c.index,
            c.signature,
            c.ms,
            c.step_ms,
            c.compiles,
            c.step_compiles,
            1.9 if c.index == 64 else c.probe_ms,
            c.observer,
        )
        for c in compiled
    ]
    eager = probed(noisy_steps(rng, 10.0, 101), 1.0)
    step = in_situ.compare([compiled], [eager])["step"]
    assert step["fastStateSteps"] == [{"eager": 87, "compiled": 87 - 14}]  # steps 57-72 but 63 and 64 (beside it)
    assert step["low"] < 2.0 < step["high"] and "slowHost" not in step


def test_eagers_own_slow_first_calls_are_warm_up_not_steady_state() -> None:
    """With compiling off a run's first calls can be slow too (lazy initialisation, the allocator; code-server CI: 100 ms
    against 0.3 ms): the steady state begins once both runs settled, else eager's warm-up inflates the speedup."""
    compiled = run([3000.0] + [0.8] * 11, {0: 1})
    eager = run([5.0, 200.0, 200.0, 200.0] + [1.6] * 8)
    result = in_situ.compare([compiled], [eager])
    assert result["steadyFromCall"] == 4
    assert result["step"]["speedup"] == pytest.approx(2.0)
