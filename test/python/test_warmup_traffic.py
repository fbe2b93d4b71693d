"""A warm-up at a size no later call uses, before calls whose size follows traffic (the H200's timm server: one image
at line 16, then batches of 4 to 32 at line 21). An older runner saw a warm-up only when every later call shared one
signature: `shapes.warmup` was null, and the shape fix it measured was mark_dynamic on x, which cannot help a warm-up
at size 1 (a size of 1 is always specialised: "the same 2 graphs")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from compile_lens_runner.report import reason_text, shape_text
from compile_lens_runner.script import shape_fix
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
    assert said["fix"].startswith("Warm up at a size the real calls use, with that dimension marked dynamic")
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
    assert plan["kind"] == "warmup-shape" and plan.get("names") == ["x"]
    assert shape_fix.text(plan) == "a warm-up at size 32 with x's dimension 0 marked dynamic (mark_dynamic)"
    region["shapes"]["warmup"] = warm  # one real size: the warm-up at it, specialised
    [plan] = shape_fix.plans(region)  # type: ignore[arg-type]
    assert "names" not in plan and shape_fix.text(plan) == "a warm-up at size 32"


def test_the_fix_runs_warm_up_is_made_at_the_real_size_marked_dynamic_in_its_own_layout() -> None:
    import torch

    plan: Any = {"region": "r0", "file": "f", "line": 1, "kind": "warmup-shape", "dim": 0, "warmupSize": 1}
    plan |= {"realSize": 32, "realCall": 1, "names": ["x"]}
    image = torch.randn(1, 3, 4, 4).to(memory_format=torch.channels_last)
    (made,), _ = warmed_inputs(plan, (image,), {})
    assert made.shape == (32, 3, 4, 4) and made.is_contiguous(memory_format=torch.channels_last)
    assert getattr(made, "_dynamo_dynamic_indices", set()) == {0}
    (plain,), _ = warmed_inputs({**plan, "names": []}, (torch.randn(1, 8),), {})
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
