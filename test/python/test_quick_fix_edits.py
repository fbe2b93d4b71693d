"""The Quick Fixes the runner works out from the user's source (compiler/static_address.py, script/warmup_shape.py):
the data the editor's edit needs, and that the edited code does what the fix says.

- static-address, from the H100 log of a decoder whose KV caches CUDA graphs skipped (test/fixtures/why/): the edit
  marks the caches static where the script makes them. CUDA graphs cannot run on this CPU, so what is checked is what
  CUDA-graph trees rest on: with the edit, Dynamo hands every mutated cache to the backend as a static input
  (`_dynamo_static_input_type`, which aot_autograd turns into static_input_indices, the inputs cudagraph_trees lets a
  graph write into); without it, none.
- warmup-shape, from a CPU profile: a warm-up at batch 1 before calls at batch 4 recompiles; the edit writes 4 into
  the warm-up's torch.ones, and the edited script compiles once.
"""
from __future__ import annotations

import functools
import gzip
from pathlib import Path
from typing import Any

import torch

from compile_lens_runner.compiler import source_edits, static_address, torch_trace as tt

from conftest import REPO, run_runner

WHY = REPO / "test" / "fixtures" / "why"
DECODE = (WHY / "decode_static.py").read_text()


def apply(source: str, fix: dict[str, Any]) -> str:
    """What the editor does with the runner's edits (extension/editor/quickFixes.ts): each only where `expect` still is."""
    lines = source.split("\n")
    for e in sorted(fix["edits"], key=lambda e: (e["line"], e["column"]), reverse=True):
        line = lines[e["line"] - 1]
        assert line[e["column"]:e["endColumn"]] == e["expect"]
        lines[e["line"] - 1] = line[:e["column"]] + e["text"] + line[e["endColumn"]:]
    return "\n".join(lines)


def _decode_fix() -> dict[str, Any] | None:
    with gzip.open(WHY / "decode_static.runner.log.gz", "rt") as f:
        records = tt.parse(f.read())
    graph = next(r for r in records if r.kind == "dynamo_output_graph")
    start = next(r for r in records if r.kind == "dynamo_start" and r.compile_id == graph.compile_id)
    assert static_address.mutated_inputs(graph.payload) == ["l_kcache_0_", "l_vcache_0_", "l_kcache_1_", "l_vcache_1_"]
    # the log names the script where it ran on the H100; its copy here is the same file
    return static_address.quick_fix(graph, start, lambda path: source_edits.parse(DECODE))


def test_static_address_marks_each_cache_where_the_script_makes_it() -> None:
    fix = _decode_fix()
    assert fix is not None and fix["kind"] == "static-address"
    assert "`kcache`, `vcache`" in fix["title"]
    assert [(e["line"], e["expect"]) for e in fix["edits"]] == [
        (28, "kcache = [torch.zeros(1, H, T, D, device=device) for _ in range(L)]"),
        (29, "vcache = [torch.zeros(1, H, T, D, device=device) for _ in range(L)]")]
    fixed = apply(DECODE, fix).split("\n")
    assert fixed[28].startswith("for t in kcache:  # Compile Lens quick fix:")
    assert fixed[29] == "    torch._dynamo.mark_static_address(t)"


def _static_inputs(source: str) -> dict[str, bool]:
    """Each graph input of the script's compiled decode step -> whether Dynamo marked it a static input."""
    seen: dict[str, bool] = {}

    def spy(gm: torch.fx.GraphModule, example_inputs: list[Any]) -> Any:
        for node in gm.graph.find_nodes(op="placeholder"):
            seen[node.name] = bool(node.meta.get("tensor_dict", {}).get("_dynamo_static_input_type"))
        return gm.forward

    real = torch.compile

    def compile_with_spy(fn: Any = None, **options: Any) -> Any:
        wrap = functools.partial(real, backend=spy, fullgraph=True)
        return wrap(fn) if fn is not None else wrap

    torch._dynamo.reset()
    torch.compile = compile_with_spy  # type: ignore[assignment]
    try:
        exec(compile(source.replace("range(40)", "range(2)"), "decode_static.py", "exec"), {"__name__": "__main__"})
    finally:
        torch.compile = real
        torch._dynamo.reset()
    return {name: static for name, static in seen.items() if "cache" in name}


