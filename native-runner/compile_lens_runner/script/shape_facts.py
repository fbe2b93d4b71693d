"""A region's shape story as facts (report: region `shapes`, schema 1.21): which input dimension changed and the sizes
seen, the graphs that made, automatic dynamic's second compile, the recompile limit and the calls it ran eagerly, a
warm-up at another shape, CUDA graphs recorded per size and the memory they hold, and a decode loop's growth (its number reads per token).
From the region's calls as the report carries them (their signatures, compiles, ranCompiled) and the compiler's guard
failures; the sentences are written in report/shape_words.py. None for a region whose inputs kept one shape."""

from __future__ import annotations

import itertools
import re
from collections import Counter
from dataclasses import dataclass

from ..compiler import explain
from ..shapes.compiler import CompilerInsight
from ..shapes.mode import CUDAGRAPH_MODES
from ..shapes.region import (
    AutomaticDynamic,
    DecodeLoop,
    RecompileLimit,
    RegionCall,
    RegionShapes,
    ShapeChange,
    WarmupShape,
)

_LEAF_SPLIT = re.compile(r", (?![^\[]*\])")  # a comma outside a shape's brackets
_TENSOR = re.compile(r"^(?:(?P<name>[A-Za-z_]\w*)=)?(?P<kind>[\w.]+)\[(?P<dims>[^\]]*)\]$")
_GUARD_SIZE = re.compile(r"tensor '(.+?)' size mismatch at index (\d+)\. expected (\d+), actual (\d+)")
MAX_SIZES = 64  # distinct sizes listed per changed dimension (all are counted)
# a decode loop: at least this share of consecutive calls grow the dimension by one step, over at least MIN_GROWTH calls
GROWING_SHARE = 0.8
MIN_GROWTH = 4


def _leaves(signature: str) -> list[tuple[str | None, list[int] | None, bool]]:
    """(keyword name, sizes, whether a tensor) per input leaf of a signature (calls.describe); sizes None for a leaf
    with no shape. A DynamicCache's length ("DynamicCache[length 9]") is a one-dimensional size, of no tensor."""
    inputs = signature.split("; ", 1)[0]
    out: list[tuple[str | None, list[int] | None, bool]] = []
    for leaf in _LEAF_SPLIT.split(inputs) if inputs else []:
        match = _TENSOR.match(leaf.strip())
        dims = match["dims"].removeprefix("length ") if match else ""
        sizes = (
            [int(d) for d in dims.split(", ")] if match and all(d.strip().isdigit() for d in dims.split(", ")) else None
        )
        tensor = match is not None and not match["dims"].startswith("length ")
        out.append((match["name"] if match else None, sizes, tensor))
    return out


def guard_name(name: str) -> str:
    """L['x'] -> x, kwargs['cache'].layers[0].keys -> cache.layers[0].keys, args[0] -> input 0."""
    name = re.sub(r"^L\['([^']+)'\]", r"\1", name)
    name = re.sub(r"^kwargs\['([^']+)'\]", r"\1", name)
    match = re.fullmatch(r"args\[(\d+)\]", name)
    return f"input {match[1]}" if match else name


def _guards(insight: CompilerInsight | None) -> list[tuple[str, int, int, int]]:
    """(input, dim, expected, actual) of every size guard that failed, in the order of the recompiles."""
    out = []
    for r in insight.get("recompiles", []) if insight else []:
        match = _GUARD_SIZE.search(str(r.get("reason") or ""))
        if match:
            out.append((guard_name(match[1]), int(match[2]), int(match[3]), int(match[4])))
    return out


@dataclass
class Change:
    """A changed dimension, with its size at each call (in call order; [] where only guards showed it), and which of
    the call's input leaves (calls.flatten's order) it is a dimension of: None where it is no tensor the signature
    shows (a library cache's length, a tensor only a guard named)."""

    fact: ShapeChange
    sequence: list[int]
    leaf: int | None = None


def changed_dims(calls: list[RegionCall], insight: CompilerInsight | None) -> list[Change]:
    """Each input dimension whose size changed between calls, most sizes first: from the signatures (named by a guard
    that failed on it where one did, else by keyword or position), and from guards on tensors the signatures do not
    show (a library's cache)."""
    guards = _guards(insight)
    per_leaf: dict[tuple[int, int], list[int]] = {}
    names: dict[int, str] = {}
    tensors: set[int] = set()
    parsed = [_leaves(c["signature"]) for c in calls]
    width = Counter(len(p) for p in parsed).most_common(1)[0][0] if parsed else 0
    for leaves in parsed:
        if len(leaves) != width:
            continue
        for i, (name, sizes, tensor) in enumerate(leaves):
            names.setdefault(i, name or f"input {i}")
            if tensor:
                tensors.add(i)
            for d, size in enumerate(sizes or []):
                per_leaf.setdefault((i, d), []).append(size)
    out: list[Change] = []
    named = set()
    for (i, d), seen in per_leaf.items():
        distinct = sorted(set(seen))
        if len(distinct) < 2:
            continue
        guard = next(
            (g for g in guards if g[0] not in named and g[1] == d and g[2] in distinct and g[3] in distinct), None
        )
        if guard is not None:
            named.add(guard[0])
        name = guard[0] if guard and names[i].startswith("input ") else names[i]
        fact: ShapeChange = {"input": name, "dim": d, "sizes": distinct[:MAX_SIZES], "count": len(distinct)}
        out.append(Change(fact, seen, i if i in tensors else None))
    for name, dim, was, now in guards:  # tensors the signature does not show: what their guards said
        if name in named or any(c.fact["input"] == name and c.fact["dim"] == dim for c in out):
            continue
        sizes = sorted({was, now} | {s for g in guards if g[:2] == (name, dim) for s in g[2:]})
        out.append(Change({"input": name, "dim": dim, "sizes": sizes[:MAX_SIZES], "count": len(sizes)}, []))
    out.sort(key=lambda c: -c.fact["count"])
    return out


