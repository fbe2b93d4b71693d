"""The sentences beside a measurement's number (schema 1.24): a mode's `notes` (a target's modes, a region's replayed
measurements), eager's `launchBoundText` and what a compiler record's graph breaks cost (`breakCost`, the hover's), said from what the measurement recorded with formats.py's numbers, each
time the report is written (answer.attach). The CLI and the report panel show them as they are; a report before them
gets the recorded fields listed.

A mode's notes, in order: outputs that differ from eager no more than eager differs from the reference (no compiler
error), eager taken from another mode's pairs (runEager), a side that never ran at the host's fast state (slowHost), a
contended host (its answer's words: reason_text.py's host-contended)."""

from __future__ import annotations

import statistics

from .. import formats
from ..measure import interleaved
from ..shapes.answer import Answer
from ..shapes.compiler import CompilerInsight
from ..shapes.mode import Correctness, ModeResult
from ..shapes.region import Region, RegionCall
from ..shapes.report import Report
from . import reason_text, run_source, verdict


def accuracy(c: Correctness | None) -> str | None:
    """Outputs past the tolerance, but no further from the reference than eager's: not a compiler error."""
    if not c or not c.get("ok") or c.get("reference") in (None, "none", "unavailable"):
        return None
    ref = "an fp64 copy of the model" if c.get("reference") == "fp64" else "eager with TF32 off"
    eager, compiled = c.get("eagerRmse"), c.get("compiledRmse")
    rmse = f" (RMSE {compiled:.2g} vs eager's {eager:.2g})" if eager is not None and compiled is not None else ""
    return (
        f"outputs differ from eager by up to {c.get('maxAbsError') or 0.0:.3g}, no more than eager itself differs "
        f"from {ref}{rmse}: not a compiler error"
    )


_UP_TO = "the range's upper end is what a host as slow as during these pairs gives"


def run_eager(m: ModeResult) -> str | None:
    """The speedup took eager's fastest round of the whole run (measure/speedups.adjust): why."""
    interval = m.get("speedupInterval")
    shift = interval.get("runEager") if interval else None
    if not shift:
        return None
    best = formats.ms(shift["bestEagerMs"])
    if shift.get("basis") == "cpu-normalized":
        return (
            "eager is launch-bound, so its time follows the host CPU's speed, which varied during the run; compiled is "
            f"not (CUDA graphs, or a busy GPU): the speedup takes eager at the CPU's fastest, {best} per call (every "
            f"eager round scaled by a CPU probe taken with it); {_UP_TO}"
        )
    return (
        f"eager took {formats.ms(shift['eagerMs'])} per call at best in these pairs but {best} in another mode's pairs "
        f"of this run; the host CPU does not limit compiled (CUDA graphs, or a busy GPU): the speedup uses eager's "
        f"{best} ({_UP_TO})"
    )


def slow_host(m: ModeResult) -> str | None:
    """A side that never ran at the host CPU's fastest state of the run: its interval was widened (slowHost)."""
    interval = m.get("speedupInterval")
    slow = (interval.get("slowHost") if interval else None) or {}
    sides = [f"{formats.speedup(slow[side])} slower beside {side}" for side in ("eager", "compiled") if side in slow]
    if not sides:
        return None
    # the probe shows the CPU slower, not why: other processes, or a lower clock on a host that looks quiet (a
    # 16-CPU Xeon at load 1.6 read 1.5× slower), so it does not say the host was busy
    return (
        f"the host CPU ran slower through these pairs than at its fastest in this run (a {formats.ms(1.0)} CPU probe "
        f"read {' and '.join(sides)}: other processes, or a lower CPU clock), so the range reaches what the CPU at "
        "its fastest may give; rerun for a firmer number"
    )


def contended(m: ModeResult) -> str | None:
    timing = m.get("timing")
    load = timing.get("hostLoad") if timing else None
    if not load or not load.get("contended") or not load.get("reason"):
        return None
    return reason_text.sentence({"code": "host-contended", "what": load["reason"] or "", "fix": load.get("fix")})


def mode_notes(m: ModeResult) -> list[str]:
    """The notes beside one mode's number; what qualifies a number is said only where there is one."""
    measured = verdict.unmeasured(m) is None
    notes = [accuracy(m.get("correctness"))]
    busy = contended(m)
    if measured:
        # a contended host voids the number (the verdict says "host busy, not trusted"): the slower CPU its range
        # was widened for is that contention, said once (review 3A M6)
        notes += [run_eager(m), None if busy else slow_host(m)]
    notes.append(busy)
    return [n for n in notes if n]


# the script's own eager calls and the replay's eager time further apart than this are said apart (review 4B P6)
APART = 2.0


