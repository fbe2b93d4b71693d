"""Recompiles grouped into findings: those that recur at one site are one, with the sizes or values they went
through; a library frame's recompile on a change of the user's input that the frame the user's call entered recompiled
on too is part of that one (the call recompiled in parts, around its graph breaks); a value the user's line made,
guarded again in PyTorch's code, is the user's line's."""

from __future__ import annotations

import re

from ..shapes.compiler import Explanation, Recompile, RecompileSite
from .explain import GUARD_FROM, LIBRARY_SAID, SIZE_GUARD, VALUE_GUARD, explain, pattern, user_name, without_compile_id


def _values(reasons: list[str]) -> list[str]:
    """The values a value guard saw, in order; for a size guard the sizes: the one compiled first, then each that
    recompiled."""
    sizes = [match for match in map(SIZE_GUARD.search, reasons) if match]
    if sizes:
        seen = [sizes[0][4], *(match[5] for match in sizes)]
        return [v for i, v in enumerate(seen) if i == 0 or v != seen[i - 1]]
    values: list[str] = []
    for reason in reasons:
        match = VALUE_GUARD.search(reason)
        if match and match["value"] not in values:
            values.append(match["value"])
    return values


def sequence(values: list[str]) -> str:
    """ "16 → 32 → 48", a long one cut in the middle: "16 → 32 → 48 → 64 → … → 128"."""
    shown = values if len(values) <= 6 else [*values[:4], "…", values[-1]]
    return " → ".join(shown)


def site_explanation(site: RecompileSite, reasons: list[str]) -> Explanation | None:
    """A site's words: for recompiles that recur there, what changed and the sequence it went through (the sizes of
    a size guard, the values of a value guard); else its first recompile's (as recorded, else from its reason)."""
    first = site.get("explanation") or explain(reasons[0])
    values = site.get("values") or []
    size = SIZE_GUARD.search(reasons[0])
    if site["count"] < 2 or len(values) < 2:
        return first
    if size and size[2] == "size" and first and first["what"].startswith("Input "):
        what = (
            f"{user_name(size[1])} changed size in dimension {size[3]}: {sequence(values)}; the compiled code was "
            "specialised to each size in turn, so every new one compiled again."
        )
    else:
        what = f"{first['what'] if first else 'A guarded value changed.'} In order: {sequence(values)}."
    words: Explanation = {
        "what": what[:1].upper() + what[1:],
        "fix": first["fix"] if first else "See the recompiles' reasons (TORCH_LOGS=recompiles).",
    }
    if first and first.get("quickFix"):
        words["quickFix"] = first["quickFix"]
    return words


def _size_change(recompile: Recompile) -> tuple[str, ...] | None:
    """What a size guard saw change (its dimension, old and new size) and the call that made it (the trigger), for
    telling one change seen by two compiled frames; None for any other guard. The trigger tells no calls apart where
    it is a constant ("a call made by the script", or none in a log), so the dimension must match too: a KV cache's
    length going 1 → 2 is not input_ids' batch going 1 → 2. (The user's line is no test of one call: DDP's wrapper
    sees the change at the calling line, the model's forward at its own.)"""
    size = SIZE_GUARD.search(without_compile_id(recompile["reason"]))
    return (size[3], size[4], size[5], str(recompile.get("trigger"))) if size and size[2] == "size" else None


def _seen_by(recompile: Recompile, recompiles: list[Recompile]) -> Recompile | None:
    """The recompile of the user's own frame (or input) on the same size change, in the same call, as this library
    frame's recompile (or torch.compile's wrapper's, around DistributedDataParallel, on its `args[0]`); None: there is
    none, or this one is not a library's."""
    change = _size_change(recompile)
    if change is None or not _through_library(recompile):
        return None
    return next(
        (
            other
            for other in recompiles
            if _size_change(other) == change and other.get("explanation") is not None and not _through_library(other)
        ),
        None,
    )


_CAUSED = ", which caused it."


def _said_with_cause(recompiles: list[Recompile]) -> None:
    """Each library frame's recompile that a change of the user's input caused (_seen_by) says that input, and takes
    its fix: the fix acts on the input the user passes, not on the tensor the library made of it. In place, and once:
    words already said with their cause are kept (group_sites may see a list twice)."""
    for recompile in recompiles:
        host = _seen_by(recompile, recompiles)
        said, cause = recompile.get("explanation"), host.get("explanation") if host else None
        if said is None or cause is None or not LIBRARY_SAID.search(said["what"]) or said["what"].endswith(_CAUSED):
            continue  # torch.compile's wrapper's `args[0]`: the user's input itself, said as it is
        first = cause["what"].split("; ", 1)[0]
        kept = said["what"].rsplit(" You do not hold", 1)[0]
        recompile["explanation"] = {
            **cause,
            "what": f"{kept} The call's {first[:1].lower()}{first[1:]}{_CAUSED}",
        }


def seen_through_library(recompile: Recompile, recompiles: list[Recompile]) -> bool:
    """A library frame's recompile on a change of the user's input that a frame the user's call entered recompiled on
    too: one change of the user's input, said once, at the user's frame (_seen_by)."""
    return _seen_by(recompile, recompiles) is not None


_UNNAMED_INPUT = re.compile(r"tensor 'args\[\d+\]'")


