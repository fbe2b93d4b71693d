"""measure/in_situ.py's pairs on the H100's training loop (bench/scripts/train_loop.py): a profile's step speedup comes
only from pairs whose two runs both met the host CPU's fast state, never from one pair's eager against another's
compiled run. Recorded runs: test/fixtures/timing/h100-in-situ-{train-loop,gpt2}-2026-11-24.json.gz (the train loop on
three leases, GPT-2 generate() on a fourth, two profiles each; per run the region's calls with their CPU probes;
docs/BENCHMARKS.md §in-situ)."""

from __future__ import annotations

import gzip
import json
import random
from pathlib import Path

import pytest
from compile_lens_runner.measure import estimator, in_situ
from compile_lens_runner.measure.in_situ import Call

TIMING = Path(__file__).resolve().parents[1] / "fixtures" / "timing"
RECORDED = {
    name: runs
    for file in ("h100-in-situ-train-loop-2026-11-24.json.gz", "h100-in-situ-gpt2-2026-11-24.json.gz")
    for name, runs in json.loads(gzip.decompress((TIMING / file).read_bytes())).items()
}
FAST, SLOW = 1.0, 1.9  # probe ms at the host's fast state and in a slow vCPU state (docs/BENCHMARKS.md §constants)


def train_run(rng: random.Random, step_ms: float, fast_probes: set[int], compiled: bool) -> list[Call]:
    """82 calls (41 batches x 2 epochs), the recorder's probe before every 16th: FAST at fast_probes, else SLOW."""
    calls = []
    for i in range(82):
        probe = (FAST if i in fast_probes else SLOW) if i % 16 == 0 else None
        step = None if i == 81 else 900.0 if compiled and i == 0 else step_ms * (1 + abs(rng.gauss(0, 0.02)))
        first = int(compiled and i == 0)
        calls.append(
            Call(
                i,
                "float32[32, 256, 768]; grad",
                None if step is None else step / 2,
                step,
                first,
                first,
                probe,
                probe is not None,
            )
        )
    return calls


def last_sessions_profile() -> tuple[list[list[Call]], list[list[Call]]]:
    """The first train_loop profile of the last H100 session (1.220x from 3 pairs): only pair 1's eager run and pairs
    2-3's compiled runs met the fast state (fast-state steps eager 56/0/0, compiled 0/6/14 there; 50/0/0, 0/6/14
    here). Eager ran faster in pair 1 than in pairs 2 and 3; each pair's own speedup is 1.22x, 1.38x, 1.38x."""
    rng = random.Random(22)
    eager = [
        train_run(rng, 21.2, {0, 16, 32, 48}, False),
        train_run(rng, 24.0, set(), False),
        train_run(rng, 24.0, set(), False),
    ]
    compiled = [train_run(rng, 17.4, set(), True), train_run(rng, 17.4, {80}, True), train_run(rng, 17.4, {64}, True)]
    return compiled, eager


def pooled_across_pairs(compiled: list[list[Call]], eager: list[list[Call]]) -> dict:
    """What schema 1.14 did: each side kept its own runs with ENOUGH_STEPS at the fast state, whichever pair."""
    views = [in_situ.view(c, e) for c, e in zip(compiled, eager, strict=True)]
    fastest = min(c.probe_ms for run in compiled + eager for c in run if c.probe_ms is not None)
    sides = []
    for side in ("eager", "compiled"):
        runs = []
        for v in views:
            calls = v.eager if side == "eager" else v.compiled
            probes = in_situ._nearest_probes(calls, v.steady_steps)
            fast = [
                calls[i].step_ms or 0.0
                for i, p in zip(v.steady_steps, probes, strict=True)
                if p is not None and estimator.at_fast_state(p, fastest)
            ]
            runs.append(fast if len(fast) >= in_situ.ENOUGH_STEPS else [])
        sides.append(runs)
    result = in_situ.estimate(sides[0], sides[1])
    assert result is not None
    return result


def test_last_sessions_train_loop_pooled_eager_of_one_pair_with_compiled_of_another_and_no_longer_does() -> None:
    compiled, eager = last_sessions_profile()
    old = pooled_across_pairs(compiled, eager)
    assert old["perRun"] == []  # no pair had both of its sides: pair 1's eager against pair 3's compiled
    assert (
        1.2 < old["speedup"] < 1.25 and old["high"] < 1.3
    )  # a tight interval, no pair's own number in it but pair 1's
    step = in_situ.compare(compiled, eager)["step"]
    assert step["fastStateSteps"] == [
        {"eager": 50, "compiled": 0},
        {"eager": 0, "compiled": 6},
        {"eager": 0, "compiled": 14},
    ]
    assert step["pairsUsed"] == [] and [(n["pair"], n["why"]) for n in step["pairsNotUsed"]] == [
        (1, "compiled never ran at the host's fast state"),
        (2, "eager never ran at the host's fast state"),
        (3, "eager never ran at the host's fast state"),
    ]
    assert [r["pair"] for r in step["perRun"]] == [1, 2, 3]  # every pair with both of its own runs
    assert 1.35 < step["speedup"] < 1.4  # eager and compiled of the same pairs
    # neither side's steps ran at the fast state most of the time: widened as far as that state could move them
    assert step["slowHost"] == {"eager": 1.9, "compiled": 1.9}
    assert step["low"] <= step["speedup"] / 1.9 + 1e-3 and step["high"] >= step["speedup"] * 1.9 - 1e-3