def _in_situ(region: Region, key: str) -> float | None:
    """The region's in-situ time per call of one side ("eagerMs", "compiledMs") where its in-situ lines say one of one
    signature (the answer's, or its evidence): the script's own calls, said there once (issue 44); None elsewhere."""
    situ = region.get("inSitu")
    call = situ.get("call") if situ else None
    if not call or call.get("comparedBy") != "signature" or not call.get(key):
        return None
    return float(call[key])  # type: ignore[literal-required]


def _compared(calls: list[RegionCall]) -> list[tuple[float, bool]]:
    """The timed calls compared with a replay, (ms, profiled): those without Compile Lens's work in them (saved inputs,
    its profiler) where others remain, else those without saved inputs, else all."""
    timed = [(ms, bool(c.get("observer")), bool(c.get("profiled"))) for c in calls if (ms := c["ms"]) is not None]
    kept = [t for t in timed if not t[1] and not t[2]] or [t for t in timed if not t[1]] or timed
    return [(ms, profiled) for ms, _, profiled in kept]


def _ratio(value: float) -> str:
    return f"{formats.whole(value) if value >= 10 else f'{value:.1f}'}×"


def _median_of(calls: list[tuple[float, bool]], replay_ms: float, timed: list[RegionCall]) -> str:
    """ "32.8 ms (median of 2)": the calls' median in the unit of the replay's time its line says just above (review
    13P P8: "0.207 ms" under "6.12 µs"), with how many calls it is of (review 20X X1: a median of 2 said as "median")
    and how many of `timed` (the calls it was taken from) were left out for Compile Lens's own work in them (review
    22X X2: an eager call under the profiler left out unsaid)."""
    said = formats.ms_as(statistics.median(ms for ms, _ in calls), formats.ms(replay_ms))
    left = sum(1 for c in timed if c["ms"] is not None) - len(calls)
    dropped = "1 call that ran" if left == 1 else f"{left} calls that ran"
    aside = f", leaving out {dropped} with Compile Lens's own work" if left > 0 else ""
    return f"{said} (one call{aside})" if len(calls) == 1 else f"{said} (median of {len(calls)}{aside})"


def _compiled_beside(region: Region, m: ModeResult) -> tuple[str, float] | None:
    """The script's own compiled calls at the replay's inputs against the replay's compiled time, said to follow the
    eager side's sentence, and how many times as long they took; None where either side has no time. The calls are
    those that ran compiled code without compiling; their time the in-situ line's where it says one (not said again)."""
    timing = m.get("timing")
    replay_ms = timing.get("estimateMs") if timing else None
    ran = [
        c
        for c in region["calls"]
        if c.get("side") == "compiled"
        and c.get("signature") == m.get("signature")
        and c["event"] == "cached"
        and c.get("ranCompiled") is not False
    ]
    compared, in_situ_ms = _compared(ran), _in_situ(region, "compiledMs")
    # calls that all ran under Compile Lens's profiler carry its time, not the host's: no side to tell apart by
    # (review 21Y Y1: "4.76 ms (median of 2, inside Compile Lens's profiler window)" of 1.8 and 7.9 ms, blamed on the host)
    if not in_situ_ms and compared and all(profiled for _, profiled in compared):
        return None
    if not replay_ms or not (compared or in_situ_ms):
        return None
    script_ms = in_situ_ms or statistics.median(ms for ms, _ in compared)
    apart = script_ms / replay_ms
    times = f"{_ratio(apart)} as long as the replay's compiled"  # 0.9× where faster: either way one reading
    if in_situ_ms:
        return f"its compiled calls in situ took {times}", apart
    return f"its compiled calls took {_median_of(compared, replay_ms, ran)}, {times}", apart


def _busy_host(said: str, eager_apart: float, compiled: tuple[str, float] | None) -> str:
    """The script's eager calls far slower than the replay's fastest eager round on a busy host: which side of the
    script's calls the host slowed, from its compiled calls against the replay's compiled time (review 20X X1: "adds
    its own time to every call" beside compiled calls at the replay's speed)."""
    # what delays a call is the other processes on the CPUs, never time of the host's own; that the replay's number is
    # its fastest round is said once, in `said` (reviews 22X X2, 23X X4: "its fastest round" said twice)
    busy = "other processes held the host's CPUs and delayed"
    if compiled is None:  # nothing to tell the sides apart by
        return f"{said}: {busy} the script's calls."
    beside, compiled_apart = compiled
    if compiled_apart <= APART:
        return f"{said}, while {beside}: {busy} the eager calls, not the compiled ones."
    if max(eager_apart, compiled_apart) / min(eager_apart, compiled_apart) <= APART:
        return f"{said}, and {beside}: {busy} both alike."
    more, less = ("eager", "compiled") if eager_apart > compiled_apart else ("compiled", "eager")
    return f"{said}, and {beside}: {busy} the {more} calls more than the {less} ones."


