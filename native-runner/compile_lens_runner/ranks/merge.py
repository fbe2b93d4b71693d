"""After torchrun ends: the ranks' reports become one. Rank 0's report is the headline (its script entry and
regions); `ranks[]` gives every rank's facts, `divergence[]` where they ran differently (divergence.py), and each
graph break and recompile in the headline's compiler insight names the ranks it happened on (`ranks`), with those
seen on other ranks only added. A rank that failed is named with its error and the user line it failed at; one
stopped mid-script keeps the snapshot it wrote (rank_stop.py); one killed outright is read from its compiler log.
Imports no torch (the supervisor runs it)."""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar, cast

from ..compiler import break_patterns, explain, made_for, recompile_sites
from ..compiler import torch_trace as tt
from ..compiler.cudagraphs import used as cuda_graphs_used
from ..compiler.insight import compiler_insight
from ..compiler.user_code import innermost_user, parse_frames
from ..formats import rank_list
from ..report import document as report
from ..report import mode_line
from ..script import in_situ_report
from ..shapes.common import RunError, SourceLocation
from ..shapes.compiler import CompilerInsight, GraphBreak, RankPhases, Recompile
from ..shapes.mode import ModeResult
from ..shapes.ranks import RankEntry, RankRegion, RankStack
from ..shapes.region import Region
from ..shapes.report import Report
from . import collectives, divergence
from .paths import ATTACH_FILE, EXIT_FILE, PID_FILE, SNAPSHOT_FILE, SPEC_FILE, STACKS_FILE, rank_dir, worker_dir
from .stacks import hang_sentence, main_thread, state

SCRIPT = "script"
# a rank's error that follows from another rank's failure: its peer went away under a collective
_SECONDARY = re.compile(
    r"Connection closed by peer|Connection reset|Broken pipe|DistBackendError|DistNetworkError|"
    r"NCCL (?:error|communicator)|ProcessGroup\w* .*(?:abort|timed out)|Socket Timeout",
    re.I,
)


@dataclass(frozen=True)
class Job:
    """Where a job's ranks wrote (`dir`) and where the merged report goes (`out`: its paths are relative to it).
    attached: ranks run under the user's launcher (attach.py): each in its own folder, read as they are (inspect
    may read them again; nothing there is removed or written)."""

    dir: str
    out: str
    attached: bool = False

    def rank_dir(self, rank: int) -> str:
        return rank_dir(self.dir, rank)

    def worker_dir(self, rank: int) -> str:
        return worker_dir(self.dir, rank, self.attached)


@dataclass
class RankRun:
    rank: int
    report: Report | None
    how: str  # final | snapshot | checkpoint | none
    exit: dict[str, Any] | None  # its exit record (EXIT_FILE): code, time, stopped
    stacks: str | None  # the faulthandler dump, when one was asked for
    started: bool = True  # torchrun started it (its rank entry made its directory)
    where: dict[str, Any] = field(default_factory=dict)  # an attached rank: its host, node rank, local rank, missing

    @property
    def script(self) -> ModeResult | None:
        return next((m for m in self.report["modes"] if m["mode"] == SCRIPT), None) if self.report else None

    @property
    def status(self) -> str:
        if not self.started and self.where.get("missing"):
            return "missing"
        if self.how == "final":
            exit_record = self.exit or {}
            if exit_record.get("code") == 0:
                return "ok"
            return "stopped" if exit_record.get("stopped") else "error"
        if self.how == "snapshot":
            error = self.report["error"] if self.report else None
            return "stopped" if error and error["kind"] == "cancelled" else "error"
        return "killed"


def _read_json(path: str) -> dict[str, Any] | None:
    """A rank's bookkeeping file (its exit record, where it ran)."""
    data = report.read(path)
    return data if isinstance(data, dict) else None


def _remove(path: str) -> None:
    with contextlib.suppress(OSError):
        os.remove(path)


