"""The one-line answers every surface shows (schema 1.18): the run's `headline` (the Runs view, `--json`, a target's
CodeLens, the extension's log) and each region's `headline` (the CodeLens on its torch.compile line). Derived here,
once, from what the report holds, each time the report is written (document.write), so a checkpoint, a cancelled
run and a merged torchrun job say what they hold; the editor displays them as they are.
The verdict is said first in one wording, then the number it rests on, so a line cut to fit keeps the answer.
"""

from __future__ import annotations

import math
import os

from .. import formats
from ..shapes.common import HostLoad
from ..shapes.compiler import CompilerInsight
from ..shapes.in_situ import RegionInSitu
from ..shapes.mode import ModeResult, RegionMeasurement
from ..shapes.region import Region, RegionShapes
from . import shape_words
from ..shapes.report import Report

VERDICT_WORDS = {
    "compile": "compile it",
    "compile-for-longer-runs": "compile for longer runs",
    "stay-eager": "stay eager",
    "none": "no verdict",
}


def _with_verdict(verdict: str | None, text: str) -> str:
    return f"{VERDICT_WORDS[verdict]}: {text}" if verdict else text


def _not_measured(mode: ModeResult) -> str | None:
    """Why a mode (or a region's measurement) has no valid speedup; None: it has one, or it failed."""
    if mode["status"] != "ok":
        return None
    timing, fallback = mode.get("timing"), mode.get("fallback")
    if fallback or (timing and timing.get("valid") is False):
        return (
            (timing.get("invalidReason") if timing else None)
            or (fallback["cause"] if fallback else None)
            or "the timing is not valid"
        )
    if mode.get("speedup") is None:
        return "no timing was taken"
    return None


def _speedup(mode: ModeResult) -> float | None:
    return None if _not_measured(mode) else mode.get("speedup")


def _contended(load: HostLoad | None) -> str:
    """ ", host contended" after a number other processes' load made untrustworthy (its hostLoad; the reason says more)."""
    return ", host contended" if load and load["contended"] else ""


def _timed_load(measured: ModeResult) -> HostLoad | None:
    """A mode's (or a region measurement's) hostLoad: its timing's."""
    timed = measured.get("timing")
    return timed.get("hostLoad") if timed else None


def _counts(compiler: CompilerInsight | None) -> tuple[int | None, int, int]:
    """(graphs, graph breaks, recompiles) in the compiler's records; graphs None where it has none."""
    if compiler is None:
        return None, 0, 0
    return compiler.get("graphCount"), len(compiler.get("graphBreaks") or []), len(compiler.get("recompiles") or [])


def target_headline(report: Report) -> str:
    """ "compile it: 3.31× (default, next run 2.77–3.79×) · 1 graph · 0 breaks · compile 9.5 s": the recommended mode,
    else the fastest measured one."""
    ran = [m for m in report["modes"] if m["status"] == "ok" and _speedup(m) is not None]
    recommendation = report["recommendation"]
    mode = next((m for m in ran if m["mode"] == recommendation.get("mode")), None) or (
        max(ran, key=lambda m: float(_speedup(m) or 0.0)) if ran else None
    )
    if mode is None:
        error = report.get("error")
        if error:
            return f"failed: {error['message']} — {error['fix']}"
        invalid = next((m for m in report["modes"] if _not_measured(m)), None)
        return f"{invalid['mode']}: not measured: {_not_measured(invalid)}" if invalid else "no mode finished"
    interval = mode.get("speedupInterval")
    inside = ", ".join(
        [mode["mode"], *([f"next run {formats.interval(interval['low'], interval['high'])}"] if interval else [])]
    )
    graphs, breaks, recompiles = _counts(mode.get("compiler"))
    speedup = _speedup(mode) or 0.0  # measured: a speedup
    parts = [
        f"{formats.speedup(speedup)} ({inside}){_contended(_timed_load(mode))}",
        formats.plural(graphs or 0, "graph"),
        formats.plural(breaks, "break"),
    ]
    if recompiles:
        parts.append(formats.plural(recompiles, "recompile"))
    if (compile_s := mode.get("compileSeconds")) is not None:
        parts.append(f"compile {formats.seconds(compile_s)}")
    return _with_verdict(recommendation.get("verdict"), " · ".join(parts))


