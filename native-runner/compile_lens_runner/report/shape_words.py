"""A region's shape story in words: every sentence said about its `shapes` facts (script/shape_facts.py) is written
here, from those facts, once. The region's headline leads with `lead` when shapes decide the outcome (the recompile
limit ran calls eagerly, a warm-up compiled a graph no real call used, CUDA graphs recorded per size, automatic
dynamic's second compile); `sentences` is the whole story; a decode loop's number reads per token (`unit`)."""

from __future__ import annotations

from .. import formats
from ..shapes.in_situ import EagerFallback, InSituSpeedup
from ..shapes.region import RegionShapes, ShapeChange


def unit(shapes: RegionShapes | None) -> str:
    """What one step of the region is: a token for a decode loop (a size that grows by one a call), else a step."""
    loop = shapes.get("loop") if shapes else None
    return "token" if loop and loop["growsBy"] == 1 else "step"


def _sizes(change: ShapeChange, shapes: RegionShapes) -> str:
    """ "12 batch sizes", "96 lengths", "3 sizes of mask's dimension 2"."""
    if shapes.get("loop"):
        return formats.plural(change["count"], "length")
    if change["dim"] == 0:
        return formats.plural(change["count"], "batch size")
    return f"{formats.plural(change['count'], 'size')} of {change['input']}'s dimension {change['dim']}"


def _size_word(change: ShapeChange | None, size: int) -> str:
    return f"batch {size}" if change is None or change["dim"] == 0 else f"size {size}"


def _limit(shapes: RegionShapes) -> str | None:
    limit = shapes.get("recompileLimit")
    if not limit or not limit["eagerCalls"]:
        return None
    changed = shapes["changed"][:1]
    many = _sizes(changed[0], shapes) if changed else formats.plural(limit["sizes"], "input signature")
    written = "dynamic=False with " if shapes.get("dynamic") is False else ""
    graphs = f"{formats.whole(limit['graphs'])} compiled" if limit["graphs"] is not None else "compiled each"
    cap = f" ({limit['limit']})" if limit["limit"] is not None else ""
    return (
        f"{written}{many}: {graphs}, then the recompile limit{cap} ran "
        f"{formats.whole(limit['eagerCalls'])} of {formats.whole(limit['calls'])} calls eagerly"
    )


def _warmup(shapes: RegionShapes) -> str | None:
    warm = shapes.get("warmup")
    if not warm:
        return None
    change = next((c for c in shapes["changed"] if c["dim"] == warm["dim"]), None)
    at = f" (line {warm['warmupLine']})" if warm.get("warmupLine") else ""
    real = "real call" if warm["realCalls"] == 1 else "real calls"
    took = warm["recompileSeconds"]
    paid = (
        f"; {'that call' if warm['realCalls'] == 1 else 'the first'} paid {formats.seconds(took)} recompiling"
        if took is not None
        else "; the first recompiled"
    )
    return (
        f"the warm-up at {_size_word(change, warm['warmupSize'])}{at} compiled a graph the {real} at "
        f"{_size_word(change, warm['realSize'])} never used{paid}"
    )


def _cuda_graphs(shapes: RegionShapes) -> str | None:
    sizes = shapes.get("cudaGraphSizes")
    if not sizes:
        return None
    return f"CUDA graphs recorded for each of {formats.plural(sizes, 'input size')} (a pause and memory kept for each)"


def _automatic(shapes: RegionShapes) -> str | None:
    auto = shapes.get("automaticDynamic")
    if not auto:
        return None
    seconds = auto["seconds"]
    took = f" ({formats.seconds(seconds)})" if seconds is not None else ""
    return (
        f"sizes changed at call {auto['call']}: a second compile{took} made one size-generic graph, which served "
        f"the next {formats.whole(auto['servedCalls'])} calls without compiling"
    )


