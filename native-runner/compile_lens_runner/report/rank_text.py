"""A torchrun job's ranks in words (schema 1.25), as the CLI's ranks block and the report panel's rank table show them:
per rank the rank and how it ended (`labelText`, schema 1.27: "rank 1 (host-a, node 0): error — CUDA out of memory
(at train.py:88)"), its error at the line it failed (`errorText`), what it compiled and ran (`factsText`), each region's calls and
steady time (`regionsText`), and after a timeout the collective it was waiting in (`waitingText`); an attached job
torchrun restarted, its earlier attempts in one sentence (`logs.restartsText`, schema 1.27). Said from the rank's
entry with formats.py's numbers each time the report is written (answer.attach)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence

from .. import formats
from ..shapes.compiler import CompilerInsight, QuickFix
from ..shapes.ranks import Divergence, EarlierAttempt, RankEntry
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
    profiled steps"; None where the rank recorded none of them. Its recompiles as the events they were
    (recompile_calls): "recompiled at call 3 (2 compiles)"."""
    out: list[str] = []
    for key, word in (("graphCount", "graph"), ("graphBreaks", "graph break"), ("recompiles", "recompile")):
        n = entry.get(key)
        if isinstance(n, int):
            calls = entry.get("recompilesText") if key == "recompiles" else None
            out.append(calls or formats.plural(n, word))
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
    """ "Model: 6 calls, 0.94 ms per call (median, steady from call 4)", one per region (a call of the region, not a
    training step: review 11 K3 read a "steady step" of 0.612 ms under a chart of 3 ms steps), said by its name as every surface says it. A rank
    of several regions says each one's graphs and breaks too, "Encoder: 6 calls, 1 graph, 2 graph breaks, …": its
    row's counts are the whole script's, each region's heading says that region's (region_counts), and the row then
    holds the heading's numbers."""
    out = []
    several = len(entry.get("regions") or []) > 1
    for r in entry.get("regions") or []:
        steady = r.get("steadyState")
        time = (
            f", {formats.ms(steady['medianMs'])} per call (median, steady from call {steady['fromCall']})"
            if steady
            else ""
        )
        graphs = r.get("graphCount")
        counted = (
            f", {formats.plural(graphs, 'graph')}, {formats.plural(r.get('graphBreaks') or 0, 'graph break')}"
            if several and graphs is not None
            else ""
        )
        out.append(f"{r.get('label') or r['name']}: {formats.plural(r['callCount'], 'call')}{counted}{time}")
    return out


# the call that set a recompile off, as script/region_entry.trigger_text says it: "call 3 of DistributedDataParallel …"
TRIGGER_CALL = re.compile(r"^call (\d+) of ")


def _recompiled_calls(entry: RankEntry, report: Report) -> list[str] | None:
    """The calls that set off the rank's recompiles, each once, in order: ["3"], ["3 of DistributedDataParallel"] with
    several regions; None where the regions' records do not name the call of every recompile the rank counted (the
    count alone is then what is known)."""
    n, rank = entry.get("recompiles"), entry["rank"]
    records = [(r["name"], c) for r in report.get("regions") or [] if (c := r.get("compiler")) is not None]
    calls: list[tuple[str, str]] = []
    for name, compiler in records:
        for item in compiler.get("recompiles") or []:
            if rank in (item.get("ranks") or []):
                set_off = TRIGGER_CALL.match(item.get("trigger") or "")
                if set_off is None:
                    return None
                calls.append((name, set_off[1]))
    if not n or len(calls) != n:
        return None
    several = len(records) > 1
    return [f"{call}{f' of {name}' if several else ''}" for name, call in dict.fromkeys(calls)]


def recompile_calls(entry: RankEntry, report: Report) -> str | None:
    """The rank's recompiles said as the events they were where its count is not its calls, as its facts and its
    row's notes in the rank table say them: "recompiled at call 3 (2 compiles)" (one call recompiled two frames, DDP's
    wrapper and the model's forward, the heading's "recompiled at call 3 on rank 1"; review 10 A10: "recompiles 2 at
    call 3" read as two events), "recompiled at calls 3, 5 and 8 (5 compiles)"; with several regions, whose call,
    "recompiled at call 3 of DistributedDataParallel (2 compiles)". Compiles, not graphs: a recompiled frame may
    capture none (DDP's wrapper), as the compile phases' heading counts them. None where each recompile was a call of
    its own, or where the calls are not known."""
    n, distinct = entry.get("recompiles"), _recompiled_calls(entry, report)
    if not n or distinct is None or len(distinct) == n:
        return None
    return f"recompiled at call{'s' if len(distinct) > 1 else ''} {formats.listed(distinct)} ({formats.plural(n, 'compile')})"


