"""measure/in_situ.py on recorded calls: matching, steady state, step speedup, interval, compile cost, break-even."""
from __future__ import annotations

import random

from compile_lens_runner.measure import in_situ
from compile_lens_runner.measure.in_situ import Call

SIG = "float32[32, 8]; grad"


def run(steps: list[float], compiles: dict[int, int] | None = None, sigs: dict[int, str] | None = None) -> list[Call]:
    """Calls whose step i lasts steps[i] (the last call has no step); a call's own time is half its step."""
    compiles = compiles or {}
    calls = []
    for i, step in enumerate(steps):
        last = i == len(steps) - 1
        calls.append(Call(i, (sigs or {}).get(i, SIG), step / 2, None if last else step, compiles.get(i, 0), compiles.get(i, 0)))
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
    assert "straddles 1.00x" in (in_situ.needs_another_pair(close) or "")
    clear = in_situ.compare([run([100.0] + [5.0] * 30, {0: 1})], [run([10.0] * 31)])
    assert in_situ.needs_another_pair(clear) is None


def test_regions_are_matched_by_order_line_and_name() -> None:
    region = {"id": "r0", "name": "Net", "location": {"file": "/t.py", "line": 3}, "calls": []}
    moved = dict(region, location={"file": "/t.py", "line": 4})
    assert in_situ.region_in({"regions": [region]}, dict(region)) is not None
    assert in_situ.region_in({"regions": [moved]}, region) is None


def test_a_torchrun_jobs_step_is_its_slowest_ranks_call_by_call() -> None:
    def rank_run(steps: list[float], wall: float) -> dict:
        calls = [{"index": c.index, "signature": c.signature, "ms": c.ms, "stepMs": c.step_ms, "compiles": c.compiles,
                  "stepCompiles": c.step_compiles} for c in run(steps, {0: 1})]
        return {"regions": [{"id": "r0", "name": "DDP", "location": {"file": "/t.py", "line": 9}, "calls": calls,
                             "callCount": len(calls), "failure": None}], "wallSeconds": wall, "outcome": {"status": "ok"}}
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