def script_mode(region: Region) -> str:
    """The mode the script asked for in its torch.compile call ("default" when it gave none), with a backend other than Inductor."""
    options = region.get("options") or {}
    mode = options["mode"] if isinstance(options.get("mode"), str) else "default"
    backend = options.get("backend")
    return f"{mode}, backend {backend}" if isinstance(backend, str) and backend != "inductor" else mode


def _in_situ_line(s: RegionInSitu, verdict: str | None, shapes: RegionShapes | None) -> str:
    """ "compile it: 1.31×/step in situ · compile 11.7 s · pays back at step 212": the script's own steps (a decode
    loop's: "1.52×/token"); where Dynamo ran some compiled-side calls eagerly, how many (the number leaves them out)."""
    line = _in_situ_number(s, verdict, shape_words.unit(shapes))
    eager = shape_words.fallback(s.get("eagerFallback"))
    return f"{line} · {eager}" if eager and (s.get("step") or s.get("call")) and not shape_words.lead(shapes) else line


def _in_situ_number(s: RegionInSitu, verdict: str | None, unit: str) -> str:
    failure = s.get("failure")
    if failure:
        which = f"compiled call {failure['index']}" if failure.get("index") is not None else "a compiled call"
        where = failure["location"]
        at = f" at {os.path.basename(where['file'])}:{where['line']}" if where else ""
        return f"{which} fails{at} (in situ)"
    step, call, compile_s = s.get("step"), s.get("call"), s.get("compileSeconds")
    compile_part = [f"compile {formats.seconds(compile_s)}"] if compile_s is not None else []
    if not step and call:
        return _with_verdict(verdict, " · ".join([f"{formats.speedup(call['speedup'])}/call in situ", *compile_part]))
    if step:
        per_step = f"{formats.speedup(step['speedup'])}/{unit} in situ"
        steps, made = s.get("breakEvenSteps"), s.get("stepsMade")
        if _contended(s.get("hostLoad")):
            return _with_verdict(verdict, f"{per_step}{_contended(s.get('hostLoad'))}")
        if verdict in ("stay-eager", "none"):
            return _with_verdict(verdict, f"{per_step} ({formats.interval(step['low'], step['high'])})")
        if verdict == "compile-for-longer-runs" and steps is not None:
            return f"compile for runs > {formats.break_even(steps, 'step')}: {per_step} (ran {'?' if made is None else formats.whole(made)})"
        parts = [per_step, *compile_part]
        if steps is not None:
            parts.append(
                f"needs {formats.break_even(steps, 'step')}, ran {formats.whole(made)}"
                if s.get("paysBack") is False and made is not None
                else f"pays back at step {formats.whole(math.ceil(steps))}"
            )
        return _with_verdict(verdict, " · ".join(parts))
    # no steady step both ways: never the sides' totals, whose compiled side holds its compiles (unequal work)
    reason = s.get("reason")
    if reason and "ran compiled code" in reason:
        return "in situ: no compiled code ran"
    if s.get("regionSeconds"):
        return _with_verdict(verdict, "no steady step in situ")
    return "in situ: no number" if reason else "in situ: no call ran both ways"


def _why_not_measured(region: Region) -> str | None:
    replay = region["replay"]
    if region["callCount"] == 0:
        return "never called"
    if not replay.get("replayable"):
        return f"not replayable: {replay.get('reason') or 'its inputs cannot be replayed safely'}"
    if not region["measurements"]:
        return f"not measured: {replay.get('reason') or 'no measurement was recorded'}"
    return None


def _shown_measurement(region: Region) -> RegionMeasurement | None:
    """The script's own compiled callable on its most frequent inputs, else its first measurement."""
    as_written = [m for m in region["measurements"] if m["mode"] == "as-written"]
    first = (as_written or region["measurements"])[:1]
    return next((m for m in as_written if m.get("why") == "most-frequent"), None) or (first[0] if first else None)


