"""The fixture reports' derived answers, said by the current runner: each region's and the run's answer, recommendation
and headline (report/answer.py; a region's options as the runner records them now), from the numbers the fixture holds
(its measurements, in-situ steps, compiler records: as recorded); each compiler record's recompile sites, grouped
and said as the runner says them (compiler/explain.py) from the recompiles it recorded, and its failed compiles that
were the recompile limit marked (compiler/insight.limit_hits); a region's story
(report/story.py); its compiled frames' and kernels' names (report/compile_names.py); and a timing a recompile voided, said as explain.recompiled_while_timing says it; each recompiled call's failed guard as a sentence
(explain.guard_sentence); a mode timed before the fastest-rounds estimator, its speedup and range from its recorded
pairs of rounds as the runner estimates them now, and each measurement's break-even calls at the times its speedup is the ratio of, a range from fewer pairs than can be resampled reaching each pair's own ratio, and one widened below zero widened again as a factor; a region's in-situ step work set against its wall step and said (measure/step_work.py,
from each side's recorded work); an interleaved region's in-situ result from its recorded calls by today's rules
(measure/interleaved.py: the steps left out and why, per drawn step too; a torchrun job's from its ranks' calls), and
what each region compiled on each rank (ranks/merge.counted), and each rank's compile phases (ranks/merge.rank_phases);
each compile phase's short name (compiler/artifacts.SHORT_NAMES); a
region's in-situ lines (report/in_situ_text.py, by answer.attach), and why it has no step speedup (its code from an older
runner's words); a call past the recompile limit said in plain words, its limit recorded; a torchrun rank's reason for no
replay, and a replay that ran no compiled code, in the words the runner writes now; a steady state pooled over several input signatures, of its most
frequent one's calls, and one begun at a call still warming up, from where the calls settle; a measured shape fix beside the recompiles it answers, in the answer's words; an attached rank's in-situ skip
as attach's, not --no-in-situ; a range measured on a CPU floored as the runner floors it now. A fixture recorded by an older runner otherwise keeps words the runner no
longer writes (a verdict issue 29 forbade), and every surface test would read them as the runner's.
test/python/test_fixture_verdicts.py fails when a fixture's text is not what this gives.
Run: python3 scripts/rederive_fixtures.py           (rewrites the fixtures that differ, names them)
     python3 scripts/rederive_fixtures.py --check   (names them, exit status 1 if any)"""

from __future__ import annotations

import copy
import json
import os
import re
import sys
from typing import Any

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "native-runner"))
from compile_lens_runner.compiler import artifacts, break_patterns, explain, made_for, torch_trace  # noqa: E402
from compile_lens_runner.compiler.insight import compiler_insight, limit_hits  # noqa: E402
from compile_lens_runner.measure import estimator, host, interleaved, ranges, speedups, step_work, timing  # noqa: E402
from compile_lens_runner.ranks import merge  # noqa: E402
from compile_lens_runner.report import answer, compile_names, reason_text, shape_text  # noqa: E402
from compile_lens_runner.script import in_situ_report, region_entry, replay, shape_fix  # noqa: E402
from compile_lens_runner.script.regions import _options  # noqa: E402
from compile_lens_runner.script.shape_fix_apply import WARMUP, ShapeFixPlan  # noqa: E402

FIXTURES = os.path.join(ROOT, "test", "fixtures")


def fixture_reports() -> list[str]:
    """Every report fixture: report.json files, and the stub runner's *.report.json."""
    found = []
    for folder, _, names in os.walk(FIXTURES):
        found += [os.path.join(folder, n) for n in names if n == "report.json" or n.endswith(".report.json")]
    return sorted(found)


def _recompile_sites(compiler: dict[str, Any]) -> None:
    """The recorded recompiles said in the user's terms as the runner says them now (an older runner's words, or none,
    are not kept), and grouped per site (a report before schema 1.4 has none), each site's ranks kept."""
    recompiles = compiler.get("recompiles") or []
    if not recompiles:
        return
    for recompile in recompiles:
        recompile["explanation"] = explain.explain_recorded(recompile, bool(compiler.get("cudaGraphs")))
    made_for.fill(recompiles)
    ranks = {
        (json.dumps(s.get("location"), sort_keys=True), s["pattern"]): s["ranks"]
        for s in compiler.get("recompileSites") or []
        if "ranks" in s
    }
    sites = explain.group_sites(recompiles)
    for site in sites:
        known = ranks.get((json.dumps(site.get("location"), sort_keys=True), site["pattern"]))
        if known is not None:
            site["ranks"] = known
    compiler["recompileSites"] = sites


