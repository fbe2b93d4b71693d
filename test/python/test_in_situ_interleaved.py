"""In situ, interleaved (measure/interleaved.py, script/interleave.py): the schedule's switch points and the
steady-step rules, on recorded call sequences (no timing of this host; torch only where a profiler runs)."""

from __future__ import annotations

import copy
import itertools
import random
from collections.abc import Callable
from typing import Any

import pytest
from compile_lens_runner.measure import estimator, interleaved, ranges, rank_calls, schedule
from compile_lens_runner.measure.schedule import ORDER
from compile_lens_runner.script.interleave import STANCES, Interleaver

SIG = "float32[16, 64]; grad"


def test_the_interleaver_sets_the_stance_at_switches_only_and_replays_run_at_the_default_stance(
    monkeypatch: Any,
) -> None:
    import compile_lens_runner.script.interleave as module

    stances: list[str] = []
    current = ["default"]

    def set_stance(name: str) -> None:
        stances.append(name)
        current[0] = name

    monkeypatch.setattr(module, "_current_stance", lambda: current[0])
    il = Interleaver(set_stance)
    seen = []
    for i in range(40):
        seen.append(il.before_call(None, SIG))
        if i == 20:
            nested = il.current()  # a call made inside this one: the caller's side and block
            assert nested == seen[-1]
            with il.suspended():  # a replay at a drop: compiled code as written
                assert current[0] == "default"
            assert current[0] == STANCES[seen[-1][0]]
        il.after_call(i == 0)
    switches = sum(1 for a, b in itertools.pairwise(seen) if a[0] != b[0])
    replay = 2 if seen[20][0] == "eager" else 0
    assert len(stances) == switches + replay
    il.restore()
    assert current[0] == "default"


def test_a_replay_inside_a_profiled_window_ends_the_window_first(monkeypatch: Any, tmp_path: Any) -> None:
    """A stop at --calls N (or a drop) inside an in-situ window profiles the replay: two torch.profiler sessions, one
    inside the other, ended the window's under it and killed the worker (SIGSEGV after "disableProfiler called but no
    active profiling session found"). The window keeps what it recorded; the replay's profile is its own."""
    import types

    import compile_lens_runner.script.interleave as module
    import torch
    from compile_lens_runner.measure.profiling import profile_steps

    clock = iter(itertools.count(step=0.004))
    monkeypatch.setattr(module, "time", types.SimpleNamespace(perf_counter=lambda: next(clock)))
    il = Interleaver(lambda name: None, trace_dir=str(tmp_path))
    region = types.SimpleNamespace(id="r0", call_count=0)
    for i in range(200):
        il.before_call(region, SIG)
        torch.relu(torch.ones(4))
        il.after_call(i == 0)
        region.call_count += 1
        if il.profiled and il.side == "eager" and region.call_count > 5:
            break
    window = il.windows["eager"]
    assert window.active and window.steps >= 1  # inside the window, past its warm-up step
    with il.suspended():
        assert not window.open
        facts = profile_steps(lambda: torch.relu(torch.ones(4)), "cpu", str(tmp_path / "replay.json"), 2)
    assert facts["kernelsPerStep"] > 0 and (tmp_path / "replay.json").exists()
    il.end()
    assert il.profile_json()["eager"]["trace"] == str(tmp_path / "in-situ-eager.trace.json")


def test_a_signature_new_to_the_compiled_side_runs_compiled_even_in_an_eager_block(monkeypatch: Any) -> None:
    """Its compile (and a compile that fails, as written) happens in the observed run; the call is no steady call."""
    import compile_lens_runner.script.interleave as module

    current = ["default"]
    monkeypatch.setattr(module, "_current_stance", lambda: current[0])
    il = Interleaver(lambda name: current.__setitem__(0, name))
    seen = []
    for i in range(12):
        seen.append(il.before_call(None, "float32[4, 8]; no_grad" if i == 8 else SIG))
        il.after_call(i == 0)
    assert seen[7][0] == "eager" and seen[9][0] == "eager" and seen[8] == ("compiled", 0)


