"""The verdict from numbers (schema 1.21), the rule a target's modes and a region's replays share, and "was it measured?"
decided here only (unmeasured): a mode or replayed measurement whose status is ok, whose timing is valid, whose
compiled calls ran compiled code, and that has a speedup. A measurement the host's load voided (hostLoad contended) is
measured, but no verdict rests on it. A number's range is measure/ranges.py's: never zero-width, and beyond ÷3…×3 it
is not said ("too noisy to say"); a number without a range (too noisy, or a report before ranges) supports no verdict
and no direction. A pay-back is the compile time over the time per call the number's own times save
(pays_back_after). `build` makes an answer of a decision and has report/sentences.py word it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..measure import ranges
from ..shapes.answer import Answer, AnswerNumber, NumberKind, Reason, Side
from ..shapes.common import HostLoad, Verdict
from ..shapes.mode import CUDAGRAPH_MODES, ModeResult
from ..shapes.report import Report
from . import mode_line, reason_text, run_source, sentences

MIN_USEFUL_SPEEDUP = 1.05
DECISIVE_SPAN = 2.0
# two profiles of one model agree within ±5 %: a range's low end this near MIN_USEFUL_SPEEDUP decides by a hair
NEAR_THE_BAR_PCT = 5.0


@dataclass
class Decision:
    verdict: Verdict
    number: AnswerNumber | None = None
    reasons: list[Reason] = field(default_factory=list)
    mode: str | None = None
    undecided: bool = False  # in situ: the steps support no verdict (the answer still; the replay said beside)


def contended(m: ModeResult) -> HostLoad | None:
    timed = m.get("timing")
    load = timed.get("hostLoad") if timed else None
    return load if load and load["contended"] else None


def unmeasured(m: ModeResult, mode: str | None = None) -> Reason | None:
    """Was it measured? None when m holds a speedup (a host-contended one included: see module doc); else why not.
    mode: how the reason names it (a region's "default" for its as-written callable)."""
    if m["status"] != "ok":
        error = m.get("error")
        return {
            "code": "measurement-failed",
            "mode": mode or m["mode"],
            "what": error["message"] if error else "it failed",
            "fix": error["fix"] if error else None,
        }
    fallback, timing = m.get("fallback"), m.get("timing")
    if fallback:
        return {
            "code": "ran-eagerly",
            "mode": mode or m["mode"],
            "what": fallback["cause"] or "Dynamo ran the compiled calls eagerly",
            "fix": fallback["fix"],
        }
    if timing and timing.get("valid") is False:
        return {
            "code": "not-measured",
            "mode": m["mode"],
            "what": timing.get("invalidReason") or "the timing is not valid",
        }
    if m.get("speedup") is None:
        return {"code": "not-measured", "mode": mode or m["mode"], "what": "no timing was taken"}
    return None


def correct(m: ModeResult) -> bool:
    checked = m.get("correctness")
    return checked["ok"] if checked else True


def ranged(number: AnswerNumber, low: float | None, high: float | None, too_few_pairs: bool = False) -> AnswerNumber:
    """The number with its range (floored: never zero-width), or why none is said (tooNoisy: a range too wide keeps
    its ends there for the record, never said as where a next run lands)."""
    if too_few_pairs:
        number["tooNoisy"] = {"why": "too-few-pairs"}
    elif low is not None and high is not None:
        value = number["value"]
        factor = ranges.too_noisy(value, low, high)
        if factor is not None:
            side: Side = "slower" if high < 1.0 else "faster" if low > 1.0 else "either"
            number["tooNoisy"] = {
                "why": "range-too-wide",
                "factor": factor,
                "side": side,
                "low": float(f"{low:.6g}"),  # its own digits: a low of 0.0002 is not 0
                "high": float(f"{high:.6g}"),
            }
        else:
            low, high = ranges.floored(value, low, high)
            number.update({"low": round(low, 4), "high": round(high, 4)})
    return number


def bounds(n: AnswerNumber) -> tuple[float, float] | None:
    """A number's range for deciding; None without one (too noisy, or a report from before ranges): a value alone is a
    zero-width range, and says nothing of where a next run lands."""
    return (n["low"], n["high"]) if "low" in n and "high" in n else None


def decisive(n: AnswerNumber) -> bool:
    """It has a range, spanning less than DECISIVE_SPAN: a number that can support a verdict."""
    said = bounds(n)
    return said is not None and "tooNoisy" not in n and said[1] <= DECISIVE_SPAN * said[0]


def short_of_useful(n: AnswerNumber) -> tuple[Verdict, Reason] | None:
    """The one rule of a decisive number's range, for in situ, a replay and a target's modes alike: where it falls short
    of MIN_USEFUL_SPEEDUP, the verdict and why; None where it clears it. Faster by its value but not by its range is no
    verdict either way (a GPU's decode loop read "stay eager: 1.21× per call replayed (1.04–1.38×)" from a replay in one
    process and "no verdict" from its steps in the next: one situation, two rules)."""
    said = bounds(n)
    assert said is not None  # decisive
    low, high = said
    if high < 1.0:
        slower: Reason = {"code": "slower", "value": n["value"]}
        if "eagerMs" in n and "compiledMs" in n:  # its slowdown is said from the times it is the ratio of, as shown
            slower.update({"eagerMs": n["eagerMs"], "compiledMs": n["compiledMs"]})
        return "stay-eager", slower
    if high < MIN_USEFUL_SPEEDUP:  # even the range's upper end is no useful speedup
        return "stay-eager", {"code": "not-faster", "value": MIN_USEFUL_SPEEDUP}
    if low < MIN_USEFUL_SPEEDUP <= n["value"]:
        return "none", {"code": "not-clearly-faster", "value": MIN_USEFUL_SPEEDUP}
    if low < MIN_USEFUL_SPEEDUP:
        return "stay-eager", {"code": "may-be-no-faster", "value": MIN_USEFUL_SPEEDUP}
    return None


def near_the_bar(decision: Decision) -> list[Reason]:
    """The final decision's reasons, near-the-bar among them where its number's range's low end, which decides
    compile against no verdict (short_of_useful), lies within NEAR_THE_BAR_PCT of MIN_USEFUL_SPEEDUP: a next run of the
    same model may land on the bar's other side, said with the verdict it may give (mayGive), so two runs read as one
    story (an H200's decode loop read "no verdict: 1.24× (1.02–1.66×)" and "compile for longer runs: 1.27×
    (1.08–1.46×)", 2.5 % apart). Decided once (build), from the verdict as final: beside a compile (for longer runs),
    or a "no verdict" its range gave (not-clearly-faster); never beside one a failure, a busy host or Compile Lens's
    own cost gave, which a next run's range cannot turn into this run's verdict. A number whose value falls short of
    the bar stays eager on its value or its range's high end: not this. Said after the reason that decided (the
    pay-back, not-clearly-faster), else first."""
    n, codes = decision.number, [r["code"] for r in decision.reasons]
    said = bounds(n) if n is not None else None
    if n is None or said is None or not decisive(n) or n["value"] < MIN_USEFUL_SPEEDUP:
        return decision.reasons
    low = said[0]
    if round(abs(low / MIN_USEFUL_SPEEDUP - 1.0) * 100.0, 6) > NEAR_THE_BAR_PCT:
        return decision.reasons
    decided_by = "pays-back-after" if low >= MIN_USEFUL_SPEEDUP else "not-clearly-faster"
    if decision.verdict in ("compile", "compile-for-longer-runs") and low >= MIN_USEFUL_SPEEDUP:
        may_give: Verdict = "none"
    elif decision.verdict == "none" and decided_by in codes and not reason_text.FAILURES.intersection(codes):
        may_give = "compile"
    else:
        return decision.reasons
    near: Reason = {
        "code": "near-the-bar",
        "low": low,
        "value": MIN_USEFUL_SPEEDUP,
        "nearPct": NEAR_THE_BAR_PCT,
        "mayGive": may_give,
    }
    at = codes.index(decided_by) + 1 if decided_by in codes else 0
    return [*decision.reasons[:at], near, *decision.reasons[at:]]


def scaled(n: AnswerNumber, factor: float) -> AnswerNumber:
    """The number with its value and range times factor (eager's time less a cost the tool added to it)."""
    out: AnswerNumber = {**n, "value": n["value"] * factor}
    if "low" in n and "high" in n:
        out["low"], out["high"] = n["low"] * factor, n["high"] * factor
    return out


def undecided(n: AnswerNumber) -> Reason:
    """Why a number that is not decisive supports no verdict: it has no range at all, or one too wide."""
    return {"code": "no-range"} if bounds(n) is None and "tooNoisy" not in n else {"code": "too-noisy-to-decide"}


def slower_however_noisy(n: AnswerNumber) -> bool:
    """Not decisive, but its range, said or too wide to say, lies wholly below 1×: compiled is slower wherever a next
    run lands, so it stays eager, by an amount no surface says (review 8A A4: "no verdict" on a range wholly below 1)."""
    return not decisive(n) and sentences.one_way(n) == "slower"


def directed(n: AnswerNumber, busy: bool) -> AnswerNumber:
    """The number with the way it may be said to point: faster or slower only where it could support a verdict
    (a range no wider than DECISIVE_SPAN, timed on a quiet host). One timed on a busy host is the host's, with a range
    or too noisy for one: the host's load is why it decides nothing (host-contended), and every surface, a CodeLens
    cut to its number included, says "host busy" (review 9E E1: "slower, too noisy to size, 0.35×" left it out)."""
    if busy:
        n["direction"] = "host-busy"
    elif not decisive(n):  # no range (too noisy for one, a report before ranges), or one too wide
        n["direction"] = "too-noisy"
    else:
        n["direction"] = "slower" if n["value"] < 1.0 else "faster"
    return n


def measured_number(m: ModeResult, kind: NumberKind, mode: str, index: int) -> AnswerNumber:
    speedup = m["speedup"]
    assert speedup is not None  # measured
    eager, compiled = m.get("eagerTiming"), m.get("timing")
    number: AnswerNumber = {
        "kind": kind,
        "unit": "call",
        "n": len((eager or compiled or {"rounds": []}).get("rounds") or []),
        "value": round(speedup, 4),
        "mode": mode,
        "index": index,
    }
    interval = m.get("speedupInterval")
    # the times the speedup is the ratio of: eager's fastest round of the run where the speedup took it (runEager)
    shift = interval.get("runEager") if interval else None
    eager_ms = shift["bestEagerMs"] if shift else eager and (eager.get("estimateMs") or eager.get("medianMs"))
    compiled_ms = compiled and (compiled.get("estimateMs") or compiled.get("medianMs"))
    if eager_ms and compiled_ms:
        number.update({"eagerMs": eager_ms, "compiledMs": compiled_ms})
    ranged(number, interval["low"] if interval else None, interval["high"] if interval else None)
    return directed(number, contended(m) is not None)


def from_numbers(
    measured: Sequence[tuple[ModeResult, AnswerNumber]],
    idle_cuda_graph_modes: tuple[str, ...],
    mode_of: Callable[[ModeResult], str] = lambda m: m["mode"],
) -> Decision:
    """The rule of a target's modes and of a region's replays: the fastest decisive measurement decides."""
    trusted = [(m, n) for m, n in measured if correct(m) and not contended(m)]
    wrong = [m for m, _ in measured if not correct(m)]
    if not trusted:
        if wrong:
            return Decision("stay-eager", reasons=[{"code": "wrong-results", "mode": n} for n in _names(wrong)])
        busy = [(m, n) for m, n in measured if contended(m)]
        if busy:
            m, n = busy[0]
            load = contended(m)
            assert load is not None  # chosen so
            return Decision("none", n, [{"code": "host-contended", "what": load["reason"] or "", "fix": load["fix"]}])
        return Decision("none")
    usable = [(m, n) for m, n in trusted if decisive(n)]
    if not usable:
        _, noisy = max(trusted, key=lambda mn: mn[1]["value"])
        if all(slower_however_noisy(n) for _, n in trusted):  # the direction decides, its size is not said
            return Decision("stay-eager", noisy, [{"code": "slower"}])
        return Decision("none", noisy, [undecided(noisy)])
    best, number = max(usable, key=lambda mn: mn[1]["value"])
    short = short_of_useful(number)
    if short is not None:
        return Decision(short[0], number, [short[1]])
    reasons: list[Reason] = []
    compile_s = best.get("compileSeconds")
    calls = pays_back_after(compile_s, number)
    if calls is not None and compile_s is not None:
        pays: Reason = {"code": "pays-back-after", "steps": calls, "unit": "call", "seconds": compile_s}
        if mode_line.is_cold(best.get("compiler")):
            pays["coldCache"] = True
        reasons.append(pays)
    mode = mode_of(best)
    if mode in idle_cuda_graph_modes:
        reasons.append({"code": "cuda-graphs-idle-on-cpu", "mode": mode})
    return Decision("compile", number, reasons, mode=mode)


def pays_back_after(compile_s: float | None, number: AnswerNumber) -> int | None:
    """Calls until compile_s is paid back at the per-call times the number is the ratio of, so a pay-back never
    disagrees with the times shown beside it (a recorded breakEvenCalls may be an older estimator's); None when compiled
    is not faster or the number carries no times."""
    eager_ms, compiled_ms = number.get("eagerMs"), number.get("compiledMs")
    if compile_s is None or eager_ms is None or compiled_ms is None or compiled_ms >= eager_ms:
        return None
    return math.ceil(compile_s * 1000.0 / (eager_ms - compiled_ms))


def _names(modes: Sequence[ModeResult]) -> list[str]:
    return [m["mode"] for m in modes]


def not_measured_decision(modes: Sequence[ModeResult], mode_of: Callable[[ModeResult], str] | None = None) -> Decision:
    """Why no measurement supports a verdict: each mode's own reason, a fallback first."""
    why = [r for r in (unmeasured(m, mode_of(m) if mode_of else None) for m in modes) if r is not None]
    why.sort(key=lambda r: r["code"] != "ran-eagerly")
    return Decision("none", reasons=why[:1] or [{"code": "nothing-measured"}])


def idle_modes(device: str | None) -> tuple[str, ...]:
    """On CPU a CUDA-graph mode's CUDA graphs do nothing: said wherever such a mode is recommended."""
    return CUDAGRAPH_MODES if device == "cpu" else ()


def failed_reason(report: Report) -> Reason | None:
    """The run's failure (out of memory, an exception, a timeout, a cancel) at the user's line, when it ended so."""
    error = report.get("error")
    if not error or (report["status"] == "ok"):
        return None
    reason: Reason = {"code": "failed", "kind": error["kind"], "what": error["message"], "fix": error["fix"]}
    where = error.get("location")
    if where:
        reason.update({"file": where["file"], "line": where["line"], "cell": where.get("cell")})
    return reason


def each_unmeasured(measurements: Sequence[ModeResult], mode_of: Callable[[ModeResult], str]) -> list[Reason]:
    """Why each measurement that holds no number holds none (its index in modes[] or measurements[])."""
    out: list[Reason] = []
    for k, m in enumerate(measurements):
        why = unmeasured(m, mode_of(m))
        if why is not None:
            why["index"] = k
            out.append(why)
    return out


def build(
    decision: Decision,
    evidence: list[AnswerNumber],
    facts: list[str],
    unmeasured: list[Reason],
    source: str = run_source.SCRIPT,
) -> Answer:
    """The answer, and its words (sentences.py): each number's and each reason's text, the headline, the sentence
    (source: what the user ran, run_source.noun, where a sentence names it)."""
    answer: Answer = {
        "verdict": decision.verdict,
        "mode": decision.mode if decision.verdict in ("compile", "compile-for-longer-runs") else None,
        "number": decision.number,
        "reasons": sorted(near_the_bar(decision), key=lambda r: r["code"] not in reason_text.LEADING),
        "headline": "",
        "sentence": "",
        "evidence": evidence,
        "unmeasured": unmeasured,
    }
    for n in [*([decision.number] if decision.number else []), *evidence]:
        n["text"] = sentences.number_text(n)
        n["directionText"] = sentences.direction_text(n)
    for r in [*answer["reasons"], *unmeasured]:
        r["text"] = reason_text.sentence(r, source)
    answer["headline"] = sentences.headline(answer, facts)
    answer["sentence"] = sentences.verdict_sentence(answer, source)
    return answer