def load(job: Job, rank: int) -> RankRun:
    """The rank's report — final (its worker returned), else the snapshot it wrote when stopped, else its last
    checkpoint — placed as its report.json; the bookkeeping files are removed (not in an attached job's folders)."""
    folder, work = job.rank_dir(rank), job.worker_dir(rank)
    started = os.path.isdir(folder)
    exit_record = _read_json(os.path.join(folder, EXIT_FILE))
    final = report.read_report(os.path.join(work, "report.json"))
    snapshot = report.read_report(os.path.join(folder, SNAPSHOT_FILE))
    chosen: Report | None
    if exit_record and final:
        how, chosen = "final", final
    elif snapshot:
        how, chosen = "snapshot", snapshot
        if not job.attached:
            report.write(os.path.join(work, "report.json"), snapshot)
    else:
        how, chosen = ("checkpoint" if final else "none"), final
    stacks_path = os.path.join(folder, STACKS_FILE)
    try:
        with open(stacks_path, encoding="utf-8", errors="replace") as f:
            stacks = f.read() or None
    except OSError:
        stacks = None
    if job.attached:
        attached = _read_json(os.path.join(folder, ATTACH_FILE)) or {}
        where = {
            "host": attached.get("host"),
            "nodeRank": attached.get("nodeRank"),
            "localRank": attached.get("localRank"),
            "missing": not started,
        }
        return RankRun(rank, chosen, how, exit_record, stacks, started, where)
    if stacks is None:
        _remove(stacks_path)
    for name in (EXIT_FILE, PID_FILE, SPEC_FILE, SNAPSHOT_FILE):
        _remove(os.path.join(folder, name))
    return RankRun(rank, chosen, how, exit_record, stacks, started)


def _log_insight(job: Job, rank: int) -> CompilerInsight | None:
    """A rank with no report: the script part of its compiler log, read as the rank itself would have."""
    trace_dir = os.path.join(job.worker_dir(rank), "torch_trace")
    logs = (
        sorted((os.path.join(trace_dir, n) for n in os.listdir(trace_dir) if n.endswith(".log")), key=os.path.getsize)
        if os.path.isdir(trace_dir)
        else []
    )
    if not logs:
        return None
    with open(logs[-1], encoding="utf-8", errors="replace") as f:
        records = [r for r in tt.parse(f.read()) if r.mode == SCRIPT]
    insight = compiler_insight(records, lambda record: None, cudagraphs=cuda_graphs_used(records))
    insight["torchTraceLog"] = os.path.relpath(logs[-1], job.worker_dir(rank))
    return insight


def _relative(job: Job, rank: int, path: str | None) -> str | None:
    """A path relative to the rank's worker directory, made relative to the merged report's directory."""
    if not path:
        return None
    return os.path.normpath(os.path.join(os.path.relpath(job.worker_dir(rank), job.out), path))


def _error_of(run: RankRun) -> RunError | None:
    script, doc = run.script, run.report
    error = (script["error"] if script else None) or (doc["error"] if doc else None)
    if run.status == "missing":
        return {
            "kind": "internal",
            "message": f"Rank {run.rank} wrote nothing (no folder ranks/rank{run.rank}): its node never "
            "started it, or its folder was not copied back.",
            "fix": "Check that launcher's output on that node, "
            "and copy every node's ranks/ folders into one directory.",
            "traceback": None,
        }
    if error is not None or run.status != "killed":
        return error
    return {
        "kind": "internal",
        "message": f"Rank {run.rank} ended without writing its report (killed outright).",
        "fix": "See the rank's output in the log; its compiler log was read instead.",
        "traceback": None,
    }


def _failed_at(error: RunError | None) -> SourceLocation | None:
    return innermost_user(parse_frames(error.get("traceback") or "")) if error else None


def _regions(run: RankRun) -> list[RankRegion]:
    """Each region's calls, steady state and what it compiled on this rank (its own report's counts: the merged
    region's compiler holds every rank's breaks and recompiles, each with its ranks)."""
    out: list[RankRegion] = []
    for r in (run.report.get("regions") if run.report else None) or []:
        region: RankRegion = {
            "id": r["id"],
            "name": r["name"],
            "callCount": r["callCount"],
            "steadyState": r.get("steadyState"),
        }
        if (compiler := r.get("compiler")) is not None:
            region["graphCount"], region["graphBreaks"], region["recompiles"] = counted(compiler)
        out.append(region)
    return out


def counted(compiler: CompilerInsight) -> tuple[int, int, int]:
    """What one rank's compiler record counts, as its rank row says it: its graphs, its graph breaks as they add up,
    its recompiles."""
    return compiler["graphCount"], mode_line.break_count(compiler), len(compiler.get("recompiles") or [])


def headline_rank_record(merged: CompilerInsight, rank: int) -> CompilerInsight:
    """The headline rank's own record out of a merged one (merge_insights): its graphs, and the breaks and recompiles
    it had, each counted as it counted them (the headline rank's count is the one kept)."""
    return {
        **merged,
        "graphBreaks": [b for b in merged.get("graphBreaks") or [] if rank in b.get("ranks", [rank])],
        "recompiles": [r for r in merged.get("recompiles") or [] if rank in r.get("ranks", [rank])],
    }


