"""A script region's charts in words (schema 1.25), as the report panel's first-call chart and in-situ overlay show
them: the steady state's tooltip and label (`steadyState.said`, `.label`), the calls the chart leaves out
(`chartNotes`), and on the in-situ overlay each side's steady time (`inSitu.medianText`), each step that compiled
(`inSitu.compileSteps`), its shaded steady state (`inSitu.steadyText`), each step's mark (`inSitu.stepPoints[].text`: counted, or left out and why; under torchrun
whose step) and whose steps a torchrun job's overlay draws (`inSitu.ranksText`). Beside an in-situ number of the calls
the region's steady state is that number's (in_situ_steady): one start and one median per region. Said from the region's calls and in-situ series with formats.py's numbers each time the report
is written (answer.attach). A tick of an axis is a number: the panel writes it."""

from __future__ import annotations

from collections import Counter
from typing import Literal

from .. import formats
from ..shapes.in_situ import CompileStep, InSituPoint, RegionInSitu, StepPoint
from ..shapes.region import Region, SteadyState
from . import in_situ_text, run_source

# the overlay's sides, as its legend names them
SIDE_WORDS = {"compiled": "as written (compiled)", "eager": "compiling off (eager)"}


def in_situ_steady(region: Region) -> SteadyState | None:
    """The region's one steady state where the story tells an in-situ number of its calls ("From call 3 on, the
    script's own calls took turns in blocks, compiled and with compiling off, for the in-situ number"): from the first call of the interleaved blocks, the
    compiled time that number shows (the in-situ line's: its middle pair of blocks' median call, or pooled the median
    of the compiled calls it counted); None elsewhere. Under torchrun the in-situ number is the
    slowest rank's, call by call, and the calls charted the headline rank's: their own steady state stays."""
    situ = region.get("inSitu")
    call = situ.get("call") if situ else None
    start = situ.get("steadyFromCall") if situ else None
    if not situ or not call or start is None or situ.get("slowestRank"):
        return None
    return {"fromCall": start, "medianMs": call["compiledMs"], "inSitu": True}


def _steady(region: Region) -> None:
    # the in-situ number is the steady state's: a second start and median drawn from the calls beside it read as a
    # second answer (review 3B M1: "from call 3 … 0.54 ms" in words, a band from call 20 at 0.48 ms)
    steady = in_situ_steady(region) or region.get("steadyState")
    if not steady:
        return
    region["steadyState"] = steady
    situ = region.get("inSitu")
    situ_call = situ.get("call") if situ else None
    if steady.get("inSitu") and situ_call:
        # at the in-situ line's digits: one time, one precision (review 18Y Y5: "0.1123 ms" there, "0.112 ms" here)
        ms = in_situ_text.times_shown(situ_call)[1]
        middle = in_situ_text.middle_words(situ_call)
        # shaded as the step chart shades it: the calls whose steps the in-situ number counted (never a whole band
        # over the other side's blocks and the steps left out, review s29); the time is the number's own (session 33:
        # the middle pair of blocks' median compiled call, where the pairs are compared)
        of = f"the median call of {middle}" if middle else "median of the calls it counted"
        steady["said"] = (
            f"steady state from call {steady['fromCall']}: the calls whose steps the in-situ number counted; {ms} per "
            f"compiled call, {of}"
        )
        steady["label"] = f"steady state: {ms} compiled, {'middle pair' if middle else 'median'}"
        return
    spread = steady.get("spreadPct")
    varied = f" (calls varied {formats.pct(spread)})" if spread is not None else ""
    ms = formats.ms(steady["medianMs"])
    shapes = signature_words(steady)
    of = f" of {shapes}" if shapes else ""
    steady["said"] = f"steady state from call {steady['fromCall']}: {ms} per call, median{of}{varied}"
    steady["label"] = f"steady state: {ms} median"


def signature_words(steady: SteadyState) -> str | None:
    """ "the 12 calls on float32[8, 128] under torch.inference_mode(), the most frequent of 2 input shapes" where the steady calls ran several
    signatures (the median is of one's calls); None where they ran one."""
    if steady.get("signatures", 1) < 2:
        return None
    calls = formats.plural(steady.get("calls", 0), "call")
    inputs = formats.inputs(str(steady.get("signature")))
    return f"the {calls} on {inputs}, the most frequent of {steady.get('signatures')} input shapes"


def chart_notes(region: Region, source: str = run_source.SCRIPT) -> list[str]:
    """What the first-call chart leaves out: calls without a duration, calls past the recorded ones."""
    calls = region["calls"]
    untimed = sum(1 for c in calls if c.get("ms") is None or (c.get("ms") or 0) <= 0)
    notes = [f"{formats.plural(untimed, 'call')} without a recorded duration (not drawn)"] if untimed else []
    situ = region.get("inSitu")
    if situ and situ.get("slowestRank") and situ.get("ranks"):
        # the step chart above is the slowest rank's at each step; these calls are the headline rank's (review 3B M2)
        notes.insert(0, f"rank {situ['ranks'][0]['rank']}'s calls")
    if region.get("callsTruncated"):
        notes.append(f"first {len(calls)} of {region['callCount']} calls")
    # the script's last call, the chart's highest point after the compile (review F4), is said in the in-situ lines
    # above the chart and in its mark's tooltip (attach), not a third time in the legend (review 24X X3)
    return notes


