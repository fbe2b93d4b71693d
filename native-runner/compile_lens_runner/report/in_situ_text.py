"""A script region's in-situ numbers in lines (schema 1.24: region `inSitu.lines`), as the CLI block, the report panel
and --json show them: the script's own steps both ways first (the answer's words for each number, then its times), the
compile inside the script and its pay-back, why per step, what the number rests on, the steps left out, per signature.
Said from the interleaved measurement the report holds (measure/interleaved.py), with formats.py's numbers, once the
region's answer is decided (its numbers' words are the answer's: sentences.number_text). A measurement of the separate
runs (torch < 2.6, reports before 1.24) has no lines: a surface lists its fields."""

from __future__ import annotations

import os

from .. import formats
from ..measure import interleaved
from ..shapes.answer import Answer, AnswerNumber
from ..shapes.in_situ import CompileFailure, InSituSpeedup, RegionInSitu
from ..shapes.region import Region

_COMPARED = {
    "signature": "one signature",
    "matched-mix": "per signature, over the script's mix",
    "pooled": "signatures pooled (a new one almost every call)",
}


def _number(answer: Answer | None, kind: str) -> AnswerNumber | None:
    numbers = [*([answer["number"]] if answer and answer["number"] else []), *(answer["evidence"] if answer else [])]
    return next((n for n in numbers if n["kind"] == kind), None)


def _said(answer: Answer | None, x: InSituSpeedup, kind: str, unit: str) -> str:
    """ "1.22× per step in situ (0.87–1.32×), 0.86 ms → 0.70 ms per step": the answer's words, then the times."""
    n = _number(answer, kind)
    text = n["text"] if n and "text" in n else f"{formats.speedup(x['speedup'])} per {unit} in situ"
    return f"{text}, {formats.ms(x['eagerMs'])} → {formats.ms(x['compiledMs'])} per {unit}"


def _basis(s: RegionInSitu) -> str:
    """ "6 pairs of adjacent eager/compiled blocks in this run, one signature"."""
    x = s.get("step") or s.get("call")
    by = f", {_COMPARED[x['comparedBy']]}" if x and x.get("comparedBy") in _COMPARED else ""
    return f"{formats.plural(int(x.get('pairs') or 0) if x else 0, 'pair')} of adjacent eager/compiled blocks in this run{by}"


def _failure(f: CompileFailure) -> str:
    loc = f.get("location")
    where = f"{os.path.basename(loc['file'])}:{loc['line']}: " if loc else ""
    return f"in situ: compiled call {f.get('index', '?')} failed at {where}{f['what'].rstrip('.')}. Fix: {f['fix']}"


def _payback(s: RegionInSitu, unit: str) -> str:
    compile_s = s.get("compileSeconds")
    said = f"compile inside the script {'unknown' if compile_s is None else formats.seconds(compile_s)}; "
    after, made = s.get("breakEvenSteps"), s.get("stepsMade")
    if after is None:
        said += f"compiled {unit}s are not faster: it never pays back"
    else:
        said += f"pays back after {formats.break_even(after, unit)}"
        if made is not None:
            said += f"; this run made {formats.whole(made)}"
    rate = s.get("stepsPerSecond")
    if rate:
        said += f"; {formats.rate(rate['eager'])} → {formats.rate(rate['compiled'])} {unit}s/s"
    return said


def lines(region: Region) -> list[str]:
    """The region's in-situ lines (the caller indents them); [] where it has no interleaved measurement."""
    s = region.get("inSitu")
    if not s or s.get("method") != interleaved.METHOD:
        return []
    answer = region.get("answer")
    number = _number(answer, "in-situ-step")
    unit = number["unit"] if number else "step"
    step, call, reason = s.get("step"), s.get("call"), s.get("reason")
    out: list[str] = []
    failure = s.get("failure")
    if failure:
        out.append(_failure(failure))
    basis = _basis(s)
    if step:
        also = f"; {_said(answer, call, 'in-situ-call', 'call')}" if call else ""
        out.append(f"in situ ({basis}): {_said(answer, step, 'in-situ-step', unit)}{also}")
        out.append(f"  {_payback(s, unit)}")
        work = s.get("work")
        if work:
            out.append(f"  why: {work['text']}")
    elif call:  # steady calls, but every step held a compile (another region's)
        out.append(
            f"in situ ({basis}): {_said(answer, call, 'in-situ-call', 'call')}; no step speedup — "
            f"{reason or 'no steady step'}"
        )
    elif s.get("pairs") or reason:
        out.append(f"in situ: no steady step — {reason or 'none was matched'}")
    if not out:
        return []
    steady = s.get("steadySteps")
    if steady and (step or call):
        left = interleaved.left_out(s.get("dropped") or {})
        out.append(
            f"  steady steps: eager {formats.whole(steady['eager'])}, compiled {formats.whole(steady['compiled'])}"
            + (f"; {left}" if left else "")
        )
    x = step or call
    if x and x.get("comparedBy") == "matched-mix":
        out += [
            f"  {g['signature']}: {formats.speedup(g['speedup'])}, {formats.ms(g['eagerMs'])} → "
            f"{formats.ms(g['compiledMs'])} ({formats.plural(g['calls'], 'call')})"
            for g in x.get("signatures") or []
        ]
    return out


def attach(region: Region) -> None:
    """The region's in-situ lines, from its answer (answer.attach calls this once the answer is decided)."""
    s = region.get("inSitu")
    if s is not None and s.get("method") == interleaved.METHOD:
        s["lines"] = lines(region)