def rank_entry(
    job: Job,
    run: RankRun,
    insight: CompilerInsight | None,
    sequence: list[dict[str, Any]] | None,
    stack: RankStack | None,
) -> RankEntry:
    facts = run.report.get("rank") if run.report else None
    error = _error_of(run)
    folder = os.path.relpath(job.rank_dir(run.rank), job.out)
    graphs, breaks, recompiles = counted(insight) if insight else (None, None, None)
    entry: RankEntry = {"rank": run.rank}
    if run.where.get("host") is not None:  # an attached rank: where it ran
        entry["host"] = run.where["host"]
    if run.where.get("nodeRank") is not None:
        entry["nodeRank"] = run.where["nodeRank"]
    if run.where.get("localRank") is not None:
        entry["localRank"] = run.where["localRank"]
    entry.update(
        {
            "status": run.status,
            "exitCode": (run.exit or {}).get("code"),
            "error": error if run.status != "ok" else None,
            "failedAt": _failed_at(error) if run.status == "error" else None,
            "report": _relative(job, run.rank, "report.json") if run.report else None,
            "trace": _relative(job, run.rank, facts.get("trace") if facts else None),
            "window": facts.get("window") if facts else None,
            "torchTraceLog": _relative(job, run.rank, insight.get("torchTraceLog") if insight else None),
            "graphCount": graphs,
            "graphBreaks": breaks,
            "recompiles": recompiles,
            "compileSeconds": insight["compileSeconds"]["total"] if insight else None,
            "cache": insight["cache"] if insight else None,
            "regions": _regions(run),
            "collectives": [c["name"] for c in sequence] if sequence is not None else None,
            "stack": stack,
            "stacks": os.path.join(folder, STACKS_FILE) if run.stacks else None,
        }
    )
    return entry


Finding = TypeVar("Finding", GraphBreak, Recompile)


def _site(item: GraphBreak | Recompile) -> tuple[str | None, int | None, str]:
    loc = item["location"]
    return loc["file"] if loc else None, loc["line"] if loc else None, item["reason"]


def rank_counts(merged: list[GraphBreak], breaks_by_rank: list[tuple[int, list[GraphBreak]]]) -> None:
    """Each merged break's count on each rank that had it (`rankCounts`): its `count` is the headline rank's, and
    another rank may have broken there more often (attach-2x2: a rank that recompiled broke again)."""
    counts: dict[tuple[str | None, int | None, str], dict[str, int]] = {}
    for rank, items in breaks_by_rank:
        for item in items:
            on = counts.setdefault(_site(item), {})
            on[str(rank)] = on.get(str(rank), 0) + (item.get("count") or 1)
    for item in merged:
        if _site(item) in counts:  # none where no rank's record is known (a fixture's rederivation)
            item["rankCounts"] = counts[_site(item)]


def _tag(items_by_rank: list[tuple[int, list[Finding]]], headline_rank: int) -> list[Finding]:
    """The union of the ranks' items (graph breaks, recompiles), one per site, each with the ranks it happened on.
    A compile id is a rank's own numbering: items not seen on the headline rank carry none."""
    merged: dict[tuple[str | None, int | None, str], Finding] = {}
    for rank, items in items_by_rank:
        for item in items:
            site = _site(item)
            found = merged.get(site)
            if found is None:
                found = merged[site] = {**item, "ranks": []}
                if rank != headline_rank:
                    found["compileId"] = None
            ranks = found.setdefault("ranks", [])
            if rank not in ranks:
                ranks.append(rank)
    return list(merged.values())


def _said_today(insight: CompilerInsight, on_cpu: bool) -> CompilerInsight:
    """A rank's graph breaks and recompiles in today's words, from what it recorded of them: an attached job's folder
    may hold reports an older runner wrote, which `inspect` would otherwise show beside sentences said now."""
    breaks: list[GraphBreak] = [
        {**b, "explanation": break_patterns.explain_recorded(b)} for b in insight.get("graphBreaks") or []
    ]
    recompiles: list[Recompile] = [
        {**r, "explanation": explain.explain_recorded(r, bool(insight.get("cudaGraphs")), on_cpu)}
        for r in insight.get("recompiles") or []
    ]
    made_for.fill(recompiles)
    return {**insight, "graphBreaks": breaks, "recompiles": recompiles}


