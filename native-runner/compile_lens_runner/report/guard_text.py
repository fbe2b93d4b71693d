"""Where a failed guard's value is in the user's code (schema 1.36: a failed guard's `sourceText`), said beside
PyTorch's guard, which stays quoted as PyTorch wrote it: "In your code, L['x'] is x, forward's argument (fused.py:10)".
The guard's own trailing comment ("# return F.linear(...)  # nn/modules/linear.py:134 in forward") is the line where
Dynamo first used the value, often PyTorch's own code (the glossary says so): it was the hover's only "where" (review 8
A13). Said from the compiler record each time the report is written (answer.attach)."""

from __future__ import annotations

import re

from .. import formats
from ..shapes.compiler import CompiledFrame
from ..shapes.report import Report
from .compile_names import function_name

_LOCAL = re.compile(r"\bL\['([A-Za-z_]\w*)'\]((?:\.[A-Za-z_]\w*)*)")
_DEF = re.compile(r"^\s*(?:async\s+)?def\s+\w+\s*\((.*)")
_PARAMETER = re.compile(r"(?:^|,)\s*\*{0,2}([A-Za-z_]\w*)")


def _arguments(code: str) -> set[str] | None:
    """The parameter names of a `def` line ("def forward(self, x: torch.Tensor) -> torch.Tensor:"); None for another
    line, which says none (a decorator the function's code starts at; a part resumed after a graph break starts at
    the break's line)."""
    match = _DEF.match(code)
    return set(_PARAMETER.findall(re.sub(r"\[[^\]]*\]", "", match[1]))) if match else None


def source_text(guard: str | None, frame: CompiledFrame | None) -> str | None:
    """ "In your code, L['x'] is x, forward's argument (fused.py:10)", "…, L['self'].calls is self.calls, of forward's
    argument self (…)", "…, L['x'] is x in step (train.py:40)" where the frame's line is not its `def`; None where the
    guard names no local of a frame in the user's files."""
    local = _LOCAL.search(guard or "")
    where = frame.get("location") if frame else None
    if local is None or frame is None or not where or not frame.get("function"):
        return None
    function = function_name(str(frame["function"]), where)
    arguments = _arguments(where.get("code") or "")
    kind = None if arguments is None else "argument" if local[1] in arguments else "local variable"
    if kind is None:  # the line does not say which: "x in step"
        said = f"in {function}"
    else:
        said = f"{function}'s {kind}" if not local[2] else f"of {function}'s {kind} {local[1]}"
    place = formats.place(where["file"], where["line"], where.get("cell"))
    return f"In your code, {local[0]} is {local[1]}{local[2]}{' ' if kind is None else ', '}{said} ({place})"


def attach(report: Report) -> None:
    """Each failed guard's sourceText in every compiler record, from the frame of the compile whose guard it is."""
    for entry in [*report["modes"], *(report.get("regions") or [])]:
        compiler = entry.get("compiler")
        frames = {f["compileId"]: f for f in (compiler.get("frames") or [] if compiler else [])}
        for compiled in (compiler.get("compiles") or []) if compiler else []:
            for failed in compiled["failedGuards"]:
                said = source_text(failed.get("guard"), frames.get(failed.get("compileId")))
                if said is None:
                    failed.pop("sourceText", None)
                else:
                    failed["sourceText"] = said
