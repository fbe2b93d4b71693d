"""`inspect PATH...`: a report from compiler logs alone (no torch, nothing run, nothing timed). One log gives one mode
(`logs`; a Compile Lens log, split by its markers, one per mode it ran); one log per rank gives `ranks[]` and
`divergence[]` as a torchrun job does; folders written by `attach` are merged as `--nproc-per-node`'s ranks are."""

from __future__ import annotations

import functools
import gc
import os
import re
import shutil
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from ..compiler import artifacts
from ..compiler import torch_trace as tt
from ..compiler.cudagraphs import used as cuda_graphs_used
from ..compiler.insight import compiler_insight
from ..compiler.phase_names import label_phases
from ..errors import RunnerError
from ..ranks import attempts, divergence
from ..ranks.merge import Job, counted, load, merge_insights, merged_report, root_cause
from ..report import document
from ..shapes.compiler import CompilerInsight
from ..shapes.mode import ModeResult
from ..shapes.ranks import EarlierAttempt, LogFile, RankEntry
from ..shapes.report import Environment, Report, Target
from . import files, forked

LOGS_MODE = "logs"
_UNKNOWN = "not in the compiler log"
PARALLEL_BYTES = 64 << 20  # rank logs totalling less are read in this process (starting workers costs more)
PARALLEL_RECORDS = 20000  # a log of fewer records has its insight read and its artifacts written one after the other
_Here = TypeVar("_Here")
_NO_VERDICT = "Read from compiler logs: nothing was run or timed here, so there is no verdict on compiling."


def _environment(records: list[tt.Record], saved: Sequence[artifacts.Saved | None] = ()) -> Environment:
    """What the log says of the machine that wrote it; `saved`: its modes' artifacts, when written (they saw whether
    its generated code is Triton's)."""
    # the first compile's metrics: one process writes them all with the same keys (a log without python_version has
    # none in any, and finding that out by parsing every compile's metrics was slow on a large log)
    metrics = next((r.meta for r in records if r.kind == "compilation_metrics"), {})
    cuda = (
        any(s.triton for s in saved if s)
        if any(saved)
        else any(r.kind == "inductor_output_code" and r.payload_has("triton") for r in records)
    )
    python = str(metrics.get("python_version") or "").split(" ", 1)[0] or _UNKNOWN
    return {
        "python": python,
        "torch": None,
        "triton": metrics.get("triton_version") or None,
        "device": "cuda" if cuda else "cpu",
        "deviceName": _UNKNOWN,
        "platform": _UNKNOWN,
    }


def _corrupt_payloads(records: list[tt.Record]) -> int:
    """Compile-phase events whose JSON payload does not parse (a log cut or damaged mid-record). Artifacts marked
    JSON are not counted: torch writes some (recompile_reasons) as plain text."""
    return sum(
        1
        for r in records
        if r.kind == "chromium_event" and r.event() is None and r.payload_once().strip() and r.payload_json() is None
    )


def _insights(
    modes: Sequence[tuple[str | None, list[tt.Record]]],
    log: str,
    workdir: str,
    alongside: Callable[[list[artifacts.Saved | None]], _Here],
) -> tuple[list[CompilerInsight], _Here]:
    """Each mode's (or a rank's) compiler insight, and alongside(the modes' artifacts) run last here; a mode's label:
    write its generated code, guards and FX graphs under compiler/<label>/ (None: only its compile phases are read).
    A large log's insights are read in a second process, the largest first, while this one writes every mode's
    artifacts, then reads those left. Nothing reads a labelled mode's records after alongside()."""

    def saved_here() -> list[artifacts.Saved | None]:
        return [artifacts.save(records, workdir, label) if label else None for label, records in modes]

    largest = sorted(range(len(modes)), key=lambda i: -len(modes[i][1]))
    worth_it = any(label for label, _ in modes) and sum(len(records) for _, records in modes) >= PARALLEL_RECORDS
    found, (saved, done) = forked.shared(
        [functools.partial(_insight_of, modes[i][1]) for i in largest],
        saved_here,
        lambda saved: (saved, alongside(saved)),
        worth_it,
    )
    insights = [found[largest.index(i)] for i in range(len(modes))]
    for insight, (label, records), mode_saved in zip(insights, modes, saved, strict=True):
        insight["torchTraceLog"] = os.path.relpath(log, workdir)
        if label:
            artifacts.attach(insight, records, workdir, label, trace=None, steps=0, saved=mode_saved)
        else:
            insight["phases"] = artifacts.phases(records)
    return insights, done