# a timing voided by a recompile, as runners before schema 1.22 said it: with Dynamo's guard text and compile id
_OLD_VOIDED = re.compile(
    r"^(\d+) compile\(s\) ran inside the timed region(?: \(guard failure: (.*?)\))?: (the timed calls .*|a timed call .*)$",
    re.S,
)


# as runners from schema 1.22 to 1.29 said it: the failed guards as sentences in parentheses, the inputs nested in them
_VOIDED_IN_PARENTHESES = re.compile(
    r"^(\d+) compiles? ran while timing(?: \((.*)\))?: (the timed calls \(.*|a timed call took a path warmup .*)$",
    re.S,
)
# their cause: the inputs each side ran on (the warm-up's end where a sentence or the end follows), or the path
_OLD_CAUSE = re.compile(
    r"^(?:the timed calls \((.*)\) did not match warmup \((.*?)\)(?=\.$|\. |$)|a timed call took a path warmup had "
    r"not compiled)(.*)$",
    re.S,
)


def _cause(text: str) -> str:
    old = _OLD_CAUSE.match(text)
    if not old:
        return text
    return (explain.timing_cause(old[1], old[2]) if old[1] is not None else explain.timing_cause("", "")) + old[3]


# as the runner says it from schema 1.30: the failed guards, the inputs each side ran on, then what changed and its fix
_VOIDED = re.compile(
    r"^(.*), so (\d+) compiles? ran while timing: warm-up ran on (.*?), the timed calls on (.*?)(?:\. (.*)|\.)$", re.S
)


def _voided_timing(text: str, compiler: dict[str, Any] | None) -> str:
    """A voided timing's reason as the runner says it now (explain.recompiled_while_timing), from an older one's; what
    changed, from the first recompile that ran while timing (target/mode.py), where the reason said it."""
    said = _VOIDED.match(text)
    if said:
        cause = explain.timing_cause(said[4], said[3])
        timed = [r for r in (compiler or {}).get("recompiles") or [] if r.get("inTimedRegion")]
        cuda_graphs = bool((compiler or {}).get("cudaGraphs"))
        if (
            said[5]
            and timed
            and (found := explain.explain(timed[0]["reason"], timed[0]["allReasons"][0], None, cuda_graphs))
        ):
            cause += f". {explain.voided_tail(timed[0]['reason'], found)}"
        if timed:  # each guard that failed while timing, in today's words
            return explain.recompiled_while_timing(int(said[2]), [r["reason"] for r in timed], cause)
        return explain.voided_timing(int(said[2]), said[1].split("; "), cause)
    old = _OLD_VOIDED.match(text)
    if old:
        guards = re.split(r"; (?=\d+/\d+: )", old[2]) if old[2] else []
        return explain.recompiled_while_timing(int(old[1]), guards, _cause(old[3]))
    said = _VOIDED_IN_PARENTHESES.match(text)
    if not said:
        return text
    return explain.voided_timing(int(said[1]), said[2].split("; ") if said[2] else [], _cause(said[3]))


def _fastest_rounds(mode: dict[str, Any]) -> None:
    """A mode timed before the fastest-rounds estimator (no `speedupEstimator`) had for its speedup the median of its
    per-pair ratios, which the per-call times shown beside it do not give (fused-cpu: 0.53× beside 9.34 ms against
    eager's 6.88 ms, 0.74×): its pairs of rounds estimated as the runner estimates them now (timing.put_paired)."""
    eager, compiled = mode.get("eagerTiming") or {}, mode.get("timing") or {}
    if mode.get("speedupEstimator") or mode.get("speedup") is None or not eager.get("rounds"):
        return
    pairs = list(zip(eager["rounds"], compiled["rounds"], strict=True))
    est = estimator.estimate(pairs)
    eager["estimateMs"], compiled["estimateMs"] = est.eager_ms, est.compiled_ms
    mode.update(
        {
            "speedup": round(est.speedup, 4),
            "speedupEstimator": estimator.ESTIMATOR,
            "speedupInterval": timing.interval(est),
            "speedupMedianRatio": round(est.median_ratio, 4),
        }
    )


