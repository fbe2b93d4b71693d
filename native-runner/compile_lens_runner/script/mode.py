"""--script: runs an unmodified user script (or a notebook's code cells) and reports every torch.compile in it.

The "script" mode entry carries the compiler's insight for the whole script (TORCH_TRACE, set by the supervisor
before torch is imported: every compile, break and recompile at the user's lines). `report["regions"]` adds each
callable torch.compile returned (regions.py): its calls as the script made them, then, once the script drops it
(between the script's lines), after the script ends, or once a region reached `--calls N`, eager against compiled
timed on the script's own inputs (replay.py).
On a rank of a torchrun job (`--nproc-per-node N`) a RankObserver (ranks/script.py) takes over: nothing is
replayed, the rank profiles a window of the script's own calls instead, and writes what it has if it is stopped.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import runpy
import sys
import time
from collections.abc import Callable, Iterator
from typing import Any, Protocol, TypedDict

from ..compiler import artifacts, compiled_runs
from ..compiler import torch_trace as tt
from ..compiler.cudagraphs import used as cuda_graphs_used
from ..compiler.failure import compile_failure, headline
from ..compiler.insight import compiler_insight
from ..compiler.user_code import innermost_user, parse_frames
from ..errors import RunnerError, classify
from ..measure import interleaved, paired, speedups
from ..measure.profiling import LAUNCH_BOUND_IDLE_PCT, PROFILED_STEPS
from ..report import answer
from ..run import Run
from ..shapes.common import RunError
from ..shapes.mode import CUDAGRAPH_MODES, ModeResult, RegionMeasurement
from ..shapes.region import Region as RegionEntry
from ..shapes.report import Eager
from . import (
    in_situ_report,
    interleave,
    kernel_times,
    mark_dynamic_edit,
    region_entry,
    shape_fix,
    shape_fix_apply,
    warmup_shape,
)
from .calls import resolve_all
from .notebook import NotebookScript, convert, map_locations, map_warmup_lines
from .regions import Region, RegionRecorder, ScriptStopped
from .replay import (
    MIN_CALLS,
    RegionReplay,
    ReplayContext,
    chosen_signatures,
    isolating,
    left_out_unisolated,
    not_measured_reason,
    rng_kept,
)
from .window import ProfileWindow

MODE = "script"


class RankObserver(Protocol):
    """A rank of a torchrun job watching its script (ranks/script.py): no replay, a profiler window instead."""

    window: ProfileWindow
    no_replay: str  # why no region may be replayed

    @property
    def world_size(self) -> int: ...

    def arm(self, run: Run, entry: ModeResult, recorder: RegionRecorder, mode: str) -> None:
        """From now on a stop (SIGTERM) writes the rank's report so far."""

    def ended(self, run: Run) -> None:
        """The script ended: close the window, put the rank's facts in the report."""


