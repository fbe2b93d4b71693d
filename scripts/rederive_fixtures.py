"""The fixture reports' derived answers, said by the current runner: each region's and the run's answer, recommendation
and headline (report/answer.py; a region's options as the runner records them now), from the numbers the fixture holds
(its measurements, in-situ steps, compiler records: as recorded); each compiler record's recompile sites, grouped
and said as the runner says them (compiler/explain.py, compiler/recompile_sites.py) from the recompiles it recorded, and its failed compiles that
were the recompile limit marked, its kernels' times per step from the profile it keeps, over the steps a compare counts (compiler/insight.limit_hits); a region's story
(report/story.py); its compiled frames' and kernels' names (report/compile_names.py); and a timing a recompile voided, said as explain.recompiled_while_timing says it; each recompiled call's failed guard as a sentence
(explain.guard_sentence); a mode timed before the fastest-rounds estimator, its speedup and range from its recorded
pairs of rounds as the runner estimates them now, and each measurement's break-even calls at the times its speedup is the ratio of, a range from fewer pairs than can be resampled reaching each pair's own ratio, and one widened below zero widened again as a factor; a region's in-situ step work set against its wall step and said (measure/step_work.py,
from each side's recorded work); an interleaved region's in-situ result from its recorded calls by today's rules
(measure/interleaved.py: the steps left out and why, per drawn step too; a torchrun job's from its ranks' calls), and
what each region compiled on each rank (ranks/merge.counted), and each rank's compile phases (ranks/merge.rank_phases);
each compile phase's short name and names told apart (compiler/phase_names.py); a
region's in-situ lines (report/in_situ_text.py, by answer.attach), and why it has no step speedup (its code from an older
runner's words); a call past the recompile limit said in plain words, its limit recorded; a torchrun rank's reason for no
replay, and a replay that ran no compiled code, in the words the runner writes now; a steady state pooled over several input signatures, of its most
frequent one's calls, and one begun at a call still warming up, from where the calls settle; a measured shape fix beside the recompiles it answers, in the answer's words; an attached rank's in-situ skip
as attach's, not --no-in-situ; a range measured on a CPU floored as the runner floors it now. A fixture recorded by an older runner otherwise keeps words the runner no
longer writes (a verdict issue 29 forbade), and every surface test would read them as the runner's.
Its parts beside it: rederive_numbers.py (a measurement's numbers), rederive_words.py (an older runner's words),
rederive_ranks.py (a torchrun job's per rank); this file, the compiler records and the order they run in.
test/python/test_fixture_verdicts.py fails when a fixture's text is not what this gives.
Run: python3 scripts/rederive_fixtures.py           (rewrites the fixtures that differ, names them)
     python3 scripts/rederive_fixtures.py --check   (names them, exit status 1 if any)"""

from __future__ import annotations

import copy
import json
import os
import sys
from typing import Any

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "native-runner"))
# its parts beside it (rederive_numbers, _ranks, _words), also where a test loads this file by its path
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rederive_numbers  # noqa: E402
import rederive_ranks  # noqa: E402
import rederive_words  # noqa: E402
from compile_lens_runner.compiler import artifacts, explain, made_for, phase_names, recompile_sites, torch_trace  # noqa: E402
from compile_lens_runner.compiler.insight import compiler_insight, limit_hits  # noqa: E402
from compile_lens_runner.measure import step_work  # noqa: E402
from compile_lens_runner.measure.profiling import PROFILED_STEPS  # noqa: E402
from compile_lens_runner.report import answer, compile_names  # noqa: E402
from compile_lens_runner.script import grad_switch, kernel_times, region_entry, warmup_shape  # noqa: E402
from compile_lens_runner.script.regions import _options  # noqa: E402

FIXTURES = os.path.join(ROOT, "test", "fixtures")


def fixture_reports() -> list[str]:
    """Every report fixture: report.json files, and the stub runner's *.report.json."""
    found = []
    for folder, _, names in os.walk(FIXTURES):
        found += [os.path.join(folder, n) for n in names if n == "report.json" or n.endswith(".report.json")]
    return sorted(found)


