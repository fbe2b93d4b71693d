"""The answer, decided once (schema 1.21): per region and per report, a verdict (compile, compile-for-longer-runs,
stay-eager, none), the one number it rests on, and the reasons as codes with their parameters. Derived here from what
the report holds, each time the report is written (document.write), so a checkpoint, a cancelled run and a merged
torchrun job answer from what they hold; report/sentences.py says it in words, and the report carries those words
(`recommendation.reason` and the headlines are the answer's sentence and headline).

Was it measured? decided here only (unmeasured): a mode or replayed measurement whose status is ok, whose timing is
valid, whose compiled calls ran compiled code, and that has a speedup. A measurement the host's load voided
(hostLoad contended) is measured, but no verdict rests on it.

THE number, per region: the script's own steps in situ (per step; per call where every step held a compile) when they
decide; else the replay of its calls (as written, its most frequent inputs, or the what-if mode the verdict names);
per target: the recommended mode's paired rounds, else the fastest measured mode's. Every other measurement is
evidence, labelled by how it was made. Its range is measure/ranges.py's: never zero-width, and beyond ÷3…×3 it is not
said ("too noisy to say"); a range from fewer than MIN_PAIRS pairs of blocks is not said either.

The verdict from a number (in situ or replayed, the rule targets use too):
- its range clears MIN_USEFUL_SPEEDUP (1.05x): compile; compile-for-longer-runs when its compile pays back only
  after more steps (calls) than the script made (never "stay eager");
- its range reaches no higher than 1.05x: stay-eager;
- its range straddles 1.05x: in situ, stay-eager when the estimate is under 1.05x, else no verdict (the replay's
  verdict then, where there is one); a target or replay, stay-eager;
- its range wider than DECISIVE_SPAN (2x high over low), or the host contended: no verdict (in situ: the replay's).
A failed compiled call is "fix first" (no verdict); a failed run (out of memory, an exception, a timeout) leads with
the failure at the user's line, then what was measured before it, with no verdict; a region none of whose calls ran
compiled code has no number. Nothing measured: no verdict, never "stay eager".
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from .. import formats
from ..measure import ranges
from ..shapes.answer import Answer, AnswerNumber, NumberKind, Reason, Unit
from ..shapes.common import HostLoad, Recommendation, Verdict
from ..shapes.in_situ import InSituSpeedup, RegionInSitu
from ..shapes.mode import CUDAGRAPH_MODES, ModeResult, RegionMeasurement
from ..shapes.region import Region
from ..shapes.report import Report
from . import sentences
from .shape_reasons import shape_reasons, step_unit

MIN_USEFUL_SPEEDUP = 1.05
DECISIVE_SPAN = 2.0
# In-situ verdicts rest on at least this many steady steps, and (interleaved) this many pairs of adjacent
# eager/compiled blocks (one pair is no spread between blocks); fewer: the replay's rounds decide.
MIN_STEADY_STEPS = 3
MIN_PAIRS = 2
AS_WRITTEN = "as-written"  # a region's measurement of the script's own compiled callable (script/replay.py)
STANCE_TORCH = (2, 6)  # torch.compiler.set_stance, which in-situ measurement switches, came with torch 2.6


@dataclass
class _Decision:
    verdict: Verdict
    number: AnswerNumber | None = None
    reasons: list[Reason] = field(default_factory=list)
    mode: str | None = None
    undecided: bool = False  # in situ: the steps support no verdict, a replay's may stand instead


def _contended(m: ModeResult) -> HostLoad | None:
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


def _correct(m: ModeResult) -> bool:
    checked = m.get("correctness")
    return checked["ok"] if checked else True


def ranged(number: AnswerNumber, low: float | None, high: float | None, too_few_pairs: bool = False) -> AnswerNumber:
    """The number with its range (floored: never zero-width), or why none is said (tooNoisy)."""
    if too_few_pairs:
        number["tooNoisy"] = {"why": "too-few-pairs"}
    elif low is not None and high is not None:
        value = number["value"]
        factor = ranges.too_noisy(value, low, high)
        if factor is not None:
            number["tooNoisy"] = {"why": "range-too-wide", "factor": factor}
        else:
            low, high = ranges.floored(value, low, high)
            number.update({"low": round(low, 4), "high": round(high, 4)})
    return number


def _bounds(n: AnswerNumber) -> tuple[float, float]:
    """A number's range for deciding; a number without one (older reports, too noisy) decides on its value alone."""
    return (n["low"], n["high"]) if "low" in n and "high" in n else (n["value"], n["value"])