def merge_insights(insights: list[tuple[int, CompilerInsight]], on_cpu: bool = False) -> CompilerInsight:
    """The lowest rank's insight (rank 0's: the headline), its graph breaks, recompiles and recompile sites the
    union over the ranks; on_cpu: the job ran on CPUs (its recompiles' fixes say generated code, not kernels)."""
    insights = sorted(((rank, _said_today(insight, on_cpu)) for rank, insight in insights), key=lambda pair: pair[0])
    merged: CompilerInsight = {**insights[0][1]}
    breaks = [(r, i.get("graphBreaks") or []) for r, i in insights]
    merged["graphBreaks"] = _tag(breaks, 0)
    rank_counts(merged["graphBreaks"], breaks)
    merged["recompiles"] = _tag([(r, i.get("recompiles") or []) for r, i in insights], 0)
    sites = recompile_sites.group_sites(merged["recompiles"])
    keys = [(site.get("location"), site.get("pattern")) for site in sites]
    for site in sites:
        # a site's own recompiles, and at its line those no site is keyed by (one that joined it: recompile_sites._joined)
        ranks = {
            r
            for item in merged["recompiles"]
            if (key := (item.get("location"), explain.pattern(item["reason"])))
            == (site.get("location"), site.get("pattern"))
            or (key not in keys and key[0] == site.get("location"))
            for r in item.get("ranks", [])
        }
        site["ranks"] = sorted(ranks)
    merged["recompileSites"] = sites
    return merged


# what a rank's compile phases' rows and heading read of its record (report/compiler_text.phases_text, compiles_made)
_PHASE_KEYS = (
    "graphCount",
    "graphBreaks",
    "recompiles",
    "compiledFrames",
    "compileSeconds",
    "frames",
    "cache",
    "compileFailures",
    "phases",
)


def _phases_alike(insight: CompilerInsight) -> tuple[tuple[object, ...], ...]:
    """What two ranks' compile phases must share to be drawn once: the same compiles, named alike, each with the same
    phases in order (their times aside)."""
    names = {f.get("compileId"): f.get("nameText") or f.get("function") for f in insight.get("frames") or []}
    return tuple(
        (p["compileId"], names.get(p["compileId"]), p["depth"], p["name"], p.get("cache"), bool(p.get("cacheHit")))
        for p in insight.get("phases") or []
    )


def rank_phases(insights: list[tuple[int, CompilerInsight]], regions: dict[int, list[Region]]) -> list[RankPhases]:
    """Each rank's compile phases (schema 1.38): ranks whose phases are alike one group, the lowest rank's record drawn
    (the merged record's phases are the lowest rank's alone: review 10H H3, rank 1's recompile had no row); each
    compile's region by name, from that rank's regions. A rank with no phases recorded has no group."""
    groups: dict[tuple[tuple[object, ...], ...], RankPhases] = {}
    for rank, insight in sorted(insights, key=lambda pair: pair[0]):
        if not insight.get("phases"):
            continue
        alike = _phases_alike(insight)
        if alike in groups:
            groups[alike]["ranks"].append(rank)
            continue
        record = cast(CompilerInsight, {key: value for key, value in insight.items() if key in _PHASE_KEYS})
        group: RankPhases = {"ranks": [rank], "compiler": record}
        compiled = {
            str(frame["compileId"]): region["name"]
            for region in regions.get(rank) or []
            if (compiler := region.get("compiler"))
            for frame in compiler.get("frames") or []
            if frame.get("compileId")
        }
        if compiled:
            group["regions"] = compiled
        groups[alike] = group
    return list(groups.values())


def root_cause(runs: list[RankRun]) -> RankRun | None:
    """The rank whose failure ended the job: an error of its own (not a peer vanishing under a collective, not a
    stop), the earliest to exit; else the earliest failed rank; else one that wrote nothing."""
    failed = [r for r in runs if r.status in ("error", "killed")] or [r for r in runs if r.status == "missing"]
    own = [
        r
        for r in failed
        if r.status == "error" and not _SECONDARY.search(error["message"] if (error := _error_of(r)) else "")
    ]
    pool = own or failed
    return min(pool, key=lambda r: ((r.exit or {}).get("time") or float("inf"), r.rank)) if pool else None


def _job_error(root: RankRun, runs: list[RankRun]) -> RunError:
    error = _error_of(root)
    if root.status == "missing":
        missing = [r.rank for r in runs if r.status == "missing"]
        wrote = [r.rank for r in runs if r.status != "missing"]
        return {
            "kind": "internal",
            "message": f"{rank_list(missing).capitalize()} wrote nothing (no folder under "
            f"ranks/): their node never started them, or their folders were not copied back; this report has what "
            f"{rank_list(wrote)} wrote.",
            "fix": error["fix"] if error else "",
            "traceback": None,
        }
    at = _failed_at(error)
    where = f" at {os.path.basename(at['file'])}:{at['line']}" if at else ""
    others = [r.rank for r in runs if r is not root and r.status != "ok"]
    then = f"; {rank_list(others)} stopped with it" if others else ""
    return {
        "kind": error["kind"] if error else "internal",
        "message": f"Rank {root.rank} failed{where}: {error['message'] if error else 'no report'}{then}.",
        "fix": (error["fix"] if error else None) or "See the failing rank's output in the log.",
        "traceback": error.get("traceback") if error else None,
    }


