"""The shape fix, measured on the script's own calls (report: region `shapes.fix`, schema 1.21).

For a region whose shapes decided its outcome (script/shape_facts.py), the fix is one of: `dynamic` (torch.compile
with dynamic=True: one graph for every size, where dynamic=False or automatic dynamic compiled one per size or hit
the recompile limit) or `warmup-shape` (a warm-up at the shape the real calls use: the warm-up call's changed
dimension set to the real calls' size, so the real calls meet a graph made for them). After the script's own run,
the script runs once more in a worker of its own (`child`) with every planned fix applied at its torch.compile line,
observed and interleaved against eager exactly as the script's own run is (measure/interleaved.py: the same
estimator), without replays or profiled windows; its regions' numbers are the fixes' (`merge`).

It runs by default only when the profile stays within BUDGET × the plain script's own time: the observed run (torch's
import, the script with its compiles) stands for the plain script, and the fix run costs FIX_RUN_COST × as much; beyond
that it is left one click away (`--shape-fix on`), and the region says so. Under torchrun, and for a notebook, it is
not run."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from typing import Any, TypedDict

from ..report import document, sentences
from ..report.shape_reasons import shape_reasons
from ..run import Run
from ..shapes.compiler import CompilerInsight
from ..shapes.region import Region, ShapeFix


class _ShapeFixPlan(TypedDict):
    region: str
    file: str
    line: int
    kind: str  # "dynamic" | "warmup-shape"


class ShapeFixPlan(_ShapeFixPlan, total=False):
    """The fix a fix run applies to one region: the runner's own, no part of the report."""

    dim: int
    warmupSize: int
    realSize: int
    realCall: int


BUDGET = 2.5  # the profile's wall at most this many times the plain script's, with the fix run
# the fix run over the observed run's own time: a worker's start and its compiler log read again, a fix's compiles (a
# CPU generate(): 1.3-1.9x with dynamic=True under a loaded host, bench/shapes/run.py)
FIX_RUN_COST = 1.3
FOLDER = "shape_fix"
NO_REPLAY = "the run that measures the shape fix replays nothing"
DYNAMIC, WARMUP = "dynamic", "warmup-shape"


def plan(region: Region) -> ShapeFixPlan | None:
    """The fix to measure for a region whose shapes decided its outcome, or None."""
    shapes, location = region.get("shapes"), region.get("location")
    if not shapes or not location or location.get("cell") is not None:
        return None
    region_id, file, line = region["id"], location["file"], location["line"]
    warm = shapes.get("warmup")
    if warm is not None:
        return {
            "region": region_id,
            "file": file,
            "line": line,
            "kind": WARMUP,
            "dim": warm["dim"],
            "warmupSize": warm["warmupSize"],
            "realSize": warm["realSize"],
            "realCall": warm["realCall"],
        }
    limit, auto = shapes.get("recompileLimit"), shapes.get("automaticDynamic")
    per_size = shapes.get("dynamic") is False and (shapes.get("graphs") or 0) > 1
    if (limit and limit["eagerCalls"]) or auto or per_size:
        return {"region": region_id, "file": file, "line": line, "kind": DYNAMIC}
    return None


def text(fix: ShapeFixPlan) -> str:
    """The fix in the user's terms: "dynamic=True", "a warm-up at batch 5"."""
    if fix["kind"] == DYNAMIC:
        return "dynamic=True"
    size = fix.get("realSize")
    return f"a warm-up at batch {size}" if fix.get("dim") == 0 else f"a warm-up at size {size}"


# -- the fix run (child): applied where the script calls torch.compile and where the warm-up calls the region ---------


def compile_kwargs(fix: ShapeFixPlan | None, kwargs: dict[str, Any]) -> dict[str, Any]:
    """torch.compile's arguments with a `dynamic` fix applied."""
    return {**kwargs, "dynamic": True} if fix is not None and fix["kind"] == DYNAMIC else kwargs


def warmed_inputs(
    fix: ShapeFixPlan | None, args: tuple[Any, ...], kwargs: dict[str, Any]
) -> tuple[tuple[Any, ...], dict[str, Any]]:
    """The warm-up call's inputs with its first tensor of the warm-up's size in the changed dimension made at the real
    calls' size (zeros: a compiled graph does not depend on the values); others as they were."""
    if fix is None or fix["kind"] != WARMUP:
        return args, kwargs
    import torch
    from torch.utils._pytree import tree_flatten, tree_unflatten

    dim, was, now = fix["dim"], fix["warmupSize"], fix["realSize"]
    leaves, spec = tree_flatten((args, kwargs))
    for i, leaf in enumerate(leaves):
        if isinstance(leaf, torch.Tensor) and leaf.dim() > dim and leaf.shape[dim] == was:
            shape = list(leaf.shape)
            shape[dim] = now
            leaves[i] = torch.zeros(shape, dtype=leaf.dtype, device=leaf.device).requires_grad_(leaf.requires_grad)
            break
    new_args, new_kwargs = tree_unflatten(leaves, spec)
    return tuple(new_args), dict(new_kwargs)


# -- the parent: whether, and the run --------------------------------------------------------------------------------


def skipped(plans: list[ShapeFixPlan], why: str) -> dict[str, ShapeFix]:
    return {p["region"]: {"fix": text(p), "kind": p["kind"], "measured": False, "why": why} for p in plans}


def within_budget(spent_s: float, plain_s: float) -> bool:
    """The profile so far plus a fix run (FIX_RUN_COST × the observed run) stays within BUDGET × the plain script."""
    return spent_s + FIX_RUN_COST * plain_s <= BUDGET * plain_s