def _through_library(recompile: Recompile) -> bool:
    """Seen by a library frame, or by torch.compile's wrapper around a torch.nn module, which knows the user's input
    only as `args[0]`."""
    said = recompile.get("explanation")
    return said is not None and (
        bool(LIBRARY_SAID.search(said["what"])) or bool(_UNNAMED_INPUT.search(recompile["reason"]))
    )


def _key(recompile: Recompile) -> tuple[str | None, int | None, str]:
    loc = recompile.get("location")
    return (loc["file"] if loc else None, loc["line"] if loc else None, pattern(recompile["reason"]))


def _in_parts(words: Explanation | None, reason: str, count: int, parts: int) -> Explanation | None:
    """A site whose recompiles each recompiled several compiled frames (the parts of the call between its graph breaks:
    transformers' wrapper, the model's forward, its loss), said as one recompile of the call, in parts (issue 44
    point 4: findings on one line grouped)."""
    size = SIZE_GUARD.search(without_compile_id(reason))
    if words is None or parts <= count or size is None:
        return words
    first = words["what"].split("; ", 1)[0]
    if count == 1:
        what = (
            f"{first}; the compiled code had been specialised to {size[4]}, so the call recompiled {parts} parts of "
            f"it (the graphs around its graph breaks) for {size[5]}."
        )
    else:
        what = f"{words['what']} Each time the call recompiled in parts (the graphs around its graph breaks): {parts} compiles in all."
    return {**words, "what": what}


def group_sites(recompiles: list[Recompile]) -> list[RecompileSite]:
    """One entry per (source line, guard pattern): recompiles that recur at one site are one finding with a count. A
    library frame's recompile on a change the user's own frame recompiled on too is part of that one (_seen_by): its
    compile id is listed with it, as evidence. Each such recompile's own words are first said with that cause, in
    place (_said_with_cause, which mutates `recompiles`' explanations, once: grouping a list again says the same):
    one order for every caller."""
    _said_with_cause(recompiles)
    sites: dict[tuple[str | None, int | None, str], tuple[RecompileSite, list[str]]] = {}  # with each site's reasons
    seen = {id(r): host for r in recompiles if (host := _seen_by(r, recompiles)) is not None}
    for r in (r for r in recompiles if id(r) not in seen):
        key = _key(r)
        found = sites.get(key)
        if found is None:
            sites[key] = (
                {
                    "pattern": key[2],
                    "reason": r["reason"],
                    "count": 1,
                    "compileIds": [r.get("compileId")],
                    "location": r.get("location"),
                    "trigger": r.get("trigger"),
                    "inTimedRegion": bool(r.get("inTimedRegion")),
                    "hint": r.get("hint"),
                    "explanation": r.get("explanation"),
                },
                [r["reason"]],
            )
            continue
        site, reasons = found
        site["count"] += 1
        site.setdefault("compileIds", []).append(r.get("compileId"))
        site["inTimedRegion"] = site.get("inTimedRegion", False) or bool(r.get("inTimedRegion"))
        reasons.append(r["reason"])
    for r in (r for r in recompiles if id(r) in seen):
        site, _ = sites[_key(seen[id(r)])]
        site.setdefault("compileIds", []).append(r.get("compileId"))
        site["inTimedRegion"] = site.get("inTimedRegion", False) or bool(r.get("inTimedRegion"))
    out = []
    for site, reasons in _joined(list(sites.values())):
        values = _values(reasons)
        site["values"] = values if len(values) > 1 and site["count"] > 1 else []
        parts = len(site.get("compileIds", []))
        site["explanation"] = _in_parts(site_explanation(site, reasons), reasons[0], site["count"], parts)
        out.append(site)
    return out


def _fix(site: RecompileSite) -> str | None:
    said = site.get("explanation")
    return said["fix"] if said else None


def _off_the_line(site: RecompileSite) -> bool:
    """A value guard whose code is not the user's line it is placed at: PyTorch's own code that took the value over
    (graphbreak.py's random head index, guarded again at ModuleList's `idx = operator.index(idx)`)."""
    guard = GUARD_FROM.search(site["reason"])
    location = site.get("location")
    code = (location.get("code") if location else None) or ""
    return guard is not None and bool(code) and guard["code"].strip() not in code


def _joined(sites: list[tuple[RecompileSite, list[str]]]) -> list[tuple[RecompileSite, list[str]]]:
    """A site whose guard is PyTorch's code (_off_the_line) joins the site at the same line with the same fix whose
    guard is the user's line: one value the user's line made, recompiled on twice, is one finding, said in the user's
    code (issue 44 point 4: findings on one line grouped)."""
    hosts = [(site, reasons) for site, reasons in sites if not _off_the_line(site)]
    out: list[tuple[RecompileSite, list[str]]] = []
    for site, reasons in sites:
        host = next(
            (
                (other, said)
                for other, said in hosts
                if _off_the_line(site)
                and _fix(site) is not None
                and other.get("location") == site.get("location")
                and _fix(other) == _fix(site)
            ),
            None,
        )
        if host is None:
            out.append((site, reasons))
            continue
        other, said = host
        other["count"] += site["count"]
        other["compileIds"] = [*other.get("compileIds", []), *site.get("compileIds", [])]
        other["inTimedRegion"] = other.get("inTimedRegion", False) or site.get("inTimedRegion", False)
        said += reasons
    return out
