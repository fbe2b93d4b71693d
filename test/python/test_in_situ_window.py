"""The in-situ profile windows (script/window.py, script/interleave.py): a trace labelled eager holds only eager calls,
and one labelled compiled only compiled ones; on recorded call sequences and the recorded fixtures' traces (no timing
of this host; torch only where a profiler runs)."""

from __future__ import annotations

import itertools
import json
import types
from pathlib import Path
from typing import Any

import pytest
from compile_lens_runner.measure import schedule, step_work
from compile_lens_runner.script.interleave import Interleaver

RECORDED = Path(__file__).resolve().parents[1] / "fixtures" / "recorded"
# train_small.py's TinyTransformer (r0): 6 calls at length 128, then 6 at 256; the eager block began at call 3, so the
# eager window's steps reached call 6, whose new length compiled at the compiled stance (review s29)
TRAIN_SMALL = RECORDED / "train_small-cpu" / "report.json"


def _recorded_windows() -> list[tuple[str, str]]:
    """(fixture folder, side) of each recorded in-situ window that wrote a trace."""
    found = []
    for report in sorted(RECORDED.glob("*/report.json")):
        windows = (json.loads(report.read_text()).get("inSitu") or {}).get("windows") or {}
        found += [(report.parent.name, side) for side, w in windows.items() if w.get("trace")]
    return found


@pytest.mark.parametrize(("fixture", "side"), _recorded_windows())
def test_a_recorded_in_situ_trace_holds_only_its_own_side_s_calls(fixture: str, side: str) -> None:
    """The steps the report says a window holds are the ProfilerSteps its trace holds, and every call of them ran on
    the window's side, in its block."""
    report = json.loads((RECORDED / fixture / "report.json").read_text())
    window = report["inSitu"]["windows"][side]
    [region] = [r for r in report["regions"] if r["id"] == window["region"]]
    calls = {c["index"]: c for c in region["calls"]}
    events = step_work.read_trace(str(RECORDED / fixture / window["trace"]))
    steps = sorted({int(e["name"].split("#")[1]) for e in events if e["name"].startswith("ProfilerStep#")})
    assert steps == list(range(1, window["steps"] + 1))
    held = [calls[window["fromCall"] + n] for n in range(window["steps"] + 1)]  # its unrecorded warmup call too
    assert {(c["side"], c["block"]) for c in held} == {(side, schedule.PROFILED_BLOCKS[side])}, [
        (c["index"], c["side"], c["block"]) for c in held
    ]


def _replay(monkeypatch: Any, tmp_path: Path, calls: list[tuple[str, str, bool]]) -> tuple[Interleaver, list]:
    """Drives an Interleaver with a real profiler through the script's top-level calls: (region, signature, whether
    it compiled something) each, as recorded; 125 ms a call, so a block is MIN_BLOCK calls: 4, as when the fixtures
    were recorded (session 34 made it 2)."""
    import compile_lens_runner.script.interleave as module
    import torch

    monkeypatch.setattr(schedule, "MIN_BLOCK", 4)
    stance = ["default"]
    clock = iter(itertools.count(step=0.125))
    monkeypatch.setattr(module, "time", types.SimpleNamespace(perf_counter=lambda: next(clock)))
    monkeypatch.setattr(module, "_current_stance", lambda: stance[0])
    il = Interleaver(lambda name: stance.__setitem__(0, name), trace_dir=str(tmp_path))
    regions: dict[str, Any] = {}
    seen = []
    for name, signature, compiles in calls:
        region = regions.setdefault(name, types.SimpleNamespace(id=name, call_count=0))
        seen.append(il.before_call(region, f"{name}: {signature}"))
        torch.relu(torch.ones(4))
        il.after_call(compiles)
        region.call_count += 1
    il.end()
    return il, seen


def _script(report: Path) -> list[tuple[str, str, bool]]:
    """A recorded script's top-level calls in the order it made them: train_small.py calls its regions one loop
    after another."""
    regions = json.loads(report.read_text())["regions"]
    return [(r["id"], c["signature"], bool(c["compileIds"])) for r in regions for c in r["calls"]]


