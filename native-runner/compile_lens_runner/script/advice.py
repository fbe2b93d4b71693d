"""What a script's regions say: per region compile / stay eager / no verdict, and one summary for the script.

The in-situ step speedup (the script's own steps, compiled against eager) decides first, weighed by the script's own
length: a compile that pays back after more steps than the script made is not a "compile" for this script. Without
an in-situ number, replayed measurements go through advice.recommend, the rule targets use, and their break-even is
weighed against the calls the script made. A compiled call that failed is a "fix first", never a "compile". Where
nothing was measured the verdict is 'none' and the reason says why, never "don't compile".
"""
from __future__ import annotations

import math
from typing import Any

from ..compiler.failure import headline
from ..compiler.insight import CUDAGRAPH_MODES
from ..measure import speedups
from ..report import advice
from .replay import AS_WRITTEN

_NO_VERDICT = "No verdict: "
# In-situ verdicts rest on at least this many steady steps (over all pairs); fewer: the replay's rounds decide.
MIN_STEADY_STEPS = 3
# Without a steady step, the region's calls in situ (compiles included) must be this much slower for "stay eager".
_CLEARLY_SLOWER = 1.1


def _where(region: dict[str, Any]) -> str:
    """"Net (line 17)"; in a notebook "Net (cell 3, line 2)", cells counted from 1 as the editor shows them."""
    location = region.get("location") or {}
    line, cell = location.get("line"), location.get("cell")
    if not line:
        return str(region["name"])
    return f"{region['name']} (cell {cell + 1}, line {line})" if isinstance(cell, int) else f"{region['name']} (line {line})"


def _primary(region: dict[str, Any]) -> list[dict[str, Any]]:
    """Measurements on the region's most frequent signature: the verdict rests on those."""
    return [m for m in region["measurements"] if m.get("why") == "most-frequent"]


def _label(region: dict[str, Any], mode: str) -> str:
    return f"{region['options']['mode']} as written" if mode == AS_WRITTEN else mode


def _failed(region: dict[str, Any]) -> dict[str, Any] | None:
    return (region.get("inSitu") or {}).get("failure")


def _in_situ(region: dict[str, Any]) -> dict[str, Any] | None:
    """The verdict from the script's own steps, or None when there is no in-situ number to rest one on."""
    s = region.get("inSitu") or {}
    failure = s.get("failure")
    if failure:
        return {"mode": None, "verdict": "none", "reason": f"Fix first: a compiled call failed at {headline(failure)}. {failure['fix']}"}
    if region.get("noCompiledCode"):
        return {"mode": None, "verdict": "none", "reason": region["noCompiledCode"]["headline"]}
    calls = region.get("calls") or []
    if not any(c.get("ranCompiled") is True for c in calls) and any(c.get("ranCompiled") is False for c in calls):
        # no call ran compiled code and one fell back: the compiled run timed eager code
        why = next((c["fallbackReason"] for c in calls if c.get("fallbackReason")), "Dynamo ran the original code")
        return {"mode": None, "verdict": "none", "reason": (
            f"{_NO_VERDICT}every call ran eagerly ({why}), so the script as written compiled nothing to compare.")}
    stopped = region.get("stoppedAfterCalls") is not None
    # per step (what the script's loop costs); per call where every step held another region's compile
    step, unit = (s.get("step"), "step") if s.get("step") is not None else (s.get("call"), "call")
    if step is None:
        spent = s.get("regionSeconds")
        if spent and not stopped and s.get("steadyFromCall") is None and spent["compiled"] > spent["eager"] * _CLEARLY_SLOWER:
            return {"mode": None, "verdict": "stay-eager", "reason": (
                f"Stay eager for a run like this one: {s['reason']}; in situ its calls took {spent['compiled']:.3g} s "
                f"compiled against {spent['eager']:.3g} s eager.")}
        return None
    if step.get("samples", MIN_STEADY_STEPS) < MIN_STEADY_STEPS:
        return None  # too few of the script's own steps to rest a verdict on: the replay decides
    speedup, low, high = step["speedup"], step["low"], step["high"]
    span = f"{speedup:.3g}x per {unit} in situ ({s['pairs']} pair(s) of runs); a next run may give {low:.3g}-{high:.3g}x"
    if high < 1.0:  # even the interval's upper end: no spread makes this a speedup
        return {"mode": None, "verdict": "stay-eager", "reason": f"Stay eager: compiled {unit}s are slower ({span})."}
    if high > advice.DECISIVE_SPAN * low:
        return {"mode": None, "verdict": "none", "undecided": True,
                "reason": f"No verdict: the script's {unit}s varied too much to decide ({span})."}
    if low < advice.MIN_USEFUL_SPEEDUP:
        return {"mode": None, "verdict": "stay-eager", "reason": f"Stay eager: compiled {unit}s may be no faster ({span})."}
    cost, made = s.get("compileSeconds") or 0.0, s["stepsMade"]
    after = s.get("breakEvenSteps") if unit == "step" else speedups.break_even_calls(cost, step["eagerMs"], step["compiledMs"])
    after = None if after is None else math.ceil(after)
    if after is not None and after > made and not stopped:
        return {"mode": None, "verdict": "stay-eager", "reason": (
            f"Stay eager for runs this short: {unit}s are faster compiled ({span}), but the {cost:.1f} s compile inside the "
            f"script pays back after {after:,} {unit}s and this run made {made:,}; compile when it runs more than {after:,}.")}
    payback = (f"its {cost:.1f} s compile inside the script pays back after {after:,} {unit}s; this run made {made:,}"
               if after is not None else f"it compiled nothing the {unit}s did not repay")
    return {"mode": region["options"]["mode"], "verdict": "compile", "reason": f"Compile ({region['options']['mode']} as written): {span}, and {payback}."}