def _break_even(entry: dict[str, Any]) -> None:
    """A measurement's break-even calls at the per-call times its speedup is the ratio of (eager's fastest round of the
    run where the speedup took it: runEager), as the runner records it: one left from an older estimator disagreed
    with them (graphbreak-cpu: 537 calls beside 8.25 vs 6.37 ms/call, which give 1,835)."""
    eager, compiled = entry.get("eagerTiming") or {}, entry.get("timing") or {}
    if entry.get("speedup") is None or "estimateMs" not in eager or "estimateMs" not in compiled:
        return
    shift = (entry.get("speedupInterval") or {}).get("runEager")
    eager_ms = shift["bestEagerMs"] if shift else eager["estimateMs"]
    entry["breakEvenCalls"] = speedups.break_even_calls(entry.get("compileSeconds"), eager_ms, compiled["estimateMs"])


def _few_pairs(entry: dict[str, Any]) -> None:
    """A range from fewer than ranges.MIN_RESAMPLED pairs of rounds reaching every pair's own ratio, as the runner's
    does now (ranges.of_pairs): an older one was the floor alone and left out a pair (graphbreak-cpu: 1.22–1.37× of
    pairs at 1.35, 1.30 and 1.05×)."""
    interval, eager, compiled = entry.get("speedupInterval"), entry.get("eagerTiming") or {}, entry.get("timing") or {}
    rounds = list(zip(eager.get("rounds") or [], compiled.get("rounds") or [], strict=True))
    if not interval or not rounds or len(rounds) >= ranges.MIN_RESAMPLED:
        return
    ratios = [e / c for e, c in rounds]
    interval.update({"low": round(min(interval["low"], *ratios), 4), "high": round(max(interval["high"], *ratios), 4)})


def _below_zero(entry: dict[str, Any]) -> None:
    """A range an older runner widened as a difference, to a low at or below zero (explore-cpu: 10.33× with a low of
    −3.99), from its pairs of rounds as the runner widens it now (ranges.next_run: as a factor)."""
    interval, eager, compiled = entry.get("speedupInterval"), entry.get("eagerTiming") or {}, entry.get("timing") or {}
    if not interval or interval["low"] > 0 or not eager.get("rounds"):
        return
    est = estimator.estimate(list(zip(eager["rounds"], compiled["rounds"], strict=True)))
    interval.update({k: v for k, v in timing.interval(est).items() if k in ("low", "high")})


def _below_zero_in_situ(region: dict[str, Any]) -> None:
    """The same for an interleaved in-situ step or call speedup (serve_script-cpu: 0.94× with a low of −0.35), from
    the region's recorded calls as the runner compares them now, where that gives the recorded speedup."""
    situ = region.get("inSitu") or {}
    said = [k for k in ("step", "call") if situ.get(k) and situ[k]["low"] <= 0]
    if not said or situ.get("method") != interleaved.METHOD:
        return
    fresh = interleaved.compare(region["calls"], situ["stepsMade"], on_cpu=region.get("device") == "cpu")
    for k in said:
        if fresh.get(k) and fresh[k]["speedup"] == situ[k]["speedup"]:
            situ[k].update({"low": fresh[k]["low"], "high": fresh[k]["high"]})


def _floor(entry: dict[str, Any], on_cpu: bool) -> float:
    if on_cpu:
        return estimator.cpu_floor_pct()
    eager, compiled = entry.get("eagerTiming") or {}, entry["timing"]
    ms = [t.get("estimateMs", t.get("medianMs")) for t in (eager, compiled)]
    return estimator.gpu_floor_pct(*ms) if all(isinstance(x, float) for x in ms) else 0.0


def _process_floor(report: dict[str, Any]) -> None:
    """A target's or replay's range at least the floor the runner gives it now (speedups.adjust): on a CPU
    estimator.cpu_floor_pct, on a GPU estimator.gpu_floor_pct; in-situ steps on a CPU cpu_floor_pct
    (interleaved.compare). An older one held its own process only (gated_service.py on one Xeon: 1.38× and 1.56× in two
    processes; the default sample on one H200: 9.03× and 9.82×; neither in the other's range)."""
    device = report.get("environment", {}).get("device")
    on_cpu = device == "cpu"
    for mode in report["modes"] if device else []:
        if mode.get("speedupInterval") and mode.get("speedup") is not None and mode.get("timing"):
            speedups.widen_to_floor(mode, _floor(mode, on_cpu))
    for region in report.get("regions") or []:
        region_cpu = region.get("device", device) == "cpu"
        for m in region["measurements"]:
            if m.get("speedupInterval") and m.get("speedup") is not None and m.get("timing"):
                speedups.widen_to_floor(m, _floor(m, region_cpu))
        if not region_cpu:
            continue
        situ = region.get("inSitu") or {}
        for number in (situ.get("step"), situ.get("call")):  # an older method's (separate runs) too
            cpu = estimator.cpu_floor_pct()
            if number and "low" in number and number.get("floorPct", 0.0) < cpu:
                low, high = ranges.floored(number["speedup"], number["low"], number["high"], cpu)
                number.update({"low": round(low, 4), "high": round(high, 4), "floorPct": cpu})


