"""A script region's in-situ numbers in lines (schema 1.24: region `inSitu.lines`), as the CLI block, the report panel
and --json show them: the script's own steps both ways first (the answer's words for each number, then its times), where
the number is the answer's its pay-back and the compiled warm-up's time beyond eager steps it pays back, why per step, what the number rests on, the steps left out, per signature;
and why there is no step speedup (schema 1.25: `inSitu.reason`, from the measurement's code, `noStep`).
Said from the interleaved measurement the report holds (measure/interleaved.py), with formats.py's numbers, once the
region's answer is decided (its numbers' words are the answer's: sentences.number_text). A measurement of the separate
runs (the runner before 1.16, torch < 2.6) re-read now is said in the same words, resting on whole runs of the script
each way; and the whole script's time both ways those runs recorded (`wallText`, schema 1.29)."""

from __future__ import annotations

from .. import formats
from ..measure import interleaved, ranges
from ..shapes.answer import Answer, AnswerNumber, Reason
from ..shapes.common import Sides
from ..shapes.in_situ import CompileFailure, InSituSpeedup, Interrupted, InterruptedSide, NoStep, RegionInSitu
from ..shapes.region import Region
from ..shapes.report import Report
from . import roles, run_source, step_work_text

_COMPARED = {
    "signature": "one signature",
    "matched-mix": "per signature, over the {source}'s mix",
    "pooled": "signatures pooled (a new one almost every call)",
}


# why a step was left out, in words that follow its count ("3 in Compile Lens's compiled warm-up"), the number's own costs first
# and the measurement's seams last (the keys are the report's codes: `dropped`)
LEFT_OUT_WORDS = {
    "warm-up": "in Compile Lens's compiled warm-up",
    "first eager call": "at eager's first call",
    "first on its signature": "first at its input shape",
    "compiled": "compiling",
    "ran eagerly": "on the compiled side that ran no compiled code",
    "never served compiled": "eager at a shape compiled code never served",
    "switch": "during which compiling was switched on or off",
    "observer": "in which Compile Lens saved inputs or checked for changes",
    # a step far above its side's median: the host paused, or the script did other work in it (a validation pass)
    "interrupted": "far above their side's median",
}


def _left_out_parts(dropped: dict[str, int]) -> tuple[int, list[str]]:
    """The steps left out and the whys said after their count: each why with its count, in LEFT_OUT_WORDS' order
    ("3 in Compile Lens's compiled warm-up", "1 compiling"); one why alone without its count, which is the total's
    ("all in Compile Lens's compiled warm-up"; review 6C X11: "3 steps left out: 3 in …")."""
    reasons = sorted(
        ((why, n) for why, n in dropped.items() if n > 0),
        key=lambda r: list(LEFT_OUT_WORDS).index(r[0]) if r[0] in LEFT_OUT_WORDS else len(LEFT_OUT_WORDS),
    )
    total = sum(n for _, n in reasons)
    if len(reasons) == 1:
        why, n = reasons[0]
        return total, [f"{'all ' if n > 1 else ''}{LEFT_OUT_WORDS.get(why, why)}"]
    return total, [f"{formats.whole(n)} {LEFT_OUT_WORDS.get(why, why)}" for why, n in reasons]


def _whys(parts: list[str]) -> str:
    """ ": 3 in …, 1 compiling" after the count; one why alone ", all in …"."""
    if not parts:
        return ""
    return f", {parts[0]}" if len(parts) == 1 else f": {', '.join(parts)}"


def _steps(n: int, unit: str) -> str:
    return f"{formats.whole(n)} {unit if n == 1 else unit + 's'}"


def left_out(dropped: dict[str, int], unit: str = "step") -> str | None:
    """ "89 steps left out: 3 in Compile Lens's compiled warm-up, 1 first at its input shape, 72 during which compiling was
    switched on or off, 13 in which Compile Lens saved inputs or checked for changes"; "3 steps left out, all in Compile
    Lens's compiled warm-up"; None when none was."""
    total, parts = _left_out_parts(dropped)
    if not total:
        return None
    return f"{_steps(total, unit)} left out{_whys(parts)}"