def recompile_cell(entry: RankEntry, report: Report) -> str | None:
    """The rank table's recompiles cell, where and how many compiles, short (review 11 I10/J6: the sentence
    "recompiled at call 3 (2 compiles)" after its heading "recompiles"; review 12 N4: "2 (call 3)" read as two
    recompiles of one call): "at call 3 (2 compiles)", "at calls 3, 5, 8 (5 compiles)"; None where the count alone is
    known (the cell then says the count) or there were none."""
    distinct = _recompiled_calls(entry, report)
    if distinct is None:
        return None
    where = f"call{'s' if len(distinct) > 1 else ''} {', '.join(distinct)}"
    return f"at {where} ({formats.plural(int(entry.get('recompiles') or 0), 'compile')})"


def waiting(entry: RankEntry) -> str | None:
    """ "waiting in all_reduce at train.py:42", "running at train.py:40": where a rank was when the job timed out."""
    stack = entry.get("stack")
    if not stack:
        return None
    loc = stack.get("location")
    at = f" at {formats.place(loc['file'], loc['line'], loc.get('cell'))}" if loc else ""
    return f"waiting in {stack['waitingIn']}{at}" if stack.get("waitingIn") else f"running{at}"


def headline_rank(entries: Sequence[RankEntry]) -> int | None:
    """In a torchrun job's report, the rank whose regions it shows (ranks/merge.py: the lowest that wrote a report):
    their calls and times are that rank's, and said as its; None for one process."""
    return next((entry["rank"] for entry in entries if entry.get("report")), None)


def on_ranks(ranks: Iterable[int], entries: Sequence[RankEntry]) -> str:
    """ "on each rank" (every rank of the job), "on rank 1", "on ranks 0 and 2", "on ranks 0-2 and 5": said inside a
    list of facts a comma separates, so its last rank joins with "and"."""
    named = sorted(set(ranks))
    if len(entries) > 1 and named == sorted(e["rank"] for e in entries):
        return "on each rank"
    head, comma, last = formats.rank_list(named).rpartition(", ")
    return f"on {head} and {last}" if comma else f"on {last}"


# more differing counts than this are said as their range per rank (a job of 64 ranks keeps one heading)
_GROUPS = 3


def _span(values: list[int], word: str) -> str:
    low, high = min(values), max(values)
    return formats.plural(low, word) if low == high else f"{low}–{high} {word}s"


def _by_rank(
    known: dict[int, tuple[int, ...]],
    words: tuple[str, ...],
    entries: Sequence[RankEntry],
    after_last: Callable[[int], str] | None = None,
) -> list[str]:
    """Counts (by rank, one per word) said with whose they are: one phrase per group of ranks that counted alike,
    "1 graph and 3 graph breaks on ranks 0 and 2"; past _GROUPS groups their range per rank. A count that is 0 on
    every rank is not said (graph breaks where none broke); the first always is. after_last: the words the last
    count is said with, by it ("3 graph breaks (in compiles that made no graph)")."""
    said_words = [i for i in range(len(words)) if i == 0 or any(c[i] for c in known.values())]
    last = len(words) - 1

    def said(text: str, i: int, count: int) -> str:
        return text + after_last(count) if after_last and i == last and count else text

    groups: dict[tuple[int, ...], list[int]] = {}
    for rank, counts in sorted(known.items()):
        groups.setdefault(counts, []).append(rank)
    if len(groups) > _GROUPS:
        spans = [said(_span(values := [c[i] for c in known.values()], words[i]), i, max(values)) for i in said_words]
        whose = "" if len(known) == len(entries) else f" {on_ranks(known, entries)}"
        return [f"{formats.listed(spans)} per rank{whose}"]
    return [
        f"{formats.listed([said(formats.plural(counts[i], words[i]), i, counts[i]) for i in said_words])} "
        f"{on_ranks(ranks, entries)}"
        for counts, ranks in groups.items()
    ]


