"""What a recompile made for a changed Python value was made for, to name that compile by (its explanation's madeFor,
as report/compile_names.py names compiles: "forward, recompiled for self.calls == 17"). A value guard's failure says
the value the older compile was made for ("self.calls == 16" failed), not the new one's; the new compile's own guard
is in a later recompile's record, which lists the failed guard of every compile cached then ("0/1: self.calls ==
17"). Where no later record says it (the frame's last compile), "a new value of self.calls". A size or a dtype is
said from the failed guard itself (explain.recompiled_for)."""

from __future__ import annotations

import re

from ..shapes.compiler import Recompile
from . import explain

_ENTRY = re.compile(r"^(?P<id>\d+/\d+): (?P<guard>.+?)(?: #|$)")


def _expression(expr: str) -> str:
    """`L['self'].calls` as the user wrote it, `self.calls`; `L['n']`, `n`."""
    return re.sub(r"\b[LG]\['([^']+)'\]", r"\1", expr)


def _words(recompile: Recompile, value: str | None) -> str | None:
    """ "self.calls == 17" (value None: "a new value of self.calls"); a number Dynamo holds under a name of its own
    (___stack1) by the user's line it was computed at: "the value 0 at line 24"; None for no value guard."""
    guard = explain.VALUE_GUARD.search(explain.without_compile_id(recompile["reason"]))
    if guard is None:
        return None
    if not explain.DYNAMO_NAME.fullmatch(guard["expr"]):
        name = _expression(guard["expr"])
        return f"{name} == {value}" if value is not None else f"a new value of {name}"
    location = recompile.get("location")
    at = f" at line {location['line']}" if location else " of a Python number"
    return f"the value {value}{at}" if value is not None else f"a new value{at}"


def compiled_values(recompiles: list[Recompile]) -> dict[str, str]:
    """Each compile's guarded value, from every recompile's record of the failed guards of the compiles cached then:
    {"0/1": "17"} for "0/1: self.calls == 17"."""
    values: dict[str, str] = {}
    for recompile in recompiles:
        for entry in recompile.get("allReasons") or []:
            found = _ENTRY.match(entry.strip())
            guard = explain.VALUE_GUARD.search(found["guard"]) if found else None
            if found and guard:
                values.setdefault(found["id"], guard["value"])
    return values


def fill(recompiles: list[Recompile]) -> None:
    """Each value guard's recompile explained, what it was made for (its explanation's madeFor)."""
    values = compiled_values(recompiles)
    for recompile in recompiles:
        explanation = recompile.get("explanation")
        if explanation is None or "madeFor" in explanation:
            continue
        words = _words(recompile, values.get(str(recompile.get("compileId"))))
        if words is not None:
            explanation["madeFor"] = words