def left_out_clause(r: Reason) -> str:
    """The in-situ-left-out reason's clause: "89 steps left out"."""
    return f"{_steps(r.get('count', 0), r.get('unit', 'step'))} left out"


def left_out_sentence(r: Reason) -> str:
    """The in-situ-left-out reason's sentence: what the answer's number leaves out, in its unit and with the counts
    the in-situ lines give (one count of the steps left out, issue 44)."""
    _, parts = _left_out_parts(r.get("dropped") or {})
    return f"In situ, the number leaves out {_steps(r.get('count', 0), r.get('unit', 'step'))}{_whys(parts)}."


def few_pairs(r: Reason) -> str:
    """The in-situ-few-pairs reason's sentence: the range widened to cover few pairs' own ratios
    (ranges.of_block_pairs), and what narrows it."""
    span = formats.interval(r.get("low", 0.0), r.get("high", 0.0))
    return (
        f"With only {formats.plural(r.get('pairs', 0), 'pair')} of blocks, the range is widened to cover each pair's "
        f"own ratio ({span}); a run with more {r.get('unit', 'step')}s has more pairs and a narrower range."
    )


def _no_steady_side(
    side: str, dropped: dict[str, int], calls: int | None, steady: Sides | None, source: str = run_source.SCRIPT
) -> str:
    """ "the script's 6 calls of it make 5 steps (each from one call to the next), all left out (3 in Compile Lens's
    compiled warm-up, 1 at eager's first call, 1 in which …), so no step was left to time": why one side had no
    steady step, in one sentence that counts the steps from the calls the region's facts count (review 18Z Z7: "no
    steady eager step: 5 steps left out: 3 in …" beside "6 calls", three colons, and steps and calls for one
    count); "the script's 12 calls of it make 11 steps (…); 10 were left out (…) and the 1 steady one was eager, so
    no compiled step was left to time" where the other side's steps were steady; "the notebook's" in a notebook's run
    (source: run_source.noun)."""
    reasons = [(why, n) for why, n in dropped.items() if n > 0]
    reasons.sort(key=lambda r: list(LEFT_OUT_WORDS).index(r[0]) if r[0] in LEFT_OUT_WORDS else len(LEFT_OUT_WORDS))
    left = sum(n for _, n in reasons)
    other = "compiled" if side == "eager" else "eager"
    kept = int(steady["compiled" if side == "eager" else "eager"]) if steady else 0
    steps = left + kept
    if not steps:
        return f"no steady {side} step: none was recorded"
    # a step runs from the start of one call of the region to the start of its next (measure/interleaved.py): the
    # script's last call makes none
    each = "each from one call to the next" if steps > 1 else "from one call to the next"
    made = f"its {_steps(steps, 'step')} in situ"
    if calls is not None and calls == steps + 1:
        made = f"the {source}'s {_steps(calls, 'call')} of it make {_steps(steps, 'step')} ({each})"
    whys = ", ".join(
        LEFT_OUT_WORDS.get(why, why) if n == steps == 1 else f"{formats.whole(n)} {LEFT_OUT_WORDS.get(why, why)}"
        for why, n in reasons
    )
    steady_ones = f"the {formats.whole(kept)} steady {'one was' if kept == 1 else 'ones were'} {other}"
    if not kept:  # neither side's: "no eager step" read as if compiled steps were timed (review 19Z Z7)
        return f"{made}, {'left out' if steps == 1 else 'all left out'} ({whys}), so no step was left to time"
    if left:
        said = f"{made}; {formats.whole(left)} {'was' if left == 1 else 'were'} left out ({whys}) and {steady_ones}"
    else:
        said = f"{made}; {steady_ones}"
    return f"{said}, so no {side} step was left to time"