class RegionMeasurements:
    """Builds and measures the report's regions: one region when the script drops it (`dropped`, mid-script), the
    rest after the script, or at --calls N inside it (`measure`, once), with the steps that need every region."""

    def __init__(self, run: Run, runs: compiled_runs.CompiledRuns, what_if: list[str]) -> None:
        self.run = run
        self.runs = runs
        self.what_if = what_if
        self.done = False
        self.recorder: RegionRecorder | None = None
        self.entries: dict[str, RegionEntry] = {}  # by region id: built (and measured when it could be)

    def dropped(self, region: Region) -> None:
        """The script dropped the region's handle: measured now, from its calls and the compiler's records so far (a
        region that cannot be measured is only released: its entry is built after the script, saying why). The
        script's RNG is left as it was, the replay's own compiles are kept apart from the script's (isolating), and
        the compiler's records from here on are the script's again."""
        if self.done or region.replay.unsafe is not None or region.call_count < MIN_CALLS:
            return
        isolated = self._isolated() is not None
        left_out = None if isolated else left_out_unisolated(region, self._what_if(region))
        entry, reason = self._entry(region, self.run.records(MODE))
        self.entries[region.id] = entry
        self._publish()
        try:
            with rng_kept():
                self._measure(
                    entry,
                    region,
                    reason,
                    self._context("script", 0.05, compiles=isolated),
                    self._what_if(region) if isolated else [],
                )
            if left_out is not None:
                entry["replay"]["leftOut"] = left_out
        except Exception as exc:  # the script goes on; the region says what failed
            entry["measurements"] = []
            entry["replay"] = {
                "replayable": region.replay.unsafe is None,
                "reason": f"measuring it failed: {classify(exc, 'measuring it').message}",
            }
            self.run.checkpoint()
        finally:
            tt.mark(MODE, "script")

    def measure(self, regions: list[Region]) -> None:
        if self.done:
            return
        self.done = True
        run = self.run
        script_records = run.records(MODE)
        fresh = [(self._entry(region, script_records), region) for region in regions if region.id not in self.entries]
        self.entries.update((region.id, entry) for (entry, _), region in fresh)
        self._publish(regions)  # the calls are reported even if measuring is cut short
        ctx = self._context("replay", 0.6)
        for (entry, reason), region in fresh:
            self._measure(entry, region, reason, ctx, self._what_if(region))
        # once every region is timed, the run knows the host's fastest state: the adjustments targets get, per signature
        for entry in run.report["regions"]:
            adjust_speedups(entry.get("measurements") or [], run.cfg.host.fastest_ms, run.device == "cpu")
        self.run.checkpoint()

    def _what_if(self, region: Region) -> list[str]:
        return [mode for mode in self.what_if if mode != region.options["mode"]]

    def _isolated(self) -> Callable[..., Any] | None:
        assert self.recorder is not None and self.recorder.original_compile is not None
        return isolating(self.recorder.original_compile)

    def _context(self, phase: str, fraction: float, compiles: bool = True) -> ReplayContext:
        run = self.run
        assert self.recorder is not None and self.recorder.original_compile is not None
        watch = paired.Watch(lambda: run.watcher.compiles, self.runs.snapshot, self.runs.available)
        return ReplayContext(
            run.cfg,
            run.workdir,
            PROFILED_STEPS,
            watch,
            run.records,
            lambda message: run.progress(phase, fraction, message),
            self._isolated() or self.recorder.original_compile,
            compiles,
        )

    def _measure(
        self, entry: RegionEntry, region: Region, reason: str | None, ctx: ReplayContext, what_if: list[str]
    ) -> None:
        if reason is None:
            chosen = [s for s, _ in chosen_signatures(region)]
            region.replay.only(chosen)
            insight = entry.get("compiler")
            replay = RegionReplay(ctx, region, insight["compileSeconds"]["total"] if insight else None)
            entry["measurements"] = replay.measure(what_if)
            entry["signatures"] = region_entry.signatures_json(region, set(chosen))
        region.replay.release()
        region.held.release()  # measured (or not measurable): the script's objects are its own again
        # replayable: its calls can be run again safely; reason: why it was not measured, either way
        entry["replay"] = {"replayable": region.replay.unsafe is None, "reason": reason}
        self.run.checkpoint()

    def _publish(self, regions: list[Region] | None = None) -> None:
        """report["regions"]: every region's entry built so far, in the order the script compiled them."""
        order = [r.id for r in regions] if regions is not None else sorted(self.entries, key=lambda rid: int(rid[1:]))
        self.run.report["regions"] = [self.entries[rid] for rid in order]
        self.run.checkpoint()

    def _entry(self, region: Region, script_records: list[tt.Record]) -> tuple[RegionEntry, str | None]:
        resolve_all(region.calls)
        records = region_entry.RegionRecords(region, script_records)
        cudagraphs = self.run.device == "cuda" and region.options["mode"] in CUDAGRAPH_MODES
        entry = region_entry.region_json(region, records, cudagraphs, on_cpu=self.run.device == "cpu")
        eager = region_entry.all_calls_eager(entry["calls"], records, bool(region.compile_ids))
        return entry, not_measured_reason(region, eager)