def _decisive(n: AnswerNumber) -> bool:
    """Its range spans less than DECISIVE_SPAN: a number that can support a verdict."""
    low, high = _bounds(n)
    return "tooNoisy" not in n and high <= DECISIVE_SPAN * low


def _measured_number(m: ModeResult, kind: NumberKind, mode: str, index: int) -> AnswerNumber:
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
    eager_ms = eager and (eager.get("estimateMs") or eager.get("medianMs"))
    compiled_ms = compiled and (compiled.get("estimateMs") or compiled.get("medianMs"))
    if eager_ms and compiled_ms:
        number.update({"eagerMs": eager_ms, "compiledMs": compiled_ms})
    interval = m.get("speedupInterval")
    return ranged(number, interval["low"] if interval else None, interval["high"] if interval else None)


def _from_numbers(
    measured: Sequence[tuple[ModeResult, AnswerNumber]],
    idle_cuda_graph_modes: tuple[str, ...],
    mode_of: Callable[[ModeResult], str] = lambda m: m["mode"],
) -> _Decision:
    """The rule of a target's modes and of a region's replays: the fastest decisive measurement decides."""
    trusted = [(m, n) for m, n in measured if _correct(m) and not _contended(m)]
    wrong = [m for m, _ in measured if not _correct(m)]
    if not trusted:
        if wrong:
            return _Decision("stay-eager", reasons=[{"code": "wrong-results", "mode": n} for n in _names(wrong)])
        contended = [(m, n) for m, n in measured if _contended(m)]
        if contended:
            m, n = contended[0]
            load = _contended(m)
            assert load is not None  # chosen so
            return _Decision("none", n, [{"code": "host-contended", "what": load["reason"] or "", "fix": load["fix"]}])
        return _Decision("none")
    usable = [(m, n) for m, n in trusted if _decisive(n)]
    if not usable:
        _, noisy = max(trusted, key=lambda mn: mn[1]["value"])
        return _Decision("none", noisy, [{"code": "too-noisy-to-decide"}])
    best, number = max(usable, key=lambda mn: mn[1]["value"])
    low, high = _bounds(number)
    if high < 1.0:
        return _Decision("stay-eager", number, [{"code": "slower"}])
    if low < MIN_USEFUL_SPEEDUP:
        return _Decision("stay-eager", number, [{"code": "may-be-no-faster", "value": MIN_USEFUL_SPEEDUP}])
    reasons: list[Reason] = []
    calls, compile_s = best.get("breakEvenCalls"), best.get("compileSeconds")
    if calls is not None and compile_s is not None:
        reasons.append({"code": "pays-back-after", "steps": math.ceil(calls), "unit": "call", "seconds": compile_s})
    mode = mode_of(best)
    if mode in idle_cuda_graph_modes:
        reasons.append({"code": "cuda-graphs-idle-on-cpu", "mode": mode})
    return _Decision("compile", number, reasons, mode=mode)


def _names(modes: Sequence[ModeResult]) -> list[str]:
    return [m["mode"] for m in modes]


def _not_measured_decision(
    modes: Sequence[ModeResult], mode_of: Callable[[ModeResult], str] | None = None
) -> _Decision:
    """Why no measurement supports a verdict: each mode's own reason, a fallback first."""
    why = [r for r in (unmeasured(m, mode_of(m) if mode_of else None) for m in modes) if r is not None]
    why.sort(key=lambda r: r["code"] != "ran-eagerly")
    return _Decision("none", reasons=why[:1] or [{"code": "nothing-measured"}])


def _idle_modes(device: str | None) -> tuple[str, ...]:
    """On CPU a CUDA-graph mode's CUDA graphs do nothing: said wherever such a mode is recommended."""
    return CUDAGRAPH_MODES if device == "cpu" else ()


def _failed(report: Report) -> Reason | None:
    """The run's failure (out of memory, an exception, a timeout, a cancel) at the user's line, when it ended so."""
    error = report.get("error")
    if not error or (report["status"] == "ok"):
        return None
    reason: Reason = {"code": "failed", "kind": error["kind"], "what": error["message"], "fix": error["fix"]}
    where = error.get("location")
    if where:
        reason.update({"file": where["file"], "line": where["line"], "cell": where.get("cell")})
    return reason