def _median(side: str, ms: str, middle: str | None) -> str:
    """A side's dashed line: the number's own time as its line says it (in_situ_text.times_shown), "the middle of 6
    pairs of blocks" where the pairs are compared."""
    return f"{SIDE_WORDS[side]}: {ms} per step, {middle or 'median of the steady state'}"


def _point_text(said: str, point: StepPoint | None) -> str:
    """ "step 12: 0.15 ms, the slowest rank's step: rank 1; left out of the steady state: a step during which compiling
    was switched on or off" (its mark's tooltip): `said` ("step 12: 0.15 ms"), then whose step it is and whether the
    number counted it; a report before the runner said so (no point): `said` alone."""
    if point is None:
        return said
    if "rank" in point:
        said += f", the slowest rank's step: rank {point['rank']}"
    why = point["leftOut"]
    if point["counted"]:
        return f"{said}; counted in the steady state"
    if why is None:
        return f"{said}; not counted: the call after it was not recorded"
    return f"{said}; left out of the steady state: a step {in_situ_text.LEFT_OUT_WORDS.get(why, why)}"


def ranks_text(points: list[StepPoint]) -> str | None:
    """Whose steps a torchrun job's overlay draws: "each step drawn is the slowest rank's (a synchronous job waits for
    it): rank 1 at 40 steps, rank 0 at 3"; None where no point names its rank."""
    counts = Counter(p["rank"] for p in points if "rank" in p)
    if not counts:
        return None
    each = ", ".join(f"rank {r} at {formats.plural(n, 'step')}" for r, n in sorted(counts.items()))
    if len(counts) == 1:
        each = f"all rank {next(iter(counts))}'s"
    return f"each step drawn is the slowest rank's (a synchronous job waits for it): {each}"


def _steady_steps(start: int) -> str:
    """ "steady state from call 3: the steps the in-situ number counted": the overlay's shaded band's tooltip (the
    panel composed "steady state from call 3" itself); each side's step time is its dashed line's (medianText)."""
    return f"steady state from call {start}: the steps the in-situ number counted"


def _in_situ(s: RegionInSitu) -> None:
    step = s.get("step")
    if step:
        middle = in_situ_text.middle_words(step)
        eager, compiled = in_situ_text.times_shown(step)
        s["medianText"] = {"compiled": _median("compiled", compiled, middle), "eager": _median("eager", eager, middle)}
        start = s.get("steadyFromCall")
        if start is not None:
            s["steadyText"] = _steady_steps(start)
    series = s.get("series")
    if not series:
        return
    marks: list[CompileStep] = []
    sides: tuple[tuple[Literal["compiled", "eager"], list[InSituPoint]], ...] = (
        ("compiled", series["compiled"]),
        ("eager", series["eager"]),
    )
    points = {p["index"]: p for p in s.get("stepPoints") or []}
    for side, values in sides:
        for position, value in enumerate(values):
            ms, compiles = value[1], value[2]
            if ms is None or ms <= 0:
                continue
            index = int(value[3]) if len(value) > 3 else position  # interleaved (1.16): the call's own index
            said = f"step {index}: {formats.ms(ms)}"
            point = points.get(index)
            if compiles > 0:
                said += f", compiled {formats.plural(compiles, 'time')}"
                ranks = point.get("compiledOn") if point else None
                if ranks:  # under torchrun: the rank that compiled, not the one that waited on it
                    said += f" on {'rank' if len(ranks) == 1 else 'ranks'} " + ", ".join(map(str, ranks))
                marks.append({"side": side, "index": index, "text": _point_text(said, point)})
            if point is not None:
                point["text"] = _point_text(said, point)
    s["compileSteps"] = marks
    whose = ranks_text(s.get("stepPoints") or [])
    if whose:
        s["ranksText"] = whose


def attach(region: Region, source: str = run_source.SCRIPT) -> None:
    """The region's chart words: the steady state, what the chart leaves out, the in-situ overlay's (source: what the
    user ran, run_source.noun)."""
    _steady(region)
    region["chartNotes"] = chart_notes(region, source)
    last = in_situ_text.last_call(region, source)
    if last and "said" not in region["calls"][-1]:  # its mark's tooltip: why it is in no number
        region["calls"][-1]["said"] = f"the {source}'s last call: {last}"
    situ = region.get("inSitu")
    if situ is not None:
        _in_situ(situ)