def _insight_of(records: list[tt.Record]) -> CompilerInsight:
    return compiler_insight(records, lambda record: None, cudagraphs=cuda_graphs_used(records))


def _mode(name: str, insight: CompilerInsight) -> ModeResult:
    return {
        "mode": name,
        "status": "ok",
        "error": None,
        "compileSeconds": insight["compileSeconds"]["total"],
        "timing": None,
        "speedup": None,
        "trace": None,
        "kernelsPerStep": None,
        "compiler": insight,
    }


def _file_facts(
    log: files.LogFile, parser: tt.Parser, records: list[tt.Record], rank: int | None, warnings: list[str]
) -> LogFile:
    corrupt = _corrupt_payloads(records)
    if parser.unreadable:
        warnings.append(
            f"{log.path}: {parser.unreadable} unreadable line{'s' if parser.unreadable > 1 else ''} skipped "
            f"(the first at line {parser.first_unreadable}): the log may be cut or damaged"
        )
    if corrupt:
        warnings.append(f"{log.path}: {corrupt} record{'s' if corrupt > 1 else ''} with a damaged JSON payload skipped")
    return {
        "path": log.path,
        "rank": rank,
        "records": len(records),
        "unreadableLines": parser.unreadable,
        "damagedPayloads": corrupt,
        "marked": parser.marked,
    }


def _target(paths: list[str]) -> Target:
    name = re.sub(r"\.log(\.gz)?$", "", os.path.basename(os.path.abspath(paths[0]).rstrip(os.sep))) or "logs"
    return {"kind": "logs", "name": name, "file": None, "function": None, "line": None}


def _skeleton(paths: list[str], env: Environment) -> Report:
    report = document.skeleton(_target(paths), {"logs": [os.path.abspath(p) for p in paths]}, env)
    report["recommendation"] = {"mode": None, "reason": _NO_VERDICT, "verdict": "none"}
    return report


def _by_mode(records: list[tt.Record]) -> list[tuple[str, list[tt.Record]]]:
    """Each mode's records, in the order the modes ran (one pass: a large log has a million records)."""
    by_mode: dict[str | None, list[tt.Record]] = {}
    for r in records:
        same = by_mode.get(r.mode)
        if same is None:
            same = by_mode[r.mode] = []
        same.append(r)
    return [(name, same) for name, same in by_mode.items() if name and not name.endswith(tt.PROFILED_COPY)]


def _one_log(log: files.LogFile, workdir: str, paths: list[str], warnings: list[str]) -> Report:
    records, parser = files.read(log.path)
    # a Compile Lens log: its markers say which records each mode made (a copy compiled only to be profiled is the
    # tool's own work); a log made elsewhere is one mode
    modes = [
        (name or LOGS_MODE, mode_records)
        for name, mode_records in (_by_mode(records) if parser.marked else [(None, records)])
    ]

    def last_reading(saved: list[artifacts.Saved | None]) -> tuple[Environment, LogFile]:
        read = _environment(records, saved), _file_facts(log, parser, records, log.rank, warnings)
        # nothing here reads the records after this (a forked insight has its own): a large log's million records
        # are freed while it works, not after
        for _, mode_records in modes:
            mode_records.clear()
        records.clear()
        return read

    insights, (env, facts) = _insights(modes, log.path, workdir, last_reading)
    for insight in insights:
        _said_on(insight, env)
    report = _skeleton(paths, env)
    report["modes"] = [_mode(label, insight) for (label, _), insight in zip(modes, insights, strict=True)]
    report["logs"] = {"files": [facts], "warnings": warnings}
    return report


def _said_on(insight: CompilerInsight, env: Environment) -> None:
    """A log's compile phases in its device's words ("Inductor: C++ codegen" on a CPU, as the report's legend says "C++
    compile"): its device is known once its generated code is read (_environment), after the phases were labelled."""
    if env["device"] == "cpu":
        label_phases(insight.get("phases") or [], on_cpu=True)


