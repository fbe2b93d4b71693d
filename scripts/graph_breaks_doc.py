"""Rewrites the pattern table of docs/GRAPH-BREAKS.md from the runner's table (compiler/break_patterns.py), so the page
and the texts the runner writes into reports stay one. Run: python3 scripts/graph_breaks_doc.py"""

from __future__ import annotations

import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "native-runner"))
from compile_lens_runner.compiler import break_patterns as bp  # noqa: E402

PAGE = os.path.join(ROOT, "docs", "GRAPH-BREAKS.md")
HEADER = "| pattern | PyTorch ids | what users write | what happens | fix | quick fix | test |\n|---|---|---|---|---|---|---|\n"


def _cell(text: str) -> str:
    return re.sub(r"\s+", " ", text).replace("|", "\\|")


def _test(pattern_id: str) -> str:
    """The script in test/fixtures/break_patterns/ whose first break is this pattern (its docstring names it)."""
    folder = os.path.join(ROOT, "test", "fixtures", "break_patterns")
    for name in sorted(os.listdir(folder)):
        with open(os.path.join(folder, name), encoding="utf-8") as f:
            if f"pattern: {pattern_id}\n" in f.read():
                return f"[`{name}`](../test/fixtures/break_patterns/{name})"
    if pattern_id == "transformer-fast-path":
        return "H100 log of [`encoder_fastpath.py`](../test/fixtures/why/encoder_fastpath.py)"
    return "no script of its own"


def table() -> str:
    rows = []
    for p in bp.PATTERNS:
        what = p.what.format(broke="the call", _eager=bp._EAGER)
        rows.append(
            f"| `{p.id}` | {', '.join(p.gb_ids)} | {_cell(p.title)} | {_cell(what[:1].upper() + what[1:] + '.')} | "
            f"{_cell(p.said_fix())} | {p.quick_fix or ''} | {_test(p.id)} |"
        )
    return HEADER + "\n".join(rows) + "\n"


def main() -> None:
    with open(PAGE, encoding="utf-8") as f:
        page = f.read()
    start = page.index(HEADER)
    end = page.index("\n\n", start)
    with open(PAGE, "w", encoding="utf-8") as f:
        f.write(page[:start] + table().rstrip("\n") + page[end:])


if __name__ == "__main__":
    main()