def test_with_the_edit_the_mutated_caches_reach_the_backend_as_static_inputs() -> None:
    fix = _decode_fix()
    assert fix is not None
    before, after = _static_inputs(DECODE), _static_inputs(apply(DECODE, fix))
    assert len(before) == 4 and not any(before.values())
    assert len(after) == 4 and all(after.values())


def test_no_static_address_edit_where_the_source_does_not_say_which_statement_made_the_tensor() -> None:
    with gzip.open(WHY / "decode_static.runner.log.gz", "rt") as f:
        records = tt.parse(f.read())
    graph = next(r for r in records if r.kind == "dynamo_output_graph")
    start = next(r for r in records if r.kind == "dynamo_start" and r.compile_id == graph.compile_id)
    # made in the loop that calls the step: a new tensor every step, which no mark keeps at one address
    in_loop = DECODE.replace("    for step in range(40):\n", "    for step in range(40):\n"
                             "        kcache = [torch.zeros(1, H, T, D, device=device) for _ in range(L)]\n")
    assert static_address.quick_fix(graph, start, lambda path: source_edits.parse(in_loop)) is None
    # `import torch as th`: `torch.` would name nothing in that file
    aliased = DECODE.replace("import torch\n", "import torch as th\ntorch = th\n", 1)
    assert static_address.quick_fix(graph, start, lambda path: source_edits.parse(aliased)) is None
    # the file is not on this machine (a log made elsewhere)
    assert static_address.quick_fix(graph, start, lambda path: None) is None


WARM = (WHY / "warmup_step.py").read_text()  # a warm-up at batch 1, then the real calls at batch 4


def _recompile_sites(script: Path, out: Path) -> list[dict[str, Any]]:
    """The regions' recompile sites; the script's own insight (one log, the same compiles) must explain them alike."""
    run = run_runner("--script", str(script), "--device", "cpu", "--quick", "--no-in-situ", "--out", str(out))
    assert run.report is not None and run.report["status"] == "ok", run.stderr[-3000:]
    sites = [s for region in run.report["regions"] for s in (region["compiler"] or {}).get("recompileSites", [])]
    script_sites = [s for mode in run.report["modes"] for s in (mode["compiler"] or {}).get("recompileSites", [])]
    assert [s["explanation"] for s in script_sites] == [s["explanation"] for s in sites]
    return sites


def test_a_warmup_at_another_shape_offers_the_real_calls_shape_and_the_edited_script_compiles_once(tmp_path: Path) -> None:
    script = tmp_path / "warm.py"
    script.write_text(WARM)
    (site,) = _recompile_sites(script, tmp_path / "before")
    explanation = site["explanation"]
    assert explanation["what"].startswith("The warm-up call at line 9 (`step(torch.ones(1, 8))")
    assert "real calls (line 11) pass 4" in explanation["what"]
    assert "torch.ones(4, 8) at line 9" in explanation["fix"]
    fix = explanation["quickFix"]
    assert fix["kind"] == "warmup-shape" and "line 9" in fix["title"]
    assert fix["edits"] == [{"line": 9, "column": 5, "endColumn": 21, "expect": "torch.ones(1, 8)", "text": "torch.ones(4, 8)"}]
    script.write_text(apply(WARM, fix))
    assert _recompile_sites(script, tmp_path / "after") == []


def test_a_size_that_changes_at_one_line_is_no_warmup(tmp_path: Path) -> None:
    """The same line made both shapes: the data changed size, and dynamic=True is the fix offered."""
    script = tmp_path / "resized.py"
    script.write_text("import torch\n\n\ndef f(x):\n    return (x * 2).relu()\n\n\nstep = torch.compile(f)\n"
                      "for n in (1, 4, 4, 4):\n    step(torch.ones(n, 8))\n")
    (site,) = _recompile_sites(script, tmp_path / "run")
    assert site["explanation"]["quickFix"]["kind"] == "compile-dynamic"
    assert "warm-up" not in site["explanation"]["what"]