def test_once_a_dynamic_graph_served_a_new_size_new_sizes_run_at_the_block_s_own_stance(monkeypatch: Any) -> None:
    """A growing cache's next length would compile nothing: it runs eagerly in an eager block, so eager has steps."""
    import compile_lens_runner.script.interleave as module

    current = ["default"]
    monkeypatch.setattr(module, "_current_stance", lambda: current[0])
    il = Interleaver(lambda name: current.__setitem__(0, name))
    seen = []
    for i in range(12):
        seen.append(il.before_call(None, f"float32[1, {i}, 8]; no_grad", new_sizes_served=i > 2))
        il.after_call(i < 2)
    assert [side for side, _ in seen[5:9]] == ["eager"] * 4 and all(block for _, block in seen[5:9])


def test_a_script_that_sets_its_own_stance_stops_the_switching(monkeypatch: Any) -> None:
    import compile_lens_runner.script.interleave as module

    monkeypatch.setattr(module, "_current_stance", lambda: "eager_on_recompile")
    il = Interleaver(lambda name: None)
    sides = []
    for _ in range(30):
        sides.append(il.before_call(None, SIG))
        il.after_call(False)
    assert il.stopped and "eager_on_recompile" in il.stopped
    assert {side for side, _ in sides} == {"compiled"} and all(block == 0 for _, block in sides[-5:])


def calls(
    spec: list[tuple[str, int]],
    step: dict[str, float] | Callable[[str, int], float],
    sig: Any = SIG,
    overrides: dict[int, dict[str, Any]] | None = None,
) -> list[dict[str, Any]]:
    """Report calls from (side, block) per call; step[side] ms (with a little noise), or step(side, block) ms exactly;
    sig: a signature or index -> signature."""
    rng = random.Random(1)
    out = []
    for i, (side, block) in enumerate(spec):
        ms = step(side, block) if callable(step) else step[side] * rng.uniform(0.98, 1.02)
        out.append(
            {
                "index": i,
                "signature": sig(i) if callable(sig) else sig,
                "side": side,
                "block": block,
                "ms": ms / 2,
                "stepMs": ms if i + 1 < len(spec) else None,
                "stepCompiles": 1 if i == 0 else 0,
                "compileIds": ["0/0"] if i == 0 else [],
                "ranCompiled": None if side == "eager" else True,
                **(overrides or {}).get(i, {}),
            }
        )
    out[0]["stepMs"] = 5000.0  # the compile
    return out


def layout(warm: int = 3, block: int = 6, blocks: int = 16) -> list[tuple[str, int]]:
    return [("compiled", 0)] * warm + [(ORDER[k % 4], k + 1) for k in range(blocks) for _ in range(block)]


def test_steps_spanning_a_switch_and_each_side_s_first_call_of_a_signature_are_not_steady() -> None:
    spec = layout()
    result = interleaved.split([interleaved.Call.from_json(c) for c in calls(spec, {"eager": 2.0, "compiled": 1.0})])
    switches = sum(1 for a, b in itertools.pairwise(spec) if a[1] != b[1] and a[1] > 0)
    assert result.dropped["switch"] == switches
    # eager's first call of all, said as that (review 4C X4: "first at its input shape" in a script of one shape)
    assert result.dropped["first eager call"] == 1 and "first on its signature" not in result.dropped
    assert result.dropped["warm-up"] == 3
    for side, indices in result.steps.items():
        assert all(spec[i][0] == side and spec[i + 1][1] == spec[i][1] for i in indices)
    first_eager = next(i for i, (side, _) in enumerate(spec) if side == "eager")
    assert first_eager not in result.steps["eager"] and first_eager + 1 in result.steps["eager"]


def test_the_speedup_and_its_interval_come_from_the_paired_adjacent_blocks() -> None:
    spec = layout()
    result = interleaved.compare(calls(spec, {"eager": 2.0, "compiled": 1.0}), len(spec))
    step = result["step"]
    assert result["method"] == "interleaved" and step["pairs"] == 8 and result["pairs"] == 8
    assert step["low"] <= step["speedup"] <= step["high"] and 1.9 < step["speedup"] < 2.1
    assert len(step["pairRatios"]) == 8 and step["comparedBy"] == "signature"
    assert result["breakEvenSteps"] is not None and result["paysBack"] is (result["breakEvenSteps"] <= len(spec))


