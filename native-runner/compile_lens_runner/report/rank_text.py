"""A torchrun job's ranks in words (schema 1.25), as the CLI's ranks block and the report panel's rank table show them:
per rank the rank and how it ended (`labelText`, schema 1.27: "rank 1 (host-a, node 0): error — CUDA out of memory
(at train.py:88)"), its error at the line it failed (`errorText`), what it compiled and ran (`factsText`), each region's calls and
steady time (`regionsText`), and after a timeout the collective it was waiting in (`waitingText`); an attached job
torchrun restarted, its earlier attempts in one sentence (`logs.restartsText`, schema 1.27). Said from the rank's
entry with formats.py's numbers each time the report is written (answer.attach)."""

from __future__ import annotations

from .. import formats
from ..shapes.ranks import EarlierAttempt, RankEntry
from ..shapes.report import Report


def error(entry: RankEntry) -> str | None:
    """ "CUDA out of memory (at train.py:88)"."""
    err, at = entry.get("error"), entry.get("failedAt")
    if not err:
        return None
    where = f" (at {formats.place(at['file'], at['line'], at.get('cell'))})" if at else ""
    return f"{err['message']}{where}"


def label(entry: RankEntry) -> str:
    """ "rank 1: ok", "rank 1 (host-a, node 0): error — CUDA out of memory (at train.py:88)"; a rank read from its log
    alone ("rank 1"): how it ended is not in the log."""
    where = ", ".join(
        [
            *([entry["host"]] if entry.get("host") else []),
            *([f"node {entry['nodeRank']}"] if "nodeRank" in entry else []),
        ]
    )
    status = entry.get("status")
    failed = error(entry)
    ended = f": {status}{f' — {failed}' if failed and status != 'ok' else ''}" if status else ""
    return f"rank {entry['rank']}{f' ({where})' if where else ''}{ended}"


def facts(entry: RankEntry) -> str | None:
    """ "2 graphs, 2 graph breaks, 0 recompiles, 3.1 s compiling, FX graph cache 1 hit, 2 misses, 4 collectives in the
    profiled steps"; None where the rank recorded none of them."""
    out: list[str] = []
    for key, word in (("graphCount", "graph"), ("graphBreaks", "graph break"), ("recompiles", "recompile")):
        n = entry.get(key)
        if isinstance(n, int):
            out.append(formats.plural(n, word))
    seconds = entry.get("compileSeconds")
    if seconds is not None:
        out.append(f"{formats.seconds(seconds)} compiling")
    fx = (entry.get("cache") or {}).get("fxGraph") or {}
    hits, misses = fx.get("hit"), fx.get("miss")
    if hits is not None and misses is not None and hits + misses > 0:
        out.append(f"FX graph cache {formats.plural(hits, 'hit')}, {formats.plural(misses, 'miss', 'misses')}")
    collectives = entry.get("collectives")
    if collectives is not None:
        out.append(f"{formats.plural(len(collectives), 'collective')} in the profiled steps")
    return ", ".join(out) or None


def regions(entry: RankEntry) -> list[str]:
    """ "Model: 6 calls, 0.94 ms/call from call 4", one per region, said by its name as every surface says it."""
    out = []
    for r in entry.get("regions") or []:
        steady = r.get("steadyState")
        time = f", {formats.ms(steady['medianMs'])}/call from call {steady['fromCall']}" if steady else ""
        out.append(f"{r.get('label') or r['name']}: {formats.plural(r['callCount'], 'call')}{time}")
    return out


def waiting(entry: RankEntry) -> str | None:
    """ "waiting in all_reduce at train.py:42", "running at train.py:40": where a rank was when the job timed out."""
    stack = entry.get("stack")
    if not stack:
        return None
    loc = stack.get("location")
    at = f" at {formats.place(loc['file'], loc['line'], loc.get('cell'))}" if loc else ""
    return f"waiting in {stack['waitingIn']}{at}" if stack.get("waitingIn") else f"running{at}"


_TIMES = ("once", "twice")


def _attempt(a: EarlierAttempt) -> str:
    if a["status"] == "ok":
        return f"attempt {a['attempt']} ended"
    rank = f" on rank {a['failedRank']}" if a["failedRank"] is not None else ""
    at = a["failedAt"]
    where = f" at {formats.place(at['file'], at['line'], at.get('cell'))}" if at else ""
    return f"attempt {a['attempt']} failed{rank}{where}"


def restarts(attempts: list[EarlierAttempt]) -> str | None:
    """ "restarted once: attempt 0 failed on rank 1 at train.py:88 (this report is attempt 1's; the earlier attempts'
    folders are kept)"; None where torchrun did not restart the job."""
    if not attempts:
        return None
    n = len(attempts)
    times = _TIMES[n - 1] if n <= len(_TIMES) else f"{n} times"
    return (
        f"restarted {times}: {'; '.join(map(_attempt, attempts))} (this report is attempt {n}'s; the earlier "
        "attempts' folders are kept)"
    )


def attach(report: Report) -> None:
    """Each rank's words, and an attached job's restarts."""
    logs = report.get("logs")
    said = restarts(logs.get("attempts") or []) if logs else None
    if logs and said is not None:
        logs["restartsText"] = said
    for entry in report.get("ranks") or []:
        entry["labelText"] = label(entry)
        failed, did, waited = error(entry), facts(entry), waiting(entry)
        if failed is not None:
            entry["errorText"] = failed
        if did is not None:
            entry["factsText"] = did
        if waited is not None:
            entry["waitingText"] = waited
        entry["regionsText"] = regions(entry)
