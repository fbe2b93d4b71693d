"""The Quick Fix for CUDA graphs skipped on mutated inputs: mark the tensors the compiled code writes into static.

CUDA-graph trees let a graph write into parameters, buffers and tensors marked with torch._dynamo.mark_static_address
(Dynamo makes those static inputs, whose addresses are checked rather than copied: torch/_inductor/cudagraph_utils.py
check_for_mutation); any other input written in place skips CUDA graphs. Making a cache a buffer of the compiled module
moves code around; marking the tensor where the user's code creates it is one line and keeps everything else
(what Hugging Face's static KV cache does). The edit is offered only where the source says for certain which
statement made the tensor: the compiled function's argument (or global) that the graph writes into, the name the
call passed for it, and that name's one assignment, outside any loop, before the call.
"""
from __future__ import annotations

import ast
import re
from typing import Any, Callable

from . import quick_fixes, source_edits
from .source_edits import Source
from .torch_trace import Record

# graph lines that write into a graph input: `l_kcache_0_.index_copy_(...)`, `l_x_[...] = v`, `setitem(l_x_, ...)`
_INPLACE = re.compile(r"\b([lg]_\w+?)\.(?!_)\w+_\(")
_SETITEM = re.compile(r"^\s*([lg]_\w+?)\[.*\]\s*=(?!=)|operator\.setitem\(([lg]_\w+?),", re.M)
_INPUT = re.compile(r"^\s*([lg]_\w+) = ([LG]_\w+)\s*$", re.M)


def mutated_inputs(graph: str) -> list[str]:
    """The graph's inputs (lower-case placeholder names: `l_kcache_0_`) its code writes into."""
    inputs = {m[1] for m in _INPUT.finditer(graph)}
    found = [m[1] for m in _INPLACE.finditer(graph)] + [m[1] or m[2] for m in _SETITEM.finditer(graph)]
    return [name for name in dict.fromkeys(found) if name in inputs]


def _which(placeholder: str, names: list[str]) -> tuple[str, bool] | None:
    """`l_kcache_0_` with `kcache` among `names` -> ("kcache", True): an element of it; `l_kc_` -> ("kc", False)."""
    body = placeholder[2:].rstrip("_")
    for name in sorted(names, key=len, reverse=True):
        if body == name:
            return name, False
        if re.fullmatch(rf"{re.escape(name)}_\d+", body):
            return name, True
    return None


def quick_fix(graph: Record | None, start: Record | None,
              read: Callable[[str], Source | None] = source_edits.read) -> dict[str, Any] | None:
    """The static-address Quick Fix for a compile whose graph writes into its inputs, or None where the source does not
    say for certain where those tensors are made (or they are made in another file than the compiled function)."""
    if graph is None:
        return None
    site = source_edits.call_site(start)
    if site is None:
        return None
    compiled, caller = site
    source = read(compiled["file"])
    fn = source_edits.function_at(source, str(compiled["function"]), compiled["line"]) if source else None
    if source is None or fn is None or not source_edits.imports_torch(source):
        return None
    params = source_edits.parameters(fn)
    module_names = [t.id for s in source.tree.body if isinstance(s, ast.Assign) for t in s.targets if isinstance(t, ast.Name)]
    wanted: list[tuple[str, bool, int]] = []  # (the name that holds it, an element of it, the line its creation precedes)
    for placeholder in mutated_inputs(graph.payload):
        if placeholder.startswith("l_"):
            found = _which(placeholder, params)
            if found is None or caller is None or caller["file"] != compiled["file"]:
                return None
            arg = source_edits.argument(source, caller["line"], fn, found[0])
            if not isinstance(arg, ast.Name):
                return None
            wanted.append((arg.id, found[1], caller["line"]))
        else:  # a global the compiled function writes into: made at the module's top level, before the function
            found = _which(placeholder, module_names)
            if found is None:
                return None
            wanted.append((found[0], found[1], fn.lineno))
    edits: dict[int, dict[str, Any]] = {}
    names: list[str] = []
    for name, elements, before in dict.fromkeys(wanted):
        made = source_edits.creation(source, name, before)
        loop_name = source_edits.free_name(source, "t", "tensor", "static_tensor")
        if made is None or (elements and loop_name is None):
            return None
        if name in names:
            continue
        names.append(name)
        end = made.end_lineno or made.lineno
        statement = quick_fixes.mark_static(name, " " * made.col_offset, elements, loop_name or "")
        if end in edits:
            edits[end]["text"] += "\n" + statement
        else:
            edits[end] = quick_fixes.edit(end, 0, source.line(end), source.line(end) + "\n" + statement)
    return quick_fixes.static_address(names, [edits[line] for line in sorted(edits)]) if edits else None