# why an interleaved measurement had no step speedup, as runners before schema 1.25 said it (no code beside it)
_OLD_NO_STEP: list[tuple[re.Pattern[str], Any]] = [
    (re.compile(r"^no steady (eager|compiled) step\b"), lambda m: {"code": "no-steady-side", "side": m[1]}),
    (
        re.compile(
            r"^the script's (\d+) call\(s\) of it all came before the interleaving began \(it starts after (\d+) "
        ),
        lambda m: {"code": "before-interleaving", "calls": int(m[1]), "quietCalls": int(m[2])},
    ),
    (re.compile(r"^no input signature had steady steps both ways"), lambda m: {"code": "no-shared-signature"}),
]


def _no_step(reason: str) -> dict[str, Any] | None:
    """An older interleaved measurement's reason as the code the runner records now (measure/interleaved.py)."""
    for pattern, code in _OLD_NO_STEP:
        if m := pattern.match(reason):
            return code(m)  # type: ignore[no-any-return]
    return None


# a call past the recompile limit, as runners before schema 1.25 said why it ran eagerly (PyTorch's config name as ours)
_OLD_LIMIT = re.compile(
    r"^(?:(\S+) hit torch\._dynamo\.config\.recompile_limit|recompile_limit \(\d+\) reached for (\S+?):)"
)


def _call_code(region: dict[str, Any], call: dict[str, Any]) -> str | None:
    """The user's line that made a recompiled call, from the region's recompile of its guard (explain.named_input)."""
    recompiles = (region.get("compiler") or {}).get("recompiles") or []
    ids = call.get("compileIds") or []
    found = next((r for r in recompiles if r["compileId"] in ids and r["reason"] == call["recompileReason"]), None)
    return (found.get("location") or {}).get("code") if found else None


def _limit_fallback(call: dict[str, Any]) -> None:
    """An older runner's reason for a call past the recompile limit, in the words and with the limit recorded now."""
    old = _OLD_LIMIT.match(call.get("fallbackReason") or "")
    limit = explain.recompile_limit(call.get("fallbackReason") or "")
    if old and limit is not None:
        call["fallbackReason"] = shape_text.recompile_limit_reached(old[1] or old[2], limit)
        call["recompileLimit"] = limit


def _break_explanation(graph_break: dict[str, Any]) -> None:
    """A graph break in the runner's sentence for it (break_patterns.explain_recorded), one an older runner recorded
    without it included, so no surface shows PyTorch's message as ours. The frame Dynamo stopped in (`brokeAt`) is read
    from the log's "Graph break in user code at" line, which such a report did not keep: null."""
    graph_break["explanation"] = break_patterns.explain_recorded(graph_break)
    graph_break.setdefault("brokeAt", None)


# a contended host's samples, its load average and its fix, as older runners said them
_OLD_SHORT_OF_CPUS = re.compile(r"\((\d+) of (\d+) samples found fewer CPUs free than torch's (\d+) threads?")
_LOAD_AVERAGE = re.compile(
    r", load average (?:about [\d.]+ over the run|(?:rose|fell) from [\d.]+ to [\d.]+|\d+\.\d+(?: to \d+\.\d+)?)"
)
_OLD_QUIETER = "profile when the host is quieter: other processes kept every CPU busy"
_OLD_SLICED = "every round was time-sliced with them"


def _host_loads(value: Any) -> None:
    """Each contended measurement's host load (`hostLoad`, wherever it is kept) said as measure/host.py says it now."""
    if isinstance(value, list):
        for item in value:
            _host_loads(item)
    elif isinstance(value, dict):
        load = value.get("hostLoad")
        if isinstance(load, dict) and load.get("reason"):
            reason = _OLD_SHORT_OF_CPUS.sub(
                lambda m: "(" + host.short_of_cpus(int(m[3]), int(m[1]), int(m[2])), load["reason"]
            )
            reason = reason.replace(_OLD_SLICED, host.SHARED_EVERY_RUN)
            load["reason"] = _LOAD_AVERAGE.sub(lambda _: host.load_words(load.get("loadAverage")), reason)
            if load.get("fix") == _OLD_QUIETER:
                load["fix"] = host.QUIETER
        for item in value.values():
            _host_loads(item)


