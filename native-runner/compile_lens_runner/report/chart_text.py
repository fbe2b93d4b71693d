"""A script region's charts in words (schema 1.25), as the report panel's first-call chart and in-situ overlay show
them: the steady state's tooltip and label (`steadyState.said`, `.label`), the calls the chart leaves out
(`chartNotes`), and on the in-situ overlay each side's steady median (`inSitu.medianText`) and each step that compiled
(`inSitu.compileSteps`). Said from the region's calls and in-situ series with formats.py's numbers each time the report
is written (answer.attach). A tick of an axis is a number: the panel writes it."""

from __future__ import annotations

from typing import Literal

from .. import formats
from ..shapes.in_situ import CompileStep, InSituPoint, RegionInSitu
from ..shapes.region import Region, SteadyState

# the overlay's sides, as its legend names them
SIDE_WORDS = {"compiled": "as written (compiled)", "eager": "compiling off (eager)"}


def _steady(region: Region) -> None:
    steady = region.get("steadyState")
    if not steady:
        return
    spread = steady.get("spreadPct")
    varied = f" (calls varied {formats.pct(spread)})" if spread is not None else ""
    # beside an in-situ number (the story's and the in-situ lines': the steady steps it kept) the chart's median of
    # the same calls would be a second value of one quantity (0.70 ms in situ, 0.66 ms here): the shading says where
    # the steady state is, the in-situ number what it took (issue 44)
    situ = region.get("inSitu")
    if situ and (situ.get("step") or situ.get("call")):
        steady["said"] = f"steady state from call {steady['fromCall']}{varied}"
        steady["label"] = "steady state"
        return
    ms = formats.ms(steady["medianMs"])
    shapes = signature_words(steady)
    of = f" of {shapes}" if shapes else ""
    steady["said"] = f"steady state from call {steady['fromCall']}: {ms} per call, median{of}{varied}"
    steady["label"] = f"steady state: {ms} median"


def signature_words(steady: SteadyState) -> str | None:
    """ "the 12 calls on float32[8, 128], the most frequent of 2 input shapes" where the steady calls ran several
    signatures (the median is of one's calls); None where they ran one."""
    if steady.get("signatures", 1) < 2:
        return None
    calls = formats.plural(steady.get("calls", 0), "call")
    args, _, grad = str(steady.get("signature")).rpartition(";")  # "float32[8, 128]; inference"
    inputs = f"{args} ({grad.strip()})" if args else grad
    return f"the {calls} on {inputs}, the most frequent of {steady.get('signatures')} input shapes"


def chart_notes(region: Region) -> list[str]:
    """What the first-call chart leaves out: calls without a duration, calls past the recorded ones."""
    calls = region["calls"]
    untimed = sum(1 for c in calls if c.get("ms") is None or (c.get("ms") or 0) <= 0)
    notes = [f"{formats.plural(untimed, 'call')} without a recorded duration (not drawn)"] if untimed else []
    if region.get("callsTruncated"):
        notes.append(f"first {len(calls)} of {region['callCount']} calls")
    return notes


def _median(side: str, ms: float) -> str:
    return f"{SIDE_WORDS[side]}: {formats.ms(ms)} per step, median of the steady state"


def _in_situ(s: RegionInSitu) -> None:
    step = s.get("step")
    if step:
        s["medianText"] = {
            "compiled": _median("compiled", step["compiledMs"]),
            "eager": _median("eager", step["eagerMs"]),
        }
    series = s.get("series")
    if not series:
        return
    marks: list[CompileStep] = []
    sides: tuple[tuple[Literal["compiled", "eager"], list[InSituPoint]], ...] = (
        ("compiled", series["compiled"]),
        ("eager", series["eager"]),
    )
    for side, points in sides:
        for position, point in enumerate(points):
            ms, compiles = point[1], point[2]
            if ms is not None and ms > 0 and compiles > 0:
                index = int(point[3]) if len(point) > 3 else position  # interleaved (1.16): the call's own index
                text = f"step {index}: {formats.ms(ms)}, compiled {formats.plural(compiles, 'time')}"
                marks.append({"side": side, "index": index, "text": text})
    s["compileSteps"] = marks


def attach(region: Region) -> None:
    """The region's chart words: the steady state, what the chart leaves out, the in-situ overlay's."""
    _steady(region)
    region["chartNotes"] = chart_notes(region)
    situ = region.get("inSitu")
    if situ is not None:
        _in_situ(situ)