def adjust_speedups(measurements: list[RegionMeasurement], fastest_probe: float, on_cpu: bool = False) -> None:
    """A region's speedups get the adjustments a target's modes get (measure/speedups.py), per group of measurements
    that share one eager: those on one captured signature (as written and what-if modes); on_cpu: measured on a CPU."""
    groups: dict[str, list[RegionMeasurement]] = {}
    for measurement in measurements:
        groups.setdefault(measurement["signature"], []).append(measurement)
    for group in groups.values():
        idle = group[0].get("eagerGpuIdlePct")
        eager: Eager = {
            "timing": None,
            "trace": None,
            "kernelsPerStep": None,
            "gpuIdlePct": idle,
            "launchBound": idle is not None and idle >= LAUNCH_BOUND_IDLE_PCT,
        }
        speedups.adjust(group, eager, fastest_probe, on_cpu)


@contextlib.contextmanager
def script_environment(argv: list[str], folder: str, chdir: bool) -> Iterator[None]:
    """The script's sys.argv, its folder first on sys.path (and, for a notebook, as the working directory):
    kept while its regions are measured too, since their code may read them on every call."""
    saved_argv, saved_path, cwd = sys.argv, list(sys.path), os.getcwd()
    sys.argv = argv
    sys.path.insert(0, folder)
    if chdir:
        os.chdir(folder)
    try:
        yield
    finally:
        sys.argv, sys.path[:] = saved_argv, saved_path
        os.chdir(cwd)
        # the script's exit handlers run at the worker's exit: they see its argv, path and folder, as in a plain run
        # (atexit runs the last registered first, so this runs before any of the script's)
        atexit.register(_enter_again, argv, folder, chdir)


def _enter_again(argv: list[str], folder: str, chdir: bool) -> None:
    sys.argv = argv
    if folder not in sys.path:
        sys.path.insert(0, folder)
    if chdir:
        os.chdir(folder)


class Observer(Protocol):
    """What watches the script's torch.compile calls while it runs: RegionRecorder, or in situ a LightRecorder."""

    def installed(self) -> contextlib.AbstractContextManager[None]: ...


class Outcome(TypedDict):
    """How the script ended, under the mode entry's keys (the script entry's, an in-situ run's)."""

    status: str
    error: RunError | None
    scriptExitCode: int


def execute(path: str, name: str, recorder: Observer) -> Outcome:
    """Runs the script; returns what the mode entry says about how it ended."""
    outcome: Outcome = {"status": "ok", "error": None, "scriptExitCode": 0}
    try:
        with recorder.installed():
            runpy.run_path(path, run_name="__main__")
    except ScriptStopped:
        pass  # --calls N: the runner stopped the script on purpose
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        outcome["scriptExitCode"] = code
        if code != 0:
            outcome.update(
                {
                    "status": "error",
                    "error": {
                        "kind": "user-code",
                        "message": f"The script exited with status {code}.",
                        "fix": "See the script's own output in the log.",
                        "traceback": None,
                    },
                }
            )
    except BaseException as exc:  # the script's own failure is a finding; its compiles are still reported
        error = classify(exc, f"running {name}")
        if error.kind == "compile":  # at the user's line, in their terms (no other modes ran: it is their script)
            failure = compile_failure(exc)
            error = RunnerError(
                "compile", f"A compiled call failed: {headline(failure)}.", failure["fix"], error.traceback
            )
        failed = error.to_json()
        where = innermost_user(parse_frames(error.traceback or ""))
        if where is not None:  # the user's line it happened at: the answer leads with it (report/answer.py)
            failed["location"] = where
        outcome.update({"status": "error", "error": failed, "scriptExitCode": 1})
    return outcome