def _attached_skip(report: dict[str, Any]) -> None:
    """A rank of an attached job (its rank facts name its host: ranks/script.py) recorded, before schema 1.30, no
    in-situ run as if its user had passed --no-in-situ: said as the runner records it now (answer.ATTACHED)."""
    situ = report.get("inSitu")
    if "host" in (report.get("rank") or {}) and situ and "--no-in-situ" in (situ.get("skipped") or ""):
        situ["skipped"] = answer.ATTACHED


# a torchrun rank's reason for no replay, as runners of schema 1.30 and before said it (four clauses, no action)
_OLD_RANK_NO_REPLAY = (
    "a rank of a torchrun job: replayed alone, its collectives would wait for the other ranks (the script's own calls "
    "are profiled instead)"
)


# a Python attribute a call changed, as runners of schema 1.30 and before said its values (script/capture.py)
_OLD_ATTRIBUTE = re.compile(r"^(it changes the Python attribute \S+ \(.*?) -> ")


def _replay_reason(reason: str | None, region: str) -> str | None:
    """Why a region was not replayed, in the words the runner writes now (its module's attribute as `self`'s, as
    Dynamo's guards name it, not by the module's class: review 10 F7)."""
    if reason == _OLD_RANK_NO_REPLAY:
        return reason_text.TORCHRUN_RANK
    said = _OLD_ATTRIBUTE.sub(r"\1 → ", reason) if reason else reason
    return said.replace(f"Python attribute {region}.", "Python attribute self.") if said else said


# a replay that ran no compiled code, as runners of schema 1.30 and before said it (Dynamo's terms, no action)
_OLD_RAN_EAGERLY = re.compile(
    r"^During the replay Dynamo ran the region's original code eagerly (\d+) times? \(no compiled graph matched and "
    r"none was compiled: the recompile limit, or a skipped frame\), so its timing is eager code$"
    r"|^no compiled code ran in the replay \(Dynamo ran the region (?:as written|'s original code eagerly) (\d+) "
    r"times?\), so it timed eager against eager$"
)
# a shape fix the profile's budget left out, as runners before s26 said how to measure it (a CLI flag, in an editor)
_OLD_OVER_BUDGET = re.compile(
    r"^measuring it runs the script (?:once|(\d+)) more(?: times)? \(about (\d+) s\), which would take the profile "
    r"past ([\d.]+)× the script's own time; profile again with --shape-fix on to measure it$"
)


# a warm-up fix as a runner before session 29 named it: dimension 0 is not always the batch (review 8 A14)
_OLD_WARMUP_FIX = re.compile(r"^a warm-up at batch (\d+)$")


def _warmup_plan(real_size: int) -> ShapeFixPlan:
    return {"kind": WARMUP, "region": "", "file": "", "line": 0, "realSize": real_size}  # text() reads kind, realSize


def _shape_fixes(region: dict[str, Any]) -> None:
    """A shape fix's recorded words said as shape_fix.text says them now: its over-budget reason, a warm-up's size."""
    for fix in (region.get("shapes") or {}).get("fixes") or []:
        if old := _OLD_OVER_BUDGET.match(fix.get("why") or ""):
            fix["why"] = shape_text.shape_fix_over_budget(int(old[1] or 1), float(old[2]), float(old[3]))
        if warmup := _OLD_WARMUP_FIX.match(fix.get("fix") or ""):
            fix["fix"] = shape_fix.text(_warmup_plan(int(warmup[1])))


def _ran_eagerly(measurement: dict[str, Any]) -> None:
    error = measurement.get("error") or {}
    old = _OLD_RAN_EAGERLY.match(error.get("message") or "")
    if old:
        error.update({"message": replay.ran_eagerly(int(old[1] or old[2])), "fix": replay.RAN_EAGERLY_FIX})


def _measured_fixes(report: dict[str, Any]) -> None:
    """A measured shape fix beside the recompiles it answers (the Problems entry's fix, the Quick Fix's title), in the
    words of the region's answer now (shape_fix.annotate, from its shape-fix reason): the recorded words dropped. A
    report whose explanations carry none (a runner before the annotation) is left as recorded."""
    insights = [e.get("compiler") for e in [*report["modes"], *(report.get("regions") or [])]]
    if " Measured on this script's own calls with " not in json.dumps(insights):
        return
    for insight in (i for i in insights if i):
        for item in [*(insight.get("recompileSites") or []), *(insight.get("recompiles") or [])]:
            explanation = item.get("explanation")
            if not explanation:
                continue
            explanation["fix"] = explanation["fix"].split(" Measured on this script's own calls with ")[0]
            for quick in [explanation.get("quickFix"), *(explanation.get("quickFixes") or [])]:
                if quick:
                    quick["title"] = re.sub(r" \(measured: .*\)$", "", quick["title"])
    script = report["modes"][0].get("compiler") if report["target"].get("kind") == "script" else None
    for region in report.get("regions") or []:
        shape_fix.annotate(region, script)