def _rank_entry(rank: int, insight: CompilerInsight) -> RankEntry:
    # counted as a profiled rank's row is (ranks/merge.counted): its breaks as they add up, not one per site
    graphs, breaks, recompiles = counted(insight)
    return {
        "rank": rank,
        "report": None,
        "trace": None,
        "torchTraceLog": insight["torchTraceLog"],
        "graphCount": graphs,
        "graphBreaks": breaks,
        "recompiles": recompiles,
        "compileSeconds": insight["compileSeconds"]["total"],
        "cache": insight["cache"],
        "regions": [],
        "collectives": None,
        "compileFailures": len(insight["compileFailures"]),
        "restarts": len(insight["restarts"]),
    }


def _read_rank(
    rank: int, log: files.LogFile, workdir: str, headline: bool
) -> tuple[CompilerInsight, LogFile, Environment, list[str]]:
    """One rank's insight, file facts, environment and warnings (run in a worker process for large folders)."""
    records, parser = files.read(log.path)
    warnings: list[str] = []
    # the lowest rank is the headline: its generated code, guards and graphs are written; the others' are compared
    (insight,), (facts, env) = _insights(
        [(LOGS_MODE if headline else None, records)],
        log.path,
        workdir,
        lambda saved: (_file_facts(log, parser, records, rank, warnings), _environment(records, saved)),
    )
    _said_on(insight, env)
    return insight, facts, env, warnings


def _read_ranks(
    by_rank: dict[int, files.LogFile], workdir: str
) -> list[tuple[CompilerInsight, LogFile, Environment, list[str]]]:
    """Every rank's reading, in rank order; ranks are read in parallel processes when there is much to read and more
    than one core to read it (each rank's log is independent)."""
    ranks = sorted(by_rank)
    jobs = [(rank, by_rank[rank], workdir, rank == ranks[0]) for rank in ranks]
    if sum(os.path.getsize(log.path) for log in by_rank.values()) < PARALLEL_BYTES:
        return [_read_rank(*job) for job in jobs]
    return forked.each(_read_rank, jobs)


def _rank_logs(by_rank: dict[int, files.LogFile], workdir: str, paths: list[str], warnings: list[str]) -> Report:
    read = _read_ranks(by_rank, workdir)
    insights = [(rank, insight) for rank, (insight, _, _, _) in zip(sorted(by_rank), read, strict=True)]
    facts = [fact for _, fact, _, _ in read]
    for *_, said in read:
        warnings += said
    report = _skeleton(paths, read[0][2] if read else _environment([]))
    report["modes"].append(_mode(LOGS_MODE, merge_insights(insights)))
    report["settings"]["nprocPerNode"] = len(insights)
    report["ranks"] = [_rank_entry(rank, insight) for rank, insight in insights]
    report["divergence"] = divergence.find(
        [{"rank": rank, "compiler": insight, "regions": [], "collectives": None} for rank, insight in insights]
    )
    report["logs"] = {"files": facts, "warnings": warnings}
    return report


def _without_rank(logs: list[files.LogFile], warnings: list[str]) -> dict[int, files.LogFile] | files.LogFile:
    """Logs whose names carry no rank: ranks from their records when each names its own, else the largest log."""
    if len(logs) == 1:
        return logs[0]
    named: dict[int, files.LogFile] = {}
    for log in logs:
        _, parser = files.read(log.path)
        if len(parser.ranks) == 1 and next(iter(parser.ranks)) not in named:
            named[next(iter(parser.ranks))] = log
    if len(named) == len(logs):
        return named
    largest = max(logs, key=lambda log: os.path.getsize(log.path))
    warnings += [
        f"{log.path}: a second log with no rank (neither in its name nor in its records); read {largest.path}, "
        f"the largest, and skipped this one"
        for log in logs
        if log is not largest
    ]
    return largest


_READ_BY_THE_EDITOR = ("trace", "eagerTrace", "outputCode", "guards", "fxGraph")


def _own_copies(value: Any, job_dir: str, workdir: str) -> None:
    """The attach folder's files the editor opens (traces, generated code, guards, FX graphs) copied into the report's
    folder, their paths made the copies': the extension reads only a report's own files. The attach folder is left as
    it is; the compiler logs (read by nothing after this) are not copied."""
    if isinstance(value, dict):
        for key, item in value.items():
            if key in _READ_BY_THE_EDITOR and isinstance(item, str) and item.startswith(".."):
                source = os.path.normpath(os.path.join(workdir, item))
                if os.path.isfile(source):
                    copy = os.path.join(workdir, "attached", os.path.relpath(source, job_dir))
                    os.makedirs(os.path.dirname(copy), exist_ok=True)
                    shutil.copyfile(source, copy)
                    value[key] = os.path.relpath(copy, workdir)
            else:
                _own_copies(item, job_dir, workdir)
    elif isinstance(value, list):
        for item in value:
            _own_copies(item, job_dir, workdir)