def _weighed(region: dict[str, Any], rec: dict[str, Any]) -> dict[str, Any]:
    """A replay's "compile" against the calls the script made: a break-even beyond them does not pay back here."""
    if rec["verdict"] != "compile" or region.get("stoppedAfterCalls") is not None:
        return rec
    measured = AS_WRITTEN if rec["mode"] == region["options"]["mode"] else rec["mode"]
    after = next((m.get("breakEvenCalls") for m in _primary(region) if m["mode"] == measured), None)
    made = region.get("callCount")
    if after is None or made is None or after <= made:
        return rec
    return {"mode": None, "verdict": "stay-eager", "reason": (
        f"Stay eager for runs this short: {rec['reason'].removeprefix('Use ').rstrip('.')}, but this script made {made:,} "
        f"calls (replayed forward only: no in-situ number).")}


def region_recommendation(region: dict[str, Any]) -> dict[str, Any]:
    situ = _in_situ(region)
    if situ is not None and not situ.pop("undecided", False):
        return situ
    replayed = _weighed(region, _replayed(region))
    # the script's own steps too noisy to decide: a replay's verdict, where there is one, with the in-situ spread said
    if situ is None or replayed["verdict"] != "none":
        return replayed if situ is None else dict(replayed, reason=f"{replayed['reason']} (In situ: {situ['reason'].removeprefix(_NO_VERDICT)})")
    return situ


def _replayed(region: dict[str, Any]) -> dict[str, Any]:
    measured = [m for m in _primary(region) if m["status"] == "ok" and m.get("speedup") is not None]
    if not measured:
        failed = next((m["error"]["message"] for m in _primary(region) if m.get("error")), None)
        why = region["replay"]["reason"] or failed or "it was not measured"
        return {"mode": None, "verdict": "none", "reason": f"{_NO_VERDICT}{why}."}
    rec = advice.recommend([dict(m, mode=_label(region, m["mode"])) for m in _primary(region)],
                          CUDAGRAPH_MODES if region.get("device") == "cpu" else ())
    if rec["mode"] is None:
        # "no verdict" (rounds too noisy, compiled calls ran eagerly) stays no verdict: never "stay eager" without a measurement that says so
        return {"mode": None, "verdict": rec.get("verdict") or "stay-eager", "reason": rec["reason"]}
    own = region["options"]["mode"]
    return {"mode": own if rec["mode"] == _label(region, AS_WRITTEN) else rec["mode"], "verdict": "compile",
            "reason": rec["reason"]}


def _best_speedup(region: dict[str, Any]) -> float | None:
    step = (region.get("inSitu") or {}).get("step")
    if step is not None:
        return float(step["speedup"])
    speedups = [m["speedup"] for m in _primary(region) if m["status"] == "ok" and m.get("speedup") is not None]
    return max(speedups) if speedups else None


def script_recommendation(regions: list[dict[str, Any]]) -> dict[str, Any]:
    """One line for the whole script from its regions' verdicts; a failed compiled call comes first."""
    failed = next((r for r in regions if _failed(r)), None)
    if failed is not None:
        return {"mode": None, "verdict": "none", "reason": failed["recommendation"]["reason"]}
    if not regions:
        return {"mode": None, "verdict": "none", "reason": (
            f"{_NO_VERDICT}the script made no torch.compile region (no torch.compile or nn.Module.compile call ran).")}
    parts, compiling = [], []
    for region in regions:
        rec, best = region["recommendation"], _best_speedup(region)
        if region.get("noCompiledCode"):  # its timings compare eager code with itself: no number, the reason
            parts.append(f"{_where(region)}: n{region['noCompiledCode']['headline'][1:].rstrip('.')}")
        elif rec["verdict"] == "compile":
            compiling.append((best or 0.0, rec["mode"]))
            parts.append(f"{_where(region)}: compile ({rec['mode']}, {best:.2f}x)")
        elif rec["verdict"] == "stay-eager":
            parts.append(f"{_where(region)}: stay eager" + (f" (best {best:.2f}x)" if best is not None else ""))
        elif best is not None:  # measured, but the measurement supports no verdict (e.g. too noisy)
            parts.append(f"{_where(region)}: no verdict, {rec['reason'].removeprefix(_NO_VERDICT).split(' (')[0].rstrip('.')}")
        else:
            situ = region.get("inSitu") or {}
            what = "no verdict" if situ.get("step") or situ.get("call") else "not measured"
            parts.append(f"{_where(region)}: {what}, {rec['reason'].removeprefix(_NO_VERDICT).rstrip('.')}")
    if compiling:
        return {"mode": max(compiling)[1], "verdict": "compile", "reason": "; ".join(parts) + "."}
    verdict = "stay-eager" if any(r["recommendation"]["verdict"] == "stay-eager" for r in regions) else "none"
    return {"mode": None, "verdict": verdict, "reason": ("" if verdict == "stay-eager" else _NO_VERDICT) + "; ".join(parts) + "."}