def _in_situ(region: dict[str, Any], folder: str | None) -> None:
    """An interleaved region's in-situ result as today's rules give it from its recorded calls (interleaved.compare:
    the steps left out and why, per step too, the numbers); a torchrun job's from each rank's recorded calls, as
    ranks/merge.py combines them (the rank reports beside the job's, under `folder`)."""
    situ = region.get("inSitu")
    if not situ or situ.get("method") != "interleaved":
        return
    if not situ.get("slowestRank"):
        region["inSitu"] = {**situ, **in_situ_report.compared(region, region["calls"])}
        return
    ranks = [(rank, region) for rank in range(len(situ.get("ranks") or []))]
    stored = [os.path.join(folder or "", "ranks", f"rank{rank}", "report.json") for rank, _ in ranks[1:]]
    if folder is not None and all(os.path.exists(path) for path in stored):
        for path, (rank, _) in zip(stored, ranks[1:], strict=True):
            with open(path, encoding="utf-8") as f:
                ranks[rank] = (rank, next(r for r in json.load(f).get("regions") or [] if r["id"] == region["id"]))
        in_situ_report.slowest_rank(region, ranks)
    elif len(ranks) == 2:
        _two_ranks_from_series(region)


def _two_ranks_from_series(region: dict[str, Any]) -> None:
    """A two-rank job recorded without its other rank's report: the slowest calls rebuilt from the headline rank's
    calls and the series' (slowest) times, and each step's rank told apart by whether its time is the headline's."""
    situ = region["inSitu"]
    times = {int(p[3]): p for side in ("compiled", "eager") for p in situ["series"][side]}
    merged = [
        {**c, "ms": times[c["index"]][0], "stepMs": times[c["index"]][1], "stepCompiles": times[c["index"]][2]}
        for c in region["calls"]
        if c["index"] in times
    ]
    result = in_situ_report.compared(region, merged)
    own = {c["index"]: c for c in region["calls"]}
    for point in result.get("stepPoints") or []:
        call, time = own[point["index"]], times[point["index"]]
        point["rank"] = 0 if call.get("stepMs") == time[1] else 1
        compiled = [0] if call.get("stepCompiles") else []
        if time[2] > (call.get("stepCompiles") or 0):  # the merged step's compiles are the rank that compiled most's
            compiled.append(1)
        if compiled:
            point["compiledOn"] = compiled
    region["inSitu"] = {**situ, **result}


def _rank_counts(report: dict[str, Any], folder: str | None) -> None:
    """A torchrun job recorded before schema 1.35: what each region compiled on each rank (its rank row's `regions`)
    and each merged graph break's count on each rank (`rankCounts`), counted as ranks/merge.py counts them now, from
    the rank's own report beside the job's; the headline rank's (its report is the job's) from the merged records'
    items it had, and its own row counted so too (a runner before breaks were counted as they add up wrote 2 there
    for a region that says 3). A rank whose report was not kept keeps what it recorded, and is counted on no break."""
    script = next((m.get("compiler") for m in report["modes"] if m["mode"] == "script"), None)
    merged = {"script": script, **{r["id"]: r.get("compiler") for r in report.get("regions") or []}}
    own_by_rank: dict[int, dict[str, Any]] = {}
    for entry in report.get("ranks") or []:
        path, rank = entry.get("report"), entry["rank"]
        if path == "report.json":
            own = {key: merge.headline_rank_record(c, rank) for key, c in merged.items() if c}
            if "script" in own:
                entry["graphCount"], entry["graphBreaks"], entry["recompiles"] = merge.counted(own["script"])
        elif path and folder and os.path.exists(os.path.join(folder, path)):
            with open(os.path.join(folder, path), encoding="utf-8") as f:
                stored = json.load(f)
            own = {m["mode"]: m["compiler"] for m in stored["modes"] if m["mode"] == "script" and m.get("compiler")}
            own.update({r["id"]: r["compiler"] for r in stored.get("regions") or [] if r.get("compiler")})
        else:
            continue
        own_by_rank[rank] = own
        for region in entry.get("regions") or []:
            if region["id"] in own and "graphCount" not in region:
                region["graphCount"], region["graphBreaks"], region["recompiles"] = merge.counted(own[region["id"]])
    for key, compiler in merged.items():
        breaks = (compiler or {}).get("graphBreaks") or []
        if own_by_rank and any("rankCounts" not in b for b in breaks):
            merge.rank_counts(breaks, [(r, own[key]["graphBreaks"]) for r, own in own_by_rank.items() if key in own])