def target_answer(report: Report) -> Answer:
    modes = report["modes"]
    if report["target"].get("kind") == "logs":
        decision = _Decision("none", reasons=[{"code": "logs-only"}])
    else:
        measured = [
            (m, _measured_number(m, "target-rounds", m["mode"], k))
            for k, m in enumerate(modes)
            if unmeasured(m) is None
        ]
        decision = (
            _from_numbers(measured, _idle_modes(report["environment"].get("device")))
            if measured
            else _not_measured_decision(modes)
        )
        failed = _failed(report)
        if failed:  # cancelled, timed out, every mode failed: said first, then what was measured before it
            decision = _Decision("none", decision.number, [failed, *decision.reasons])
        evidence = [n for _, n in measured if n is not decision.number]
    if report["target"].get("kind") == "logs":
        return _answer(decision, [], [], [])
    return _answer(decision, evidence, target_facts(report, decision), _each_unmeasured(modes, lambda m: m["mode"]))


def _each_unmeasured(measurements: Sequence[ModeResult], mode_of: Callable[[ModeResult], str]) -> list[Reason]:
    """Why each measurement that holds no number holds none (its index in modes[] or measurements[])."""
    out: list[Reason] = []
    for k, m in enumerate(measurements):
        why = unmeasured(m, mode_of(m))
        if why is not None:
            why["index"] = k
            out.append(why)
    return out


def target_facts(report: Report, decision: _Decision) -> list[str]:
    """The shown mode's compiler facts: graphs, breaks, recompiles, compile time."""
    number = decision.number
    mode = next((m for m in report["modes"] if number and m["mode"] == number.get("mode")), None)
    if mode is None:
        return []
    return sentences.compiler_facts(mode.get("compiler"), mode.get("compileSeconds"))


def _answer(decision: _Decision, evidence: list[AnswerNumber], facts: list[str], unmeasured: list[Reason]) -> Answer:
    """The answer, and its words (sentences.py): each number's and each reason's text, the headline, the sentence."""
    answer: Answer = {
        "verdict": decision.verdict,
        "mode": decision.mode if decision.verdict in ("compile", "compile-for-longer-runs") else None,
        "number": decision.number,
        "reasons": sorted(decision.reasons, key=lambda r: r["code"] not in sentences.LEADING),
        "headline": "",
        "sentence": "",
        "evidence": evidence,
        "unmeasured": unmeasured,
    }
    for n in [*([decision.number] if decision.number else []), *evidence]:
        n["text"] = sentences.number_text(n)
    for r in [*answer["reasons"], *unmeasured]:
        r["text"] = sentences.sentence(r)
    answer["headline"] = sentences.headline(answer, facts)
    answer["sentence"] = sentences.verdict_sentence(answer)
    return answer


# --- script regions ---------------------------------------------------------------------------------------------


def _in_situ_of(region: Region) -> RegionInSitu:
    return region.get("inSitu") or {"pairs": 0}


def in_situ_number(s: RegionInSitu, unit: str, per: Unit = "step") -> AnswerNumber | None:
    """The in-situ step ("step") or call ("call") speedup as a number, with the range it may be said with. per: what
    one step is (a decode loop's: a token)."""
    x: InSituSpeedup | None = s.get("step") if unit == "step" else s.get("call")
    if not x:
        return None
    number: AnswerNumber = {
        "kind": "in-situ-step" if unit == "step" else "in-situ-call",
        "unit": per if unit == "step" else "call",
        "n": int(x.get("samples") or 0),
        "value": round(x["speedup"], 4),
        "eagerMs": x["eagerMs"],
        "compiledMs": x["compiledMs"],
    }
    interleaved = s.get("method") == "interleaved"
    if interleaved:
        number["pairs"] = int(x.get("pairs") or 0)
    return ranged(number, x["low"], x["high"], too_few_pairs=interleaved and number.get("pairs", 0) < MIN_PAIRS)


