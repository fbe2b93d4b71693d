"""The Quick Fix the runner works out from the user's source (script/warmup_shape.py): the data the editor's edit needs,
and that the edited code does what the fix says. warmup-shape, from a CPU profile: a warm-up at batch 1 before calls
at batch 4 recompiles; the edit writes 4 into the warm-up's torch.ones, and the edited script compiles once.
(No static-address edit for CUDA graphs skipped on mutated inputs: marking the caches with mark_static_address did not
keep the graphs on an H100, docs/BENCHMARKS.md.)
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from conftest import REPO, run_runner

WHY = REPO / "test" / "fixtures" / "why"


def apply(source: str, fix: dict[str, Any]) -> str:
    """What the editor does with the runner's edits (extension/editor/quickFixes.ts): each only where `expect` still is."""
    lines = source.split("\n")
    for e in sorted(fix["edits"], key=lambda e: (e["line"], e["column"]), reverse=True):
        line = lines[e["line"] - 1]
        assert line[e["column"] : e["endColumn"]] == e["expect"]
        lines[e["line"] - 1] = line[: e["column"]] + e["text"] + line[e["endColumn"] :]
    return "\n".join(lines)


WARM = (WHY / "warmup_step.py").read_text()  # a warm-up at batch 1, then the real calls at batch 4


def _recompile_sites(script: Path, out: Path) -> list[dict[str, Any]]:
    """The regions' recompile sites; the script's own insight (one log, the same compiles) must explain them alike."""
    run = run_runner("--script", str(script), "--device", "cpu", "--quick", "--no-in-situ", "--out", str(out))
    assert run.report is not None and run.report["status"] == "ok", run.stderr[-3000:]
    sites = [s for region in run.report["regions"] for s in (region["compiler"] or {}).get("recompileSites", [])]
    script_sites = [s for mode in run.report["modes"] for s in (mode["compiler"] or {}).get("recompileSites", [])]
    assert [s["explanation"] for s in script_sites] == [s["explanation"] for s in sites]
    return sites


def test_a_warmup_at_another_shape_offers_the_real_calls_shape_and_the_edited_script_compiles_once(
    tmp_path: Path,
) -> None:
    script = tmp_path / "warm.py"
    script.write_text(WARM)
    (site,) = _recompile_sites(script, tmp_path / "before")
    explanation = site["explanation"]
    assert explanation["what"].startswith("The warm-up call at line 9 (`step(torch.ones(1, 8))")
    assert "real calls (line 11) pass 4" in explanation["what"]
    assert "torch.ones(4, 8) at line 9" in explanation["fix"]
    fix = explanation["quickFix"]
    assert fix["kind"] == "warmup-shape" and "line 9" in fix["title"]
    assert fix["edits"] == [
        {"line": 9, "column": 5, "endColumn": 21, "expect": "torch.ones(1, 8)", "text": "torch.ones(4, 8)"}
    ]
    script.write_text(apply(WARM, fix))
    assert _recompile_sites(script, tmp_path / "after") == []


def test_a_size_that_changes_at_one_line_is_no_warmup(tmp_path: Path) -> None:
    """The same line made both shapes: the data changed size, and dynamic=True is the fix offered (from a size other
    than 1: test_users_input_recompiles.py)."""
    script = tmp_path / "resized.py"
    script.write_text(
        "import torch\n\n\ndef f(x):\n    return (x * 2).relu()\n\n\nstep = torch.compile(f, backend='eager')\n"
        "for n in (2, 4, 4, 4):\n    step(torch.ones(n, 8))\n"
    )
    (site,) = _recompile_sites(script, tmp_path / "run")
    assert site["explanation"]["quickFix"]["kind"] == "compile-dynamic"
    assert "warm-up" not in site["explanation"]["what"]