# a compile phase as older runners labelled it (compiler/phase_labels.json): one phase, one name (review 10 D12)
_OLD_PHASE_LABELS = {"cache hit: load": "load from cache"}


def _rank_phases(report: dict[str, Any], folder: str | None) -> None:
    """A torchrun job recorded before schema 1.38: each rank's compile phases, ranks alike one group, as ranks/merge.py
    groups them now, from each rank's own report beside the job's (the headline rank's: the merged record's own
    phases, its breaks and recompiles those it had). Where a rank's report was not kept, what was recorded stays."""
    script = next((m.get("compiler") for m in report["modes"] if m["mode"] == "script"), None)
    entries = report.get("ranks") or []
    if script is None or len(entries) < 2 or folder is None:
        return
    insights, regions = [], {}
    for entry in entries:
        path, rank = entry.get("report"), entry["rank"]
        if path == "report.json":
            insights.append((rank, merge.headline_rank_record(script, rank)))
            regions[rank] = report.get("regions") or []
            continue
        if not path or not os.path.exists(os.path.join(folder, path)):
            return
        with open(os.path.join(folder, path), encoding="utf-8") as f:
            stored = json.load(f)
        own = next((m.get("compiler") for m in stored["modes"] if m["mode"] == "script"), None)
        if own:
            insights.append((rank, own))
        regions[rank] = stored.get("regions") or []
    script["rankPhases"] = merge.rank_phases(insights, regions)


def _short_names(report: dict[str, Any]) -> None:
    """A compile phase recorded before schema 1.38 without the short name its bar is labelled by where its name has no
    room (compiler/artifacts.SHORT_NAMES): "guards 209 ms", not its time alone (review 10H H2)."""
    records = [e.get("compiler") for e in [*report["modes"], *(report.get("regions") or [])]]
    records += [g["compiler"] for c in list(records) for g in (c or {}).get("rankPhases") or []]
    for phase in (p for c in records for p in (c or {}).get("phases") or []):
        phase.pop("shortName", None)
        if phase["name"] in artifacts.SHORT_NAMES and "cache" not in phase:
            phase["shortName"] = artifacts.SHORT_NAMES[phase["name"]]


def _frames_from_log(report: dict[str, Any], here: str | None) -> None:
    """A compiled frame outside the user's files, recorded before schema 1.31 without where it is (`library`), or
    before 1.35 without the user's line whose call led there (`calledFrom`): read from the compiler log the report
    keeps (here: its folder) as the runner reads it now (compiler/insight.py), so that it is named as a current report
    names it ("the call at ddp_train.py:78 (helper in Python's contextlib.py)", not "helper (not in your files)":
    review 6B, two wordings of one row); and each compile's graph ops (schema 1.36), which say a compile that made no
    graph."""
    entries = [*report["modes"], *(report.get("regions") or [])]
    frames = [f for e in entries for f in (e.get("compiler") or {}).get("frames") or []]
    bare = [
        f for f in frames if ("library" not in f or "calledFrom" not in f) and "location" in f and f["location"] is None
    ]
    logs = [log for e in entries if (log := (e.get("compiler") or {}).get("torchTraceLog"))]
    if not logs or here is None or not os.path.exists(os.path.join(here, logs[0])):
        return
    with open(os.path.join(here, logs[0]), encoding="utf-8") as f:
        read = compiler_insight(torch_trace.parse(f.read()), lambda record: None, cudagraphs=False)
    # each compile's graph ops (schema 1.36), where the log recorded them: 0, a compile that made no graph
    ops = {f["compileId"]: f["graphOps"] for f in read["frames"] if "graphOps" in f}
    for frame in frames:
        if frame["compileId"] in ops:
            frame["graphOps"] = ops[frame["compileId"]]
    where = {f["compileId"]: f for f in read["frames"] if f.get("library")}
    for frame in bare:
        if frame["compileId"] in where:
            found = where[frame["compileId"]]
            frame["library"] = found["library"]
            if "calledFrom" in found:
                frame["calledFrom"] = found["calledFrom"]