def _world(job_dir: str) -> int:
    known = attempts.attached_ranks(job_dir)
    return max([int(k.get("worldSize") or 0) for k in known] + [int(k.get("rank", -1)) + 1 for k in known])


def _earlier_attempt(attempt: int, job_dir: str, workdir: str, paths: list[str]) -> EarlierAttempt:
    """An attempt torchrun restarted the job after: which rank failed, where, with what (read in place, as the run)."""
    job, world = Job(job_dir, workdir, attached=True), _world(job_dir)
    report, _ = merged_report(job, world, lambda: _skeleton(paths, _environment([])), stacks_requested=False)
    root = root_cause([load(job, rank) for rank in range(world)])
    failed = next((r for r in report.get("ranks", []) if root and r["rank"] == root.rank), None)
    error = report["error"]
    return {
        "attempt": attempt,
        "folder": os.path.relpath(job_dir, workdir),
        "status": report["status"],
        "failedRank": failed["rank"] if failed else None,
        "failedAt": failed.get("failedAt") if failed else None,
        "message": error["message"] if error else None,
    }


def _attached(job_dir: str, workdir: str, paths: list[str], warnings: list[str]) -> Report:
    """A job run under `attach`: the ranks' folders merged as the supervisor merges `--nproc-per-node`'s. Restarted by
    torchrun: the newest attempt is the run, the earlier ones are said (which rank failed, where)."""
    *earlier, (_, newest) = attempts.attempts(job_dir)
    report, _ = merged_report(
        Job(newest, workdir, attached=True),
        _world(newest),
        lambda: _skeleton(paths, _environment([])),
        stacks_requested=False,
    )
    report["settings"]["logs"] = [os.path.abspath(p) for p in paths]
    report["logs"] = {"files": [], "warnings": warnings, "attached": os.path.relpath(newest, workdir)}
    if earlier:
        report["logs"]["attempts"] = [_earlier_attempt(n, folder, workdir, paths) for n, folder in earlier]
    _own_copies(report, job_dir, workdir)
    return report


def inspect(paths: list[str], workdir: str) -> Report:
    """The report of the logs under `paths`; its artifacts are written into workdir (the report's directory)."""
    # a log is read into many small objects and none refers back to another: the cycle collector, run every few
    # hundred allocations, finds nothing and took a quarter of the time
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _inspect(paths, workdir)
    finally:
        if collecting:
            gc.enable()


def _inspect(paths: list[str], workdir: str) -> Report:
    found = files.find(paths)
    warnings = found.warnings
    if found.jobs:
        if len(found.jobs) > 1 or found.logs:
            warnings.append(
                f"read the job written by attach in {found.jobs[0]}; skipped "
                + ", ".join(found.jobs[1:] + [log.path for log in found.logs])
            )
        return _attached(found.jobs[0], workdir, paths, warnings)
    if not found.logs:
        said = f" ({'; '.join(warnings)})" if warnings else ""
        raise RunnerError(
            "bad-target",
            f"No compiler log found in {', '.join(paths)}{said}.",
            "Give a TORCH_TRACE log (.log or .log.gz) or the folder TORCH_TRACE pointed at: run the job "
            "with TORCH_TRACE=/some/dir, then inspect /some/dir.",
        )
    by_rank = files.one_per_rank(found.logs, warnings)
    rankless = [log for log in found.logs if log.rank is None]
    if by_rank:
        warnings += [f"{log.path}: no rank in its name beside logs that have one; skipped" for log in rankless]
    else:
        chosen = _without_rank(rankless, warnings)
        if isinstance(chosen, files.LogFile):
            return _one_log(chosen, workdir, paths, warnings)
        by_rank = chosen
    if len(by_rank) == 1:
        return _one_log(next(iter(by_rank.values())), workdir, paths, warnings)
    return _rank_logs(by_rank, workdir, paths, warnings)
