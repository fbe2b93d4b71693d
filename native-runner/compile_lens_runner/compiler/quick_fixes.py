"""The Quick Fixes the editor offers (schema `$defs/quickFix`): a finding whose fix is a mechanical edit of the user's
file carries one. Every text of them is here (titles, the statements inserted, their comments); the editor only
applies them (extension/editor/quickFixes.ts):
- a setting (`statement`, `comment`): one line inserted after the file's imports, before any torch.compile;
- compile-dynamic: dynamic=True added to the file's one torch.compile call (the editor finds the call);
- mark-dynamic: a torch._dynamo.mark_dynamic line before the call of the compiled code (an edit, as below);
- edits the runner worked out from the user's source (`edits`): each replaces the text of one line's range, and is
  applied only while that range still holds `expect` (the file as the run read it).
"""

from __future__ import annotations

from ..shapes.compiler import QuickFix, QuickFixEdit

_MARK = "Compile Lens quick fix:"

# kind: (title, statement, why)
_SETTINGS = {
    "fastpath-off": (
        "Turn the transformer fast path off before compiling",
        "torch.backends.mha.set_fastpath_enabled(False)",
        "the fused inference fast path breaks torch.compile; the plain ops compile",
    ),
    "move-print": (
        "Let torch.compile print after the graph runs (no graph break)",
        "torch._dynamo.config.reorderable_logging_functions.add(print)",
        "print() is deferred to after the compiled graph instead of breaking it",
    ),
}


def setting(kind: str) -> QuickFix:
    title, statement, why = _SETTINGS[kind]
    return {"kind": kind, "title": f"Compile Lens: {title}", "statement": statement, "comment": f"{_MARK} {why}"}


def compile_dynamic() -> QuickFix:
    return {"kind": "compile-dynamic", "title": "Compile Lens: Compile with dynamic=True (one graph for every size)"}


def edit(line: int, column: int, expect: str, text: str) -> QuickFixEdit:
    """Replace `expect`, found at 1-based `line` from 0-based `column`, with `text` (which may span lines)."""
    return {"line": line, "column": column, "endColumn": column + len(expect), "expect": expect, "text": text}


def mark_dynamic(marks: str, line: int, edits: list[QuickFixEdit]) -> QuickFix:
    return {
        "kind": "mark-dynamic",
        "title": f"Compile Lens: Mark the dimension that changes dynamic before the call (line {line}: {marks})",
        "edits": edits,
    }


def warmup_shape(line: int, edits: list[QuickFixEdit]) -> QuickFix:
    return {
        "kind": "warmup-shape",
        "title": f"Compile Lens: Warm up at the shape the real calls use (line {line})",
        "edits": edits,
    }