def fix(shapes: RegionShapes | None, compile_s: float | None, real_call_ms: float | None = None) -> str | None:
    """The fix measured on the script's own calls, beside the finding: "with dynamic=True: 1 graph instead of 8,
    1.31×/step in situ (1.22–1.40×), compile 3.1 s instead of 33 s"; or why it was not measured. compile_s: the
    region's compile as written; real_call_ms: a warm-up's first real call as written."""
    measured = shapes.get("fix") if shapes else None
    if not shapes or not measured:
        return None
    if not measured["measured"]:
        return f"{measured['fix']} not measured: {measured['why']}"
    parts = []
    graphs, was = measured.get("graphs"), shapes.get("graphs")
    if graphs is not None:
        parts.append(
            f"the same {formats.plural(graphs, 'graph')}"
            if graphs == was
            else formats.plural(graphs, "graph") + (f" instead of {formats.whole(was)}" if was is not None else "")
        )
    real = measured.get("realCallMs")
    if real is not None:
        before = f" instead of {formats.ms(real_call_ms)}" if real_call_ms is not None else ""
        parts.append(f"the first real call {formats.ms(real)}{before}")
    number, per = (measured.get("step"), unit(shapes)) if measured.get("step") else (measured.get("call"), "call")
    if number:
        parts.append(
            f"{formats.speedup(number['speedup'])}/{per} in situ ({formats.interval(number['low'], number['high'])})"
        )
    ran = measured.get("eagerFallback")
    if ran:
        parts.append(f"{formats.whole(ran['calls'])} calls still ran eagerly")
    took = measured.get("compileSeconds")
    if took is not None:
        parts.append(
            f"compile {formats.seconds(took)}"
            + (f" instead of {formats.seconds(compile_s)}" if compile_s is not None else "")
        )
    return f"with {measured['fix']}: {', '.join(parts) or 'measured, no number'}"


def lead(shapes: RegionShapes | None) -> str | None:
    """The clause a region's headline leads with when shapes decide its outcome (the most decisive one), else None."""
    if not shapes:
        return None
    return _limit(shapes) or _warmup(shapes) or _cuda_graphs(shapes) or _automatic(shapes)


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def sentences(shapes: RegionShapes | None) -> list[str]:
    """The whole shape story, one sentence per fact, most decisive first."""
    if not shapes:
        return []
    out = [
        f"{_capital(text)}."
        for text in (_limit(shapes), _warmup(shapes), _cuda_graphs(shapes), _automatic(shapes))
        if text
    ]
    changed = shapes["changed"]
    if changed and not out:
        graphs = shapes.get("graphs")
        made = f", {formats.plural(graphs, 'graph')}" if graphs is not None else ""
        out.append(f"{_capital(_sizes(changed[0], shapes))} ({changed[0]['input']}){made}.")
    loop = shapes.get("loop")
    if loop:
        out.append(
            f"A decode loop: {formats.plural(loop['repetitions'], 'sequence')} of about "
            f"{formats.whole(loop['callsPerRepetition'])} calls, one {unit(shapes)} a call."
        )
    return out


def per_sequence(shapes: RegionShapes | None, step: InSituSpeedup) -> str | None:
    """ "per sequence of 96 tokens: 35.6 → 23.4 ms": a decode loop's step times over one of its sequences."""
    loop = shapes.get("loop") if shapes else None
    if not loop or loop["growsBy"] != 1:
        return None
    n = loop["callsPerRepetition"]
    return (
        f"per sequence of {formats.plural(n, 'token')}: {formats.ms(step['eagerMs'] * n)} → "
        f"{formats.ms(step['compiledMs'] * n)}"
    )


def fallback(ran: EagerFallback | None) -> str | None:
    """Beside the compiled side's number: the calls it does not cover, since Dynamo ran them eagerly."""
    if not ran:
        return None
    return f"{formats.whole(ran['calls'])} of {formats.whole(ran['of'])} compiled-side calls ran eagerly (not timed as compiled)"
