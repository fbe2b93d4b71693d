"""A warm-up at another shape than the real calls: the region's first calls (the warm-up) ran at one signature from one
line, every later call at another from another line, and the first of those recompiled because a tensor's size
differed. The graph made for the warm-up then serves no real call, and the real calls' compile comes on the first
of them (with automatic dynamic shapes, for a size-generic graph). The recompile's explanation says so, and where the
warm-up's tensor is made by a torch factory call with the size written out, the Quick Fix writes the real calls' size
there (one compile, at the shape that is used; marking the dimension dynamic would make the graph size-generic
instead, and a size of 1 cannot be marked dynamic at all). Before real calls whose size follows traffic (several sizes,
none the warm-up's), the fix is a warm-up at one of their sizes with that dimension marked dynamic: one compile."""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from .. import formats
from ..compiler import explain as guards
from ..compiler import quick_fixes, source_edits
from ..compiler.made_for import recompiled_for
from ..compiler.source_edits import Source
from ..report import shape_text
from ..shapes.common import SourceLocation
from ..shapes.compiler import CompilerInsight, Explanation, QuickFixEdit
from ..shapes.region import Region, RegionCall, WarmupShape
from .shape_facts import Change, changed_dims, guard_name

if TYPE_CHECKING:
    from ..compiler.torch_trace import Record

_SIZE = re.compile(r"tensor '([^']+)' size mismatch at index (\d+)\. expected (\d+), actual (\d+)")
_FACTORIES = {"randn", "rand", "zeros", "ones", "empty", "full"}
# a warm-up is a few calls: more than this many at the first signature are the script's own work
_MAX_WARMUP_CALLS = 3


def _warmup_calls(calls: list[RegionCall]) -> tuple[RegionCall, RegionCall] | None:
    """(the warm-up's first call, the real calls' first call) when the calls are a few at one signature, then all the
    rest at others: one, or sizes that follow traffic (the H200's timm server: a warm-up at batch 1, then batches of 4
    to 32), none of them the warm-up's."""
    calls = [c for c in calls if c.get("side") != "eager"]
    if not calls:
        return None
    first = calls[0]["signature"]
    warm = [c for c in calls if c["signature"] == first]
    rest = calls[len(warm) :]
    if (
        len(warm) > _MAX_WARMUP_CALLS
        or not rest
        or any(c["signature"] == first for c in rest)
        or not calls[0].get("compileIds")
        or not rest[0].get("compileIds")
    ):
        return None
    return calls[0], rest[0]


def _dims(factory: ast.Call) -> list[ast.expr]:
    """The size arguments of torch.randn(2, 8) / torch.zeros((2, 8)) / torch.full((2, 8), v)."""
    name = factory.func.attr if isinstance(factory.func, ast.Attribute) else None
    if (
        name not in _FACTORIES
        or not isinstance(factory.func, ast.Attribute)
        or not (isinstance(factory.func.value, ast.Name) and factory.func.value.id == "torch")
        or not factory.args
    ):
        return []
    if isinstance(factory.args[0], (ast.Tuple, ast.List)):
        return list(factory.args[0].elts)
    return [] if name == "full" else list(factory.args)


def _edit(source: Source, factory: ast.Call, dim: int, was: int, now: int) -> QuickFixEdit | None:
    dims = _dims(factory)
    if dim >= len(dims) or factory.lineno != factory.end_lineno:
        return None
    size = dims[dim]
    if not (isinstance(size, ast.Constant) and type(size.value) is int and size.value == was):
        return None
    text = source.segment(factory)
    if text is None:
        return None
    start, end = size.col_offset - factory.col_offset, (size.end_col_offset or 0) - factory.col_offset
    return quick_fixes.edit(factory.lineno, factory.col_offset, text, f"{text[:start]}{now}{text[end:]}")


def explain(
    calls: list[RegionCall],
    insight: CompilerInsight | None,
    starts: dict[str, Record],
    read: Callable[[str], Source | None] = source_edits.read,
) -> WarmupShape | None:
    """The warm-up's shape as facts (the region's `shapes.warmup`), and in the explanation (and the Quick Fix) of the
    recompile the real calls made where the lines are known; None: no warm-up at another shape."""
    pair = _warmup_calls(calls)
    if pair is None or insight is None:
        return None
    warm, real = pair
    real_ids, warm_ids = real.get("compileIds", []), warm.get("compileIds", [])
    recompile = next((r for r in insight["recompiles"] if r.get("compileId") in real_ids), None)
    location = recompile.get("location") if recompile else None
    # a guard on torch.compile's wrapper's `args[0]` (a compiled nn.Sequential) named as the user's call names it
    said = guards.named_input(recompile["reason"], location.get("code") if location else None) if recompile else ""
    size = _SIZE.search(said)
    if recompile is None or size is None:
        return None
    name, dim, was, now = re.sub(r"^L\['(.+)'\]$", r"\1", size[1]), int(size[2]), int(size[3]), int(size[4])
    changes = _shown_changes(calls, insight)
    raw = _SIZE.search(recompile["reason"])  # the guard's own name: the shape facts' (`args[0]` is "input 0")
    guarded = guard_name(raw[1]) if raw else name
    if len(changes) != 1 or changes[0].fact["dim"] != dim or changes[0].fact["input"] not in (name, guarded):
        return None  # the calls vary in another input or dimension too: a warm-up at one shape serves none of them
    warm_line, real_line = (source_edits.calling_line(starts.get(ids[0])) for ids in (warm_ids, real_ids))
    facts: WarmupShape = {
        "input": name,
        "dim": dim,
        "warmupSize": was,
        "realSize": now,
        "warmupLine": warm_line["line"] if warm_line else None,
        "realLine": real_line["line"] if real_line else None,
        "realCall": real["index"],
        "recompileSeconds": real.get("compileSeconds"),
        "realCalls": sum(1 for c in calls if c["signature"] != warm["signature"]),
    }
    sizes = sorted(set(changes[0].sequence) - {was})
    if len(sizes) > 1:
        facts["realSizes"] = sizes
    if warm_line is None or real_line is None:
        return facts
    if (warm_line["file"], warm_line["line"]) == (real_line["file"], real_line["line"]):
        return None  # one line made both: the size comes from the data, not from a warm-up
    source = read(warm_line["file"])
    code = (
        f" (`{warm_line_code}`)" if (warm_line_code := source.line(warm_line["line"]).strip() if source else "") else ""
    )
    if len(sizes) > 1:
        explanation = _with_traffic(name, dim, was, sizes, warm_line["line"], code, real_line["line"])
    else:
        edit = _warmup_edit(source, source_edits.call_site(starts.get(warm_ids[0])), warm_line, name, dim, was, now)
        explanation = _at_one_size(name, dim, was, now, warm_line["line"], code, real_line["line"], edit)
    made_for = recompiled_for(recompile["reason"])  # the recompile named by it, as made_for.fill names any other's
    if made_for is not None:
        explanation["madeFor"] = made_for
    _put(insight, recompile.get("compileId"), explanation)
    return facts