def no_step_reason(
    no_step: NoStep,
    dropped: dict[str, int],
    calls: int | None = None,
    steady: Sides | None = None,
    source: str = run_source.SCRIPT,
) -> str:
    """Why an interleaved measurement has no step speedup, in words, from its code and numbers (no-steady-side: the
    region's calls and each side's steady steps, where the report holds them; source: what the user ran,
    run_source.noun)."""
    code = no_step["code"]
    if code == "eager-stance-only":
        return (
            "it was called only with compiling off: with compiling on, its calls ran inside another region's compiled "
            "code (inlined there), so they are measured as part of that region"
        )
    if code == "never-compiled":
        fallback = no_step.get("fallback")
        why = f" ({fallback})" if fallback else ""
        return f"no call of it ran compiled code{why}: every call ran eagerly, so there is nothing compiled to compare"
    if code == "before-interleaving":
        calls, quiet = no_step.get("calls", 0), no_step.get("quietCalls", 0)
        # what the user sees happen to their calls, not the mechanism (review 5C J7: "switching compiling off and on")
        return (
            f"the {source}'s {formats.plural(calls, 'call')} of it all came before Compile Lens began running its calls "
            f"alternately compiled and eager (it starts once {formats.plural(quiet, 'call')} in a row compile "
            "nothing): none ran eagerly to compare with"
        )
    if code == "no-steady-side":
        return _no_steady_side(no_step.get("side", "eager"), dropped, calls, steady, source)
    return "no input signature had steady steps both ways"


def _interrupted_side(side: str, x: InterruptedSide, first: bool) -> str:
    """ "eager 6 of 21.1 ms–115 ms (its median with them: 0.639 ms)" ("6 steps of" first): the median the rule stood
    on, which the number's own (without them) is not."""
    times = (
        f"{formats.ms(x['lowMs'])}–{formats.ms(x['highMs'])}" if x["lowMs"] != x["highMs"] else formats.ms(x["lowMs"])
    )
    against = f" (its median with them: {formats.ms(x['medianMs'])})" if x["medianMs"] is not None else ""
    count = _steps(x["steps"], "step") if first else formats.whole(x["steps"])
    return f"{side} {count} of {times}{against}"


def interrupted_text(x: Interrupted, contended: bool, source: str = run_source.SCRIPT) -> str:
    """ "outlying steps (over 5× their side's median, one rule both ways: a pause of the host or other work of the
    script in them): eager 6 steps of 21.1 ms–115 ms (its median with them: 0.639 ms), compiled 7 of 24.8 ms–209 ms
    (its median with them: 0.678 ms); the host was contended: other processes held its CPUs": what the steady state
    leaves out, whether the host paused or the script did more in those steps (a validation pass: s32); the
    host's load where it was measured contended (a quiet host's pause is not named). That they are left out is said
    with the other steps left out, once (the answer's sentence, else the steady steps' line)."""
    said: list[str] = []
    for side, part in (("eager", x["eager"]), ("compiled", x["compiled"])):
        if part is not None:
            said.append(_interrupted_side(side, part, not said))
    host = "; the host was contended: other processes held its CPUs" if contended else ""
    return (
        f"outlying steps (over {formats.count(x['times'])}× their side's median, one rule both ways: a pause of the "
        f"host or other work of the {source} in them): {', '.join(said)}{host}"
    )


def _number(answer: Answer | None, kind: str) -> AnswerNumber | None:
    numbers = [*([answer["number"]] if answer and answer["number"] else []), *(answer["evidence"] if answer else [])]
    return next((n for n in numbers if n["kind"] == kind), None)


_TOO_NOISY = "too noisy to say"
# the in-situ per-call number beside the per-step one the answer rests on: what it is and is not
CALLS_ALONE = f"the region's calls alone, without the rest of each step's work ({roles.EVIDENCE})"


def _said(answer: Answer | None, x: InSituSpeedup, kind: str, unit: str) -> str:
    """ "3.99× per call in situ (2.83–4.86×), eager 0.542 ms → compiled 0.136 ms per call": the number's words, then
    the times, each side named (issue 44: an in-situ eager time is said as the in-situ one, beside the replay's and
    the profiler's). A number the answer's sentence already says ("1.38× per step in situ (1.34–1.50×)"), or one too
    noisy to say where the sentence says why, is its times alone (review 4C X3: the number and "too noisy to say" said
    twice)."""
    n = _number(answer, kind)
    eager, compiled = times_shown(x)
    times = f"eager {eager} → compiled {compiled} per {unit}"
    text = n["text"] if n and "text" in n else f"{formats.speedup(x['speedup'])} per {unit} in situ"
    sentence = _sentence(answer)
    if text in sentence or (_TOO_NOISY in text and _TOO_NOISY in sentence):
        return times
    return f"{text}, {times}"


