"""The mark_dynamic Quick Fix: where a region recompiled because an input's size changed, and the call that passed it
names it (`served(x)`), one line before that call, `torch._dynamo.mark_dynamic(x, 0)`, makes the graph generic in
exactly that dimension (dynamic=True makes every dimension generic). Offered beside the recompile's dynamic=True edit
(explanation.quickFixes); script/shape_fix.py measures it on the script's own calls. Only where it is certain: the
call on one line of the file that defines the compiled function, its statement on that line alone, the argument a
plain name, and torch imported as `torch`."""

from __future__ import annotations

import ast
import copy
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..compiler import quick_fixes, source_edits
from ..compiler.source_edits import Source
from ..shapes.compiler import CompilerInsight, QuickFix
from ..shapes.region import Region

if TYPE_CHECKING:
    from ..compiler.torch_trace import Record

# the guard on a parameter of the compiled function: L['x'] as Dynamo writes it, x as the insight says it
_SIZE = re.compile(r"tensor '(?:L\[')?([A-Za-z_]\w*)(?:'\])?' size mismatch at index (\d+)\.")
_IMPORTS_TORCH = re.compile(r"^import torch\b(?!\.| as)", re.M)
_STATEMENTS = (ast.Expr, ast.Assign, ast.AnnAssign, ast.AugAssign, ast.Return)


def _statement(source: Source, line: int) -> ast.stmt | None:
    """The one simple statement that is the whole of `line`."""
    found = [
        n
        for n in ast.walk(source.tree)
        if isinstance(n, _STATEMENTS) and n.lineno == line and (n.end_lineno or n.lineno) == line
    ]
    return found[0] if len(found) == 1 else None


def quick_fix(
    insight: CompilerInsight, starts: dict[str, Record], read: Callable[[str], Source | None]
) -> QuickFix | None:
    """The edit for the region's size recompiles, or None where any part of it is not certain."""
    marks: dict[tuple[str, int], None] = {}
    call_line, compiled = None, None
    for r in insight["recompiles"]:
        size = _SIZE.search(str(r.get("reason") or ""))
        site = source_edits.call_site(starts.get(r.get("compileId") or ""))
        if size is None or site is None or site[1] is None:
            continue
        marks[(size[1], int(size[2]))] = None
        if call_line not in (None, site[1]):
            return None  # calls from several lines: which to mark before is not one place
        compiled, call_line = site
    if not marks or call_line is None or compiled is None or call_line["file"] != compiled["file"]:
        return None
    source = read(compiled["file"])
    if source is None or not _IMPORTS_TORCH.search(source.text):
        return None
    fn = source_edits.function_at(source, str(compiled["function"]), compiled["line"])
    statement = _statement(source, call_line["line"])
    if fn is None or statement is None:
        return None
    names = []
    for param, dim in marks:
        arg = source_edits.argument(source, call_line["line"], fn, param)
        if not isinstance(arg, ast.Name):
            return None
        names.append(f"torch._dynamo.mark_dynamic({arg.id}, {dim})")
    text, indent = source.segment(statement), source.line(call_line["line"])[: statement.col_offset]
    if text is None or indent.strip():
        return None
    lines = "".join(f"{n}\n{indent}" for n in names)
    edit = quick_fixes.edit(call_line["line"], statement.col_offset, text, f"{lines}{text}")
    return quick_fixes.mark_dynamic(
        ", ".join(n.removeprefix("torch._dynamo.") for n in names), call_line["line"], [edit]
    )


def _items(insight: CompilerInsight) -> list[Any]:
    return [*insight.get("recompileSites", []), *insight["recompiles"]]


def offer(
    insight: CompilerInsight | None, starts: dict[str, Record], read: Callable[[str], Source | None] = source_edits.read
) -> None:
    """The edit offered on each of the region's size recompiles whose fix is dynamic=True (a warm-up's is its own)."""
    fix = quick_fix(insight, starts, read) if insight else None
    if insight is None or fix is None:
        return
    for item in _items(insight):
        explanation = item.get("explanation")
        quick = explanation.get("quickFix") if explanation else None
        if explanation and quick and quick["kind"] == "compile-dynamic" and _SIZE.search(str(item.get("reason"))):
            explanation["quickFixes"] = [copy.deepcopy(fix)]


def share(script_insight: CompilerInsight | None, regions: list[Region]) -> None:
    """The script's own insight lists the same recompiles as its regions (one log, the same compile ids): the edit goes
    there too, so the editor's finding at that line offers it."""
    for region in regions:
        insight = region.get("compiler")
        if insight is None or script_insight is None:
            continue
        for item in _items(insight):
            offered = (item.get("explanation") or {}).get("quickFixes")
            ids = {item.get("compileId"), *(item.get("compileIds") or [])} - {None}
            for theirs in _items(script_insight) if offered else []:
                explanation = theirs.get("explanation")
                if explanation and ids & {theirs.get("compileId"), *(theirs.get("compileIds") or [])}:
                    explanation["quickFixes"] = copy.deepcopy(offered)
