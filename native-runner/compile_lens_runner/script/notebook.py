"""A Jupyter notebook (.ipynb) as one script: its code cells in order, IPython magics skipped and named.

The script is written into the report directory (`notebook/<name>.py`), so the compiler's records, tracebacks and
linecache see real lines; `map_locations` then points every location in the report back at the notebook: `file`
is the .ipynb, `cell` the cell's index in the notebook's cell list, `line` the 1-based line within that cell.
"""

from __future__ import annotations

import io
import json
import os
import re
import sys
import tokenize
from dataclasses import dataclass, field
from typing import Any

from ..errors import RunnerError
from ..shapes.region import Region

# Cell magics whose body is Python (run it, skip the magic line); any other cell magic's body is not Python.
PYTHON_BODY_CELL_MAGICS = {"time", "timeit", "capture", "prun", "debug"}
_LINE_MAGIC = re.compile(r"^\s*(?:[%!]|[\w.]+\s*=\s*[%!])")


@dataclass
class NotebookScript:
    notebook: str
    script: str
    lines: list[tuple[int, int]] = field(default_factory=list)  # script line i+1 -> (cell index, line in cell)
    skipped: list[dict[str, Any]] = field(default_factory=list)
    cells: int = 0

    def summary(self) -> dict[str, Any]:
        """report.settings.notebook: the settings' keys are the schema's to leave open."""
        return {"file": self.notebook, "codeCells": self.cells, "skippedMagics": self.skipped}


def _source(cell: dict[str, Any]) -> str:
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else str(source)


def _statement_starts(previous: list[str]) -> bool:
    """Whether the next line starts a statement: not inside brackets, a string or a backslash continuation
    (so `% n)` continuing a formatted string is not taken for a magic)."""
    try:
        for _ in tokenize.generate_tokens(io.StringIO("\n".join(previous) + "\n").readline):
            pass
    except (tokenize.TokenError, SyntaxError):
        return False
    return True


def convert(path: str, out_dir: str) -> NotebookScript:
    try:
        with open(path, encoding="utf-8") as f:
            cells = json.load(f).get("cells", [])
    except (OSError, ValueError, AttributeError) as exc:
        raise RunnerError(
            "bad-target",
            f"Cannot read the notebook {path}: {exc}",
            "Open it in Jupyter or VS Code and save it again (nbformat 4 JSON).",
        ) from None
    name = re.sub(r"[^\w]", "_", os.path.splitext(os.path.basename(path))[0])
    result = NotebookScript(os.path.abspath(path), os.path.join(out_dir, f"{name}.py"))
    out: list[str] = []
    for index, cell in enumerate(cells):
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        result.cells += 1
        lines = _source(cell).split("\n")
        magic = lines[0].strip()
        if magic.startswith("%%"):
            result.skipped.append({"cell": index, "line": 1, "text": magic})
            if magic[2:].split(" ", 1)[0] not in PYTHON_BODY_CELL_MAGICS:
                continue  # %%bash, %%writefile, ...: the body is not Python
            lines[0] = "pass"
        kept: list[str] = []
        for number, line in enumerate(lines, 1):
            if _LINE_MAGIC.match(line) and _statement_starts(kept):
                result.skipped.append({"cell": index, "line": number, "text": line.strip()})
                kept.append(line[: len(line) - len(line.lstrip())] + "pass")
            else:
                kept.append(line)
            result.lines.append((index, number))
        out.extend(kept)
    os.makedirs(out_dir, exist_ok=True)
    with open(result.script, "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")
    for skip in result.skipped:
        print(
            f"compile-lens: skipped IPython magic in cell {skip['cell']}, line {skip['line']}: {skip['text']}",
            file=sys.stderr,
        )
    return result


def map_warmup_lines(regions: list[Region], nb: NotebookScript) -> None:
    """A warm-up found at another shape (region.shapes.warmup) names its lines bare: each to its cell, the line
    within it (schema 1.36: warmupCell, realCell), as map_locations does a location's (review 8 A1)."""
    for region in regions:
        shapes = region.get("shapes")
        warm = shapes.get("warmup") if shapes else None
        if warm is None:
            continue
        if (line := warm["warmupLine"]) is not None and 0 < line <= len(nb.lines):
            warm["warmupCell"], warm["warmupLine"] = nb.lines[line - 1]
        if (line := warm["realLine"]) is not None and 0 < line <= len(nb.lines):
            warm["realCell"], warm["realLine"] = nb.lines[line - 1]


def map_locations(value: Any, nb: NotebookScript) -> None:
    """Rewrites, in place, every location ({file, line, ...}) in the generated script to the notebook's cell."""
    if isinstance(value, list):
        for item in value:
            map_locations(item, nb)
        return
    if not isinstance(value, dict):
        return
    if value.get("file") == nb.script and isinstance(value.get("line"), int) and 0 < value["line"] <= len(nb.lines):
        cell, line = nb.lines[value["line"] - 1]
        value.update(file=nb.notebook, line=line, cell=cell)
    for item in value.values():
        map_locations(item, nb)
