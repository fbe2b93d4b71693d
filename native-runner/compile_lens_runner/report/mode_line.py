"""A target mode's measurement in one line (schema 1.25: a mode's `measuredText`), as the CLI shows it under the
headline: the answer's words for its number, compiled per call against the eager it rests on, kernels per step both
ways, the compiler's graphs, breaks and recompiles, the compile time and the break-even. Written once the run's answer
is decided (answer.attach), with formats.py's numbers; a mode with no number of the answer's has no line (the answer
says why: its `unmeasured`)."""

from __future__ import annotations

from .. import formats
from ..shapes.answer import Answer, AnswerNumber, Reason
from ..shapes.common import Timing
from ..shapes.mode import ModeResult
from ..shapes.report import Report


def _number(answer: Answer, index: int) -> AnswerNumber | None:
    """The answer's number for mode `index` (its own, or its evidence)."""
    numbers = [*([answer["number"]] if answer["number"] else []), *answer["evidence"]]
    return next((n for n in numbers if n["kind"] in ("target-rounds", "replay-call") and n.get("index") == index), None)


def _ms(timing: Timing | None) -> float | None:
    """The time per call a speedup uses: the fastest rounds' estimate (the median before schema 1.4)."""
    return None if timing is None else timing.get("estimateMs", timing["medianMs"])


def line(m: ModeResult, number: AnswerNumber, eager_kernels: float | None, pays: Reason | None = None) -> str:
    """ "default: 1.30× per call with default (1.25–1.36×), 0.90 ms/call vs eager 1.66 ms, fastest rounds of 12
    interleaved pairs, kernels/step 14 → 3, 1 graph, 0 graph breaks, 0 recompiles, compile 2.4 s, break-even after
    1,234 calls". pays: the answer's pay-back, where this is the answer's number (one pay-back, the answer's: a
    number that backs no verdict, too noisy or slower, has none)."""
    parts = [number.get("text") or formats.speedup(number["value"])]
    compiled_ms, eager_ms = _ms(m.get("timing")), _ms(m.get("eagerTiming"))
    if compiled_ms is not None:
        eager_timing = m.get("eagerTiming")
        pairs = len(eager_timing["rounds"]) if eager_timing else 0
        ranged = number.get("low") is not None and number.get("high") is not None
        against = (
            ""
            if eager_ms is None
            else f" vs eager {formats.ms(eager_ms)}, fastest rounds of {pairs} interleaved pairs"
            if ranged and pairs
            else f" vs eager {formats.ms(eager_ms)} in the same rounds"
        )
        parts.append(f"{formats.ms(compiled_ms)}/call{against}")
    kernels = m.get("kernelsPerStep")
    if eager_kernels is not None and kernels is not None:
        parts.append(f"kernels/step {formats.count(eager_kernels)} → {formats.count(kernels)}")
    compiler = m.get("compiler")
    graphs = (compiler.get("graphCount") if compiler else None) or 0
    breaks = len(compiler.get("graphBreaks") or []) if compiler else 0
    recompiles = len(compiler.get("recompiles") or []) if compiler else 0
    parts.append(
        f"{formats.plural(graphs, 'graph')}, {formats.plural(breaks, 'graph break')}, "
        f"{formats.plural(recompiles, 'recompile')}"
    )
    compile_s = m.get("compileSeconds")
    if compile_s is not None:
        parts.append(f"compile {formats.seconds(compile_s)}")
    if pays is not None:
        parts.append(f"break-even after {formats.break_even(pays['steps'], pays.get('unit', 'call'))}")
    return f"{m['mode']}: {', '.join(parts)}"


def attach(report: Report, answer: Answer) -> None:
    """Each measured mode's line, from the run's answer."""
    eager_kernels = (report.get("eager") or {}).get("kernelsPerStep")
    pays = next((r for r in answer["reasons"] if r["code"] == "pays-back-after"), None)
    for index, m in enumerate(report["modes"]):
        number = _number(answer, index) if m["status"] == "ok" else None
        if number is not None:
            m["measuredText"] = line(m, number, eager_kernels, pays if number is answer["number"] else None)