def _in_situ(region: Region) -> _Decision | None:
    """The verdict from the script's own steps; None when there is no in-situ number to rest one on."""
    s = _in_situ_of(region)
    calls = [c for c in region.get("calls") or [] if c.get("side") != "eager"]
    if s.get("method") == "interleaved" and s.get("step") is None and s.get("call") is None:
        reason = s.get("reason")
        if reason and "ran compiled code" in reason:
            return _Decision("none", reasons=[{"code": "ran-eagerly", "what": reason}])
        return None
    if not any(c.get("ranCompiled") is True for c in calls) and any(c.get("ranCompiled") is False for c in calls):
        why = next((r for c in calls if (r := c.get("fallbackReason"))), "Dynamo ran the original code")
        return _Decision("none", reasons=[{"code": "ran-eagerly", "what": why}])
    # per step (what the script's loop costs); per call where every step held another region's compile
    unit = "step" if s.get("step") is not None else "call"
    number, raw = in_situ_number(s, unit, step_unit(region)), s.get("step") or s.get("call")
    if number is None or raw is None:
        return None
    if number["n"] < MIN_STEADY_STEPS or number.get("pairs", MIN_PAIRS) < MIN_PAIRS:
        return None  # too few of the script's own steps (or blocks) to rest a verdict on: the replay decides
    load = s.get("hostLoad")
    if load and load["contended"]:  # the replay, timed at another moment, may still decide
        return _Decision(
            "none",
            number,
            [{"code": "host-contended", "what": load["reason"] or "", "fix": load["fix"]}],
            undecided=True,
        )
    low, high = _bounds(number)
    if not _decisive(number):
        return _Decision("none", number, [{"code": "too-noisy-to-decide"}], undecided=True)
    if high < MIN_USEFUL_SPEEDUP:  # even the range's upper end is no useful speedup
        return _Decision(
            "stay-eager",
            number,
            [{"code": "slower"} if high < 1.0 else {"code": "not-faster", "value": MIN_USEFUL_SPEEDUP}],
        )
    if low < MIN_USEFUL_SPEEDUP <= number["value"]:  # faster by its estimate, not by its range: no verdict either way
        return _Decision("none", number, [{"code": "not-clearly-faster", "value": MIN_USEFUL_SPEEDUP}], undecided=True)
    if low < MIN_USEFUL_SPEEDUP:
        return _Decision("stay-eager", number, [{"code": "may-be-no-faster", "value": MIN_USEFUL_SPEEDUP}])
    cost, made = s.get("compileSeconds") or 0.0, int(s.get("stepsMade") or region.get("callCount") or 0)
    after = s.get("breakEvenSteps") if unit == "step" else _break_even_calls(cost, raw["eagerMs"], raw["compiledMs"])
    mode = str((region.get("options") or {}).get("mode") or "default")
    reasons: list[Reason] = []
    if after is not None:
        reasons.append(
            {
                "code": "pays-back-after",
                "steps": math.ceil(after),
                "made": made,
                "unit": number["unit"],
                "seconds": cost,
            }
        )
    if after is not None and math.ceil(after) > made and region.get("stoppedAfterCalls") is None:
        return _Decision("compile-for-longer-runs", number, reasons, mode=mode)
    return _Decision("compile", number, reasons, mode=mode)


def _break_even_calls(compile_s: float, eager_ms: float, compiled_ms: float) -> float | None:
    return compile_s * 1000.0 / (eager_ms - compiled_ms) if compiled_ms < eager_ms else None


def _primary(region: Region) -> list[RegionMeasurement]:
    """Measurements on the region's most frequent signature: a replay's verdict rests on those."""
    return [m for m in region["measurements"] if m.get("why") == "most-frequent"]


def _mode_of(region: Region, m: ModeResult) -> str:
    """The compile mode a measurement ran: the script's own for its as-written callable."""
    return str((region.get("options") or {}).get("mode") or "default") if m["mode"] == AS_WRITTEN else m["mode"]


def _label(region: Region, m: ModeResult) -> str:
    """The mode as a number says it: with the script's backend where it is not Inductor ("default, backend eager")."""
    backend = (region.get("options") or {}).get("backend")
    mode = _mode_of(region, m)
    return (
        f"{mode}, backend {backend}"
        if m["mode"] == AS_WRITTEN and isinstance(backend, str) and backend != "inductor"
        else mode
    )


def replay_number(region: Region, m: RegionMeasurement) -> AnswerNumber:
    index = next(k for k, x in enumerate(region["measurements"]) if x is m)
    number = _measured_number(m, "replay-call", _label(region, m), index)
    if m.get("signature"):
        number["signature"] = str(m["signature"])
    return number


def _why_not_replayed(region: Region) -> Reason:
    replay = region["replay"]
    if region["callCount"] == 0:
        return {"code": "never-called"}
    if not replay.get("replayable"):
        return {"code": "replay-not-possible", "what": replay.get("reason") or "its inputs cannot be replayed safely"}
    if not region["measurements"]:
        return {"code": "not-measured", "what": replay.get("reason") or "no measurement was recorded"}
    if not _primary(region):
        return {"code": "not-measured", "what": "its most frequent inputs were not replayed, only its last ones"}
    return _not_measured_decision(_primary(region), lambda m: _mode_of(region, m)).reasons[0]