def decode_loop(change: Change | None) -> DecodeLoop | None:
    """A dimension that grows by one step call after call (a cache, a token at a time), restarting now and then (each
    sequence): how many sequences, how many calls each."""
    sequence = change.sequence if change else []
    deltas = [b - a for a, b in itertools.pairwise(sequence)]
    growth = Counter(d for d in deltas if d > 0).most_common(1)
    if not growth:
        return None
    step, grew = growth[0]
    if grew < MIN_GROWTH or grew < GROWING_SHARE * len(deltas):
        return None
    restarts = sum(1 for d in deltas if d < 0)
    return {"growsBy": step, "repetitions": restarts + 1, "callsPerRepetition": round(len(sequence) / (restarts + 1))}


def _served_new_sizes_from(calls: list[RegionCall]) -> int | None:
    """The first call at a signature new to the region that ran compiled code without compiling (a size-generic graph
    served it), or None."""
    seen: set[str] = set()
    for c in calls:
        new = c["signature"] not in seen
        seen.add(c["signature"])
        if new and c.get("side") != "eager" and not c.get("compileIds") and c.get("ranCompiled") is True:
            return c["index"]
    return None


def automatic_dynamic(calls: list[RegionCall], options: dict[str, object]) -> AutomaticDynamic | None:
    """dynamic=None: the size change that recompiled with the dimension symbolic, and the calls that one graph served
    after it without compiling."""
    if options.get("dynamic") is not None:
        return None
    served_from = _served_new_sizes_from(calls)
    if served_from is None:
        return None
    made = [c for c in calls if c["index"] < served_from and "size mismatch" in str(c.get("recompileReason") or "")]
    if not made:
        return None
    at = made[-1]
    served = sum(
        1 for c in calls if c["index"] > at["index"] and not c.get("compileIds") and c.get("ranCompiled") is not False
    )
    return {"call": at["index"], "seconds": at.get("compileSeconds"), "servedCalls": served}


def recompile_limit(calls: list[RegionCall], insight: CompilerInsight | None) -> RecompileLimit | None:
    """The recompile limit hit: the graphs made before it, and the sizes (signatures) and calls that ran eagerly after
    it. Counted over every call the script made, at either stance of the in-situ switch: a signature whose compiled-side
    calls all ran eagerly runs eagerly as written."""
    failures = (insight.get("compileFailures") if insight else None) or []
    limits = [explain.recompile_limit(str(f.get("reason") or "")) for f in failures]  # Dynamo's words
    limits += [c.get("recompileLimit") for c in calls if c.get("ranCompiled") is False]
    if not any(x is not None for x in limits):
        return None
    outcomes: dict[str, set[bool]] = {}
    for c in calls:
        if c.get("side") != "eager" and c.get("ranCompiled") is not None:
            outcomes.setdefault(c["signature"], set()).add(bool(c["ranCompiled"]))
    eager = {s for s, ran in outcomes.items() if ran == {False}}
    first = next((c["index"] for c in calls if c.get("ranCompiled") is False), None)
    return {
        "limit": next((x for x in limits if x is not None), None),
        "graphs": insight.get("graphCount") if insight else None,
        "sizes": len({c["signature"] for c in calls}),
        "eagerSizes": len(eager),
        "eagerCalls": sum(1 for c in calls if c["signature"] in eager),
        "calls": len(calls),
        "fromCall": first,
    }


def cuda_graph_sizes(calls: list[RegionCall], options: dict[str, object], device: str | None) -> int | None:
    """Under reduce-overhead on a GPU each size compiled code ran records a CUDA graph of its own: how many sizes."""
    if device != "cuda" or options.get("mode") not in CUDAGRAPH_MODES:
        return None
    sizes = {c["signature"] for c in calls if c.get("side") != "eager" and c.get("ranCompiled") is True}
    return len(sizes) if len(sizes) > 1 else None


def cuda_graph_bytes(calls: list[RegionCall]) -> int | None:
    """The device memory the region's CUDA graphs took: what the graphs' memory pools grew by over its calls that
    warmed up and recorded a size's graph (script/regions.py reads the pools around those calls only); None where no
    call was read (CPU, no CUDA-graph mode, a torch whose allocator does not name pools)."""
    grown = [c["cudaGraphBytes"] for c in calls if "cudaGraphBytes" in c]
    return max(0, sum(grown)) if grown else None


def region_shapes(
    calls: list[RegionCall],
    insight: CompilerInsight | None,
    options: dict[str, object],
    device: str | None,
    warmup: WarmupShape | None,
) -> RegionShapes | None:
    """The region's shape facts; None where its inputs kept one shape and no size guard failed."""
    changed = changed_dims(calls, insight)
    if not changed and warmup is None:
        return None
    dynamic = options.get("dynamic")
    return {
        "dynamic": dynamic if isinstance(dynamic, bool) else None,
        "signatures": len({c["signature"] for c in calls}),
        "graphs": insight.get("graphCount") if insight else None,
        "changed": [c.fact for c in changed],
        "loop": decode_loop(changed[0] if changed else None),
        "automaticDynamic": automatic_dynamic(calls, options),
        "recompileLimit": recompile_limit(calls, insight),
        "warmup": warmup,
        "cudaGraphSizes": cuda_graph_sizes(calls, options, device),
        "cudaGraphBytes": cuda_graph_bytes(calls),
    }
