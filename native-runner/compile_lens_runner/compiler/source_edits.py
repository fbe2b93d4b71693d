"""Reading the user's source for the Quick Fixes worked out here (quick_fixes.py): the compiled function's parameters,
the argument a call passed for one of them, and the one statement that created a name. Only what is certain is
answered (a name assigned once, outside any loop, before the call): otherwise None, and no Quick Fix is offered."""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..shapes.common import SourceLocation
from .user_code import is_user_file

if TYPE_CHECKING:
    from .torch_trace import Record


@dataclass(frozen=True)
class Source:
    text: str
    tree: ast.Module

    def line(self, number: int) -> str:
        lines = self.text.split("\n")
        return lines[number - 1] if 0 < number <= len(lines) else ""

    def segment(self, node: ast.AST) -> str | None:
        return ast.get_source_segment(self.text, node)


@functools.lru_cache(maxsize=32)
def _parse(path: str, mtime: float) -> Source | None:
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        return Source(text, ast.parse(text))
    except (OSError, UnicodeDecodeError, SyntaxError, ValueError):
        return None


def read(path: str) -> Source | None:
    """The file as it is on this machine now (None for a log's file that is not here)."""
    import os

    try:
        return _parse(path, os.path.getmtime(path))
    except OSError:
        return None


def function_at(source: Source, name: str, first_line: int) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    """The def of `name` whose code starts at `first_line` (co_firstlineno: its first decorator's line if decorated)."""
    for node in ast.walk(source.tree):
        if (
            isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            and node.name == name
            and first_line in {node.lineno, *(d.lineno for d in node.decorator_list)}
        ):
            return node
    return None


def parameters(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> list[str]:
    """Positional parameters in order, then keyword-only ones."""
    a = fn.args
    return [p.arg for p in (*a.posonlyargs, *a.args, *a.kwonlyargs)]


def argument(source: Source, line: int, fn: ast.FunctionDef | ast.AsyncFunctionDef, param: str) -> ast.expr | None:
    """The expression the call at `line` passed for `fn`'s parameter `param` (a method's `self` is bound already), when
    exactly one call on that line can be the one (no *args / **kwargs to guess through)."""
    names = parameters(fn)
    positional = [p.arg for p in (*fn.args.posonlyargs, *fn.args.args)]
    if positional[:1] == ["self"]:
        positional, names = positional[1:], names[1:]
    if param not in names:
        return None
    found: list[ast.expr] = []
    for node in ast.walk(source.tree):
        if not isinstance(node, ast.Call) or not node.lineno <= line <= (node.end_lineno or node.lineno):
            continue
        if any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
            continue
        if _torch_call(node.func) or len(node.args) > len(positional):
            continue
        keyword = next((k.value for k in node.keywords if k.arg == param), None)
        index = positional.index(param) if param in positional else None
        if keyword is not None:
            found.append(keyword)
        elif index is not None and index < len(node.args):
            found.append(node.args[index])
    return found[0] if len(found) == 1 else None


def _torch_call(func: ast.expr) -> bool:
    """torch.tensor(...), torch.nn.functional.relu(...): PyTorch's own function, not the compiled one."""
    while isinstance(func, ast.Attribute):
        func = func.value
    return isinstance(func, ast.Name) and func.id == "torch"


def _enclosing_scope(tree: ast.Module, line: int) -> ast.AST:
    best: ast.AST = tree
    for node in ast.walk(tree):
        if (
            isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            and node.lineno <= line <= (node.end_lineno or node.lineno)
            and (best is tree or node.lineno >= getattr(best, "lineno", 0))
        ):
            best = node
    return best


def _own_statements(scope: ast.AST, in_loop: bool = False) -> Iterator[tuple[ast.stmt, bool]]:
    """The scope's statements, nested blocks included but not nested functions or classes, each with whether a loop
    holds it."""
    for field in ("body", "orelse", "finalbody", "handlers"):
        for node in getattr(scope, field, []) or []:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                continue
            yield node, in_loop
            yield from _own_statements(node, in_loop or isinstance(node, (ast.For, ast.AsyncFor, ast.While)))
    for case in getattr(scope, "cases", []) or []:
        yield from _own_statements(case, in_loop)


def _binds(node: ast.AST, name: str) -> bool:
    return any(
        isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, (ast.Store, ast.Del)) for n in ast.walk(node)
    )


def creation(source: Source, name: str, before_line: int) -> ast.stmt | None:
    """The one statement that binds `name` in the scope around `before_line`, when it is an assignment made once,
    outside any loop, before that line; None otherwise."""
    scope = _enclosing_scope(source.tree, before_line)
    binding = [
        (s, loop)
        for s, loop in _own_statements(scope)
        if not isinstance(s, (ast.If, ast.With, ast.AsyncWith, ast.Try, ast.For, ast.AsyncFor, ast.While))
        and _binds(s, name)
    ]
    # a loop's target binds the name too
    binding += [
        (s, True)
        for s, _ in _own_statements(scope)
        if isinstance(s, (ast.For, ast.AsyncFor, ast.With, ast.AsyncWith))
        and any(
            _binds(t, name)
            for t in (
                [s.target]
                if isinstance(s, (ast.For, ast.AsyncFor))
                else [i.optional_vars for i in s.items if i.optional_vars is not None]
            )
        )
    ]
    if len(binding) != 1:
        return None
    statement, in_loop = binding[0]
    if (
        in_loop
        or not isinstance(statement, (ast.Assign, ast.AnnAssign))
        or (statement.end_lineno or statement.lineno) >= before_line
    ):
        return None
    return statement


def _stack(start: Record) -> list[SourceLocation]:
    return [
        {
            "file": start.strings.get(f.get("filename"), str(f.get("filename"))),
            "line": int(f.get("line") or 0),
            "function": f.get("name"),
        }
        for f in start.meta.get("stack", []) or []
    ]


def call_site(start: Record | None) -> tuple[SourceLocation, SourceLocation | None] | None:
    """From a compile's dynamo_start: the compiled function's frame (file, line: its co_firstlineno, function) when it
    is the user's, and the user's line that called it (None when no user frame did)."""
    if start is None:
        return None
    frames = _stack(start)
    if not frames or not is_user_file(frames[-1]["file"]):
        return None
    return frames[-1], next((f for f in reversed(frames[:-1]) if is_user_file(f["file"])), None)


def calling_line(start: Record | None) -> SourceLocation | None:
    """From a compile's dynamo_start: the user's line whose call the compile was for, the compiled function the user's
    (call_site) or a library's (timm's ResNet `forward`, called by the user's `fast(x)`); None where no user frame
    called it."""
    site = call_site(start)
    if site is not None or start is None:
        return site[1] if site else None
    return next((f for f in reversed(_stack(start)) if is_user_file(f["file"])), None)
