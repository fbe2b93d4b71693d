"""The shape fix, measured on the script's own calls (report: region `shapes.fixes`, schema 1.22).

For a region whose shapes decided its outcome (script/shape_facts.py), the fixes worth a run, chosen by its facts
(`plans`): a warm-up at the real calls' shape where a warm-up at another shape recompiled; else, where dynamic=False
or automatic dynamic compiled one graph per size or hit the recompile limit, torch._dynamo.mark_dynamic on exactly the
input dimensions that changed (where those are tensors the script passes) and dynamic=True; and buckets (the changed
dimension padded to a few sizes, as LLM servers do for CUDA graphs) where one graph per size is what the region pays
(dynamic=False, or CUDA graphs per size), its calls compute no gradients, and the changed dimensions move together.
After the script's own run, the script runs once more in a worker of its own (`child`) per round: round k applies
each region's k-th fix (one fix per region per run), at its torch.compile line, its calls or its warm-up
(script/shape_fix_apply.py), observed and interleaved against eager exactly as the script's own run is
(measure/interleaved.py: the same estimator), without replays or profiled windows; its regions' numbers are the
fixes' (`merge`).

A round runs by default only while the profile stays within BUDGET × the plain script's own time: the observed run
(torch's import, the script with its compiles) stands for the plain script, and a fix run costs FIX_RUN_COST × as
much, so by default one round at most (each region's first fix); the rest is left one click away (`--shape-fix on`,
the editor's "Measure the shape fix"), and the region says so. Under torchrun, and for a notebook, it is not run."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from typing import Any

from ..report import document, reason_text, run_source, shape_text
from ..report.shape_reasons import shape_reasons
from ..run import Run
from ..shapes.compiler import CompilerInsight
from ..shapes.region import CacheUse, Region, RegionShapes, ShapeFix, ShapeFixOffer
from . import shape_facts
from .shape_fix_apply import BUCKETS, CHECKS, DYNAMIC, MARK, WARMUP, ShapeFixPlan

BUDGET = shape_text.SHAPE_FIX_BUDGET  # the profile's wall at most this many times the plain script's, with the fix runs
# a fix run over the observed run's own time: a worker's start and its compiler log read again, a fix's compiles (a
# CPU generate(): 1.3-1.9x with dynamic=True under a loaded host, bench/shapes/run.py)
FIX_RUN_COST = 1.3
FOLDER = "shape_fix"
CACHE = "compile-cache"  # the fix run's own Inductor and Triton caches, in its folder, empty at its start
NO_REPLAY = "the run that measures the shape fix replays nothing"
MAX_MARKED = 4  # mark_dynamic on at most this many dimensions: more is dynamic=True's job
# why a fix has no number (ShapeFix.whyCode): "budget" and "timeout" are measured with --shape-fix on
# (the answer words the first three again: report/shape_text.py)
BUDGET_LEFT, TIMEOUT_LEFT, REFUSED = shape_text.BUDGET_LEFT, shape_text.TIMEOUT_LEFT, shape_text.REFUSED
FAILED, NO_CALL = "failed", "no-call"


def _no_grad(region: Region) -> bool:
    return all(c["signature"].split("; ")[1:2] in (["no_grad"], ["inference"]) for c in region["calls"])


def buckets(sizes: list[int], limit: int | None) -> list[int]:
    """The sizes padded to: the next power of two of each size seen, the smallest merged into the next while there
    are more than the recompile limit lets compile."""
    out = sorted({1 << max(0, s - 1).bit_length() for s in sizes})
    return out[len(out) - limit :] if limit and len(out) > limit else out


def plans(region: Region) -> list[ShapeFixPlan]:
    """The fixes worth a run for a region whose shapes decided its outcome, first the one a single run measures."""
    shapes, location = region.get("shapes"), region.get("location")
    if not shapes or not location or location.get("cell") is not None:
        return []
    at: ShapeFixPlan = {"region": region["id"], "file": location["file"], "line": location["line"], "kind": ""}
    warm = shapes.get("warmup")
    if warm is not None:
        plan: ShapeFixPlan = {
            **at,
            "kind": WARMUP,
            "input": warm["input"],
            "dim": warm["dim"],
            "warmupSize": warm["warmupSize"],
            "warmupTo": warm["realSize"],
            "realCall": warm["realCall"],
        }
        if "realSizes" in warm:
            # calls whose size follows traffic: a warm-up at one of their sizes alone compiles again at the next, so
            # the warm-up's dimension is marked dynamic too, at a real size of 2 or more (mark_dynamic or
            # dynamic=True at a size of 1 would still compile twice: a size of 1 is always specialised)
            plan["markDynamic"] = True
            plan["warmupTo"] = next((s for s in [warm["realSize"], *warm["realSizes"]] if s >= 2), warm["realSize"])
        return [plan]
    changes = shape_facts.changed_dims(region["calls"], region.get("compiler"))
    # every changed dimension a tensor the script passes: marking them is the whole fix
    marks = [[c.leaf, c.fact["dim"]] for c in changes if c.leaf is not None]
    names = [c.fact["input"] for c in changes if c.leaf is not None]
    targeted = bool(marks) and len(marks) == len(changes) and len(marks) <= MAX_MARKED
    out: list[ShapeFixPlan] = []
    limit, auto = shapes.get("recompileLimit"), shapes.get("automaticDynamic")
    per_size = shapes.get("dynamic") is False and (shapes.get("graphs") or 0) > 1
    if (limit and limit["eagerCalls"]) or auto or per_size:
        if targeted:
            out.append({**at, "kind": MARK, "dims": marks, "names": names})
        out.append({**at, "kind": DYNAMIC})
    together = targeted and all(c.sequence == changes[0].sequence for c in changes)
    sizes = buckets(changes[0].fact["sizes"], limit["limit"] if limit else None) if changes else []
    if (
        (per_size or (limit and limit["eagerCalls"]) or shapes.get("cudaGraphSizes"))
        and together
        and _no_grad(region)
        and 1 < len(sizes) < changes[0].fact["count"]
    ):
        out.append({**at, "kind": BUCKETS, "dims": marks, "names": names, "buckets": sizes})
    return out


def text(fix: ShapeFixPlan) -> str:
    """The fix in the user's terms: "dynamic=True", "x's dimension 0 marked dynamic (mark_dynamic)", "a warm-up at
    size 5", "buckets of 8, 16, 32"."""
    if fix["kind"] == DYNAMIC:
        return "dynamic=True"
    if fix["kind"] == MARK:
        return shape_text.marked_dynamic(fix["names"], [d for _, d in fix["dims"]])
    if fix["kind"] == BUCKETS:
        return "buckets of " + ", ".join(str(b) for b in fix["buckets"])
    size = fix.get("warmupTo")
    if fix.get("markDynamic"):  # calls whose size follows traffic
        return f"a warm-up at size {size} with {shape_text.marked_dynamic([fix['input']], [fix['dim']])}"
    return f"a warm-up at size {size}"