def test_observer_work_and_calls_that_ran_no_compiled_code_are_left_out() -> None:
    spec = layout()
    compiled_at = [i for i, (side, block) in enumerate(spec) if side == "compiled" and block]
    slow = {
        compiled_at[5]: {"observer": True, "stepMs": 100.0},
        compiled_at[9]: {"ranCompiled": False, "fallbackReason": "a graph break", "stepMs": 100.0},
    }
    result = interleaved.compare(calls(spec, {"eager": 2.0, "compiled": 1.0}, overrides=slow), len(spec))
    assert result["dropped"]["observer"] >= 1 and result["dropped"]["ran eagerly"] == 1
    assert result["step"]["compiledMs"] < 1.1  # neither slow step counted


def test_a_region_where_no_compiled_code_ran_gets_no_speedup_and_says_why() -> None:
    spec = layout()
    never = {i: {"ranCompiled": None} for i, (side, _) in enumerate(spec) if side == "compiled"}
    result = interleaved.compare(
        calls(spec, {"eager": 1.0, "compiled": 1.0}, overrides=never), len(spec), "Dynamo skipped the frame"
    )
    assert result["step"] is None and result["call"] is None and result["breakEvenSteps"] is None
    assert result["noStep"] == {"code": "never-compiled", "fallback": "Dynamo skipped the frame"}


def test_several_signatures_are_compared_one_by_one_over_the_script_s_mix() -> None:
    spec = layout(blocks=24)
    sig = lambda i: "float32[1, 37]; no_grad" if i % 3 else "float32[1, 512]; no_grad"  # noqa: E731
    step = {"eager": 2.0, "compiled": 1.0}
    data = calls(spec, step, sig)
    for c in data:  # the long requests gain less: eager 4, compiled 3
        if "512" in c["signature"] and c["stepMs"] is not None and c["index"]:
            c["stepMs"] = 4.0 if c["side"] == "eager" else 3.0
    result = interleaved.compare(data, len(spec))["step"]
    assert result["comparedBy"] == "matched-mix"
    by = {s["signature"]: s for s in result["signatures"]}
    assert abs(by["float32[1, 512]; no_grad"]["speedup"] - 4 / 3) < 0.01
    assert 1.9 < by["float32[1, 37]; no_grad"]["speedup"] < 2.1
    # weighed by the script's calls: 2 of 3 short, 1 of 3 long
    assert abs(result["speedup"] - (2 / 3 * 2 + 1 / 3 * 4) / (2 / 3 * 1 + 1 / 3 * 3)) < 0.05


def test_a_region_called_before_the_interleaving_began_has_no_eager_side_and_says_so() -> None:
    result = interleaved.compare(calls([("compiled", 0)] * 2, {"eager": 1.0, "compiled": 1.0}), 2)
    assert (
        result["step"] is None
        and result["regionSeconds"] is None
        and result["noStep"] == {"code": "before-interleaving", "calls": 2, "quietCalls": schedule.WARM_QUIET_CALLS}
    )


def test_a_signature_that_changes_every_call_is_pooled_and_its_steps_still_count() -> None:
    spec = layout()
    data = calls(spec, {"eager": 2.0, "compiled": 1.0}, sig=lambda i: f"float32[2, {i}, 64]; inference")
    result = interleaved.compare(data, len(spec))
    step = result["step"]
    assert step["comparedBy"] == "pooled" and step["pairs"] == 8 and 1.9 < step["speedup"] < 2.1
    assert result["dropped"].get("first eager call") == 1  # eager's first step only: no signature recurs
    assert "first on its signature" not in result["dropped"]