def over_budget(spent_s: float, plain_s: float) -> str:
    return (
        f"measuring it runs the script once more (about {FIX_RUN_COST * plain_s:.0f} s), which would take the profile past "
        f"{BUDGET:g}× the script's own time; profile again with --shape-fix on to measure it"
    )


def run_with_fixes(spec: dict[str, Any], workdir: str, plans: list[ShapeFixPlan]) -> dict[str, Any] | None:
    """Runs the script once with the fixes applied (a worker of its own, with its own compiler log); its report, or
    None when it wrote none. Its progress lines are read and dropped (this run's progress says it); a --timeout or a
    cancel stops it with the worker (the supervisor stops the worker's whole process tree)."""
    folder = os.path.join(workdir, FOLDER)
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, "spec.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(dict(spec, workdir=folder, shapeFix=plans, whatIfModes=[]), f)
    env = dict(os.environ, TORCH_TRACE=os.path.join(folder, "torch_trace"))
    started = time.monotonic()
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
    report = document.read(os.path.join(folder, "report.json"))
    if not isinstance(report, dict):
        return None
    report["_wallSeconds"] = round(time.monotonic() - started, 3)
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


def merge(regions: list[Region], plans: list[ShapeFixPlan], child: dict[str, Any] | None) -> dict[str, ShapeFix]:
    """Per planned region, what the fix run measured of it: graphs, compile, its in-situ number, calls that ran eagerly."""
    if child is None or (child.get("status") == "error" and not child.get("regions")):
        error = (child or {}).get("error") or {}
        return skipped(plans, f"the run with the fix failed: {error.get('message') or 'it wrote no report'}")
    mine, theirs = _same_place(regions), _same_place(child.get("regions") or [])
    out: dict[str, ShapeFix] = {}
    for p in plans:
        key = next((k for k, r in mine.items() if r["id"] == p["region"]), None)
        fixed = theirs.get(key) if key else None
        if fixed is None:
            out.update(skipped([p], "the run with the fix made no call of it"))
            continue
        compiler, situ = fixed.get("compiler"), fixed.get("inSitu")
        out[p["region"]] = {
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
        }
    return out


def _real_call_ms(fix: ShapeFixPlan, calls: list[Any]) -> float | None:
    """A warm-up fix: the first real call's own time in the fix run (as written, it recompiled)."""
    real = next((c for c in calls if c["index"] == fix.get("realCall")), None) if fix["kind"] == WARMUP else None
    return None if real is None or real.get("ms") is None else float(real["ms"])


def annotate(region: Region, script_insight: CompilerInsight | None) -> None:
    """The measured fix where the editor offers it: the explanation (Problems, hover) and the Quick Fix title of the
    region's recompiles that its fix answers, in the region's insight and the script's (one log, the same compile ids).
    The words are the answer's (report/sentences.py)."""
    shapes = region.get("shapes")
    fix = shapes.get("fix") if shapes else None
    said = next((r for r in shape_reasons(region) if r["code"] == "shape-fix"), None)
    if not fix or not fix["measured"] or said is None:
        return
    measured = sentences.clause(said).removeprefix(f"with {fix['fix']}: ")
    kind = "compile-dynamic" if fix["kind"] == DYNAMIC else WARMUP
    ids = {cid for c in region["calls"] for cid in c.get("compileIds") or []}
    for insight in (region.get("compiler"), script_insight):
        if insight is None:
            continue
        sites: list[Any] = [*insight.get("recompileSites", []), *insight["recompiles"]]
        for item in sites:
            explanation = item.get("explanation")
            quick = explanation.get("quickFix") if explanation else None
            mine = item.get("compileId") in ids or bool(ids & set(item.get("compileIds") or []))
            if not (explanation and quick and quick["kind"] == kind and mine) or "Measured" in explanation["fix"]:
                continue
            explanation["fix"] = (
                f"{explanation['fix']} Measured on this script's own calls with {fix['fix']}: {measured}."
            )
            quick["title"] = f"{quick['title']} (measured: {measured})"


def measure(run: Run, plain_s: float) -> None:
    """Each shape finding's fix measured on the script's own calls, when the profile stays within BUDGET × the plain
    script's time (--shape-fix on: always; off: never), into its region's shapes.fix; else why not. plain_s: the
    observed run so far (torch's import and the script with its compiles)."""
    regions = run.report["regions"]
    plans = [p for p in (plan(r) for r in regions) if p is not None]
    when = run.spec.get("shapeFixRun") or "auto"
    if not plans or when == "off" or run.report.get("error"):  # a script that failed is not run again
        return
    spent = time.monotonic() - run.started
    left = run.spec.get("timeout")
    if left is not None and spent + FIX_RUN_COST * plain_s > float(left):
        results = skipped(plans, "--timeout leaves no time to run the script once more with it")
    elif when == "auto" and not within_budget(spent, plain_s):
        results = skipped(plans, over_budget(spent, plain_s))
    else:
        run.checkpoint()  # a --timeout or a cancel during the fix run keeps everything measured before it
        run.progress("shape-fix", 0.9, "Measuring the shape fix on the script's own calls")
        child = run_with_fixes(run.spec, run.workdir, plans)
        results = merge(regions, plans, child)
    script_insight = run.report["modes"][-1].get("compiler") if run.report["modes"] else None
    for region in regions:
        shapes = region.get("shapes")
        if shapes is not None and region["id"] in results:
            shapes["fix"] = results[region["id"]]
            annotate(region, script_insight)
    run.checkpoint()