def replay_against_script(region: Region, m: ModeResult, source: str = run_source.SCRIPT) -> str | None:
    """Why a replay's eager time and the script's own eager calls at its inputs are more than APART× apart, in one
    sentence (review 4B P6: "eager 6.20 ms" over a chart of eager calls at 50–90 ms, nothing said). The calls compared
    are those without Compile Lens's work in them: calls in which it saved inputs or ran its profiler are left out
    where others remain; where the region's in-situ lines say its eager time per call, that time, named, not said again
    (issue 44: one eager time per region, each other one labelled by how it was made), else their median and how many
    calls it is of. The replay's eager time is its own line's, named, not said again (its fastest round; the rounds'
    median only here, where it tells why). Where every call left ran inside its profiler window, that is why (the
    profiler adds its own time to every op: 0.14-0.19 ms against 0.04 ms a call of a 0.006 ms function); where the
    replay's own eager rounds took as long as the script's calls, its number is its fastest round (a busy host only
    adds time); where the script's calls took at most interleaved.OWN_CALL_MS more, a call that short carries what the
    eager stance and the observer add; where the replay's rounds met a contended host, that host, and which side of the
    script's calls it slowed, its compiled calls against the replay's compiled time beside (_busy_host); else Compile
    Lens does not know. source: what the user ran (run_source.noun): "The notebook's own eager calls" in a notebook's
    run."""
    timing, signature = m.get("eagerTiming"), m.get("signature")
    replay_ms = timing.get("estimateMs") if timing else None
    eager = [c for c in region["calls"] if c.get("side") == "eager" and c.get("signature") == signature]
    compared = _compared(eager)
    if timing is None or not replay_ms or not compared:
        return None
    in_situ_ms = _in_situ(region, "eagerMs")
    script_ms = in_situ_ms or statistics.median(ms for ms, _ in compared)
    apart = max(script_ms, replay_ms) / min(script_ms, replay_ms)
    if apart <= APART:
        return None
    rounds = timing.get("medianMs")
    times = _ratio(apart)
    replay = "the replay's eager (its fastest round)"
    if in_situ_ms:  # their time is the in-situ line's
        said = (
            f"The {source}'s own eager calls in situ took {times} as long as {replay}"
            if script_ms > replay_ms
            else f"The replay's eager (its fastest round) took {times} as long as the {source}'s own eager calls in situ"
        )
    else:
        said = f"The {source}'s own eager calls at these inputs took {_median_of(compared, replay_ms, eager)}, " + (
            f"{times} as long as {replay}" if script_ms > replay_ms else f"and {replay} took {times} as long"
        )
    if all(profiled for _, profiled in compared) and not in_situ_ms:
        return (
            f"{said}: they ran inside Compile Lens's profiler window, which adds its own time to every op; the "
            "replay's rounds ran without it."
        )
    if script_ms > replay_ms and rounds and max(rounds, script_ms) / min(rounds, script_ms) <= APART:
        return (
            f"{said}: most of the replay's eager rounds took as long (their median {formats.ms(rounds)}), and a "
            "busy host only adds time."
        )
    if script_ms > replay_ms and script_ms - replay_ms <= interleaved.OWN_CALL_MS:
        return (
            f"{said}: a call this short carries more than its own work in the {source}: at the eager stance it still "
            "passes through torch.compile's wrapper, and it runs between Compile Lens's own work on each call "
            f"(together up to {formats.ms(interleaved.OWN_CALL_MS)} a call); the replay times the original code back to back."
        )
    compiled_rounds = m.get("timing")  # the pairs' host (both sides') is kept with the compiled side's rounds
    load = compiled_rounds.get("hostLoad") if compiled_rounds else None
    if script_ms > replay_ms and load and load.get("contended"):
        # the replay's rounds and the script's calls met one busy host, which added what it took to each; the replay's
        # fastest round is what the host left it at its least (review 10 F3: "does not know why" beside a busy host)
        return _busy_host(said, apart, _compiled_beside(region, m))
    return f"{said}; Compile Lens does not know why."


def said_by_answer(modes: list[ModeResult], answer: Answer) -> None:
    """A contended host the answer's sentence says (the recommendation) is not said again beside its mode's number:
    one screen, one paragraph of it."""
    number = answer["number"]
    if number is None or not any(r["code"] == "host-contended" for r in answer["reasons"]):
        return
    for m in modes:
        said = contended(m) if m["mode"] == number.get("mode") else None
        if said is not None:
            m["notes"] = [n for n in m.get("notes") or [] if n != said]


