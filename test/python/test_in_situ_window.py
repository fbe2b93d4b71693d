"""The in-situ profile windows (script/window.py, script/interleave.py): a trace labelled eager holds only eager calls,
and one labelled compiled only compiled ones; on recorded call sequences and the recorded fixtures' traces (no timing
of this host; torch only where a profiler runs)."""

from __future__ import annotations

import itertools
import json
import types
from pathlib import Path
from typing import Any

from compile_lens_runner.measure import step_work
from compile_lens_runner.script.interleave import Interleaver

RECORDED = Path(__file__).resolve().parents[1] / "fixtures" / "recorded"
# train_small.py's TinyTransformer (r0): 6 calls at length 128, then 6 at 256; the eager block began at call 3, so the
# eager window's steps reached call 6, whose new length compiled at the compiled stance (review s29)
TRAIN_SMALL = RECORDED / "train_small-cpu" / "report.json"


def _replay(monkeypatch: Any, tmp_path: Path, signatures: list[str], compiled: list[bool]) -> tuple[Interleaver, list]:
    """Drives an Interleaver with a real profiler through one region's top-level calls: their signatures and whether
    each compiled something, as recorded; 125 ms a call, so a block is MIN_BLOCK calls."""
    import compile_lens_runner.script.interleave as module
    import torch

    stance = ["default"]
    clock = iter(itertools.count(step=0.125))
    monkeypatch.setattr(module, "time", types.SimpleNamespace(perf_counter=lambda: next(clock)))
    monkeypatch.setattr(module, "_current_stance", lambda: stance[0])
    il = Interleaver(lambda name: stance.__setitem__(0, name), trace_dir=str(tmp_path))
    region = types.SimpleNamespace(id="r0", call_count=0)
    seen = []
    for signature, compiles in zip(signatures, compiled, strict=True):
        seen.append(il.before_call(region, signature))
        torch.relu(torch.ones(4))
        il.after_call(compiles)
        region.call_count += 1
    il.end()
    return il, seen


def test_the_eager_window_ends_before_a_new_signature_compiles_in_its_block(monkeypatch: Any, tmp_path: Path) -> None:
    """train_small.py as recorded: the eager window opened at call 3 and its third step would have held call 6, a new
    length that ran compiled (its recompile). The window ends before that call: its trace holds calls 4 and 5."""
    recorded = json.loads(TRAIN_SMALL.read_text())["regions"][0]["calls"]
    signatures = [c["signature"] for c in recorded]
    il, seen = _replay(monkeypatch, tmp_path, signatures, [bool(c["compileIds"]) for c in recorded])
    assert seen[6] == ("compiled", 0)  # the new length's compile, at the compiled stance
    window = il.profile_json()["eager"]
    assert (window["fromCall"], window["steps"], window["skipped"]) == (3, 2, None)
    assert [seen[window["fromCall"] + n] for n in range(window["steps"] + 1)] == [("eager", 1)] * 3
    events = step_work.read_trace(str(tmp_path / "in-situ-eager.trace.json"))
    assert sorted(e["name"] for e in events if e["name"].startswith("ProfilerStep#")) == [
        "ProfilerStep#1",
        "ProfilerStep#2",
    ]
    # the eager block goes on after the compile, at the eager stance, outside the closed window
    assert seen[7] == ("eager", 1) and not il.windows["eager"].open


def test_a_window_whose_block_ended_in_its_warmup_step_says_so(monkeypatch: Any, tmp_path: Path) -> None:
    signatures = ["a"] * 4 + ["b"] + ["a"] * 20  # the eager block begins at call 3; call 4 is a new signature
    il, seen = _replay(monkeypatch, tmp_path, signatures, [i in (0, 4) for i in range(len(signatures))])
    assert seen[3] == ("eager", 1) and seen[4] == ("compiled", 0)
    window = il.profile_json()["eager"]
    assert window["steps"] == 0 and window["trace"] is None
    assert window["skipped"] == "its block ended before the window's first recorded step"