# -- the parent: whether, and the runs --------------------------------------------------------------------------------


def unmeasured(plan: ShapeFixPlan, code: str, why: str) -> ShapeFix:
    out: ShapeFix = {"fix": text(plan), "kind": plan["kind"], "measured": False, "whyCode": code, "why": why}
    if plan["kind"] == BUCKETS:
        out["buckets"] = plan["buckets"]
    return out


def within_budget(spent_s: float, plain_s: float) -> bool:
    """The profile so far plus a fix run (FIX_RUN_COST × the observed run) stays within BUDGET × the plain script."""
    return spent_s + FIX_RUN_COST * plain_s <= BUDGET * plain_s


def over_budget(runs: int, plain_s: float) -> str:
    return shape_text.shape_fix_over_budget(runs, FIX_RUN_COST * plain_s * runs, BUDGET)


def run_with_fixes(spec: dict[str, Any], workdir: str, batch: list[ShapeFixPlan], round_: int) -> dict[str, Any] | None:
    """Runs the script once with the batch's fixes applied (a worker of its own, with its own compiler log, in its own
    folder: shape_fix/, then shape_fix-2/ ...); its report, or None when it wrote none. Its progress lines are read
    and dropped (this run's progress says it); a --timeout or a cancel stops it with the worker (the supervisor stops
    the worker's whole process tree). It compiles into an empty cache of its own (Inductor's and Triton's, removed
    after): with the script's run's caches, a graph that run compiled (a warm-up fix's real-shape graph, a size-generic
    graph mark_dynamic makes again) would load from them, and its compile would read as a fraction of the run's."""
    folder = os.path.join(workdir, FOLDER if round_ == 0 else f"{FOLDER}-{round_ + 1}")
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, "spec.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(dict(spec, workdir=folder, shapeFix=batch, whatIfModes=[]), f)
    cache = os.path.join(folder, CACHE)
    env = dict(
        os.environ,
        TORCH_TRACE=os.path.join(folder, "torch_trace"),
        TORCHINDUCTOR_CACHE_DIR=cache,
        TRITON_CACHE_DIR=os.path.join(cache, "triton"),
    )
    started = time.monotonic()
    try:
        with subprocess.Popen(
            [sys.executable, "-m", "compile_lens_runner", "_worker", path],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            env=env,
            text=True,
        ) as proc:
            assert proc.stdout is not None
            for _ in proc.stdout:  # drained, so the child never blocks on a full pipe
                pass
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    report = document.read(os.path.join(folder, "report.json"))
    if not isinstance(report, dict):
        return None
    report["_wallSeconds"] = round(time.monotonic() - started, 3)
    report["_buckets"] = document.read(os.path.join(folder, CHECKS)) or {}
    return report