def host_said_once(region: Region) -> None:
    """A region whose answer says the host was contended says it once: not again beside a replayed measurement, from
    that measurement's own samples (review 6B L: serve_script's panel held two host paragraphs, "8 threads … 9 of 9
    samples" from in situ and "11 threads … 7 of 7 samples" from the replay, each with the same fix): the answer's
    paragraph says it for the region, both measurements ran on that host within one run."""
    answer = region.get("answer")
    if answer is None or not any(r["code"] == "host-contended" for r in answer["reasons"]):
        return
    for m in region["measurements"]:
        said = contended(m)
        if said is not None:
            m["notes"] = [n for n in m.get("notes") or [] if n != said]


def launch_bound(report: Report) -> str | None:
    """Eager's launch-bound note (CUDA): why this speedup belongs to this host."""
    eager = report.get("eager") or {}
    idle = eager.get("gpuIdlePct")
    if not eager.get("launchBound") or idle is None:
        return None
    return (
        f"eager is launch-bound: the GPU sat idle {formats.pct(idle)} of each step between kernels, waiting for the "
        "host CPU to issue them, so eager's speed and the speedup depend on this host's CPU; the same model on another "
        "host will differ"
    )


def graphs_per_call(compiler: CompilerInsight) -> int | None:
    """The graphs one call runs: one per compiled frame (a recompile compiles another version of a frame a call runs
    instead, not beside it), at most the graphs made (a frame that captured nothing makes none); None when nothing was
    made or the frames were not recorded."""
    graphs = compiler.get("graphCount")
    ids = [f.get("compileId") for f in compiler.get("frames") or []]
    frames = {i.rsplit("/", 1)[0] for i in ids if i}
    return None if graphs is None else min(graphs, len(frames)) if frames else graphs


def _times(n: int) -> str:
    return {1: "once", 2: "twice"}.get(n, f"{formats.whole(n)} times")


def _recompiled_graphs(compiler: CompilerInsight) -> str | None:
    """Which graphs recompiled, by the name of their frame's first compile (review 4A F8: "2 recompiles compiled 2
    more versions of them" named none): "the graph of forward after line 24 recompiled twice"; None where a
    recompiled frame's first compile has no name on record."""
    names = {f["compileId"]: f.get("nameText") for f in compiler.get("frames") or [] if f.get("compileId")}
    counts: dict[str | None, int] = {}
    for r in compiler.get("recompiles") or []:
        name = names.get(str(r.get("compileId") or "").rsplit("/", 1)[0] + "/0")
        counts[name] = counts.get(name, 0) + 1
    if not counts or None in counts:
        return None
    said = [f"the graph of {name} recompiled {_times(n)}" for name, n in counts.items()]
    return said[0] if len(said) == 1 else f"{', '.join(said[:-1])} and {said[-1]}"


def break_cost(compiler: CompilerInsight, outside_ms: float | None) -> str | None:
    """What the graph breaks of one compiler record cost: the graphs one call runs, the time outside them; the
    graphs recompiles added said apart (a call runs one version of each)."""
    graphs, per_call = compiler.get("graphCount"), graphs_per_call(compiler)
    if not compiler.get("graphBreaks") or graphs is None or per_call is None:
        return None
    if graphs == 0:
        return "nothing of it was compiled: every call ran eagerly."
    outside = (
        ""
        if outside_ms is None
        else f" ({formats.ms(outside_ms)} per call is spent outside the graphs: eager code, guards, Python)"
    )
    recompiled = _recompiled_graphs(compiler)
    versions = formats.plural(graphs - per_call, "more version")
    them = "it" if per_call == 1 else "them"
    more = (
        ""
        if per_call == graphs
        else f"; {recompiled} ({graphs} graphs in all)"
        if recompiled
        else f"; {versions} of {them} were compiled ({graphs} graphs in all)"
    )
    if per_call == 1:
        return f"one graph holds the compiled code; the code the break left out of it runs eagerly{outside}{more}."
    split = f"the compiled code is split into {formats.plural(per_call, 'graph')}"
    return f"{split}; code between them runs eagerly{outside}{more}."


def attach(report: Report) -> None:
    """Every mode's notes (a target's, each region's replayed measurements'), eager's launch-bound note, and what each
    compiler record's graph breaks cost."""
    for m in [*report["modes"], *(m for r in report.get("regions") or [] for m in r["measurements"])]:
        m["notes"] = mode_notes(m)
    records = [(m.get("compiler"), m.get("outsideGraphsMsPerStep")) for m in report["modes"]]
    records += [(r.get("compiler"), None) for r in report.get("regions") or []]
    for compiler, outside in records:
        cost = break_cost(compiler, outside) if compiler else None
        if compiler is not None and cost is not None:
            compiler["breakCost"] = cost
    for region in report.get("regions") or []:
        for m in region["measurements"]:
            apart = replay_against_script(region, m, run_source.noun(report))
            if apart is not None:
                m["notes"] = [*m["notes"], apart]
    eager = report.get("eager")
    text = launch_bound(report)
    if eager is not None and text is not None:
        eager["launchBoundText"] = text
