"""A region's shape story as the answer's reason codes (issue 43), from its `shapes` facts (script/shape_facts.py) and
its in-situ result; report/reason_text.py and shape_text.py say each in words. The finding that decided the outcome leads the headline
(recompile-limit, else warmup-other-shape, else cuda-graphs-per-size, else automatic-dynamic), its fix as measured
beside it (shape-fix, one per fix); a decode loop's step is a token (`step_unit`) and its sequence is said (decode-loop); calls the
compiled side ran eagerly (eager-fallback) and the calls the in-situ number leaves out (in-situ-left-out) are
counted."""

from __future__ import annotations

from ..measure import ranges
from ..shapes.answer import Reason, Unit
from ..shapes.in_situ import RegionInSitu
from ..shapes.region import Region, RegionShapes, ShapeChange, ShapeFix
from . import shape_text, story

# the in-situ drops that are calls the number leaves out (compiles, warm-up, first-call costs, eager code): said beside
# it where any was; a per-step number leaves out the measurement's own seams too (a step across a switch, the
# observer's or the profiler's work), a per-call one only these calls
_LEFT_OUT = (
    "warm-up",
    "compiled",
    "first eager call",
    "first on its signature",
    "ran eagerly",
    "never served compiled",
)


def step_unit(region: Region) -> Unit:
    """A token for a decode loop (a size that grew by one a call), else a step."""
    shapes = region.get("shapes")
    loop = shapes.get("loop") if shapes else None
    return "token" if loop and loop["growsBy"] == 1 else "step"


def _change(shapes: RegionShapes, dim: int | None = None) -> ShapeChange | None:
    return next((c for c in shapes["changed"] if dim is None or c["dim"] == dim), None)


def _finding(region: Region, shapes: RegionShapes) -> Reason | None:
    """The one finding that decided the outcome, most decisive first."""
    change = _change(shapes)
    where: Reason = {"code": ""}
    if change is not None:
        where = {
            "code": "",
            "input": change["input"],
            "dim": change["dim"],
            "sizes": change["count"],
            "growing": shapes.get("loop") is not None,
        }
    limit = shapes.get("recompileLimit")
    if limit and limit["eagerCalls"]:
        return {
            **where,
            "code": "recompile-limit",
            "sizes": change["count"] if change else limit["sizes"],
            "dynamic": shapes.get("dynamic"),
            "graphs": limit["graphs"],
            "limit": limit["limit"],
            "count": limit["eagerCalls"],
            "made": limit["calls"],
        }
    warm = shapes.get("warmup")
    if warm:
        reason: Reason = {
            "code": "warmup-other-shape",
            "input": warm["input"],
            "dim": warm["dim"],
            "size": warm["warmupSize"],
            "realSize": warm["realSize"],
            "line": warm["warmupLine"],
            "count": warm["realCalls"],
        }
        if "warmupCell" in warm:  # a notebook's (schema 1.36)
            reason["cell"] = warm["warmupCell"]
        if "realSizes" in warm:  # calls whose size follows traffic (schema 1.41)
            reason["realSizes"] = warm["realSizes"]
        if warm["recompileSeconds"] is not None:
            reason["seconds"] = warm["recompileSeconds"]
        # the call that paid the recompile, as the measured fix says it ("instead of 359 ms"): one value for its cost
        real = next((c for c in region["calls"] if c["index"] == warm["realCall"]), None)
        if real is not None and story.holds_its_compile(real):
            reason["ms"] = real["ms"]
        return reason
    sizes = shapes.get("cudaGraphSizes")
    if sizes:
        graphs: Reason = {
            **where,
            "code": "cuda-graphs-per-size",
            "count": sizes,
            "mode": str((region.get("options") or {}).get("mode")),
        }
        held = shapes.get("cudaGraphBytes")
        if held is not None:
            graphs["bytes"] = held
        return graphs
    auto = shapes.get("automaticDynamic")
    if auto:
        reason = {**where, "code": "automatic-dynamic", "call": auto["call"], "count": auto["servedCalls"]}
        if auto["seconds"] is not None:
            reason["seconds"] = auto["seconds"]
        return reason
    return None


# a fix's kinds (ShapeFix.kind, script/shape_fix_apply.py)
_DYNAMIC, _MARK, _WARMUP, _BUCKETS = "dynamic", "mark-dynamic", "warmup-shape", "buckets"


def _fixes(region: Region, shapes: RegionShapes) -> list[Reason]:
    """The shape fixes as measured on the script's own calls, each against the region as written; those not measured
    for one reason said together, as what to change ("mark x's dimension 1 dynamic (…), compile with dynamic=True, or
    pad …"), each fix's words its kind's (_instruction), and why none was measured in their number."""
    out: list[Reason] = []
    fixes = shapes.get("fixes") or []
    unmeasured: dict[tuple[str, str], list[ShapeFix]] = {}
    for fix in fixes:
        if fix["measured"]:
            out.append(_measured(region, shapes, fix))
        else:
            unmeasured.setdefault((fix.get("whyCode") or "", fix["why"] or ""), []).append(fix)
    for (code, why), left in unmeasured.items():
        reason: Reason = {"code": "shape-fix", "count": len(left), "measured": False, "why": why}
        if code:
            reason["kind"] = code
        if code == shape_text.REFUSED or any(f["kind"] == _WARMUP for f in left):
            # no fix to make (buckets that change what a call returns), or the fix the finding's sentence gave (a
            # warm-up's "Fix: warm up at the shape the real calls use"): named, not said again as what to change
            reason["what"] = " and ".join(f["fix"] for f in left)
        else:
            said = [_instruction(shapes, f) for f in left]
            reason.update(
                {
                    "what": shape_text.fix_instructions(said),
                    "made": len(fixes),
                    "why": _why(shapes, code, why, len(left)),
                }
            )
        out.append(reason)
    return out