def _same_place(regions: list[Region]) -> dict[tuple[str, int, int], Region]:
    """Regions by (file, line, ordinal among those made at that line): a torch.compile line run twice made two."""
    seen: dict[tuple[str, int], int] = {}
    out = {}
    for r in regions:
        loc = r.get("location")
        if not loc:
            continue
        file, line = loc["file"], loc["line"]
        out[(file, line, seen.get((file, line), 0))] = r
        seen[(file, line)] = seen.get((file, line), 0) + 1
    return out


def merge(regions: list[Region], batch: list[ShapeFixPlan], child: dict[str, Any] | None) -> dict[str, ShapeFix]:
    """Per region of the batch, what the fix run measured of it: graphs, compile, its in-situ number, calls that ran
    eagerly; buckets that changed the outputs are refused (not measured, with what differed)."""
    if child is None or (child.get("status") == "error" and not child.get("regions")):
        error = (child or {}).get("error") or {}
        return {p["region"]: unmeasured(p, FAILED, shape_text.shape_fix_failed(error.get("message"))) for p in batch}
    mine, theirs = _same_place(regions), _same_place(child.get("regions") or [])
    out: dict[str, ShapeFix] = {}
    for p in batch:
        key = next((k for k, r in mine.items() if r["id"] == p["region"]), None)
        fixed = theirs.get(key) if key else None
        refused = ((child.get("_buckets") or {}).get(p["region"]) or {}).get("refused")
        if fixed is None:
            out[p["region"]] = unmeasured(p, NO_CALL, shape_text.shape_fix_no_call())
            continue
        if refused:
            why = shape_text.buckets_refused(refused["size"], refused["bucket"], refused["maxDiff"])
            out[p["region"]] = unmeasured(p, REFUSED, why)
            continue
        compiler, situ = fixed.get("compiler"), fixed.get("inSitu")
        written = mine[key].get("compiler") if key else None
        measured: ShapeFix = {
            "fix": text(p),
            "kind": p["kind"],
            "measured": True,
            "why": None,
            "graphs": compiler["graphCount"] if compiler else None,
            "compileSeconds": (compiler.get("compileSeconds") or {}).get("total") if compiler else None,
            "step": situ.get("step") if situ else None,
            "call": situ.get("call") if situ else None,
            "eagerFallback": situ.get("eagerFallback") if situ else None,
            "realCallMs": _real_call_ms(p, fixed.get("calls") or []),
            "wallSeconds": child.get("_wallSeconds"),
            "compileCache": {"fix": _cache_use(compiler), "script": _cache_use(written)},
        }
        if p["kind"] == BUCKETS:
            measured["buckets"] = p["buckets"]
        out[p["region"]] = measured
    return out


def _cache_use(insight: CompilerInsight | None) -> CacheUse:
    """Inductor's FX graph and AOT autograd cache lookups in a run's compiles of the region, and how many hit."""
    counts = insight.get("cache") if insight else None
    if not counts:
        return {"hits": 0, "lookups": 0}
    return {
        "hits": sum(c.get("hit", 0) for c in counts.values()),
        "lookups": sum(sum(c.values()) for c in counts.values()),
    }


def _real_call_ms(fix: ShapeFixPlan, calls: list[Any]) -> float | None:
    """A warm-up fix: the first real call's own time in the fix run (as written, it recompiled)."""
    real = next((c for c in calls if c["index"] == fix.get("realCall")), None) if fix["kind"] == WARMUP else None
    return None if real is None or real.get("ms") is None else float(real["ms"])


# the Quick Fix that makes each fix's edit (compiler/quick_fixes.py); buckets have none (the padding is the script's)
_QUICK_FIX_KIND = {DYNAMIC: "compile-dynamic", MARK: "mark-dynamic", WARMUP: "warmup-shape"}