def _sentence(answer: Answer | None) -> str:
    return (answer.get("sentence") or "") if answer else ""


def _unsaid(answer: Answer | None, said: str | None) -> str | None:
    """`said`, unless the answer's sentence already says it (its in-situ reason, the steps it leaves out): once."""
    return said if said and said not in _sentence(answer) else None


def times_shown(x: InSituSpeedup) -> tuple[str, str]:
    """Eager's and compiled's times at the digits where they divide to its speedup as shown (review 17 Y1: "3.82×"
    beside 0.429 ms → 0.112 ms, which give 3.83×), wherever either time is said (review 18Y Y5: the chart's tag
    "0.112 ms compiled" under the line's "0.1123 ms")."""
    return formats.times_of_ratio(x["eagerMs"], x["compiledMs"], x["speedup"])


def _shown(x: InSituSpeedup) -> tuple[str, str, str]:
    """Its speedup, then eager's and compiled's times at the digits where they divide to it as shown."""
    return formats.speedup(x["speedup"]), *times_shown(x)


def middle_words(x: InSituSpeedup | None) -> str | None:
    """ "the middle of 6 pairs of blocks": what an interleaved number and its times are where its pairs are compared
    (interleaved.estimate); None where each side's median over the run is (pooled, or no pair)."""
    if not x or x.get("comparedBy") not in ("signature", "matched-mix") or not x.get("pairs"):
        return None
    return f"the middle of {formats.plural(int(x['pairs']), 'pair')} of blocks"


def _basis(s: RegionInSitu, source: str) -> str:
    """ "the middle of 6 pairs of adjacent eager/compiled blocks in this run, one signature" (pooled: "6 pairs of …");
    the separate runs' "2 pairs of whole runs of the script, eager and compiled"."""
    if s.get("method") != interleaved.METHOD:
        return f"{formats.plural(s.get('pairs') or 0, 'pair')} of whole runs of the {source}, eager and compiled"
    x = s.get("step") or s.get("call")
    by = f", {_COMPARED[x['comparedBy']].format(source=source)}" if x and x.get("comparedBy") in _COMPARED else ""
    pairs = f"{formats.plural(int(x.get('pairs') or 0) if x else 0, 'pair')} of adjacent eager/compiled blocks"
    middle = "the middle of " if middle_words(x) else ""
    return f"{middle}{pairs} in this run{by}"


def _failure(f: CompileFailure) -> str:
    loc = f.get("location")
    where = f"{formats.place(loc['file'], loc['line'], loc.get('cell'))}: " if loc else ""
    return f"in situ: compiled call {f.get('index', '?')} failed at {where}{f['what'].rstrip('.')}. {formats.fix(f['fix'])}"


def compile_seconds_reported(region: Region) -> float | None:
    """The compiler's own count of the script's compiles in its calls (the region's facts say it: "68.9 s compiling");
    None where no call reported one. Its compile record's total where it has one, which the compile phases' heading
    says too (compiler_text.phases_text): the calls' rounded seconds summed read "240 ms" beside its "239 ms"
    (review 4B P1), and leave out a backward compiled at the first backward ("50.2 s" beside "50.3 s", M11)."""
    reported = [
        seconds
        for c in region["calls"]
        if c.get("event") != "cached" and (seconds := c.get("compileSeconds")) is not None
    ]
    compiler = region.get("compiler")
    total = (compiler.get("compileSeconds") or {}).get("total") if compiler else None
    return (total or sum(reported)) if reported else None


def warm_up_cost(region: Region) -> tuple[float | None, bool]:
    """The in-situ warm-up's time beyond eager steps, and whether it is the compiler's count beside it to within
    rounding ("69.0 s" against "68.9 s compiling": one cost, said once, as the count)."""
    s = region.get("inSitu")
    cost, counted = s.get("compileSeconds") if s else None, compile_seconds_reported(region)
    if cost is not None and counted is not None and abs(cost - counted) <= 0.01 * counted:
        return counted, True
    return cost, False