def _steps_in(trace: Path) -> list[str]:
    return sorted(e["name"] for e in step_work.read_trace(str(trace)) if e["name"].startswith("ProfilerStep#"))


def test_the_eager_window_ends_before_a_new_signature_compiles_in_its_block(monkeypatch: Any, tmp_path: Path) -> None:
    """train_small.py as recorded: the eager window opened at call 3 and its third step would have held call 6, a new
    length that ran compiled (its recompile). The window ends before that call: its trace holds calls 4 and 5."""
    il, seen = _replay(monkeypatch, tmp_path, _script(TRAIN_SMALL))
    assert seen[6] == ("compiled", 0)  # the new length's compile, at the compiled stance
    window = il.profile_json()["eager"]
    assert (window["fromCall"], window["steps"], window["skipped"]) == (3, 2, None)
    assert [seen[window["fromCall"] + n] for n in range(window["steps"] + 1)] == [("eager", 1)] * 3
    assert _steps_in(tmp_path / "in-situ-eager.trace.json") == ["ProfilerStep#1", "ProfilerStep#2"]
    # the eager block goes on after the compile, at the eager stance, outside the closed window
    assert seen[7] == ("eager", 1) and not il.windows["eager"].open


def test_a_window_whose_block_ended_in_its_warmup_step_says_so(monkeypatch: Any, tmp_path: Path) -> None:
    signatures = ["a"] * 4 + ["b"] + ["a"] * 20  # the eager block begins at call 3; call 4 is a new signature
    calls = [("r0", sig, i in (0, 4)) for i, sig in enumerate(signatures)]
    il, seen = _replay(monkeypatch, tmp_path, calls)
    assert seen[3] == ("eager", 1) and seen[4] == ("compiled", 0)
    window = il.profile_json()["eager"]
    assert window["steps"] == 0 and window["trace"] is None
    assert window["skipped"] == "its block ended before the window's first recorded step"


def test_a_step_the_script_s_end_cut_short_is_no_step_of_the_trace(monkeypatch: Any, tmp_path: Path) -> None:
    """train_small.py as recorded: the compiled window opened at TinyTransformer's call 10, and its one step began at
    call 11, the region's last: it ran on through the three loops after it (their regions' compiles too), and the pane
    showed it as call 11. No pilot call ended it: the trace holds no such step, and without a whole step, no trace."""
    il, seen = _replay(monkeypatch, tmp_path, _script(TRAIN_SMALL))
    window = il.profile_json()["compiled"]
    assert (window["region"], window["fromCall"], seen[10]) == ("r0", 10, ("compiled", 2))
    assert window["steps"] == 0 and window["trace"] is None
    assert window["skipped"] == "the script ended before the window's first recorded step"
    assert not (tmp_path / "in-situ-compiled.trace.json").exists()


def test_a_window_cut_short_keeps_its_whole_steps_and_nothing_after_them(monkeypatch: Any, tmp_path: Path) -> None:
    """The window opens at call 3 (its warmup step), steps at calls 4 and 5, and the script ends during call 5's step:
    the trace holds step 1 (call 4 to call 5) and no event after it."""
    il, seen = _replay(monkeypatch, tmp_path, [("r0", "a", i == 0) for i in range(6)])
    assert seen[3] == ("eager", 1)
    window = il.profile_json()["eager"]
    assert (window["fromCall"], window["steps"]) == (3, 1)
    trace = tmp_path / "in-situ-eager.trace.json"
    assert _steps_in(trace) == ["ProfilerStep#1"]
    events = step_work.read_trace(str(trace))
    [step] = [e for e in events if e["name"] == "ProfilerStep#1" and e.get("cat") == "user_annotation"]
    end = step["ts"] + step["dur"]
    assert [e["name"] for e in events if e["ts"] >= end and e.get("cat") != "Trace"] == []
    assert step_work.side_work(events) is not None