def annotate(region: Region, script_insight: CompilerInsight | None, source: str = run_source.SCRIPT) -> None:
    """The measured fixes where the editor offers them: the explanation (Problems, hover) and the Quick Fix title of
    the region's recompiles that each fix answers, in the region's insight and the script's (one log, the same compile
    ids). The words are the answer's (report/sentences.py); source: what the user ran (run_source.noun)."""
    shapes = region.get("shapes")
    said = {r.get("what"): r for r in shape_reasons(region) if r["code"] == "shape-fix" and r.get("measured")}
    ids = {cid for c in region["calls"] for cid in c.get("compileIds") or []}
    for fix in shapes.get("fixes") or [] if shapes else []:
        reason, kind = said.get(fix["fix"]), _QUICK_FIX_KIND.get(fix["kind"])
        if reason is None or kind is None:
            continue
        measured = reason_text.clause(reason).removeprefix(f"with {fix['fix']}: ")
        for insight in (region.get("compiler"), script_insight):
            sites: list[Any] = [*insight.get("recompileSites", []), *insight["recompiles"]] if insight else []
            for item in sites:
                explanation = item.get("explanation")
                mine = item.get("compileId") in ids or bool(ids & set(item.get("compileIds") or []))
                if not explanation or not mine:
                    continue
                offered = [explanation.get("quickFix"), *(explanation.get("quickFixes") or [])]
                quick = next((q for q in offered if q and q["kind"] == kind), None)
                said_here = f"Measured on this {source}'s own calls with {fix['fix']}:"
                if quick is None:
                    continue
                if said_here not in explanation["fix"]:
                    explanation["fix"] = f"{explanation['fix']} {said_here} {measured}."
                if "(measured: " not in quick["title"]:  # a Quick Fix object the site and its recompiles share
                    quick["title"] = f"{quick['title']} (measured: {measured})"


def _measure_offer(fixes: list[ShapeFix], runs: int, plain_s: float) -> ShapeFixOffer | None:
    """What measuring the fixes the budget left out costs, and the editor's title for it; None where none was."""
    if not any(f.get("whyCode") == BUDGET_LEFT for f in fixes):
        return None
    seconds = round(FIX_RUN_COST * plain_s * runs, 1)
    return {"runs": runs, "seconds": seconds, "title": shape_text.shape_fix_measure_title(runs, seconds)}


def measure(run: Run, plain_s: float) -> None:
    """Each shape finding's fixes measured on the script's own calls, a round (one run, each region's next fix) at a
    time while the profile stays within BUDGET × the plain script's time (--shape-fix on: every round; off: none), into
    its region's shapes.fixes; else why not, and (shapes.measure) what measuring them would take. plain_s: the
    observed run so far (torch's import and the script with its compiles)."""
    regions = run.report["regions"]
    planned = {r["id"]: fixes for r in regions if (fixes := plans(r))}
    when = run.spec.get("shapeFixRun") or "auto"
    if not planned or when == "off" or run.report.get("error"):  # a script that failed is not run again
        return
    results: dict[str, list[ShapeFix]] = {rid: [] for rid in planned}
    rounds = max(len(fixes) for fixes in planned.values())
    left_out = 0
    for k in range(rounds):
        batch = [fixes[k] for fixes in planned.values() if len(fixes) > k]
        later = [fixes[j] for fixes in planned.values() for j in range(k, len(fixes))]
        spent, timeout = time.monotonic() - run.started, run.spec.get("timeout")
        if timeout is not None and spent + FIX_RUN_COST * plain_s > float(timeout):
            for p in later:
                results[p["region"]].append(unmeasured(p, TIMEOUT_LEFT, shape_text.shape_fix_timeout()))
            left_out = rounds - k
            break
        if when == "auto" and not within_budget(spent, plain_s):
            why = over_budget(rounds - k, plain_s)
            for p in later:
                results[p["region"]].append(unmeasured(p, BUDGET_LEFT, why))
            left_out = rounds - k
            break
        run.checkpoint()  # a --timeout or a cancel during a fix run keeps everything measured before it
        run.progress("shape-fix", 0.9, "Measuring the shape fix on the script's own calls")
        for rid, fix in merge(regions, batch, run_with_fixes(run.spec, run.workdir, batch, k)).items():
            results[rid].append(fix)
    script_insight = run.report["modes"][-1].get("compiler") if run.report["modes"] else None
    for region in regions:
        shapes: RegionShapes | None = region.get("shapes")
        if shapes is not None and region["id"] in results:
            shapes["fixes"] = results[region["id"]]
            shapes["measure"] = _measure_offer(shapes["fixes"], left_out, plain_s)
            annotate(region, script_insight, run_source.noun(run.report))
    run.checkpoint()