def _warmup_edit(
    source: Source | None,
    site: tuple[SourceLocation, SourceLocation | None] | None,
    warm_line: SourceLocation,
    name: str,
    dim: int,
    was: int,
    now: int,
) -> QuickFixEdit | None:
    """The edit that writes the real calls' size into the warm-up's torch factory call, where the compiled function is
    the user's, in the warm-up's file (its parameters say which argument is the guarded input)."""
    if source is None or site is None or site[0]["file"] != warm_line["file"]:
        return None
    compiled = site[0]
    fn = source_edits.function_at(source, str(compiled["function"]), compiled["line"])
    arg = source_edits.argument(source, warm_line["line"], fn, name) if fn else None
    if isinstance(arg, ast.Name):
        made = source_edits.creation(source, arg.id, warm_line["line"])
        arg = made.value if isinstance(made, (ast.Assign, ast.AnnAssign)) else None
    return _edit(source, arg, dim, was, now) if isinstance(arg, ast.Call) else None


def _shown_changes(calls: list[RegionCall], insight: CompilerInsight) -> list[Change]:
    """The dimensions the calls' signatures show changing, the warm-up's among them (named by the guard that failed
    on it), each with its size at every call (uncapped: the real sizes said are all of them)."""
    return [c for c in changed_dims([c for c in calls if c.get("side") != "eager"], insight) if c.sequence]


def _with_traffic(name: str, dim: int, was: int, sizes: list[int], warm: int, code: str, real: int) -> Explanation:
    """A warm-up at a size no real call used, before calls whose size follows traffic: one compile at a size they use,
    with the dimension marked dynamic, serves them all (a warm-up at their first size alone would compile again at the
    next one)."""
    fix = shape_text.warmup_dynamic_fix(name, dim, was)
    said: Explanation = {
        "kind": guards.WARMUP,
        "what": (
            f"{guards.WARMUP_SAID}{warm}{code} passed '{name}' with size {was} in dimension {dim}; the real calls "
            f"(line {real}) pass {shape_text.sizes_said(sizes)}, never {was}, so the graph compiled for the warm-up "
            "serves none of them and the first real call compiled again."
        ),
        "fix": formats.fix_words(fix),
    }
    if was != 1:  # dynamic=True compiles a size of 1 apart as well
        said["quickFix"] = quick_fixes.compile_dynamic()
    return said


def _at_one_size(
    name: str, dim: int, was: int, now: int, warm: int, code: str, real: int, edit: QuickFixEdit | None
) -> Explanation:
    return {
        "kind": guards.WARMUP,
        "what": (
            f"{guards.WARMUP_SAID}{warm}{code} passed '{name}' with size {was} in dimension {dim}; the "
            f"real calls (line {real}) pass {now}, so the graph compiled for the warm-up serves none of "
            "them and the first real call compiled again."
        ),
        "fix": (
            (
                f"warm up at the shape the real calls use: {edit['text']} at line {warm}. One compile then "
                "serves every call, specialised to that size."
            )
            if edit
            else (
                f"warm up at the shape the real calls use (size {now} in dimension {dim} of '{name}'): one compile then "
                "serves every call, specialised to that size."
            )
        )
        + " If that size does vary in use, compile with dynamic=True instead.",
        "quickFix": quick_fixes.warmup_shape(warm, [edit]) if edit else quick_fixes.compile_dynamic(),
    }


def _put(insight: CompilerInsight, compile_id: str | None, explanation: Explanation) -> None:
    for r in insight["recompiles"]:
        if r.get("compileId") == compile_id:
            r["explanation"] = explanation
    for site in insight.get("recompileSites", []):
        if compile_id is None or compile_id in site.get("compileIds", []):  # a site has no compileId of its own
            site["explanation"] = explanation


def share(script_insight: CompilerInsight | None, regions: list[Region]) -> None:
    """The script's own insight lists the same recompiles as its regions (one log, the same compile ids): a region's
    explanation said from its calls or source (a warm-up's, a grad mode's switch) goes there too, so the editor's
    finding at that line (one per line and reason) says it."""
    for region in regions:
        insight = region.get("compiler")
        for r in insight["recompiles"] if insight else []:
            explanation = r.get("explanation")
            if explanation and guards.region_said(explanation) and script_insight:
                _put(script_insight, r.get("compileId"), explanation)
