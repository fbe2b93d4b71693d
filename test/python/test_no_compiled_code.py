"""A region whose calls ran no compiled code (test/fixtures/why/no_compiled_cpu.py: its forward breaks at its first op,
as the transformer fast path does on the H100): the runner says so first — the region's noCompiledCode, its
recommendation and every call marked eager — names what broke and where with the fix, and measures no speedup for it.
The H100 recording of the fast path gives the same sentence from its log."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest
from compile_lens_runner.compiler import torch_trace as tt
from compile_lens_runner.compiler.insight import compiler_insight
from compile_lens_runner.compiler.no_compiled import no_compiled_code
from conftest import REPO, run_runner

WHY = REPO / "test" / "fixtures" / "why"


def test_a_region_that_ran_no_compiled_code_says_so_first(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    run = run_runner(
        "--script", str(WHY / "no_compiled_cpu.py"), "--quick", "--no-in-situ", "--out", str(tmp_path / "out")
    )
    assert run.code == 0 and run.report is not None, run.stderr[-2000:]
    (region,) = run.report["regions"]
    nothing = region["noCompiledCode"]
    assert nothing is not None and region["compiler"]["graphCount"] == 0
    line = next(
        i
        for i, text in enumerate((WHY / "no_compiled_cpu.py").read_text().split("\n"), 1)
        if "compile_lens_why.scale(x)" in text
    )
    assert (
        nothing["location"]["line"] == line and nothing["pattern"] == "no-fake-kernel" and nothing["gbId"] == "GB0090"
    )
    assert nothing["headline"].startswith(
        "No compiled code ran: `compile_lens_why.scale` broke the graph at no_compiled_cpu.py:"
    )
    assert "register_fake" in nothing["fix"]
    assert all(call["ranCompiled"] is False for call in region["calls"])
    assert region["recommendation"] == {"mode": None, "verdict": "none", "reason": f"No verdict. {nothing['headline']}"}
    assert region["answer"]["number"] is None and region["answer"]["evidence"] == []  # eager code against itself
    assert not [m for m in region["measurements"] if m.get("speedup") is not None]
    said = run.report["recommendation"]["reason"]
    assert (
        said.startswith("Scale (line ") and ": no verdict: no compiled code ran · " in said  # the cause: its sentence
    )


def test_the_fast_path_recorded_on_the_h100_says_the_same() -> None:
    with gzip.open(WHY / "encoder_fastpath.runner.log.gz", "rt") as f:
        insight = compiler_insight(tt.parse(f.read()), lambda record: None, cudagraphs=False)
    nothing = no_compiled_code(insight, calls=6)
    assert nothing is not None
    assert nothing["cause"].startswith(
        "`aten._transformer_encoder_layer_fwd` broke the graph at encoder_fastpath.py:13 inside transformer.py:921"
    )
    assert "set_fastpath_enabled(False)" in nothing["fix"]
    assert no_compiled_code(insight, calls=0) is None  # never called: nothing ran at all, compiled or not