def _payback(region: Region, unit: str, answer: Answer | None, number: AnswerNumber | None) -> str | None:
    """ "compiled steps are slower: it never pays back; eager 104 steps/s → compiled 134 steps/s". A pay-back is the answer's
    reason, said in its sentence with what it pays back (review 4C X3: said twice, here and there); a slower number
    that is the answer's says here that it never pays back."""
    s = region["inSitu"]
    assert s is not None
    said = []
    ours = answer is not None and number is not None and answer["number"] is number
    if ours and number is not None and number.get("direction") == "slower":
        said.append(f"compiled {unit}s are slower: it never pays back")
    step = s.get("step")
    if s.get("stepsPerSecond") and step:
        # each side named: alone on its line, a bare "549 → 500 steps/s" read as a number with no subject; each the
        # inverse of its time as shown above it (review 16 Y3: 2,065 steps/s under 0.484 ms, whose inverse is 2,066)
        eager, compiled = (1000 / formats.shown_ms(ms) for ms in _shown(step)[1:])
        said.append(f"eager {formats.rate(eager)} {unit}s/s → compiled {formats.rate(compiled)} {unit}s/s")
    return "; ".join(said) or None


def lines(region: Region, source: str = run_source.SCRIPT) -> list[str]:
    """The region's in-situ lines (the caller indents them); [] where it has no in-situ measurement (source: what the
    user ran, run_source.noun)."""
    s = region.get("inSitu")
    if not s:
        return []
    answer = region.get("answer")
    number = _number(answer, "in-situ-step")
    unit = number["unit"] if number else "step"
    step, call, reason = s.get("step"), s.get("call"), s.get("reason")
    out: list[str] = []
    failure = s.get("failure")
    if failure:
        out.append(_failure(failure))
    basis = _basis(s, source)
    if step:
        out.append(f"in situ ({basis}): {_said(answer, step, 'in-situ-step', unit)}")
        # per call beside per step only where its speedup or times differ as said (one call a step gives the same
        # numbers twice, their ranges a hair apart), on a line of its own that says what it is: the step's number
        # is the answer's, this one its evidence (review H4: "0.91× per call in situ (0.68–2.36×)" after a headline's
        # "1.03× per step" read as a second verdict, leaning the other way)
        if call and _shown(call) != _shown(step):
            out.append(f"  {CALLS_ALONE}: {_said(answer, call, 'in-situ-call', 'call')}")
        payback = _payback(region, unit, answer, number)
        if payback:
            out.append(f"  {payback}")
        work = s.get("work")
        if work:
            out.append(f"  why: {work['text']}")
    elif call:  # steady calls, but every step held a compile (another region's)
        why = _unsaid(answer, reason or "no steady step")
        out.append(
            f"in situ ({basis}): {_said(answer, call, 'in-situ-call', 'call')}"
            "; no step speedup" + (f" — {why}" if why else "")
        )
    elif (s.get("pairs") or reason) and _unsaid(answer, reason or "no steady step was matched"):
        # the reason says which step there was none of (where the answer's sentence has not said it)
        out.append(f"in situ: {reason or 'no steady step was matched'}")
    if not out:
        return []
    steady = s.get("steadySteps")
    if steady and (step or call):
        _, parts = _left_out_parts(s.get("dropped") or {})
        # said once: the answer's sentence ends with the same whys ("… leaves out 3 steps, all in …."), in its unit
        left = left_out(s.get("dropped") or {}) if _unsaid(answer, f"{_whys(parts)}.") else None
        out.append(
            f"  steady steps: eager {formats.whole(steady['eager'])}, compiled {formats.whole(steady['compiled'])}"
            + (f"; {left}" if left else "")
        )
        interrupted, load = s.get("interrupted"), s.get("hostLoad")
        if interrupted:
            out.append(f"  {interrupted_text(interrupted, bool(load and load['contended']), source)}")
        last = last_call_line(region, source)
        if last:
            out.append(f"  {last}")
    x = step or call
    if x and x.get("comparedBy") == "matched-mix":
        out += [
            f"  {formats.inputs(g['signature'])}: {formats.speedup(g['speedup'])}, {formats.ms(g['eagerMs'])} → "
            f"{formats.ms(g['compiledMs'])} ({formats.plural(g['calls'], 'call')})"
            for g in x.get("signatures") or []
        ]
    return out