def test_a_fourth_pair_is_run_while_no_pair_met_the_fast_state_on_both_sides() -> None:
    compiled, eager = last_sessions_profile()
    result = in_situ.compare(compiled, eager)
    assert in_situ.needs_another_pair(result) == (
        "0 of 3 pair(s) ran both sides at the host's fast state (pair 1: compiled never ran at the host's fast state)"
    )
    rng = random.Random(4)
    # the fourth pair meets the fast state on both sides (eager first: its order alternates)
    result = in_situ.compare(
        [*compiled, train_run(rng, 17.4, {0, 16, 32, 48, 64}, True)],
        [*eager, train_run(rng, 24.0, {0, 16, 32, 48, 64}, False)],
    )
    step = result["step"]
    assert (
        step["pairsUsed"] == [4] and "slowHost" not in step and in_situ.needs_another_pair(result) is None
    )  # 4 pairs: all
    assert 1.36 < step["speedup"] < 1.4
    # one pair shows no run-to-run variation: the interval reaches the other pairs' own speedups
    assert [n["speedup"] for n in step["pairsNotUsed"]] == pytest.approx([1.22, 1.38, 1.38], abs=0.01)
    assert step["low"] <= 1.23


def recorded_profile(name: str) -> dict:
    runs = RECORDED[name]
    pairs = sorted(int(k.split("-")[1]) for k in runs if k.startswith("compiled-"))
    result = in_situ.compare_runs([runs[f"compiled-{k}"] for k in pairs], [runs[f"eager-{k}"] for k in pairs])
    return result["r0"]


def test_h100_train_loop_profiles_land_inside_each_others_intervals() -> None:
    for lease in ("lease-a", "lease-b", "lease-d"):
        a, b = recorded_profile(f"{lease}/train_loop-1")["step"], recorded_profile(f"{lease}/train_loop-2")["step"]
        assert b["low"] <= a["speedup"] <= b["high"] and a["low"] <= b["speedup"] <= a["high"], (lease, a, b)
        for step in (a, b):
            assert step["pairsUsed"] and not set(step["pairsUsed"]) & {n["pair"] for n in step["pairsNotUsed"]}
            assert [r["pair"] for r in step["perRun"]] == step["pairsUsed"]
    # lease a: a whole session at a slow host state, 3.6 % apart; leases b and d: eager moved 1.6x between runs at the
    # fast state, 11 % and 14 % apart
    a, b = recorded_profile("lease-a/train_loop-1")["step"], recorded_profile("lease-a/train_loop-2")["step"]
    assert abs(a["speedup"] / b["speedup"] - 1) < 0.05


def test_h100_a_profile_with_one_comparable_pair_reaches_the_other_pairs_own_speedups() -> None:
    step = recorded_profile("lease-b/train_loop-2")["step"]
    assert step["pairsUsed"] == [4]
    assert [n["pair"] for n in step["pairsNotUsed"]] == [1, 2, 3]
    assert step["pairsNotUsed"][1]["why"] == "eager never ran at the host's fast state"
    own = [n["speedup"] for n in step["pairsNotUsed"]]
    assert step["low"] <= min(own) and step["high"] >= max(own)
    assert step["fasterProbesMs"] == [] and step["fastStateProbeMs"] < 1.05


def test_h100_gpt2_profiles_cover_eagers_move_between_runs_at_the_same_probe() -> None:
    a, b = recorded_profile("lease-c/gpt2_generate-1")["step"], recorded_profile("lease-c/gpt2_generate-2")["step"]
    assert a["pairsUsed"] == [3] and b["pairsUsed"] == [1, 3]
    # eager's fast-state step moved 6.4-10.0 ms between runs with the probe at the fast state, compiled's 3.95-4.19 ms:
    # each profile's interval reaches every fast-state eager run against every fast-state compiled run
    assert a["high"] > 2.3 and b["low"] < 1.55
    assert b["low"] <= a["speedup"] <= b["high"] and a["low"] <= b["speedup"] <= a["high"], (a, b)


def test_the_supervisor_runs_pairs_in_alternating_order_until_two_met_the_fast_state(tmp_path: Path) -> None:
    """process/in_situ.run over lease d's first train_loop profile, each run replayed from its recording: pairs 1-3
    had one comparable pair at most, so a fourth ran; even pairs ran eager first."""
    from compile_lens_runner.process import in_situ as runs

    recorded = RECORDED["lease-d/train_loop-1"]
    labels = []

    def spawn(command: list[str], env: dict[str, str], label: str) -> int:
        spec = json.loads(Path(command[0]).read_text())["inSitu"]
        run = recorded[f"{spec['side']}-{spec['pair']}"]
        Path(spec["out"]).write_text(json.dumps({"regions": [dict(r, options={"mode": None}) for r in run["regions"]]}))
        labels.append(f"{spec['side']}-{spec['pair']}")
        return 0

    assert runs.run({"argv": []}, str(tmp_path), lambda spec: [spec], {}, spawn)
    plan = json.loads((tmp_path / runs.FOLDER / "plan.json").read_text())
    assert (
        labels
        == plan["order"]
        == ["compiled-1", "eager-1", "eager-2", "compiled-2", "compiled-3", "eager-3", "eager-4", "compiled-4"]
    )
    assert plan["repeatedBecause"].startswith("r0: 1 of 3 pair(s) ran both sides at the host's fast state")