def _sequence(job: Job, run: RankRun) -> list[dict[str, Any]] | None:
    facts = run.report.get("rank") if run.report else None
    trace = facts.get("trace") if facts else None
    if not trace:
        return None
    try:
        return collectives.sequence(os.path.join(job.worker_dir(run.rank), trace))
    except (OSError, ValueError):
        return None


def merge(job_dir: str, world: int, fallback: Callable[[], Report], stacks_requested: bool) -> str | None:
    """Writes the job's report.json; returns, when stacks were asked for (a timeout), the sentence naming where the
    ranks were."""
    headline, hang = merged_report(Job(job_dir, job_dir), world, fallback, stacks_requested)
    report.write(os.path.join(job_dir, "report.json"), headline)
    return hang


def merged_report(
    job: Job, world: int, fallback: Callable[[], Report], stacks_requested: bool
) -> tuple[Report, str | None]:
    """The job's report from its ranks' folders, and (stacks_requested) where the ranks were."""
    runs = [load(job, rank) for rank in range(world)]
    insights = {
        r.rank: (
            (script["compiler"] if (script := r.script) else None)
            or (_log_insight(job, r.rank) if r.how in ("none", "checkpoint") and r.started else None)
        )
        for r in runs
    }
    sequences = {r.rank: _sequence(job, r) for r in runs}
    states = {r.rank: state(main_thread(r.stacks)) if r.stacks else None for r in runs} if stacks_requested else {}
    entries = [rank_entry(job, r, insights[r.rank], sequences[r.rank], states.get(r.rank)) for r in runs]
    first = next((r for r in runs if r.report), None)
    headline: Report = {**first.report} if first and first.report else fallback()
    _relocate(headline, job, first.rank if first else 0)
    headline.pop("rank", None)
    headline.setdefault("settings", {})["nprocPerNode"] = world
    headline["ranks"] = entries
    known = [(r, i) for r, i in insights.items() if i]
    on_cpu = headline["environment"].get("device") == "cpu"
    script = next((m for m in headline["modes"] if m["mode"] == SCRIPT), None)
    regions = {r.rank: (r.report.get("regions") if r.report else None) or [] for r in runs}
    if script is not None and known:
        merged = script["compiler"] = merge_insights(known, on_cpu)
        if len(runs) > 1:
            merged["rankPhases"] = rank_phases(known, regions)
    for region in headline.get("regions") or []:
        same = [
            (r.rank, insight)
            for r in runs
            for other in regions[r.rank]
            if other["id"] == region["id"] and (insight := other.get("compiler"))
        ]
        if same:
            region["compiler"] = merge_insights(same, on_cpu)
        in_situ_report.slowest_rank(
            region, [(r.rank, other) for r in runs for other in regions[r.rank] if other["id"] == region["id"]]
        )
    headline["divergence"] = divergence.find(
        [
            {"rank": r.rank, "compiler": insights[r.rank], "regions": regions[r.rank], "collectives": sequences[r.rank]}
            for r in runs
        ]
    )
    root = root_cause(runs)
    if not any(r.started for r in runs):
        headline["error"] = {
            "kind": "internal",
            "message": "torchrun (python -m torch.distributed.run) started no rank; its own "
            "output in the log says why.",
            "fix": "Check that this PyTorch has torch.distributed "
            "(torch.distributed.is_available()) and that the script runs under torchrun.",
            "traceback": None,
        }
    elif root is not None:
        headline["error"] = _job_error(root, runs)
    headline["status"] = report.overall_status(headline)
    return headline, hang_sentence(states) if stacks_requested else None


_ARTIFACT_KEYS = ("trace", "outputCode", "guards", "fxGraph", "torchTraceLog", "eagerTrace")


def _relocate(value: Any, job: Job, rank: int) -> None:
    """The headline rank's report-relative paths, made relative to the merged report (a no-op where they coincide)."""
    if job.worker_dir(rank) == job.out:
        return
    if isinstance(value, dict):
        for key, item in value.items():
            if key in _ARTIFACT_KEYS and isinstance(item, str):
                value[key] = _relative(job, rank, item)
            elif key != "rank":
                _relocate(item, job, rank)
    elif isinstance(value, list):
        for item in value:
            _relocate(item, job, rank)
