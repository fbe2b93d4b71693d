"""What a script's regions say: per region compile / compile for longer runs / stay eager / no verdict, and one
summary for the script.

The in-situ step speedup (the script's own steps, compiled against eager) decides first:
- its interval clears MIN_USEFUL_SPEEDUP (1.05x): faster per step. Then the script's own length weighs it: a compile
  that pays back within the steps the script made is "compile"; one that pays back only after more steps is
  "compile-for-longer-runs" ("compile for runs longer than N steps (this run made M)"), never "stay eager";
- its interval reaches no higher than 1.05x: not faster, "stay-eager";
- its interval straddles 1.05x: "stay-eager" (may be no faster) when the estimate itself is under 1.05x and the
  interval narrow; no verdict when the estimate is 1.05x or more, or the interval is wider than advice.DECISIVE_SPAN
  (the replay's verdict then, where there is one);
- on a CPU host where other processes held the CPUs torch's threads needed (hostLoad contended, measure/host.py):
  no verdict from those steps, the why and the fix (the replay's verdict then, where its own timing was not contended).
Without an in-situ number, replayed measurements go through advice.recommend, the rule targets use, and their
break-even is weighed against the calls the script made the same way. Where the in-situ per-call speedup and the
replay's disagree beyond both intervals, the reason says so and that the verdict rests on the in-situ steps. A compiled
call that failed is a "fix first", never a "compile"; a region none of whose calls ran compiled code gets no number.
Where nothing was measured the verdict is 'none' and the reason says why, never "don't compile". The script's
headline quotes each region's verdict with the number it rests on, never a "best" that contradicts it.
"""

from __future__ import annotations

import math

from .. import formats
from ..compiler.failure import headline
from ..compiler.insight import CUDAGRAPH_MODES
from ..measure import speedups
from ..report import advice
from ..shapes.common import Recommendation, Verdict
from ..shapes.in_situ import CompileFailure, InSituSpeedup, RegionInSitu
from ..shapes.mode import RegionMeasurement
from ..shapes.region import Region
from .replay import AS_WRITTEN

_NO_VERDICT = "No verdict: "
# In-situ verdicts rest on at least this many steady steps (over all pairs); fewer: the replay's rounds decide.
MIN_STEADY_STEPS = 3
# Interleaved: at least this many pairs of adjacent eager/compiled blocks (one pair is no spread between blocks).
MIN_PAIRS = 2
# Without a steady step, the region's calls in situ (compiles included) must be this much slower for "stay eager".
_CLEARLY_SLOWER = 1.1
# a region no in-situ run measured: read as one with nothing in it
_NOT_IN_SITU: RegionInSitu = {"pairs": 0}


def _in_situ_of(region: Region) -> RegionInSitu:
    return region.get("inSitu") or _NOT_IN_SITU


def _verdict(region: Region) -> Recommendation:
    rec = region.get("recommendation")
    assert rec is not None  # recommend() gave every region its verdict first
    return rec


def _where(region: Region) -> str:
    """ "Net (line 17)"; in a notebook "Net (cell 3, line 2)", cells counted from 1 as the editor shows them."""
    location = region["location"]
    line, cell = (location["line"], location.get("cell")) if location else (None, None)
    if not line:
        return str(region["name"])
    return (
        f"{region['name']} (cell {cell + 1}, line {line})"
        if isinstance(cell, int)
        else f"{region['name']} (line {line})"
    )


def _primary(region: Region) -> list[RegionMeasurement]:
    """Measurements on the region's most frequent signature: the verdict rests on those."""
    return [m for m in region["measurements"] if m.get("why") == "most-frequent"]


def _label(region: Region, mode: str) -> str:
    return f"{region['options']['mode']} as written" if mode == AS_WRITTEN else mode


def _failed(region: Region) -> CompileFailure | None:
    return _in_situ_of(region).get("failure")


class _InSituVerdict(Recommendation, total=False):
    undecided: bool  # the script's steps too noisy to decide: a replay's verdict may stand instead


