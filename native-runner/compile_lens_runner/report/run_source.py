"""What the user ran, as the report's sentences name it: "script", or "notebook" where the run was a notebook's code
cells (settings.notebook, script/mode.py): "the notebook's 5 calls of it", "52.5 s compiling in the notebook's own
calls" (review 19X X4: a notebook's region said "the script's" calls)."""

from __future__ import annotations

from ..shapes.report import Report

SCRIPT = "script"
NOTEBOOK = "notebook"


def noun(report: Report) -> str:
    return NOTEBOOK if (report.get("settings") or {}).get("notebook") else SCRIPT