def last_call(region: Region, source: str = run_source.SCRIPT) -> str | None:
    """Why the script's last call, far above its side's median in situ, is in no number (review F4: serve_script's call
    63 at 1.02 s, 2,500× the steady calls, drawn as compiled code reused and said nowhere): "no step follows it, so no
    number counts it; it is the first call after compiling was switched back on, with Compile Lens's state check
    around it". What ran around it is said from the call's own record (its side against the call before, the
    observer's check); None where the last call is not far above its side's median, or there is no in-situ call
    number to set it against."""
    s, calls = region.get("inSitu"), region["calls"]
    x = s.get("call") if s else None
    if not x or not calls or region.get("callsTruncated"):
        return None
    last = calls[-1]
    side, ms = last.get("side"), last.get("ms")
    if side not in ("compiled", "eager") or ms is None or last.get("stepMs") is not None:
        return None
    if ms < ranges.FAR_TIMES * x["compiledMs" if side == "compiled" else "eagerMs"]:
        return None
    switched = len(calls) > 1 and calls[-2].get("side") not in (None, side)
    checked = bool(last.get("observer"))
    told = (
        f"; it is the first call after compiling was switched {'back on' if side == 'compiled' else 'off'}"
        + (", with Compile Lens's state check around it" if checked else "")
        if switched
        else f"; Compile Lens checked the {source}'s state around it"
        if checked
        else ""
    )
    return f"no step follows it, so no number counts it{told}"


def last_call_line(region: Region, source: str = run_source.SCRIPT) -> str | None:
    """ "call 63 (1.02 s), the script's last: no step follows it, …": last_call, with which call and its time."""
    why = last_call(region, source)
    if why is None:
        return None
    last = region["calls"][-1]
    return f"call {last['index']} ({formats.ms(last['ms'] or 0.0)}), the {source}'s last: {why}"


def attach_reason(region: Region, source: str = run_source.SCRIPT) -> None:
    """Why the region's interleaved measurement has no step speedup, in words (the answer quotes it)."""
    s = region.get("inSitu")
    no_step = s.get("noStep") if s is not None else None
    if s is not None and no_step is not None:
        s["reason"] = no_step_reason(
            no_step, s.get("dropped") or {}, region.get("callCount"), s.get("steadySteps"), source
        )


def attach(region: Region, source: str = run_source.SCRIPT) -> None:
    """The region's in-situ lines, from its answer (answer.attach calls this once the answer is decided), and its step
    work's line (source: what the user ran, run_source.noun)."""
    s = region.get("inSitu")
    if s is not None:
        work = s.get("work")
        if work:
            work["text"] = step_work_text.text(
                work, s.get("step"), step_work_text.replay_ops(region.get("measurements") or [])
            )
        s["lines"] = lines(region, source)


def wall_text(wall: dict[str, list[float]] | None) -> str | None:
    """ "whole script, fastest of 2 runs each: as written 5.5 s · compiling off 0.69 s": what the separate runs (the
    runner before 1.16) recorded of the whole script; None without both sides."""
    if not wall or not wall.get("compiled") or not wall.get("eager"):
        return None
    n = min(len(wall["compiled"]), len(wall["eager"]))
    return (
        f"whole script, fastest of {formats.plural(n, 'run')} each: as written {formats.seconds(min(wall['compiled']))}"
        f" · compiling off {formats.seconds(min(wall['eager']))}"
    )


def attach_wall(report: Report) -> None:
    """The report's whole-script line, where its separate runs recorded the script's wall time both ways."""
    situ = report.get("inSitu")
    said = wall_text(situ.get("wallSeconds")) if situ else None
    if situ is not None and said is not None:
        situ["wallText"] = said