def _recompile_sites(compiler: dict[str, Any], on_cpu: bool) -> None:
    """The recorded recompiles said in the user's terms as the runner says them now (an older runner's words, or none,
    are not kept), on a CPU in its words (generated code, not kernels), and grouped per site (a report before schema
    1.4 has none), each site's ranks kept."""
    recompiles = compiler.get("recompiles") or []
    if not recompiles:
        return
    for recompile in recompiles:
        recompile["trigger"] = rederive_words.trigger(recompile.get("trigger"))
        recompile["explanation"] = explain.explain_recorded(recompile, bool(compiler.get("cudaGraphs")), on_cpu)
    made_for.fill(recompiles)
    ranks = {
        (json.dumps(s.get("location"), sort_keys=True), s["pattern"]): s["ranks"]
        for s in compiler.get("recompileSites") or []
        if "ranks" in s
    }
    sites = recompile_sites.group_sites(recompiles)
    for site in sites:
        known = ranks.get((json.dumps(site.get("location"), sort_keys=True), site["pattern"]))
        if known is not None:
            site["ranks"] = known
    compiler["recompileSites"] = sites


def _call_code(region: dict[str, Any], call: dict[str, Any]) -> str | None:
    """The user's line that made a recompiled call, from the region's recompile of its guard (explain.named_input)."""
    recompiles = (region.get("compiler") or {}).get("recompiles") or []
    ids = call.get("compileIds") or []
    found = next((r for r in recompiles if r["compileId"] in ids and r["reason"] == call["recompileReason"]), None)
    return (found.get("location") or {}).get("code") if found else None


def _phase_names(report: dict[str, Any]) -> None:
    """A compile phase recorded before schema 1.40 without its names told apart from its compile's others ("Inductor
    (backward)", the last its short name: "guards 209 ms", not its time alone: review 10H H2), or before 1.44 with its
    restarted traces counted ("(1 of 2)", not "(restart)") and its short name apart (`shortName`, no longer written):
    named as compiler/artifacts.phases names them (phase_names.py)."""
    records = [e.get("compiler") for e in [*report["modes"], *(report.get("regions") or [])]]
    records += [g["compiler"] for c in list(records) for g in (c or {}).get("rankPhases") or []]
    for compiler in (c for c in records if c and c.get("phases")):
        for phase in compiler["phases"]:
            phase.pop("shortName", None)
        phase_names.label_phases(compiler["phases"], report["environment"].get("device") == "cpu")


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


def _kernel_times(mode: dict[str, Any], here: str | None) -> None:
    """Each kernel's time per step from the mode's profile the fixture keeps, over the steps a trace compare counts
    (schema 1.43 kernelSteps: measure/compared_steps.py; before it, every profiled step, which read apart from the compare's:
    review 13O O2)."""
    compiler, trace = mode.get("compiler"), mode.get("trace")
    path = os.path.join(here, trace) if here and trace else None
    if compiler and compiler.get("kernels") and path and os.path.exists(path):
        artifacts.time_kernels(compiler, path, PROFILED_STEPS)