def test_a_torchrun_job_s_step_is_its_slowest_rank_s_call_by_call() -> None:
    """Per call index, the slowest rank's call and step; a step is steady only where it is on every rank; a call the
    ranks ran on different sides is no step either way."""
    spec = (
        [("compiled", 0)] * 3 + [("eager", 1)] * 6 + [("compiled", 2)] * 6 + [("compiled", 3)] * 6 + [("eager", 4)] * 6
    )
    fast = calls(spec, {"eager": 4.0, "compiled": 2.0})
    slow = calls(
        spec, {"eager": 5.0, "compiled": 3.0}, overrides={5: {"observer": True}, 12: {"side": "eager", "block": 0}}
    )
    job = rank_calls.slowest_calls([fast, slow])
    assert [c["stepMs"] for c in job[:-1]] == [
        max(a["stepMs"], b["stepMs"]) for a, b in zip(fast[:-1], slow[:-1], strict=True)
    ]
    assert job[5]["observer"] and job[12].get("side") is None and job[11]["side"] == "compiled"
    assert all("hostMs" not in c for c in job)  # CPU ranks: no host time of their own
    cuda = rank_calls.slowest_calls(
        [
            with_host_ms(copy.deepcopy(fast), {"eager": 1.0, "compiled": 0.5}),
            with_host_ms(copy.deepcopy(slow), {"eager": 0.5, "compiled": 0.5}),
        ]
    )
    assert [c["hostMs"] for c in cuda] == [
        max(a["ms"] * 1.0 if a["side"] == "eager" else a["ms"] * 0.5, b["ms"] * 0.5)
        for a, b in zip(fast, slow, strict=True)
    ]
    result = interleaved.compare(job, len(job))
    assert result["step"]["eagerMs"] == pytest.approx(5.0, rel=0.03) and result["step"]["compiledMs"] == pytest.approx(
        3.0, rel=0.03
    )
    alone = interleaved.compare(fast, len(fast))
    assert (
        result["steadySteps"]["eager"] < alone["steadySteps"]["eager"]
    )  # the observer's step on rank 1 counts on no rank
    assert [c["index"] for c in rank_calls.slowest_calls([fast, slow[:10]])] == list(range(10))  # calls every rank made


