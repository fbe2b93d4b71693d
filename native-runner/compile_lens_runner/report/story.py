"""A script region's first-call story in words (schema 1.23: region `story`): which call compiled, which recompiled
and why (the failed guard as a sentence: the call's `recompileWhy`, compiler/explain.guard_sentence; the guard as
PyTorch says it stays in the call's `recompileReason`), whether the graph an early call compiled was ever
used again, from which call on the region ran at its steady speed, and which calls Dynamo ran eagerly. Said only
from the region's recorded calls, with formats.py's numbers; every surface shows the string as it is (sentences.py
says the answer, this the calls)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .. import formats
from ..shapes.mode import RegionMeasurement
from ..shapes.region import Region, RegionCall, SteadyState
from . import chart_text, churn_text, in_situ_text, run_source, shape_text, verdict

_TENSOR = re.compile(r"([A-Za-z_]\w*)\[([\d,\s]*)\]")


@dataclass(frozen=True)
class _Tensor:
    dtype: str
    shape: tuple[int, ...]

    def text(self) -> str:
        return f"{self.dtype}[{', '.join(map(str, self.shape))}]"


def parse_signature(signature: str) -> tuple[list[_Tensor], str | None, str | None]:
    """ "float32[5, 4096, 64], int64[5]; inference" -> its tensors, grad mode and autocast, read as formats.inputs reads
    them (formats.signature_parts; other arguments are ignored)."""
    args, grad, autocast = formats.signature_parts(signature)
    tensors = [
        _Tensor(m[1], tuple(int(d) for d in (d.strip() for d in m[2].split(",")) if d)) for m in _TENSOR.finditer(args)
    ]
    return tensors, grad, autocast


_GRAD_NOUN = {"grad": "grad enabled", "no_grad": "torch.no_grad()", "inference": "torch.inference_mode()"}


def signature_change(before: str, after: str) -> tuple[str, str]:
    """How two signatures differ, in a few words each: "size 1 in dimension 0" / "size 5 in dimension 0" when only
    the leading dimension of tensors of 2-D or more changed (not "batch": dimension 0 is not always the batch, and the
    failed guard's sentence says "dimension 0"; review 8 A14), else the first tensor that differs, else the grad mode
    where the autocast is the same, else the inputs themselves as the inputs column says them (formats.inputs)."""
    (a, a_grad, a_cast), (b, b_grad, b_cast) = parse_signature(before), parse_signature(after)
    same_layout = (
        len(a) == len(b)
        and len(a) > 0
        and all(x.dtype == y.dtype and len(x.shape) == len(y.shape) for x, y in zip(a, b, strict=True))
    )
    if same_layout:
        differing = [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
        if differing:
            # every differing tensor changed only its leading dimension, all from the same size to the same
            frm, to = a[differing[0]].shape[:1], b[differing[0]].shape[:1]
            batch_only = any(len(a[i].shape) >= 2 for i in differing) and all(
                a[i].shape[:1] == frm and b[i].shape[:1] == to and a[i].shape[1:] == b[i].shape[1:] for i in differing
            )
            if batch_only and frm and to:
                return f"size {frm[0]} in dimension 0", f"size {to[0]} in dimension 0"
            return a[differing[0]].text(), b[differing[0]].text()
        if (
            a_grad != b_grad and a_grad and b_grad and a_cast == b_cast
        ):  # the mode as a noun: "recompiled for torch.no_grad()"
            return _GRAD_NOUN.get(a_grad, a_grad), _GRAD_NOUN.get(b_grad, b_grad)
    return formats.inputs(before), formats.inputs(after)


def _why(call: RegionCall) -> str | None:
    """The failed guard in the story: its sentence (the call's `recompileWhy`), else PyTorch's words quoted as theirs."""
    reason = call.get("recompileReason")
    if not reason:
        return None
    return call.get("recompileWhy") or f'the guard "{reason}" failed'


def _capitalize(text: str) -> str:
    return text[:1].upper() + text[1:]


def holds_its_compile(call: RegionCall) -> bool:
    """Whether the call's timed duration includes its compile (and so says its cost in one value: "took 359 ms,
    recompiling", not "paid 355 ms recompiling" beside the call's 359 ms)."""
    ms, seconds = call.get("ms"), call.get("compileSeconds")
    return ms is not None and (seconds is None or ms >= seconds * 1000)


def _compile_cost(call: RegionCall) -> str | None:
    """ "8.2 s" of compiling, or "the call took 8.6 s" when only the call's duration is known; None when neither is."""
    if call.get("compileSeconds") is not None:
        return formats.seconds(call["compileSeconds"])  # type: ignore[arg-type]
    if call.get("ms") is not None:
        return f"the call took {formats.ms(call['ms'])}"  # type: ignore[arg-type]
    return None


def _unused_first_graph(calls: list[RegionCall]) -> str | None:
    """The first call's graph was never used again and a later call recompiled for the inputs the script really
    used."""
    first = next((k for k, c in enumerate(calls) if c["event"] == "compiled"), -1)
    if first < 0:
        return None
    later = calls[first + 1 :]
    compiled_for = calls[first]["signature"]
    if not later or any(c["signature"] == compiled_for for c in later):
        return None
    recompile = next((c for c in later if c["event"] == "recompiled"), None)
    if recompile is None:
        return None
    # the script settled on the recompiled inputs (not a new shape every call: that is churn, told below)
    at_new = sum(1 for c in later if c["signature"] == recompile["signature"])
    if at_new * 2 < len(later):
        return None
    frm, to = signature_change(compiled_for, recompile["signature"])
    seconds, ms = recompile.get("compileSeconds"), recompile.get("ms")
    cost = (
        # the call's whole time, as the measured fix and the shape reason say it ("359 ms"), then its recompile's part
        # of it, labelled as a part (review 9E E6: "took 176 ms, recompiling" beside the phases' 166 ms)
        f"took {formats.ms(ms)}{shape_text.of_it_recompiling(ms, seconds)}"
        if ms is not None and holds_its_compile(recompile)
        else f"paid {formats.seconds(seconds)} recompiling"
        if seconds is not None
        else "recompiled"
    )
    why = _why(recompile)
    return (
        f"call {calls[first]['index']} ({frm}) compiled a graph that none of the "
        f"{formats.plural(len(later), 'later call')} used"
        + (f" (all at {to})" if at_new == len(later) else "")
        + f"; call {recompile['index']}, the first at {to}, {cost}"
        + (f" ({why})" if why else "")
        + "."
    )


def _recompile_churn(region: Region, recompiles: list[RegionCall]) -> str:
    """Many recompiles: how many, whether each was for inputs never seen before, what changed, and their compile time
    beside the region's whole, as its facts say it (review 8A A3: "930 ms went to compiling" beside the facts' "938
    ms", a recompile-limit compile left out, read as the recompiles' cost though it held the first compile's)."""
    calls = region["calls"]
    seen: set[str] = set()
    all_new = True
    for call in calls:
        if call["event"] == "recompiled" and call["signature"] in seen:
            all_new = False
        seen.add(call["signature"])
    position = {id(c): k for k, c in enumerate(calls)}
    before = [calls[position[id(r)] - 1]["signature"] if position[id(r)] > 0 else None for r in recompiles]
    # what changed: the inputs where they did, else the failed guard in words (a Python value the graph held)
    # the inputs in the inputs column's words ("under torch.inference_mode()", review 14S S4: "; inference" raw)
    changes = [
        formats.inputs(r["signature"])
        if was is None
        else signature_change(was, r["signature"])[1]
        if was != r["signature"]
        else r.get("recompileWhy") or "the same inputs"
        for r, was in zip(recompiles, before, strict=True)
    ]
    cost = _recompiling_cost(region, recompiles)
    count = f"{len(recompiles)} of {formats.plural(len(calls), 'call')} recompiled"
    if all(was == r["signature"] for r, was in zip(recompiles, before, strict=True)) and len(set(changes)) == 1:
        # what to change, and whether they stop by themselves (review 20Y Y2: the cause said, never the change)
        after = churn_text.value_churn_after(region, recompiles)
        return f"{count} with the same inputs ({formats.inputs(recompiles[0]['signature'])}), each time because {changes[0]}{cost}.{after}"
    shown = [*changes[:3], "…", changes[-1]] if len(changes) > 4 else changes
    return f"{count}" + (", each for inputs not seen before" if all_new else "") + f" ({', '.join(shown)}){cost}."


def _recompiling_cost(region: Region, recompiles: list[RegionCall]) -> str:
    """ "; recompiling took 842 ms of the 938 ms compiling": the recompiles' own sum, and the region's compile total
    as its facts say it (in_situ_text.compile_seconds_reported); "" where no call reported a compile time."""
    total = in_situ_text.compile_seconds_reported(region)
    known = [s for r in recompiles if (s := r.get("compileSeconds")) is not None]
    if total is None:
        return ""
    if not known:
        return f"; {formats.seconds(total)} went to compiling"
    partly = " in the calls that reported it" if len(known) < len(recompiles) else ""
    return f"; recompiling took {formats.seconds(sum(known))}{partly} of the {formats.seconds(total)} compiling"


def _backward_after(region: Region, compiles: list[RegionCall]) -> tuple[str, str] | None:
    """("38 ms", "50.3 s"): the compile record's total beyond its calls' own (AOT autograd compiles a static graph's
    backward at its first backward, after the call returned: compiler/insight.compile_seconds), and that total, where
    the two read apart; the region's facts say that total ("50.3 s compiling") beside the call's "50.2 s" (review 6B
    M11: one quantity read as two values)."""
    compiler = region.get("compiler")
    total = (compiler.get("compileSeconds") or {}).get("total") if compiler else None
    counted = sum(c.get("compileSeconds") or 0.0 for c in compiles)
    if total is None or not counted or formats.seconds(total) == formats.seconds(counted):
        return None
    return formats.seconds(total - counted), formats.seconds(total)


def _compile_events(
    compiles: list[RegionCall], calls: list[RegionCall], no_graph: bool, backward: tuple[str, str] | None = None
) -> str:
    """One or two compiles: each with its cost and, for a recompile, the inputs and the guard that failed. no_graph:
    the region's compiles made no graph (no compiled code ran): a first compile is said as the attempt it was.
    backward: what the first compile's backward added after it, and the total (_backward_after), said once: "Call 0
    compiled (54.1 s; the first backward pass compiled 983 ms more: 55.1 s in all)" (review 10 F6: "983 ms more for
    its backward at the first backward"); the total after every compile where there are several (the recompiles' time
    is in it)."""
    position = {id(c): k for k, c in enumerate(calls)}
    parts = []
    backward_said = False
    for c in compiles:
        cost = _compile_cost(c)
        if cost and backward and c["event"] == "compiled" and c is compiles[0]:
            cost += f"; the first backward pass compiled {backward[0]} more"
            cost += f": {backward[1]} in all" if len(compiles) == 1 else ""
            backward_said = True
        if c["event"] == "compiled":
            did = "tried to compile" if no_graph else "compiled"
            parts.append(
                f"call {c['index']} {did}" + (f" ({cost})" if cost else "") + (" and made no graph" if no_graph else "")
            )
            continue
        k = position[id(c)]
        at = f" for {signature_change(calls[k - 1]['signature'], c['signature'])[1]}" if k > 0 else ""
        why = "; ".join(p for p in (cost, _why(c)) if p)
        parts.append(f"call {c['index']} recompiled{at}" + (f" ({why})" if why else ""))
    in_all = f": {backward[1]} compiling in all" if backward and backward_said and len(compiles) > 1 else ""
    return "; ".join(parts) + in_all + "."


def _call_ranges(indices: list[int]) -> str:
    """ "8–9", "8, 12, 15–20" """
    ranges: list[str] = []
    i = 0
    while i < len(indices):
        j = i
        while j + 1 < len(indices) and indices[j + 1] == indices[j] + 1:
            j += 1
        ranges.append(f"{indices[i]}–{indices[j]}" if j > i else str(indices[i]))
        i = j + 1
    return f"{', '.join(ranges[:3])}, …" if len(ranges) > 4 else ", ".join(ranges)


def _fallbacks(calls: list[RegionCall], said: bool) -> str | None:
    """ "Calls 8–9 ran eagerly: <why>."; said: the region's no-compiled-code sentence says why, beside the story on
    every surface that shows it (review 25, J8: the fast path's cause was said twice)."""
    eager = [c for c in calls if c.get("ranCompiled") is False]
    if not eager:
        return None
    reason = next((c["fallbackReason"] for c in eager if c.get("fallbackReason")), None)
    which = (
        f"Call {eager[0]['index']} ran" if len(eager) == 1 else f"Calls {_call_ranges([c['index'] for c in eager])} ran"
    )
    return f"{which} eagerly." if said else f"{which} eagerly: {reason or 'Dynamo did not run compiled code'}."


def _timed(measurement: RegionMeasurement) -> tuple[float, str] | None:
    """The measured compiled call's time as the answer gives it (the replay's number: verdict.measured_number), and
    as the card's measurement cells say it: at the digits where it divides with eager's to the speedup shown
    (formats.times_of_ratio; review 16 X8: "13.7 µs measured" four lines above "compiled 13.68 µs")."""
    if measurement.get("speedup") is None:
        return None
    number = verdict.measured_number(measurement, "replay-call", measurement["mode"], 0)
    compiled_ms = number.get("compiledMs")
    if not compiled_ms:
        return None
    return compiled_ms, formats.times_of_ratio(number["eagerMs"], compiled_ms, number["value"])[1]


def _steady_versus_timed(region: Region, steady_ms: float, source: str) -> str | None:
    """The one line that reconciles the script's own call times with the measured time beside them, when they
    differ by more than half: the script's calls were timed one at a time as it ran them; the measurement times
    back-to-back calls."""
    timed = next(
        (
            said
            for m in region["measurements"]
            if m.get("mode") == "as-written" and m.get("status") == "ok" and (said := _timed(m))
        ),
        None,
    )
    if not timed or timed[0] / 1.5 <= steady_ms <= timed[0] * 1.5:
        return None
    return (
        f"(The {source}'s calls are timed one at a time as it ran them, with its own work between them; the measurement "
        f"times back-to-back calls on one input: hence {formats.ms(steady_ms)} here and {timed[1]} measured.)"
    )


def _no_graph(region: Region) -> bool:
    """The region's compiles made no graph: no compiled code ran (compiler/no_compiled.py), or its compiler record
    counted none; its timings, in situ included, compare eager code with itself."""
    compiler = region.get("compiler")
    return region.get("noCompiledCode") is not None or (compiler is not None and compiler.get("graphCount") == 0)


def region_story(region: Region, source: str = run_source.SCRIPT) -> str | None:
    """The story as one to three sentences, or None when there are no calls to tell it from (source: what the user
    ran, run_source.noun)."""
    if region["callCount"] == 0:
        return f"torch.compile returned {region['name']}, but the {source} never called it."
    calls = region["calls"]
    if not calls:
        return None
    said: list[str] = []
    no_graph = _no_graph(region)
    compiles = [c for c in calls if c["event"] != "cached"]
    recompiles = [c for c in compiles if c["event"] == "recompiled"]
    main = _unused_first_graph(calls) or (
        _recompile_churn(region, recompiles)
        if len(recompiles) >= 2
        else _compile_events(compiles, calls, no_graph, _backward_after(region, compiles))
        if compiles
        else None
    )
    if main:
        said.append(_capitalize(main))
    # the headline counts the compiler's recompiles; a call that recompiled several graphs is one call here
    compiler = region.get("compiler")
    count = len(compiler.get("recompiles") or []) if compiler else len(recompiles)
    if main and recompiles and count != len(recompiles):
        # one event per call, its compiles counted (review 10 A10: "2 recompiles in all in 1 call" read as two)
        indices = [str(c["index"]) for c in recompiles]
        which = (
            f"Call {indices[0]}'s recompile was"
            if len(indices) == 1
            else f"The recompiles of calls {formats.listed(indices)} were"
        )
        said.append(
            f"({which} {formats.plural(count, 'compile')}: a call recompiles each compiled part whose guard failed, "
            "e.g. the parts around a graph break.)"
        )
    steady, situ = region.get("steadyState"), region.get("inSitu")
    situ_call = situ.get("call") if situ else None
    if situ and situ_call and situ.get("steadyFromCall") is not None and not no_graph:
        # where the in-situ number's calls begin; their times are the in-situ line's and the chart's, not said again
        # here (issue 44: a region's eager time said once, as the in-situ one)
        said.append(
            f"From call {situ['steadyFromCall']} on, the {source}'s own calls took turns in blocks, compiled and with "
            "compiling off, for the in-situ number."
        )
    elif steady and compiles and steady["fromCall"] < region["callCount"]:
        said.append(
            f"From call {steady['fromCall']} on, {_steady_calls(steady)} took {formats.ms(steady['medianMs'])} (median) "
            "without compiling."
        )
        timed = _steady_versus_timed(region, steady["medianMs"], source)
        if timed:
            said.append(timed)
    eager = _fallbacks(calls, region.get("noCompiledCode") is not None)
    if eager:
        said.append(eager)
    if region.get("callsTruncated"):
        said.append(f"(The first {len(calls)} of {region['callCount']} calls were recorded.)")
    return " ".join(said) if said else None


def _steady_calls(steady: SteadyState) -> str:
    shapes = chart_text.signature_words(steady)
    return f"{shapes}," if shapes else "calls"


def call_said(call: RegionCall, no_graph: bool = False) -> str | None:
    """What happened at a call that compiled, recompiled or ran eagerly, as its mark on the region's chart says it
    (schema 1.24, the call's `said`): "recompiled because input 'x' changed size in dimension 0 from 8 to 16;
    compiling took 1.2 s", "ran eagerly (Dynamo fell back to the original code): …"; None for a call that reused
    compiled code. no_graph: the region's compiles made no graph."""
    parts = []
    event = call.get("event")
    if event == "recompiled":
        why = _why(call)
        parts.append(f"recompiled because {why}" if why else "recompiled")
    elif event == "compiled":
        parts.append("tried to compile and made no graph" if no_graph else "compiled")
    if event in ("compiled", "recompiled") and call.get("compileSeconds") is not None:
        took = "the attempt" if no_graph and event == "compiled" else "compiling"
        parts.append(f"{took} took {formats.seconds(call['compileSeconds'] or 0.0)}")
    if call.get("ranCompiled") is False:
        fallback = call.get("fallbackReason")
        parts.append("ran eagerly (Dynamo fell back to the original code)" + (f": {fallback}" if fallback else ""))
    return "; ".join(parts) or None


def attach(region: Region, rank: int | None = None, source: str = run_source.SCRIPT) -> None:
    """The region's story, and what happened at each call that compiled or ran eagerly, into the region. rank: in a
    torchrun job, the rank whose calls the region holds: the story is that rank's, and says so; source: what the user
    ran (run_source.noun)."""
    told = region_story(region, source)
    region["story"] = f"Rank {rank}: {told}" if told and rank is not None else told
    no_graph = _no_graph(region)
    for call in region["calls"]:
        said = call_said(call, no_graph)
        if said is not None:
            call["said"] = said