def _replayed(region: Region) -> _Decision:
    measured = [(m, replay_number(region, m)) for m in _primary(region) if unmeasured(m) is None]
    if not measured:
        return _Decision("none", reasons=[_why_not_replayed(region)])
    decision = _from_numbers(measured, _idle_modes(region.get("device")), lambda m: _mode_of(region, m))
    if decision.verdict != "compile" or region.get("stoppedAfterCalls") is not None:
        return decision
    # a replay's "compile" against the calls the script made: a break-even beyond them does not pay back here
    made = region.get("callCount")
    pays = next((r for r in decision.reasons if r["code"] == "pays-back-after"), None)
    if pays is not None and made is not None:
        pays["made"] = made
        if pays["steps"] > made:
            decision.verdict = "compile-for-longer-runs"
    return decision


def _disagreement(region: Region, decision: _Decision) -> _Decision:
    """The in-situ per-call speedup and the replay's (as written, most frequent signature) apart beyond both ranges:
    said, and that the verdict rests on the in-situ steps (the script's own calls, in its own state)."""
    call = in_situ_number(_in_situ_of(region), "call")
    replayed = next((m for m in _primary(region) if m["mode"] == AS_WRITTEN and unmeasured(m) is None), None)
    if call is None or replayed is None or "low" not in call:
        return decision
    number = replay_number(region, replayed)
    r_low, r_high = _bounds(number)
    if call["low"] <= r_high and r_low <= call["high"]:
        return decision
    disagree: Reason = {"code": "replay-disagrees", "value": number["value"], "low": r_low, "high": r_high}
    decision.reasons.append(disagree)
    return decision


def _no_in_situ(report: Report) -> Reason | None:
    """Why the report has no in-situ measurement at all (torch without set_stance, --no-in-situ)."""
    situ = report.get("inSitu")
    if not situ or not situ.get("skipped"):
        return None
    torch = report["environment"].get("torch")
    version = tuple(int(p) for p in re.findall(r"\d+", torch or "")[:2])
    kind = "no-set-stance" if len(version) == 2 and version < STANCE_TORCH else "turned-off"
    return {"code": "no-in-situ", "kind": kind, "torch": torch}


def _undecided(n: AnswerNumber, why: Reason) -> Reason:
    """The in-situ number that supported no verdict, and why, as a reason beside a replay's verdict."""
    reason: Reason = {
        "code": "in-situ-undecided",
        "what": sentences.clause(why),
        "value": n["value"],
        "unit": n["unit"],
    }
    if "low" in n and "high" in n:
        reason.update({"low": n["low"], "high": n["high"]})
    return reason


def _region_decision(region: Region, no_in_situ: Reason | None) -> _Decision:
    s = _in_situ_of(region)
    failure = s.get("failure")
    if failure:
        where = failure.get("location")
        reason: Reason = {
            "code": "compiled-call-failed",
            "call": failure.get("index"),
            "what": failure["what"],
            "fix": failure["fix"],
            "file": where["file"] if where else None,
            "line": where["line"] if where else None,
        }
        before = (_in_situ(region) or _Decision("none")).number
        return _Decision("none", before, [reason])
    nothing = region.get("noCompiledCode")
    if nothing:
        return _Decision(
            "none", reasons=[{"code": "no-compiled-code", "what": nothing["cause"], "fix": nothing.get("fix")}]
        )
    situ = _in_situ(region)
    if situ is not None and not situ.undecided:
        return _disagreement(region, situ)
    replayed = _replayed(region)
    if replayed.number is not None and replayed.verdict != "none":
        replayed.reasons.append({"code": "replayed-forward-only"})
    if situ is None:
        number = in_situ_number(s, "step", step_unit(region)) or in_situ_number(s, "call")
        if number is not None:  # too few steps to decide: said first, the number a region with one leads with
            too_few: Reason = {
                "code": "in-situ-too-few",
                "pairs": number.get("pairs", s["pairs"]),
                "samples": number["n"],
            }
            if replayed.number is None:
                return _Decision("none", number, [too_few, *replayed.reasons])
            replayed.reasons.append(too_few)
        elif s.get("reason"):
            replayed.reasons.append({"code": "no-steady-steps", "what": str(s.get("reason"))})
        elif no_in_situ is not None:
            replayed.reasons.append(no_in_situ)
        return replayed
    if replayed.verdict != "none":  # the steps supported no verdict: a replay's stands, and why the steps did not
        assert situ.number is not None  # undecided: on a number
        replayed.reasons.append(_undecided(situ.number, situ.reasons[0]))
        return replayed
    situ.reasons.extend(r for r in replayed.reasons if r["code"] != "replayed-forward-only")
    return situ