def _shape_lead(region: Region) -> str | None:
    """The shape story's clause and, beside it, its fix as measured."""
    shapes = region.get("shapes")
    lead = shape_words.lead(shapes)
    compiler = region.get("compiler")
    compile_s = (compiler.get("compileSeconds") or {}).get("total") if compiler else None
    warm = shapes.get("warmup") if shapes else None
    real = next((c for c in region["calls"] if warm and c["index"] == warm["realCall"]), None)
    fixed = shape_words.fix(shapes, compile_s, real["ms"] if real else None)
    return f"{lead}; {fixed}" if lead and fixed else lead


def region_headline(region: Region) -> str:
    """The line on a region's torch.compile line: "compile it: 1.84× (default) · 2 graphs · 1 recompile", or why there is
    no number ("not replayable: mutates self.calls")."""
    nothing = region.get("noCompiledCode")
    if nothing:  # eager code timed against itself: no speedup to show
        return str(nothing["headline"])
    recommendation = region.get("recommendation")
    verdict = recommendation.get("verdict") if recommendation else None
    lead = _shape_lead(region)  # shapes decided the outcome: said first, with the fix measured beside it
    s = region.get("inSitu")
    replayed = any(
        m["status"] == "ok" and _speedup(m) is not None and not _contended(_timed_load(m))
        for m in region["measurements"]
    )
    if (
        s
        and (s.get("pairs") or s.get("failure") or (s.get("method") == "interleaved" and s.get("reason")))
        and not (_contended(s.get("hostLoad")) and replayed)
    ):  # contended steps: a replay timed in a quieter moment shows instead
        line = _in_situ_line(s, verdict, region.get("shapes"))  # the script's own steps: what the user asked
        return f"{lead} · {line}" if lead else line
    parts: list[str] = []
    why_not, shown = _why_not_measured(region), _shown_measurement(region)
    if why_not:
        parts.append(why_not)
    elif shown is not None and shown["status"] == "error":
        error = shown.get("error")
        parts.append(f"measurement failed: {error['message'] + ' — ' + error['fix'] if error else 'unknown error'}")
    elif shown is not None and (speedup := _speedup(shown)) is not None:
        parts.append(
            f"{formats.speedup(speedup)} ({script_mode(region) if shown['mode'] == 'as-written' else shown['mode']})"
            f"{_contended(_timed_load(shown))}"
        )
    graphs, breaks, recompiles = _counts(region.get("compiler"))
    if not region.get("compiler"):  # the calls say it when there is no compiler record
        recompiles = sum(1 for c in region["calls"] if c.get("event") == "recompiled")
    eager_calls = sum(1 for c in region["calls"] if c.get("ranCompiled") is False)
    if graphs is not None:
        parts.append(formats.plural(graphs, "graph"))
    if breaks:
        parts.append(formats.plural(breaks, "break"))
    if recompiles:
        parts.append(formats.plural(recompiles, "recompile"))
    if eager_calls and not lead:
        parts.append(f"{formats.plural(eager_calls, 'call')} ran eagerly")
    measured = any(m["status"] == "ok" and _speedup(m) is not None for m in region["measurements"])
    line = _with_verdict(
        verdict if measured else None, " · ".join(parts) or formats.plural(region["callCount"], "call")
    )
    return f"{lead} · {line}" if lead else line


def run_headline(report: Report) -> str:
    """The run in a few words, the answer first: a target's headline; a script's first region's, which region it is, and
    how many more."""
    error = report.get("error")
    if error and error.get("kind") == "cancelled":
        return "cancelled"
    if report["target"].get("kind") != "script":
        return target_headline(report)
    regions = report.get("regions") or []
    if not regions:
        if report["status"] == "error":
            return f"failed: {error['message'] if error else 'the script failed'}"
        return "no torch.compile region ran"
    first = regions[0]
    more = "" if len(regions) == 1 else f", +{formats.plural(len(regions) - 1, 'more region')}"
    return f"{region_headline(first)} — {first['id']} {first['name']}{more}"


def attach(report: Report) -> None:
    """Each region's headline, then the run's, from what the report holds now."""
    for region in report.get("regions") or []:
        region["headline"] = region_headline(region)
    report["headline"] = run_headline(report)