def _in_situ(region: Region) -> _InSituVerdict | None:
    """The verdict from the script's own steps, or None when there is no in-situ number to rest one on."""
    s = _in_situ_of(region)
    failure = s.get("failure")
    if failure:
        return {
            "mode": None,
            "verdict": "none",
            "reason": f"Fix first: a compiled call failed{' at' if failure.get('location') else ':'} {headline(failure)}. {failure['fix']}",
        }
    nothing = region.get("noCompiledCode")
    if nothing:
        return {"mode": None, "verdict": "none", "reason": nothing["headline"]}
    calls = [c for c in region.get("calls") or [] if c.get("side") != "eager"]
    if s.get("method") == "interleaved" and s.get("step") is None and s.get("call") is None:
        reason = s.get("reason")
        if reason and "ran compiled code" in reason:
            return {
                "mode": None,
                "verdict": "none",
                "reason": (f"{_NO_VERDICT}torch.compile made no graph of {region['name']} that ran: {reason}."),
            }
        return None  # too few calls both ways in the interleaving: the replay decides, or nothing was measured
    if not any(c.get("ranCompiled") is True for c in calls) and any(c.get("ranCompiled") is False for c in calls):
        # no call ran compiled code and one fell back: the compiled run timed eager code
        why = next((reason for c in calls if (reason := c.get("fallbackReason"))), "Dynamo ran the original code")
        return {
            "mode": None,
            "verdict": "none",
            "reason": (
                f"{_NO_VERDICT}every call ran eagerly ({why}), so the script as written compiled nothing to compare."
            ),
        }
    stopped = region.get("stoppedAfterCalls") is not None
    # per step (what the script's loop costs); per call where every step held another region's compile
    step, unit = (s.get("step"), "step") if s.get("step") is not None else (s.get("call"), "call")
    if step is None:
        spent = s.get("regionSeconds")
        if (
            spent
            and not stopped
            and s.get("steadyFromCall") is None
            and spent["compiled"] > spent["eager"] * _CLEARLY_SLOWER
        ):
            return {
                "mode": None,
                "verdict": "stay-eager",
                "reason": (
                    f"Stay eager for a run like this one: {s['reason']}; in situ its calls took {formats.seconds(spent['compiled'])} "
                    f"compiled against {formats.seconds(spent['eager'])} eager."
                ),
            }
        return None
    if step.get("samples", MIN_STEADY_STEPS) < MIN_STEADY_STEPS or step.get("pairs", MIN_PAIRS) < MIN_PAIRS:
        return (
            None  # too few of the script's own steps (or interleaved blocks) to rest a verdict on: the replay decides
        )
    speedup, low, high = step["speedup"], step["low"], step["high"]
    load = s.get("hostLoad")
    if load and load["contended"]:  # the replay, timed at another moment, may still decide
        return {
            "mode": None,
            "verdict": "none",
            "undecided": True,
            "reason": (
                f"No verdict: {formats.speedup(speedup)} per {unit} in situ, but {load['reason']}. Fix: {load['fix']}."
            ),
        }
    span = f"{formats.speedup(speedup)} per {unit} in situ ({_basis(s, step)}); a next run may give {formats.interval(low, high)}"
    if high > advice.DECISIVE_SPAN * low:
        return {
            "mode": None,
            "verdict": "none",
            "undecided": True,
            "reason": f"No verdict: the script's {unit}s varied too much to decide ({span}).",
        }
    if high < advice.MIN_USEFUL_SPEEDUP:  # even the interval's upper end does not make this a useful speedup
        slower = "slower" if high < 1.0 else "not faster"
        return {"mode": None, "verdict": "stay-eager", "reason": f"Stay eager: compiled {unit}s are {slower} ({span})."}
    if low < advice.MIN_USEFUL_SPEEDUP <= speedup:  # faster by its estimate, not by its interval: no verdict either way
        return {
            "mode": None,
            "verdict": "none",
            "undecided": True,
            "reason": (
                f"No verdict: {unit}s may be faster compiled, but not clearly ({span}: the interval does not clear "
                f"{formats.speedup(advice.MIN_USEFUL_SPEEDUP)})."
            ),
        }
    if low < advice.MIN_USEFUL_SPEEDUP:
        return {
            "mode": None,
            "verdict": "stay-eager",
            "reason": (
                f"Stay eager: compiled {unit}s may be no faster ({span}: the interval does not clear "
                f"{formats.speedup(advice.MIN_USEFUL_SPEEDUP)})."
            ),
        }
    cost, made = s.get("compileSeconds") or 0.0, s["stepsMade"]
    after = (
        s.get("breakEvenSteps")
        if unit == "step"
        else speedups.break_even_calls(cost, step["eagerMs"], step["compiledMs"])
    )
    after = None if after is None else math.ceil(after)
    mode = region["options"]["mode"]
    if after is not None and after > made and not stopped:
        return {
            "mode": mode,
            "verdict": "compile-for-longer-runs",
            "reason": (
                f"Compile for runs longer than {formats.break_even(after, unit)} (this run made {formats.whole(made)}): {unit}s are "
                f"faster compiled ({span}), and the {formats.seconds(cost)} compile inside the script pays back after "
                f"{formats.break_even(after, unit)}."
            ),
        }
    payback = (
        f"its {formats.seconds(cost)} compile inside the script pays back after {formats.break_even(after, unit)}; "
        f"this run made {formats.whole(made)}"
        if after is not None
        else f"it compiled nothing the {unit}s did not repay"
    )
    return {"mode": mode, "verdict": "compile", "reason": f"Compile ({mode} as written): {span}, and {payback}."}


