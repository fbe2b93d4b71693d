"""What each recompile was made for, to name that compile by (its explanation's madeFor, as report/compile_names.py
names compiles: "forward, recompiled for x's size 16 in dimension 0", "forward, recompiled for self.calls == 17"), never Dynamo's
count where the record says more. A changed input's failed guard says what the new call brought (a size, a dtype, a
layout, grad mode). A value guard's failure says only the value the older compile was made for ("self.calls == 16"
failed); the new compile's own guard is in a later recompile's record, which lists the failed guard of every compile
cached then ("0/1: self.calls == 17"); where none follows (the frame's last compile), by the values the earlier
compiles were made for, which it was not: "self.calls not in (16, 17, 18)"."""

from __future__ import annotations

import re

from ..shapes.compiler import Recompile
from . import explain

_ENTRY = re.compile(r"^(?P<id>\d+/\d+): (?P<guard>.+?)(?: #|$)")
_REQUIRED = re.compile(r"expected requires_grad=(\d)")


def _input(name: str) -> str | None:
    """ "x" (also for a keyword argument's `kwargs['x']`); "the 1st argument" for a wrapper's args[0]; None for a name
    that is not the user's (a subscript, an attribute of an input)."""
    argument = explain.argument_name(name)
    said = explain.user_expr(name)
    return f"the {argument}" if argument else said if said.isidentifier() else None


def _changed_input(text: str) -> str | None:
    """What the call that recompiled brought, as its failed guard says: "x's size 16 in dimension 0" (every dimension
    alike, as the guard's sentence says it: dimension 0 is not always the batch; review 8 A14), "x's stride 8 in
    dimension 0", "x as float16", "x with
    requires_grad", "calls under torch.inference_mode()", "the other grad mode"; None for any other guard."""
    size, dtype = explain.SIZE_GUARD.search(text), explain.DTYPE_GUARD.search(text)
    grad, keys = explain.REQUIRES_GRAD_GUARD.search(text), explain.KEYS_GUARD.search(text)
    tensor = size or dtype or grad
    name = _input(tensor[1]) if tensor else None
    if size and name:
        dim, now = int(size[3]), size[5]
        if size[2] == "stride":
            return f"{name}'s stride {now} in dimension {dim}"
        return f"{name}'s size {now} in dimension {dim}"
    if dtype and name:
        return f"{name} as {dtype[3]}"
    if grad and name and (required := _REQUIRED.search(text)):
        return f"{name} {'without' if required[1] == '1' else 'with'} requires_grad"
    if keys:
        expected, actual = ({k.strip() for k in group.split(",") if k.strip()} for group in (keys[2], keys[3]))
        if (expected ^ actual) and all(explain.AUTOGRAD_ONLY.match(k) for k in expected ^ actual):
            return f"calls {'under' if expected > actual else 'outside'} torch.inference_mode()"
    if "GLOBAL_STATE changed" in text and "grad_mode" in text:
        return "the other grad mode"
    return None


def recompiled_for(reason: str) -> str | None:
    """What a recompile's failed guard says the new compile was made for (_changed_input); None for a value guard
    (compiled_values) or one Compile Lens has no words for."""
    return _changed_input(explain.without_compile_id(reason))


_SUBSCRIPT_CALL = re.compile(r"\[\s*(?P<callee>[A-Za-z_][\w.]*)\([^\[\]]*\)\s*\]")


def _whose(recompile: Recompile) -> tuple[str, str]:
    """Whose a number Dynamo holds under a name of its own (___stack1) is, as the user's line computes it, and where
    (review 10 C8: "the value 0 at line 24" said no whose): the call the line indexes with, ("np.random.randint(…)",
    " at line 24") (`self.heads[np.random.randint(0, len(self.heads))]`: the index a list or ModuleList is
    subscripted with is the number guarded), else ("line 24's number", ""); ("a Python number", "") where no line is
    known."""
    location = recompile.get("location")
    if not location:
        return "a Python number", ""
    indexed = _SUBSCRIPT_CALL.findall(location.get("code") or "")
    line = location["line"]
    return (f"{indexed[0]}(…)", f" at line {line}") if len(indexed) == 1 else (f"line {line}'s number", "")


def _values(values: list[str]) -> str:
    """ "0, 1, 2"; past four, "16, 17, …, 23"."""
    return ", ".join(values if len(values) <= 4 else [*values[:2], "…", values[-1]])


def _value(recompile: Recompile, value: str | None, earlier: list[str]) -> str | None:
    """ "self.calls == 17"; a number Dynamo holds under a name of its own (___stack1) by whose it is (_whose),
    "np.random.randint(…) == 0 at line 24"; where the compile's own value is in no record (a frame's last compile),
    by the values it was not, one form for the series (review 10 E10/C11: "self.calls == 1", "== 2", then "a new value
    of self.calls"): "self.calls not in (0, 1, 2)", "self.calls != 16" (earlier: the values of the frame's earlier
    compiles, in their order), "a new value of self.calls" where none is known; None for no value guard."""
    reason = explain.without_compile_id(recompile["reason"])
    guard = explain.VALUE_GUARD.search(reason) or explain.LEN_GUARD.search(reason)
    if guard is None:
        return None
    name, place = _whose(recompile) if explain.DYNAMO_NAME.fullmatch(guard["expr"]) else (guard["expr"], "")
    name = re.sub(r"\b[LG]\['([^']+)'\]", r"\1", name)  # `L['self'].calls` as written, `self.calls`
    name = f"len({name})" if guard.re is explain.LEN_GUARD else name
    if value is not None:
        return f"{name} == {value}{place}"
    if earlier:
        return f"{name} {f'!= {earlier[0]}' if len(earlier) == 1 else f'not in ({_values(earlier)})'}{place}"
    return f"a new value of {name}{place}"


def compiled_values(recompiles: list[Recompile]) -> dict[str, str]:
    """Each compile's guarded value, from every recompile's record of the failed guards of the compiles cached then:
    {"0/1": "17"} for "0/1: self.calls == 17"."""
    values: dict[str, str] = {}
    for recompile in recompiles:
        for entry in recompile.get("allReasons") or []:
            found = _ENTRY.match(entry.strip())
            guard = found and (explain.VALUE_GUARD.search(found["guard"]) or explain.LEN_GUARD.search(found["guard"]))
            if found and guard:
                values.setdefault(found["id"], guard["value"])
    return values


def fill(recompiles: list[Recompile]) -> None:
    """Each explained recompile's madeFor, where not said already (a warm-up's: script/warmup_shape.py) and where the
    changed tensor is the user's (not one library code made: explain.LIBRARY_SAID)."""
    values = compiled_values(recompiles)
    for recompile in recompiles:
        explanation = recompile.get("explanation")
        if explanation is None or "madeFor" in explanation or explain.LIBRARY_SAID.search(explanation["what"]):
            continue
        location = recompile.get("location")
        named = explain.named_input(recompile["reason"], location.get("code") if location else None)
        frame, _, attempt = str(recompile.get("compileId")).partition("/")
        earlier = [v for n in range(int(attempt) if attempt.isdigit() else 0) if (v := values.get(f"{frame}/{n}"))]
        words = recompiled_for(named) or _value(recompile, values.get(str(recompile.get("compileId"))), earlier)
        if words is not None:
            explanation["madeFor"] = words