def region_answer(region: Region, failed: Reason | None = None, no_in_situ: Reason | None = None) -> Answer:
    """failed: the run's failure, said first (a compiled call's own failure says itself); no_in_situ: why the whole
    run has no in-situ number."""
    decision = _region_decision(region, no_in_situ)
    decision.reasons = [*shape_reasons(region), *decision.reasons]
    if failed is not None and not (failed.get("kind") == "compile" and _in_situ_of(region).get("failure")):
        decision = _Decision("none", decision.number, [failed, *decision.reasons])
    number = decision.number
    evidence = [
        n
        for n in (
            in_situ_number(_in_situ_of(region), "step", step_unit(region)),
            in_situ_number(_in_situ_of(region), "call"),
            *(replay_number(region, m) for m in region["measurements"] if unmeasured(m) is None),
        )
        if n is not None and n != number and not region.get("noCompiledCode")  # eager code timed against itself
    ]
    return _answer(
        decision,
        evidence,
        sentences.counts(region),
        _each_unmeasured(region["measurements"], lambda m: _label(region, m)),
    )


def _where(region: Region) -> str:
    """ "Net (line 17)"; in a notebook "Net (cell 3, line 2)"."""
    location = region["location"]
    reason: Reason = {"code": "", "line": location["line"], "cell": location.get("cell")} if location else {"code": ""}
    where = sentences.place({**reason, "file": None})
    return f"{region['name']} ({where})" if where else str(region["name"])


def _leads(answer: Answer) -> bool:
    return any(r["code"] in sentences.LEADING for r in answer["reasons"])


def script_answer(report: Report) -> Answer:
    """The script's answer is the answer of the region that decides it: a failed one (or one whose shapes lead) first,
    else the fastest compiling one, else the first compiling for longer runs, the first staying eager, the first; the
    sentence says every region's headline."""
    regions = report.get("regions") or []
    if not regions:
        failed = _failed(report)
        return _answer(_Decision("none", reasons=[failed] if failed else [{"code": "no-region"}]), [], [], [])
    answers = [r["answer"] for r in regions]
    compiling = [k for k, a in enumerate(answers) if a["verdict"] == "compile"]
    lead = next(
        (k for k, a in enumerate(answers) if _leads(a)),
        max(compiling, key=lambda k: (answers[k]["number"] or {"value": 0.0})["value"])
        if compiling
        else next(
            (k for v in ("compile-for-longer-runs", "stay-eager") for k, a in enumerate(answers) if a["verdict"] == v),
            0,
        ),
    )
    region = regions[lead]
    more = "" if len(regions) == 1 else f", +{formats.plural(len(regions) - 1, 'more region')}"
    return {
        **answers[lead],
        "headline": f"{answers[lead]['headline']} — {region['id']} {region['name']}{more}",
        # the failure (or shape story) that leads, in full with its fix; then every region in one line each
        "sentence": " ".join(
            [
                *(sentences.sentence(r) for r in answers[lead]["reasons"] if r["code"] in sentences.LEADING),
                "; ".join(f"{_where(r)}: {a['headline']}" for r, a in zip(regions, answers, strict=True)) + ".",
            ]
        ),
        "region": region["id"],
    }


def _recommendation(answer: Answer) -> Recommendation:
    return {"mode": answer["mode"], "verdict": answer["verdict"], "reason": answer["sentence"]}


def attach(report: Report) -> None:
    """Each region's answer, then the run's, from what the report holds now; the recommendations and headlines are
    theirs."""
    if report["target"].get("kind") != "script":
        answer = target_answer(report)
    else:
        failed, no_in_situ = _failed(report), _no_in_situ(report)
        for region in report.get("regions") or []:
            region["answer"] = region_answer(region, failed, no_in_situ)
            region["recommendation"] = _recommendation(region["answer"])
            region["headline"] = region["answer"]["headline"]
        answer = script_answer(report)
    report["answer"] = answer
    report["recommendation"] = _recommendation(answer)
    report["headline"] = answer["headline"]
