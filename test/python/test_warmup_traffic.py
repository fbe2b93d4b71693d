"""A warm-up at a size no later call uses, before calls whose size follows traffic (the H200's timm server: one image
at line 16, then batches of 4 to 32 at line 21). An older runner saw a warm-up only when every later call shared one
signature: `shapes.warmup` was null, and the shape fix it measured was mark_dynamic on x, which cannot help a warm-up
at size 1 (a size of 1 is always specialised: "the same 2 graphs")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from compile_lens_runner.compiler import explain
from compile_lens_runner.report import reason_text, shape_text
from compile_lens_runner.script import shape_fix, warmup_shape
from compile_lens_runner.script.shape_fix_apply import warmed_inputs
from conftest import run_runner

SERVER = (
    "import torch\n"
    "\n"
    "\n"
    "def f(x):\n"
    "    return (x * 2).relu()\n"
    "\n"
    "\n"
    "step = torch.compile(f, backend='eager')  # the recompile is Dynamo's: no Inductor compile needed\n"
    "step(torch.ones(1, 8))  # warm-up\n"
    "for n in (4, 8, 4, 16, 8, 4):\n"
    "    step(torch.ones(n, 8))\n"
)


def _region(run: Any) -> dict[str, Any]:
    assert run.report is not None and run.report["status"] == "ok", run.stderr[-3000:]
    [region] = run.report["regions"]
    return region


def test_a_warm_up_at_a_size_no_later_call_uses_is_seen_and_its_fix_marks_the_dimension(tmp_path: Path) -> None:
    script = tmp_path / "server.py"
    script.write_text(SERVER)
    run = run_runner(
        "--script", str(script), "--device", "cpu", "--quick", "--no-in-situ", "--shape-fix", "on",
        "--out", str(tmp_path / "run"),
    )  # fmt: skip
    region = _region(run)
    warm = region["shapes"]["warmup"]
    assert (warm["input"], warm["dim"], warm["warmupSize"], warm["realSize"]) == ("x", 0, 1, 4)
    assert warm["realSizes"] == [4, 8, 16] and (warm["warmupLine"], warm["realLine"]) == (9, 11)
    [site, *_] = region["compiler"]["recompileSites"]
    said = site["explanation"]
    assert said["what"].startswith("The warm-up call at line 9 (`step(torch.ones(1, 8))  # warm-up`) passed 'x'")
    assert "pass sizes 4, 8, 16, never 1" in said["what"]
    assert said["fix"].startswith("warm up at a size the real calls use, with that dimension marked dynamic")
    assert "quickFix" not in said  # dynamic=True at the warm-up's size of 1 compiles twice as well
    # the fix measured: a warm-up at a real size with the dimension marked dynamic, one graph for every size
    [fix] = region["shapes"]["fixes"]
    assert fix["kind"] == "warmup-shape" and fix["measured"], fix
    assert fix["fix"] == "a warm-up at size 4 with x's dimension 0 marked dynamic (mark_dynamic)"
    assert fix["graphs"] == 1


def test_the_warm_up_fix_plan_marks_the_dimension_only_where_the_real_sizes_vary() -> None:
    warm = {"input": "x", "dim": 0, "warmupSize": 1, "realSize": 32, "warmupLine": 16, "realLine": 21}
    warm |= {"realCall": 1, "recompileSeconds": 15.2, "realCalls": 300}
    region: dict[str, Any] = {
        "id": "r0",
        "location": {"file": "/ws/timm_traffic.py", "line": 12},
        "calls": [],
        "shapes": {"warmup": {**warm, "realSizes": [4, 8, 16, 32]}},
    }
    [plan] = shape_fix.plans(region)  # type: ignore[arg-type]
    assert plan["kind"] == "warmup-shape" and plan.get("markDynamic") is True and "names" not in plan
    assert shape_fix.text(plan) == "a warm-up at size 32 with x's dimension 0 marked dynamic (mark_dynamic)"
    region["shapes"]["warmup"] = warm  # one real size: the warm-up at it, specialised
    [plan] = shape_fix.plans(region)  # type: ignore[arg-type]
    assert "markDynamic" not in plan and shape_fix.text(plan) == "a warm-up at size 32"


def test_the_fix_runs_warm_up_is_made_at_the_real_size_marked_dynamic_in_its_own_layout() -> None:
    import torch

    plan: Any = {"region": "r0", "file": "f", "line": 1, "kind": "warmup-shape", "dim": 0, "warmupSize": 1}
    plan |= {"input": "x", "warmupTo": 32, "realCall": 1, "markDynamic": True}
    image = torch.randn(1, 3, 4, 4).to(memory_format=torch.channels_last)
    (made,), _ = warmed_inputs(plan, (image,), {})
    assert made.shape == (32, 3, 4, 4) and made.is_contiguous(memory_format=torch.channels_last)
    assert getattr(made, "_dynamo_dynamic_indices", set()) == {0}
    (plain,), _ = warmed_inputs({**plan, "markDynamic": False}, (torch.randn(1, 8),), {})
    assert plain.shape == (32, 8) and not getattr(plain, "_dynamo_dynamic_indices", set())


def test_the_warm_up_story_says_the_sizes_the_real_calls_used() -> None:
    reason: Any = {"code": "warmup-other-shape", "input": "x", "dim": 0, "size": 1, "realSize": 32, "line": 16}
    reason |= {"count": 300, "realSizes": [4, 8, 16, 32]}
    assert (
        shape_text.warmup_clause(reason)
        == "the warm-up at size 1 (line 16) compiled a graph sizes 4, 8, 16, 32 never used"
    )
    assert "the real calls at sizes 4, 8, 16, 32 never used" in shape_text.warmup_in_full(reason)
    # its fix: one warm-up size serves traffic only with the dimension marked dynamic (size 1 is always its own graph)
    assert reason_text.sentence(reason).endswith(
        "Fix: warm up at a size the real calls use, with that dimension marked dynamic: one compile."
    )
    assert reason_text.sentence({**reason, "realSizes": []}).endswith("Fix: warm up at the shape the real calls use.")
    assert shape_text.sizes_said(list(range(2, 66))) == "sizes 2, 3, 4, 5, 6, … 65"


def _calls(shapes: list[tuple[int, int]], ids: dict[int, list[str]]) -> list[Any]:
    return [
        {"index": i, "signature": f"x=float32[{a}, {b}]", "compileIds": ids.get(i, [])}
        for i, (a, b) in enumerate(shapes)
    ]


def _recompiles(*reasons: tuple[str, str]) -> Any:
    return {"recompiles": [{"compileId": cid, "reason": reason, "location": None} for cid, reason in reasons]}


def test_no_warm_up_finding_where_the_real_calls_vary_in_another_dimension_too() -> None:
    """A warm-up at batch 1, then batch 8 at lengths 32, 64, 128: a warm-up at [8, 16] would still recompile on the
    length (0/2), so "one compile then serves every call" would be false. An older runner found a warm-up at one size."""
    calls = _calls([(1, 16), (8, 32), (8, 64), (8, 128), (8, 64), (8, 32)], {0: ["0/0"], 1: ["0/1"], 2: ["0/2"]})
    insight = _recompiles(
        ("0/1", "tensor 'x' size mismatch at index 0. expected 1, actual 8"),
        ("0/2", "tensor 'x' size mismatch at index 1. expected 32, actual 64"),
    )
    assert warmup_shape.explain(calls, insight, {}) is None


def test_a_warm_up_before_traffic_that_includes_size_1_is_fixed_at_a_real_size_of_2_or_more() -> None:
    """A warm-up at the largest batch (64), then batches of 1, 4, 16: a warm-up at 1 marked dynamic is specialised at 1
    anyway (the runner's own sentence) and compiles again at 4. An older runner's fix warmed up at 1."""
    calls = _calls([(64, 8), (1, 8), (4, 8), (16, 8), (4, 8)], {0: ["0/0"], 1: ["0/1"], 2: ["0/2"]})
    insight = _recompiles(("0/1", "tensor 'x' size mismatch at index 0. expected 64, actual 1"))
    warm = warmup_shape.explain(calls, insight, {})
    assert warm is not None and warm["realSize"] == 1 and warm["realSizes"] == [1, 4, 16]
    region: Any = {"id": "r0", "location": {"file": "/ws/s.py", "line": 3}, "calls": calls, "shapes": {"warmup": warm}}
    [plan] = shape_fix.plans(region)
    assert plan.get("warmupTo") == 4 and plan.get("markDynamic") is True
    assert shape_fix.text(plan) == "a warm-up at size 4 with x's dimension 0 marked dynamic (mark_dynamic)"


def test_the_real_sizes_are_the_recompiled_inputs_in_its_dimension_all_of_them() -> None:
    """A mask changing in the same dimension as x, through more sizes: no one warm-up size serves the calls, and an
    older runner said the mask's sizes as x's. Traffic through more sizes than a shape fact lists says its largest."""
    rows = [(1, 1), (4, 4), (8, 5), (8, 6), (8, 7)]
    calls = [
        {"index": i, "signature": f"x=float32[{a}, 8], mask=float32[{m}, 8]", "compileIds": [f"0/{i}"] if i < 2 else []}
        for i, (a, m) in enumerate(rows)
    ]
    insight = _recompiles(("0/1", "tensor 'x' size mismatch at index 0. expected 1, actual 4"))
    assert warmup_shape.explain(calls, insight, {}) is None
    many = _calls([(1, 8), *((n, 8) for n in range(2, 80))], {0: ["0/0"], 1: ["0/1"]})
    warm = warmup_shape.explain(
        many, _recompiles(("0/1", "tensor 'x' size mismatch at index 0. expected 1, actual 2")), {}
    )
    assert warm is not None and warm["realSizes"] == list(range(2, 80))


def test_a_warm_up_explanation_is_known_by_its_kind_not_its_opening_words() -> None:
    """A traffic warm-up's explanation has no warm-up Quick Fix: an older runner knew it by "The warm-up call at line"
    alone, so rewording the sentence would have had `inspect` say it again from the guard, without the script's line."""
    said = warmup_shape._with_traffic("x", 0, 1, [4, 8, 16], 9, "", 11)
    assert said.get("kind") == "warmup-shape" and explain.warmup_said(said)
    reworded: Any = {**said, "what": "Line 9's warm-up passed 'x' at size 1; the real calls pass 4, 8, 16."}
    recompile: Any = {"reason": "tensor 'x' size mismatch at index 0. expected 1, actual 4", "explanation": reworded}
    assert explain.explain_recorded(recompile, False) == reworded
    # a report before schema 1.42: its words, or its Quick Fix
    older = {k: v for k, v in said.items() if k != "kind"}
    assert explain.warmup_said(older)  # type: ignore[arg-type]
    assert not explain.warmup_said({"what": "Input 'x' changed size", "fix": "f"})