def test_a_growing_cache_served_by_one_dynamic_graph_is_pooled_and_every_length_counts() -> None:
    """3 sequences of 32 tokens, the cache one longer each token: a length recurs once per sequence, and with blocks of
    4 (ABBA: 16 calls) each length falls on the same side every time, so no signature is matched; pooled, the
    compiled calls at new lengths (served without compiling) are steady, and ABBA cancels the growth."""
    tokens, warm = 32, 3
    spec = [("compiled", 0)] * warm + [(ORDER[k % 4], k + 1) for k in range((3 * tokens - warm) // 4) for _ in range(4)]
    grow = lambda i: 1 + (i % tokens) / 8  # noqa: E731  the cache's work grows with its length
    data = calls(spec, {"eager": 2.0, "compiled": 1.0}, sig=lambda i: f"float32[1, {i % tokens}, 64]; no_grad")
    for c in data[1:]:
        c["stepMs"] = None if c["stepMs"] is None else c["stepMs"] * grow(c["index"])
    result = interleaved.compare(data, len(spec))
    step = result["step"]
    assert step["comparedBy"] == "pooled" and 1.8 < step["speedup"] < 2.2
    assert result["dropped"].get("first eager call") == 1  # eager's first step only: each length is new to it
    assert "first on its signature" not in result["dropped"]
    compiled_steps = sum(
        1 for c in data[:-1] if c["side"] == "compiled" and c["block"] and c["block"] == data[c["index"] + 1]["block"]
    )
    assert result["steadySteps"]["compiled"] == compiled_steps  # new lengths included


def test_under_cuda_graphs_a_compiled_call_s_first_at_a_size_is_no_steady_step() -> None:
    tokens = 32
    spec = [("compiled", 0)] * 3 + [(ORDER[k % 4], k + 1) for k in range(23) for _ in range(4)]
    data = calls(spec, {"eager": 2.0, "compiled": 1.0}, sig=lambda i: f"float32[1, {i % tokens}, 64]; no_grad")
    plain, recording = interleaved.compare(data, len(spec)), interleaved.compare(data, len(spec), new_size_costs=True)
    assert recording["steadySteps"]["compiled"] < plain["steadySteps"]["compiled"]
    assert recording["dropped"]["first on its signature"] > plain["dropped"].get("first on its signature", 0)


def test_under_cuda_graphs_a_size_s_second_compiled_call_records_its_graph_and_is_no_steady_step() -> None:
    """CUDA graph trees warm a size up at its first call and record its graph at the second: only the third replays."""
    sizes = [1, 2, 3]
    spec = layout(block=6, blocks=16)
    data = calls(spec, {"eager": 2.0, "compiled": 1.0}, sig=lambda i: f"float32[{sizes[i % 3]}, 64]; no_grad")
    recorded = [interleaved.Call.from_json(c) for c in data]
    steady = interleaved.split(recorded, new_size_costs=True).steps["compiled"]
    compiled_at: dict[str, int] = {}
    setup = set()
    for i, c in enumerate(recorded):
        if c.side == "compiled":
            compiled_at[c.signature] = compiled_at.get(c.signature, 0) + 1
            if compiled_at[c.signature] <= interleaved.CUDA_GRAPH_SETUP_CALLS:
                setup.add(i)
    assert len(setup) == 2 * len(sizes) and not setup & set(steady)
    assert set(interleaved.split(recorded).steps["compiled"]) & setup  # without CUDA graphs they are steady


def with_host_ms(data: list[dict[str, Any]], share: dict[str, float]) -> list[dict[str, Any]]:
    """CUDA calls: each call's host time, share[side] of its GPU time (ms)."""
    for c in data:
        c["clock"], c["hostMs"] = "cuda-events", c["ms"] * share[c["side"]]
    return data


def test_a_launch_bound_eager_on_cuda_widens_the_interval_by_the_rule_targets_use() -> None:
    """Eager's host time close to its GPU time (the GPU waits on its launches): eager runs at the host's speed, which
    moves between processes; the floor is estimator.launch_bound_floor_pct of eager's host share."""
    spec = layout()
    step = {"eager": 2.0, "compiled": 1.0}
    result = interleaved.compare(with_host_ms(calls(spec, step), {"eager": 0.96, "compiled": 0.3}), len(spec))
    share = result["hostShare"]
    assert share is not None and share["launchBound"] and share["eagerPct"] == pytest.approx(96.0)
    assert share["floorPct"] == estimator.launch_bound_floor_pct(96.0) > ranges.FLOOR_PCT
    assert share["calls"] == len(
        interleaved.split([interleaved.Call.from_json(c) for c in calls(spec, step)]).calls["eager"]
    )
    for number in (result["step"], result["call"]):
        assert number["floorPct"] == share["floorPct"]
        assert number["low"] <= number["speedup"] * (1 - share["floorPct"] / 100) + 1e-3  # rounded to 4 places
        assert number["high"] >= number["speedup"] * (1 + share["floorPct"] / 100) - 1e-3
    # never narrower than without the floor
    plain = interleaved.compare(calls(spec, step), len(spec))
    assert result["step"]["low"] <= plain["step"]["low"] and result["step"]["high"] >= plain["step"]["high"]


def test_a_gpu_bound_eager_and_a_cpu_region_keep_the_plain_floor() -> None:
    """GPU-bound (host time far under GPU time): the host does not set eager's time. On CPU no call has a host time of
    its own: the host sets both sides, a move of it moves both, and the rule adds nothing."""
    spec = layout()
    step = {"eager": 2.0, "compiled": 1.0}
    gpu_bound = interleaved.compare(with_host_ms(calls(spec, step), {"eager": 0.2, "compiled": 0.1}), len(spec))
    assert gpu_bound["hostShare"] == {
        "eagerPct": pytest.approx(20.0),
        "calls": gpu_bound["hostShare"]["calls"],
        "launchBound": False,
        "floorPct": None,
    }
    cpu = interleaved.compare(calls(spec, step), len(spec))
    assert cpu["hostShare"] is None
    for result in (gpu_bound, cpu):
        assert result["step"]["floorPct"] == result["call"]["floorPct"] == ranges.FLOOR_PCT
    assert (gpu_bound["step"]["low"], gpu_bound["step"]["high"]) == (cpu["step"]["low"], cpu["step"]["high"])


def test_a_call_that_waits_on_the_device_inside_it_counts_as_the_host_s_whole() -> None:
    """Host time past GPU time (a sync inside the call): the share stops at 100 %."""
    spec = layout()
    result = interleaved.compare(
        with_host_ms(calls(spec, {"eager": 2.0, "compiled": 1.0}), {"eager": 1.5, "compiled": 1.5}), len(spec)
    )
    assert result["hostShare"]["eagerPct"] == 100.0
    assert result["hostShare"]["floorPct"] == estimator.HOST_MOVE_PCT


def test_calls_past_the_recompile_limit_are_never_timed_as_compiled_and_their_share_is_said() -> None:
    """A server with 6 batch sizes whose last 2 ran eagerly on the compiled side (Dynamo's recompile limit): those
    steps are left out, the number covers the sizes compiled code served, and the eager share is counted."""
    sizes = [1, 2, 3, 4, 5, 6]
    spec = layout(block=5, blocks=24)  # 5: every size has steps inside a block
    sig = lambda i: f"float32[{sizes[i % 6]}, 64]; no_grad"  # noqa: E731
    past_limit = {
        i: {"ranCompiled": False, "fallbackReason": "recompile limit"}
        for i, (side, _) in enumerate(spec)
        if side == "compiled" and i % 6 >= 4
    }
    data = calls(spec, {"eager": 2.0, "compiled": 1.0}, sig, overrides=past_limit)
    for i in past_limit:  # eager code at the compiled stance: eager's time
        data[i]["stepMs"] = None if data[i]["stepMs"] is None else 2.0
    result = interleaved.compare(data, len(spec))
    step = result["step"]
    assert 1.9 < step["speedup"] < 2.1 and step["comparedBy"] == "matched-mix"
    assert {s["signature"] for s in step["signatures"]} == {sig(i) for i in range(4)}
    assert result["eagerFallback"] == {"calls": len(past_limit), "of": sum(1 for s, _ in spec if s == "compiled")}
    assert result["dropped"]["ran eagerly"] == len(past_limit)
    eager_past = sum(1 for i, (side, block) in enumerate(spec) if side == "eager" and i % 6 >= 4)
    assert result["dropped"]["never served compiled"] == eager_past  # eager at those sizes: nothing compiled to compare
    assert step["notCompared"] == []


def test_a_server_s_pairs_of_blocks_count_though_they_share_no_batch_size() -> None:
    """Blocks of 4 calls over 12 sizes cycled by 7: adjacent blocks hold different sizes, and each pair still gives
    its ratio (its steps over their size's eager median)."""
    sizes = [(i * 7) % 12 + 1 for i in range(400)]
    spec = [("compiled", 0)] * 12 + [(ORDER[k % 4], k + 1) for k in range(97) for _ in range(4)]
    data = calls(spec, {"eager": 2.0, "compiled": 1.0}, sig=lambda i: f"float32[{sizes[i]}, 64]; no_grad")
    for c in data[1:]:  # larger batches take longer both ways
        c["stepMs"] = None if c["stepMs"] is None else c["stepMs"] * sizes[c["index"]]
    step = interleaved.compare(data, len(spec))["step"]
    assert step["comparedBy"] == "matched-mix" and step["pairs"] >= 20
    assert all(1.8 < r < 2.2 for r in step["pairRatios"]) and 1.9 < step["speedup"] < 2.1


class _Stream:  # a CUDA stream: where its device's timeline stands, in ms
    gpu_ms = 0.0


class _Event:
    """A CUDA event that completed, stamped where its stream's timeline stood when the host recorded it:
    elapsed_time is the device time between two of them."""

    def __init__(self, enable_timing: bool) -> None:
        self.at = 0.0

    def record(self, stream: _Stream) -> None:
        self.at = stream.gpu_ms

    def query(self) -> bool:
        return True

    def synchronize(self) -> None:
        pass

    def elapsed_time(self, end: _Event) -> float:
        return end.at - self.at


def test_a_cuda_call_keeps_its_gpu_time_and_its_host_time_and_a_cpu_call_only_the_host_s(monkeypatch: Any) -> None:
    """script/calls.py: CUDA events time the call on its stream, perf_counter its host time beside them (no
    synchronisation in the call); on CPU perf_counter is the call's time and there is no host time of its own."""
    import torch
    from compile_lens_runner.script import calls as region_calls

    monkeypatch.setattr(torch.cuda, "Event", _Event)
    stream = _Stream()
    records = []
    for index in range(2):
        clock = region_calls.CallClock(stream)
        clock.start()
        stream.gpu_ms += 7.0  # the GPU ran the call's kernels for 7 ms
        clock.stop()
        records.append(region_calls.CallRecord(index, SIG, "grad", clock))
    region_calls.resolve_all(records)
    assert [r.ms for r in records] == [7.0, 7.0] and records[0].step_ms == 7.0
    assert all(r.clock.host_ms is not None and r.clock.host_ms >= 0 for r in records)
    records[0].resolve()  # resolved once: the GPU time stays
    assert records[0].ms == 7.0
    cpu = region_calls.CallClock(None)
    cpu.start()
    cpu.stop()
    record = region_calls.CallRecord(0, SIG, "grad", cpu)
    record.resolve()
    assert cpu.host_ms is None and record.ms == cpu.cpu_ms is not None


def test_a_cuda_step_leaves_out_the_observer_s_work_where_the_device_sat_idle_through_it(monkeypatch: Any) -> None:
    """script/calls.py: on CUDA the observer's own work between two calls (after one, before the next) is bracketed by
    events; where the device was idle through it (a launch-bound server: the step is the host's) the gap it leaves on
    the device's timeline is taken out of the step, and where the device was still busy with the script's kernels the
    events land back to back and nothing is taken out."""
    import torch
    from compile_lens_runner.script import calls as region_calls

    monkeypatch.setattr(torch.cuda, "Event", _Event)

    def steps(device_idle: bool) -> list[float | None]:
        """Three calls of 7 ms with 3 ms of the script's own work between them; the observer's 1 ms before and 2 ms
        after each call shows on the device's timeline only while it is idle."""
        stream, records, shown = _Stream(), [], 1.0 if device_idle else 0.0
        for index in range(3):
            entered = region_calls.own_mark(stream)
            stream.gpu_ms += 1.0 * shown
            clock = region_calls.CallClock(stream, entered if index else None)
            clock.start()
            stream.gpu_ms += 7.0
            clock.stop()
            stream.gpu_ms += 2.0 * shown
            clock.handed_back()
            stream.gpu_ms += 3.0  # the script's own work before its next call
            records.append(region_calls.CallRecord(index, SIG, "grad", clock))
        region_calls.resolve_all(records)
        assert all(r.ms == 7.0 and r.clock.entered is None and r.clock.left is None for r in records)
        return [r.step_ms for r in records]

    assert steps(device_idle=True) == [10.0, 10.0, None]  # 13 ms apart on the device, 3 of them the observer's
    assert steps(device_idle=False) == [10.0, 10.0, None]  # hidden behind the device's work: nothing taken out


def test_the_cuda_graphs_memory_is_what_the_allocator_holds_in_private_pools_on_the_call_s_device(
    monkeypatch: Any,
) -> None:
    """script/calls.graph_pool_bytes: segments of pools other than the default (0, 0) on the call's device; None where
    the allocator's snapshot names no pools."""
    import torch
    from compile_lens_runner.script import calls as region_calls

    segments = [
        {"device": 0, "total_size": 2 << 20, "segment_pool_id": (0, 0)},  # the default pool: the script's tensors
        {"device": 0, "total_size": 20 << 20, "segment_pool_id": (1, 0)},  # CUDA graph trees' pool
        {"device": 0, "total_size": 4 << 20, "segment_pool_id": (1, 0)},
        {"device": 1, "total_size": 8 << 20, "segment_pool_id": (1, 0)},  # another GPU's
    ]
    monkeypatch.setattr(torch.cuda, "memory_snapshot", lambda: segments)
    assert region_calls.graph_pool_bytes(torch.device("cuda", 0)) == 24 << 20
    assert region_calls.graph_pool_bytes(torch.device("cuda", 1)) == 8 << 20
    monkeypatch.setattr(torch.cuda, "memory_snapshot", lambda: [{"device": 0, "total_size": 1}])
    assert region_calls.graph_pool_bytes(torch.device("cuda", 0)) is None


def test_the_last_call_begins_no_step_so_no_step_of_it_is_left_out() -> None:
    """Review 3C R9 (resized_step): "4 calls" beside "4 steps left out: 3 in Compile Lens's compiled warm-up, 1 first at its
    input shape": 4 calls make 3 steps, and every step said is left out or counted, never more."""
    spec = [("compiled", 0)] * 4  # all before interleaving began
    result = interleaved.split([interleaved.Call.from_json(c) for c in calls(spec, {"eager": 2.0, "compiled": 1.0})])
    assert result.dropped == {"warm-up": 3}
    spec = layout()
    result = interleaved.split([interleaved.Call.from_json(c) for c in calls(spec, {"eager": 2.0, "compiled": 1.0})])
    steady = sum(len(s) for s in result.steps.values())
    assert steady + sum(result.dropped.values()) == len(spec) - 1


def test_steps_the_host_interrupted_are_left_out_of_both_sides_by_one_rule_and_said() -> None:
    """serve_script on the contended VM: steps of 21-209 ms among 0.64 ms ones, counted, made pairs of blocks read
    0.008x and the number too noisy to say. Each side's steps far above its own median are left out (dropped,
    their drawn points, `interrupted`), and the pairs then read the steps the code took."""
    spec = layout()
    rng = random.Random(3)
    counted = interleaved.split([interleaved.Call.from_json(c) for c in calls(spec, {"eager": 0.6, "compiled": 0.5})])
    steady = {side: indices[2::7] for side, indices in counted.steps.items()}  # a few of each side's steady steps
    hit = {i: {"stepMs": rng.uniform(20.0, 200.0)} for indices in steady.values() for i in indices}
    clean = interleaved.compare(calls(spec, {"eager": 0.6, "compiled": 0.5}), len(spec))
    result = interleaved.compare(calls(spec, {"eager": 0.6, "compiled": 0.5}, overrides=hit), len(spec))
    interrupted = result["interrupted"]
    assert interrupted is not None and clean["interrupted"] is None and "interrupted" not in clean["dropped"]
    for side in ("eager", "compiled"):
        said = interrupted[side]
        assert (
            said is not None and said["steps"] == len(steady[side]) and 20.0 <= said["lowMs"] <= said["highMs"] <= 200
        )
        assert said["medianMs"] is not None and said["medianMs"] < 0.7
    assert result["dropped"]["interrupted"] == len(hit)
    assert {p["index"] for p in result["stepPoints"] if p["leftOut"] == "interrupted"} == set(hit)
    step = result["step"]
    assert max(step["pairRatios"]) < 1.5 and ranges.too_noisy(step["speedup"], step["low"], step["high"]) is None
    assert 1.1 < step["speedup"] < 1.3


def test_a_compiled_side_slow_every_nth_step_because_it_recompiles_is_no_interruption() -> None:
    """Its recompiling steps are left out as compiling, under their own name; a side slow at every step keeps its
    time: no steps of it are interruptions."""
    spec = layout()
    compiled_at = [i for i, (side, block) in enumerate(spec) if side == "compiled" and block]
    recompiles = {i: {"stepMs": 150.0, "stepCompiles": 1} for i in compiled_at[::5]}
    result = interleaved.compare(calls(spec, {"eager": 0.6, "compiled": 0.5}, overrides=recompiles), len(spec))
    assert result["interrupted"] is None and "interrupted" not in result["dropped"]
    said = {p["index"]: p["leftOut"] for p in result["stepPoints"]}
    assert {said[i] for i in recompiles} <= {"compiled", "switch"}  # a step that ends at a switch spans it
    assert result["dropped"]["compiled"] >= 1
    slow = interleaved.compare(calls(spec, {"eager": 0.6, "compiled": 60.0}), len(spec))
    assert slow["interrupted"] is None and slow["step"]["compiledMs"] > 55