def region_counts(
    region_id: str, entries: Sequence[RankEntry], after_breaks: Callable[[int], str] | None = None
) -> list[str]:
    """A torchrun job's region: its graphs and graph breaks as each rank counted them, said with whose they are (s29: a
    heading of "3 graph breaks" over ranks 1 and 3's 4, and "1 graph on rank 0 · 3 breaks" read as rank 0's breaks):
    "1 graph and 3 graph breaks on each rank"; "1 graph and 3 graph breaks on ranks 0 and 2", "2 graphs and 4 graph
    breaks on ranks 1 and 3"; more differing counts as their range, "1–3 graphs and 2–5 graph breaks per rank". A rank
    whose counts are not known (it wrote no report) is not named; [] where none is. after_breaks: the words each
    count of breaks is said with (sentences.region_facts: "4 graph breaks (in compiles that made no graph)")."""
    known: dict[int, tuple[int, ...]] = {}
    for entry in entries:
        for region in entry.get("regions") or []:
            graph_count = region.get("graphCount")
            if region["id"] == region_id and graph_count is not None:
                known[entry["rank"]] = (graph_count, region.get("graphBreaks") or 0)
    return _by_rank(known, ("graph", "graph break"), entries, after_breaks) if known else []


def job_counts(entries: Sequence[RankEntry]) -> list[str]:
    """A job read from its ranks' logs: what each rank compiled, as its row counts it, with whose it is: "1 graph, 3
    graph breaks and 0 recompiles on rank 0", "2 graphs, 4 graph breaks and 2 recompiles on rank 1" (s29: the merged
    record's "3 graph breaks at 1 site" over rows of 2); [] where no rank's is known."""
    known: dict[int, tuple[int, ...]] = {
        e["rank"]: (graphs, e.get("graphBreaks") or 0, e.get("recompiles") or 0)
        for e in entries
        if (graphs := e.get("graphCount")) is not None
    }
    return _by_rank(known, ("graph", "graph break", "recompile"), entries) if known else []


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


def _restated(divergence: Divergence, compilers: list[CompilerInsight]) -> list[QuickFix]:
    """The recompile sites a recompile divergence says again (the same ranks, a reason it compared), marked
    `inDivergence`; the edits their explanations offer, once each."""
    details = divergence.get("details") or {}
    reasons, ranks = set(details.get("reasons") or []), sorted(divergence["ranks"])
    offered: list[QuickFix] = []
    for compiler in compilers:
        for site in compiler.get("recompileSites") or []:
            if site.get("ranks") != ranks or site["reason"] not in reasons:
                continue
            site["inDivergence"] = True
            said = site.get("explanation")
            edits = [*([q] if said and (q := said.get("quickFix")) else []), *((said and said.get("quickFixes")) or [])]
            for edit in edits:
                if all(edit["title"] != o["title"] for o in offered):
                    offered.append(edit)
    return offered


def divergences(report: Report) -> None:
    """A torchrun job's recompile on some ranks is one thing that happened: the divergence says it at the line that
    made the call, with the ranks and what changed; its recompile site (at the frame that names the input) is not said
    again as a second finding (review 5C D6: one batch change at Ln 78 and Ln 45). The divergence carries the site's
    Quick Fixes, so nothing the editor offered is lost."""
    compilers = [c for m in report.get("modes") or [] if (c := m.get("compiler"))]
    compilers += [c for r in report.get("regions") or [] if (c := r.get("compiler"))]
    for divergence in report.get("divergence") or []:
        if divergence["kind"] != "recompile":
            continue
        offered = _restated(divergence, compilers)
        if offered:
            divergence["quickFixes"] = offered


def attach(report: Report) -> None:
    """Each rank's words, and an attached job's restarts."""
    logs = report.get("logs")
    said = restarts(logs.get("attempts") or []) if logs else None
    if logs and said is not None:
        logs["restartsText"] = said
    for entry in report.get("ranks") or []:
        entry["labelText"] = label(entry)
        calls, cell = recompile_calls(entry, report), recompile_cell(entry, report)
        if calls is not None:
            entry["recompilesText"] = calls
        if cell is not None:
            entry["recompilesCell"] = cell
        failed, did, waited = error(entry), facts(entry), waiting(entry)
        if failed is not None:
            entry["errorText"] = failed
        if did is not None:
            entry["factsText"] = did
        if waited is not None:
            entry["waitingText"] = waited
        entry["regionsText"] = regions(entry)
    divergences(report)