def rederive(report: dict[str, Any], folder: str | None = None, here: str | None = None) -> dict[str, Any]:
    """A copy of the report with its answers as the runner derives them now (document.write); folder: where it lies
    (a torchrun job's rank reports are read from it); here: where it lies, for its compiler log."""
    out = copy.deepcopy(report)
    _frames_from_log(out, here)
    rederive_ranks.rank_counts(out, folder)
    rederive_words.attached_skip(out)
    rederive_words.host_loads(out)
    rederive_words.divergence_fixes(out.get("divergence"))
    for mode in out["modes"]:
        rederive_numbers.fastest_rounds(mode)
        _kernel_times(mode, here)
        if (
            mode["mode"] == "script" and here
        ):  # the script's kernels, from its regions' profiles (script/kernel_times.py)
            kernel_times.time_script_kernels(mode.get("compiler"), out.get("regions") or [], here, PROFILED_STEPS)
    for entry in [*out["modes"], *(m for region in out.get("regions") or [] for m in region["measurements"])]:
        rederive_numbers.break_even(entry)
        rederive_numbers.few_pairs(entry)
        rederive_numbers.below_zero(entry)
    for entry in [*out["modes"], *(out.get("regions") or [])]:
        for discarded in entry.get("discardedTimings") or []:
            if discarded.get("invalidReason"):
                discarded["invalidReason"] = rederive_words.voided_timing(
                    discarded["invalidReason"],
                    entry.get("compiler"),
                    (out.get("environment") or {}).get("device") == "cpu",
                )
        if entry.get("compiler"):
            for phase in entry["compiler"].get("phases") or []:
                phase["name"] = rederive_words.OLD_PHASE_LABELS.get(phase["name"], phase["name"])
            _recompile_sites(entry["compiler"], (out.get("environment") or {}).get("device") == "cpu")
            limit_hits(entry["compiler"].get("compileFailures") or [])  # marked since schema 1.32
            for graph_break in entry["compiler"].get("graphBreaks") or []:
                rederive_words.break_explanation(graph_break)
            rederive_words.cuda_graph_fixes(entry["compiler"].get("cudaGraphs"))
            if any("nameText" in f for f in entry["compiler"].get("frames") or []):  # named since schema 1.28
                region = compile_names.region_name(entry) if "calls" in entry else None  # a region, not a mode
                compile_names.name_all(entry["compiler"], region)
    for region in out.get("regions") or []:
        rederive_words.no_compiled_fix(region)
        # a steady state pooled over several input signatures (before schema 1.31): its most frequent one's calls,
        # those that ran compiled code; one that began at a call still warming up: from where the calls settle
        steady = region_entry.steady_state(region["calls"])
        recorded = region.get("steadyState")
        settled = steady and recorded and steady["fromCall"] != recorded["fromCall"]
        if recorded and ("signature" in recorded or settled or (steady and steady.get("signatures", 1) > 1)):
            region["steadyState"] = steady
        for measurement in region["measurements"]:
            rederive_words.ran_eagerly(measurement)
        grad_switch.explain(region["calls"], region.get("compiler"))  # a grad-mode recompile in a loop's switch
        rederive_words.shape_fixes(region)
        region["replay"]["reason"] = rederive_words.replay_reason(region["replay"].get("reason"), region["name"])
        rederive_numbers.in_situ(region, folder)
        rederive_numbers.below_zero_in_situ(region)
        for call in region["calls"]:
            rederive_words.limit_fallback(call)
            if call.get("recompileReason"):
                call["recompileWhy"] = explain.guard_sentence(call["recompileReason"], _call_code(region, call))
        situ = region.get("inSitu")
        if situ and situ.get("method") == "interleaved" and situ.get("reason") and "noStep" not in situ:
            situ["noStep"] = rederive_words.no_step(situ["reason"])
        # older runners wrote only the arguments given; the current one says each (mode "default" when none was given)
        region["options"] = _options(region.get("options") or {})
        # each side's work as recorded, set against its wall and said as the runner does now
        if situ and situ.get("work"):
            sides = [
                {k: situ["work"][side][k] for k in step_work.SideWork.__annotations__} for side in ("eager", "compiled")
            ]
            situ["work"] = step_work.compare(sides[0], sides[1], situ.get("step"))
    # a region's explanation said from its calls (a grad switch) or source goes to the script's own insight too, whose
    # finding the editor shows at that line, as the run shares it (script/mode.py)
    script = next((m for m in out["modes"] if m["mode"] == "script"), None)
    if script is not None:
        warmup_shape.share(script.get("compiler"), out.get("regions") or [])
    # a torchrun job's rank 0 row is of the merged report's own regions (ranks/merge.py): their steady state as above
    regions = {region["id"]: region for region in out.get("regions") or []}
    for rank in out.get("ranks") or []:
        for entry in rank.get("regions") or [] if rank.get("report") == "report.json" else []:
            if entry["id"] in regions:
                entry["steadyState"] = regions[entry["id"]].get("steadyState")
    rederive_ranks.rank_phases(out, folder)
    _phase_names(out)
    rederive_numbers.process_floor(out)
    answer.attach(out)
    rederive_words.measured_fixes(out)
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