def _instruction(shapes: RegionShapes, fix: ShapeFix) -> str:
    """A fix as what to change: its kind's words from the dimensions that changed (the ones a mark_dynamic or buckets
    fix marks or pads: script/shape_fix.plans), else its recorded words (a warm-up's "a warm-up at size 5")."""
    changed = shapes["changed"]
    names, dims = [c["input"] for c in changed], [c["dim"] for c in changed]
    if fix["kind"] == _DYNAMIC:
        return shape_text.COMPILE_DYNAMIC
    if fix["kind"] == _MARK and changed:
        return shape_text.mark_instruction(names, dims)
    if fix["kind"] == _BUCKETS and changed and fix.get("buckets"):
        return shape_text.buckets_instruction(names, dims, fix["buckets"], shapes.get("loop") is not None)
    return fix["fix"]


def _why(shapes: RegionShapes, code: str, recorded: str, fixes: int) -> str:
    """Why the fixes were not measured, in their number ("measuring them"): the budget's and the timeout's words again
    from what they record (shapes.measure), else as recorded (one fix's run that failed, or made no call)."""
    offer = shapes.get("measure")
    if code == shape_text.BUDGET_LEFT and offer:
        return shape_text.shape_fix_over_budget(offer["runs"], offer["seconds"], fixes=fixes)
    if code == shape_text.TIMEOUT_LEFT:
        return shape_text.shape_fix_timeout(fixes)
    return recorded


def _measured(region: Region, shapes: RegionShapes, fix: ShapeFix) -> Reason:
    compiler = region.get("compiler")
    reason: Reason = {
        "code": "shape-fix",
        "what": fix["fix"],
        "measured": True,
        "graphs": fix.get("graphs"),
        "wasGraphs": shapes.get("graphs"),
        "wasSeconds": (compiler.get("compileSeconds") or {}).get("total") if compiler else None,
    }
    if fix.get("compileSeconds") is not None:
        reason["seconds"] = fix["compileSeconds"] or 0.0
    cache = fix.get("compileCache")
    if cache is not None:
        reason.update({"cacheHits": cache["fix"]["hits"], "wasCacheHits": cache["script"]["hits"]})
    number, unit = (fix.get("step"), step_unit(region)) if fix.get("step") else (fix.get("call"), "call")
    if number:  # its range as every range is said (measure/ranges.py): floored, and none where it says nothing
        value = number["speedup"]
        reason.update({"value": value, "unit": unit})
        if ranges.too_noisy(value, number["low"], number["high"]) is None:
            low, high = ranges.floored(value, number["low"], number["high"])
            reason.update({"low": round(low, 4), "high": round(high, 4)})
    still = fix.get("eagerFallback")
    if still:
        reason["count"] = still["calls"]
    warm = shapes.get("warmup")
    if fix.get("realCallMs") is not None and warm is not None:
        real = next((c for c in region["calls"] if c["index"] == warm["realCall"]), None)
        reason.update({"ms": fix.get("realCallMs"), "wasMs": real["ms"] if real else None})
    return reason


def _counted(region: Region, s: RegionInSitu, shapes: RegionShapes | None, led_by_limit: bool) -> list[Reason]:
    """Beside the in-situ number: the compiled-side calls Dynamo ran eagerly (unless the recompile limit leads and
    says them), the calls the number leaves out, and a decode loop's sequence."""
    out: list[Reason] = []
    step = s.get("step") or s.get("call")
    if step is None:
        return out
    ran = s.get("eagerFallback")
    if ran and not led_by_limit:
        out.append({"code": "eager-fallback", "count": ran["calls"], "made": ran["of"]})
    dropped = s.get("dropped") or {}
    # interrupted steps are left out of a per-step number only (its calls keep their own times)
    costs = (*_LEFT_OUT, "interrupted") if s.get("step") else _LEFT_OUT
    if any(dropped.get(why, 0) for why in costs):  # said in the number's unit, as the in-situ lines count them
        unit: Unit = step_unit(region) if s.get("step") else "call"
        left = dropped if s.get("step") else {why: n for why, n in dropped.items() if why in _LEFT_OUT}
        out.append({"code": "in-situ-left-out", "count": sum(left.values()), "unit": unit, "dropped": left})
    loop = shapes.get("loop") if shapes else None
    if loop and loop["growsBy"] == 1 and s.get("step"):
        n = loop["callsPerRepetition"]
        out.append(
            {
                "code": "decode-loop",
                "count": loop["repetitions"],
                "made": n,
                "wasMs": round(step["eagerMs"] * n, 4),
                "ms": round(step["compiledMs"] * n, 4),
            }
        )
    return out


def shape_reasons(region: Region) -> list[Reason]:
    """The region's shape codes: its deciding finding and its fix (both lead), then what the number leaves out."""
    shapes = region.get("shapes")
    finding = _finding(region, shapes) if shapes else None
    fixes = _fixes(region, shapes) if shapes and finding else []
    s = region.get("inSitu") or {"pairs": 0}
    led_by_limit = finding is not None and finding["code"] == "recompile-limit"
    return ([finding] if finding else []) + fixes + _counted(region, s, shapes, led_by_limit)