def _basis(s: RegionInSitu, step: InSituSpeedup) -> str:
    """What the in-situ number rests on: "5 pairs of adjacent blocks, per signature" or "2 pairs of runs"."""
    if s.get("method") != "interleaved":
        return f"{formats.plural(s['pairs'], 'pair')} of runs"
    by = {
        "signature": "one signature",
        "matched-mix": "per signature, over the script's mix",
        "pooled": "signatures pooled",
    }.get(step.get("comparedBy") or "", "")
    return f"{formats.plural(step.get('pairs', 0), 'pair')} of adjacent eager/compiled blocks, {by}".rstrip(", ")


def _disagreement(region: Region, rec: Recommendation) -> Recommendation:
    """The in-situ per-call speedup and the replay's (as written, most frequent signature) apart beyond both intervals:
    said, with which one the verdict rests on (the in-situ steps: the script's own calls, in its own state)."""
    call = _in_situ_of(region).get("call")
    replayed = next(
        (
            m
            for m in _primary(region)
            if m["mode"] == AS_WRITTEN and m["status"] == "ok" and m.get("speedup") is not None
        ),
        None,
    )
    if call is None or replayed is None:
        return rec
    interval, speedup = replayed.get("speedupInterval"), replayed["speedup"]
    assert speedup is not None  # chosen so
    r_low, r_high = (interval["low"], interval["high"]) if interval else (speedup, speedup)
    if call["low"] <= r_high and r_low <= call["high"]:
        return rec
    return {
        **rec,
        "reason": (
            f"{rec['reason']} In situ per call {formats.speedup(call['speedup'])} "
            f"({formats.interval(call['low'], call['high'])}) and the replay's {formats.speedup(speedup)} "
            f"({formats.interval(r_low, r_high)}) disagree beyond their "
            "intervals: the verdict rests on the in-situ steps (the script's own calls, in its own state)."
        ),
    }


def _weighed(region: Region, rec: Recommendation) -> Recommendation:
    """A replay's "compile" against the calls the script made: a break-even beyond them does not pay back here."""
    if rec["verdict"] != "compile" or region.get("stoppedAfterCalls") is not None:
        return rec
    measured = AS_WRITTEN if rec["mode"] == region["options"]["mode"] else rec["mode"]
    after = next((m.get("breakEvenCalls") for m in _primary(region) if m["mode"] == measured), None)
    made = region.get("callCount")
    if after is None or made is None or after <= made:
        return rec
    after = math.ceil(after)
    return {
        "mode": rec["mode"],
        "verdict": "compile-for-longer-runs",
        "reason": (
            f"Compile for runs longer than {formats.break_even(after, 'call')} (this run made {formats.whole(made)}): "
            f"{rec['reason'].removeprefix('Use ').rstrip('.')} (replayed forward only: no in-situ number)."
        ),
    }


def region_recommendation(region: Region) -> Recommendation:
    situ = _in_situ(region)
    if situ is not None and not situ.pop("undecided", False):
        return _disagreement(region, situ)
    replayed = _weighed(region, _replayed(region))
    why_not = _in_situ_of(region).get("reason")
    if situ is None and replayed["verdict"] == "none" and why_not and "in situ" not in replayed["reason"]:
        # neither way measured it: both reasons, so the label and the in-situ lines say one thing
        replayed = {**replayed, "reason": f"{replayed['reason'].rstrip('.')}; in situ: {why_not}."}
    # the script's own steps too noisy to decide: a replay's verdict, where there is one, with the in-situ spread said
    if situ is None or replayed["verdict"] != "none":
        return (
            replayed
            if situ is None
            else {**replayed, "reason": f"{replayed['reason']} (In situ: {situ['reason'].removeprefix(_NO_VERDICT)})"}
        )
    return situ


def _replayed(region: Region) -> Recommendation:
    measured = [m for m in _primary(region) if m["status"] == "ok" and m.get("speedup") is not None]
    if not measured:
        failed = next((error["message"] for m in _primary(region) if (error := m.get("error"))), None)
        why = region["replay"]["reason"] or failed or "it was not measured"
        return {"mode": None, "verdict": "none", "reason": f"{_NO_VERDICT}{why}."}
    labelled: list[RegionMeasurement] = [{**m, "mode": _label(region, m["mode"])} for m in _primary(region)]
    rec = advice.recommend(labelled, CUDAGRAPH_MODES if region.get("device") == "cpu" else ())
    if rec["mode"] is None:
        # "no verdict" (rounds too noisy, compiled calls ran eagerly) stays no verdict: never "stay eager" without a measurement that says so
        return {"mode": None, "verdict": rec.get("verdict") or "stay-eager", "reason": rec["reason"]}
    own = region["options"]["mode"]
    return {
        "mode": own if rec["mode"] == _label(region, AS_WRITTEN) else rec["mode"],
        "verdict": "compile",
        "reason": rec["reason"],
    }


