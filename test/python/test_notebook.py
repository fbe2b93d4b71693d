"""Notebooks in script mode: code cells run in order as one script, IPython magics skipped and named, findings
land on the cells' own lines."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from compile_lens_runner.report import shape_text
from compile_lens_runner.script.notebook import convert, map_locations, map_warmup_lines
from conftest import run_runner


def _notebook(path: Path, cells: list[tuple[str, str]]) -> Path:
    path.write_text(
        json.dumps(
            {
                "nbformat": 4,
                "nbformat_minor": 5,
                "metadata": {},
                "cells": [
                    {
                        "cell_type": kind,
                        "metadata": {},
                        "source": source.splitlines(keepends=True),
                        **({"outputs": [], "execution_count": None} if kind == "code" else {}),
                    }
                    for kind, source in cells
                ],
            }
        )
    )
    return path


def test_magics_are_skipped_where_ipython_would_run_them(tmp_path: Path) -> None:
    nb = _notebook(
        tmp_path / "nb.ipynb",
        [
            ("code", "%matplotlib inline\nx = 1\nmsg = ('%d items'\n       % x)\nfiles = !ls\n"),
            ("markdown", "# notes"),
            ("code", "%%bash\necho not python\n"),
            ("code", "%%time\ny = x + 1\n    "),
        ],
    )
    script = convert(str(nb), str(tmp_path / "gen"))
    lines = Path(script.script).read_text().split("\n")
    assert lines[:5] == ["pass", "x = 1", "msg = ('%d items'", "       % x)", "pass"]  # a continuation is not a magic
    assert "echo not python" not in lines and "y = x + 1" in lines
    assert [(s["cell"], s["line"], s["text"]) for s in script.skipped] == [
        (0, 1, "%matplotlib inline"),
        (0, 5, "files = !ls"),
        (2, 1, "%%bash"),
        (3, 1, "%%time"),
    ]
    namespace: dict[str, Any] = {}
    exec(compile(Path(script.script).read_text(), script.script, "exec"), namespace)  # the result is valid Python
    assert namespace["y"] == 2
    found = {"file": script.script, "line": lines.index("y = x + 1") + 1, "function": None, "code": "y = x + 1"}
    report = {"modes": [{"where": [found]}]}
    map_locations(report, script)
    assert found == {"file": str(nb), "line": 2, "function": None, "code": "y = x + 1", "cell": 3}


def test_a_warm_up_at_another_shape_is_said_at_its_cell_and_line(tmp_path: Path) -> None:
    """Review 8 A1: a notebook's lines are the cell's; the warm-up's line, a bare number the exported script gave,
    was said as it was ("(line 5)" in a cell of 2 lines)."""
    nb = _notebook(tmp_path / "w.ipynb", [("code", "import torch\nf = torch.compile(g)\n"), ("code", "f(a)\nf(b)\n")])
    script = convert(str(nb), str(tmp_path / "gen"))
    warm = {"input": "x", "dim": 0, "warmupSize": 1, "realSize": 4, "warmupLine": 4, "realLine": 5}
    regions: Any = [{"shapes": {"warmup": warm}}, {"shapes": None}]
    map_warmup_lines(regions, script)
    assert (warm["warmupCell"], warm["warmupLine"], warm["realCell"], warm["realLine"]) == (1, 1, 1, 2)
    reason: Any = {"code": "warmup-other-shape", "size": 1, "realSize": 4, "line": 1, "cell": 1, "count": 3}
    assert (
        shape_text.warmup_clause(reason) == "the warm-up at size 1 (cell 2, line 1) compiled a graph size 4 never used"
    )


def test_a_notebook_profiles_like_a_script(tmp_path: Path) -> None:
    nb = _notebook(
        tmp_path / "explore.ipynb",
        [
            ("markdown", "# Exploring"),
            ("code", "%load_ext autoreload\nimport torch\n"),
            (
                "code",
                "def f(x):\n    y = torch.sin(x)\n    print('inside')\n    return torch.cos(y)\n\nfast = torch.compile(f, backend='eager')\n",
            ),
            ("code", "!echo hello\nfor _ in range(3):\n    fast(torch.randn(8))\n"),
        ],
    )
    run = run_runner("--script", str(nb), "--quick", "--no-in-situ", "--out", str(tmp_path / "out"))
    assert run.code == 0, run.stderr[-3000:]
    assert "skipped IPython magic in cell 1, line 1: %load_ext autoreload" in run.stderr
    assert run.report["target"]["file"] == str(nb)
    skipped = run.report["settings"]["notebook"]["skippedMagics"]
    assert [(s["cell"], s["text"]) for s in skipped] == [(1, "%load_ext autoreload"), (3, "!echo hello")]
    [gb] = run.report["modes"][0]["compiler"]["graphBreaks"]
    assert {k: gb["location"][k] for k in ("file", "cell", "line", "code")} == {
        "file": str(nb),
        "cell": 2,
        "line": 3,
        "code": "print('inside')",
    }
    [region] = run.report["regions"]
    assert {k: region["location"][k] for k in ("file", "cell", "line")} == {"file": str(nb), "cell": 2, "line": 6}
    assert region["callCount"] == 3 and region["measurements"][0]["status"] == "ok"
    assert region["compiler"]["graphBreaks"][0]["location"]["cell"] == 2