def rederive(report: dict[str, Any], folder: str | None = None, here: str | None = None) -> dict[str, Any]:
    """A copy of the report with its answers as the runner derives them now (document.write); folder: where it lies
    (a torchrun job's rank reports are read from it); here: where it lies, for its compiler log."""
    out = copy.deepcopy(report)
    _frames_from_log(out, here)
    _rank_counts(out, folder)
    _attached_skip(out)
    _host_loads(out)
    for mode in out["modes"]:
        _fastest_rounds(mode)
    for entry in [*out["modes"], *(m for region in out.get("regions") or [] for m in region["measurements"])]:
        _break_even(entry)
        _few_pairs(entry)
        _below_zero(entry)
    for entry in [*out["modes"], *(out.get("regions") or [])]:
        for discarded in entry.get("discardedTimings") or []:
            if discarded.get("invalidReason"):
                discarded["invalidReason"] = _voided_timing(discarded["invalidReason"], entry.get("compiler"))
        if entry.get("compiler"):
            for phase in entry["compiler"].get("phases") or []:
                phase["name"] = _OLD_PHASE_LABELS.get(phase["name"], phase["name"])
            _recompile_sites(entry["compiler"])
            limit_hits(entry["compiler"].get("compileFailures") or [])  # marked since schema 1.32
            for graph_break in entry["compiler"].get("graphBreaks") or []:
                _break_explanation(graph_break)
            if any("nameText" in f for f in entry["compiler"].get("frames") or []):  # named since schema 1.28
                region = compile_names.region_name(entry) if "calls" in entry else None  # a region, not a mode
                compile_names.name_all(entry["compiler"], region)
    for region in out.get("regions") or []:
        # a steady state pooled over several input signatures (before schema 1.31): its most frequent one's calls,
        # those that ran compiled code; one that began at a call still warming up: from where the calls settle
        steady = region_entry.steady_state(region["calls"])
        recorded = region.get("steadyState")
        settled = steady and recorded and steady["fromCall"] != recorded["fromCall"]
        if recorded and ("signature" in recorded or settled or (steady and steady.get("signatures", 1) > 1)):
            region["steadyState"] = steady
        for measurement in region["measurements"]:
            _ran_eagerly(measurement)
        _shape_fixes(region)
        region["replay"]["reason"] = _replay_reason(region["replay"].get("reason"), region["name"])
        _in_situ(region, folder)
        _below_zero_in_situ(region)
        for call in region["calls"]:
            _limit_fallback(call)
            if call.get("recompileReason"):
                call["recompileWhy"] = explain.guard_sentence(call["recompileReason"], _call_code(region, call))
        situ = region.get("inSitu")
        if situ and situ.get("method") == "interleaved" and situ.get("reason") and "noStep" not in situ:
            situ["noStep"] = _no_step(situ["reason"])
        # older runners wrote only the arguments given; the current one says each (mode "default" when none was given)
        region["options"] = _options(region.get("options") or {})
        # each side's work as recorded, set against its wall and said as the runner does now
        if situ and situ.get("work"):
            sides = [
                {k: situ["work"][side][k] for k in step_work.SideWork.__annotations__} for side in ("eager", "compiled")
            ]
            situ["work"] = step_work.compare(sides[0], sides[1], situ.get("step"))
    # a torchrun job's rank 0 row is of the merged report's own regions (ranks/merge.py): their steady state as above
    regions = {region["id"]: region for region in out.get("regions") or []}
    for rank in out.get("ranks") or []:
        for entry in rank.get("regions") or [] if rank.get("report") == "report.json" else []:
            if entry["id"] in regions:
                entry["steadyState"] = regions[entry["id"]].get("steadyState")
    _rank_phases(out, folder)
    _short_names(out)
    _process_floor(out)
    answer.attach(out)
    _measured_fixes(out)
    return out


def rederive_at(path: str, report: dict[str, Any]) -> dict[str, Any]:
    """The report at path rederived: a torchrun job's with the rank reports beside it, any with its compiler log."""
    here = os.path.dirname(path)
    return rederive(report, here if report.get("ranks") else None, here)


def main(argv: list[str]) -> int:
    check = "--check" in argv
    stale = []
    for path in fixture_reports():
        with open(path, encoding="utf-8") as f:
            text = f.read()
        report = json.loads(text)
        fresh = rederive_at(path, report)
        if fresh == report:
            continue
        stale.append(os.path.relpath(path, ROOT))
        if not check:
            # as the file was written (document.write: indent 1), so a rederived fixture's diff is its words only
            second = text.split("\n", 2)[1]
            with open(path, "w", encoding="utf-8") as f:
                json.dump(fresh, f, indent=len(second) - len(second.lstrip()), ensure_ascii=text.isascii())
    print("\n".join(stale) or "every fixture report says what the runner derives")
    return 1 if check and stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