def run_script(run: Run, path: str, args: list[str], ranked: RankObserver | None = None) -> None:
    path = os.path.abspath(path)
    entry: ModeResult = {
        "mode": MODE,
        "status": "ok",
        "error": None,
        "compileSeconds": None,
        "timing": None,
        "speedup": None,
        "breakEvenCalls": None,
        "trace": None,
        "kernelsPerStep": None,
        "compiler": None,
        "peakMemoryBytes": None,
        "scriptExitCode": 0,
    }
    run.report["target"] = {
        "kind": "script",
        "name": os.path.splitext(os.path.basename(path))[0],
        "file": path,
        "function": None,
        "line": None,
    }
    calls = run.spec.get("calls")
    run.report["settings"].update(scriptArgs=args, calls=calls)
    if not os.path.isfile(path):
        raise RunnerError("bad-target", f"Script not found: {path}", "Check the path passed to --script.")
    notebook: NotebookScript | None = None
    runnable = path
    if path.endswith(".ipynb"):
        notebook = convert(path, os.path.join(run.workdir, "notebook"))
        runnable = notebook.script
        run.report["settings"]["notebook"] = notebook.summary()
    runs = run.runs
    measurements = RegionMeasurements(run, runs, run.spec.get("whatIfModes") or [])
    switch = interleave.available() if run.spec.get("inSituMethod") == interleaved.METHOD else None
    fixes = run.spec.get("shapeFix")  # a fix run (script/shape_fix.py): its numbers are the fixes', nothing replayed
    interleaver = (
        interleave.Interleaver(
            switch,
            ranks=ranked is not None,
            trace_dir=None if fixes else run.workdir,
            load=run.cfg.host.load_watch(),
        )
        if switch is not None
        else None
    )
    recorder = RegionRecorder(
        run.watcher,
        runs,
        calls,
        lambda region: measurements.measure(recorder.regions),
        window=ranked.window if ranked else None,
        no_replay=ranked.no_replay if ranked else shape_fix.NO_REPLAY if fixes else None,
        on_drop=measurements.dropped,
        interleaver=interleaver,
        fixes=fixes,
    )
    measurements.recorder = recorder
    if ranked is not None:
        run.report["settings"]["nprocPerNode"] = ranked.world_size
        ranked.arm(run, entry, recorder, MODE)
    run.progress("script", 0.05, f"Running {os.path.basename(path)}")
    tt.mark(MODE, "script")
    with script_environment([path, *args], os.path.dirname(path), chdir=notebook is not None):
        entry.update(execute(runnable, os.path.basename(path), recorder))
        plain_s = time.monotonic() - run.started  # torch's import and the script with its compiles: the plain run
        if ranked is not None:
            ranked.ended(run)
        tt.mark(MODE, "done")
        run.progress("insight", 0.5, "Reading the compiler's log")
        records = run.records(MODE)
        insight = compiler_insight(
            records,
            lambda record: "a call made by the script",
            cudagraphs=run.device == "cuda" and cuda_graphs_used(records),
            on_cpu=run.device == "cpu",
        )
        insight["torchTraceLog"] = run.trace_log_relpath()
        artifacts.attach(insight, records, run.workdir, MODE, None, 0, on_cpu=run.device == "cpu")
        entry["compiler"] = insight
        entry["compileSeconds"] = insight["compileSeconds"]["total"]
        run.report["modes"].append(entry)
        if entry["error"]:
            run.report["error"] = entry["error"]
        measurements.measure(recorder.regions)
    if interleaver is not None:
        in_situ_report.attach_interleaved(
            run.report,
            interleaver.to_json(),
            {r.id: r.failure for r in recorder.regions},
            interleaver.profile_json(),
            run.workdir,
        )
    elif run.spec.get("inSituMethod") == interleaved.METHOD:  # torch < 2.6: the replay alone (report/answer.py)
        in_situ_report.skipped(run.report, "this torch has no torch.compiler.set_stance to switch compiling off with")
    elif (run.spec.get("rank") or {}).get("attached"):  # attach runs no supervisor to schedule in situ: not a flag
        in_situ_report.skipped(run.report, answer.ATTACHED)
    else:
        in_situ_report.skipped(run.report, "--no-in-situ")
    kernel_times.time_script_kernels(entry.get("compiler"), run.report["regions"], run.workdir, PROFILED_STEPS)
    warmup_shape.share(entry.get("compiler"), run.report["regions"])
    mark_dynamic_edit.share(entry.get("compiler"), run.report["regions"])
    if notebook is not None:
        map_locations(run.report["modes"], notebook)
        map_locations(run.report["regions"], notebook)
        map_warmup_lines(run.report["regions"], notebook)
    if fixes:  # a fix run: whether its buckets held, for the run that asked for it
        shape_fix_apply.write(run.workdir, recorder.buckets)
    elif ranked is None and notebook is None:
        shape_fix.measure(run, plain_s)