def _number(region: Region) -> str | None:
    """The number a region's verdict rests on, for the headline: "1.43x per step in situ (1.34-1.51x)", or the
    replay's speedup of the verdict's mode ("1.80x per call, replayed"); None when nothing was measured."""
    value = _speedup(region)
    if value is None:
        return None
    speedup, step, unit = value
    if step is not None:
        return f"{formats.speedup(speedup)} per {unit} in situ ({formats.interval(step['low'], step['high'])})"
    return f"{formats.speedup(speedup)} per call, replayed"


def _speedup(region: Region) -> tuple[float, InSituSpeedup | None, str] | None:
    """(speedup, the in-situ number or None, its unit) the region's verdict rests on: the in-situ step (or call) when
    it decided, else the replay's measurement of the verdict's mode."""
    situ = _in_situ_of(region)
    step, unit = (situ.get("step"), "step") if situ.get("step") else (situ.get("call"), "call")
    decided = _in_situ(region)
    if step is not None and decided is not None and not decided.get("undecided"):
        return float(step["speedup"]), step, unit
    measured = [m for m in _primary(region) if m["status"] == "ok" and m.get("speedup") is not None]
    if not measured:
        return None
    rec = _verdict(region)
    own = AS_WRITTEN if rec["mode"] in (None, region["options"]["mode"]) else rec["mode"]
    chosen = next((m for m in measured if m["mode"] == own), measured[0])
    return float(chosen["speedup"] or 0.0), None, "call"  # measured: a speedup


def script_recommendation(regions: list[Region]) -> Recommendation:
    """One line for the whole script from its regions' verdicts; a failed compiled call comes first."""
    failed = next((r for r in regions if _failed(r)), None)
    if failed is not None:
        return {"mode": None, "verdict": "none", "reason": _verdict(failed)["reason"]}
    if not regions:
        return {
            "mode": None,
            "verdict": "none",
            "reason": (
                f"{_NO_VERDICT}the script made no torch.compile region (no torch.compile or nn.Module.compile call ran)."
            ),
        }
    parts, compiling, longer = [], [], []
    for region in regions:
        rec, number, nothing = _verdict(region), _number(region), region.get("noCompiledCode")
        if nothing:  # its timings compare eager code with itself: no number, the reason
            parts.append(f"{_where(region)}: n{nothing['headline'][1:].rstrip('.')}")
        elif rec["verdict"] == "compile":
            compiling.append(((_speedup(region) or (0.0,))[0], rec["mode"]))
            parts.append(f"{_where(region)}: compile ({rec['mode']}, {number})")
        elif rec["verdict"] == "compile-for-longer-runs":
            longer.append(rec["mode"])
            runs, _, made = rec["reason"].split(":", 1)[0].removeprefix("Compile ").partition(" (")
            parts.append(f"{_where(region)}: compile {runs} ({rec['mode']}, {number}; {made}")
        elif rec["verdict"] == "stay-eager":
            parts.append(f"{_where(region)}: stay eager" + (f" ({number})" if number is not None else ""))
        elif number is not None:  # measured, but the measurement supports no verdict (e.g. too noisy)
            parts.append(
                f"{_where(region)}: no verdict, {rec['reason'].removeprefix(_NO_VERDICT).split(' (')[0].rstrip('.')}"
            )
        else:
            situ = _in_situ_of(region)
            what = "no verdict" if situ.get("step") or situ.get("call") else "not measured"
            parts.append(f"{_where(region)}: {what}, {rec['reason'].removeprefix(_NO_VERDICT).rstrip('.')}")
    if compiling:
        return {"mode": max(compiling)[1], "verdict": "compile", "reason": "; ".join(parts) + "."}
    if longer:
        return {"mode": longer[0], "verdict": "compile-for-longer-runs", "reason": "; ".join(parts) + "."}
    verdict: Verdict = "stay-eager" if any(_verdict(r).get("verdict") == "stay-eager" for r in regions) else "none"
    return {
        "mode": None,
        "verdict": verdict,
        "reason": ("" if verdict == "stay-eager" else _NO_VERDICT) + "; ".join(parts) + ".",
    }
