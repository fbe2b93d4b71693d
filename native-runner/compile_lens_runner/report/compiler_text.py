"""What a compiler record says in lines (schema 1.25), as the CLI (`profile`, `inspect`) and the report panel show
them: the CUDA-graph outcome (`cudaGraphsLines`: how many graphs were captured, each skip with its line and fix, what
a log cannot say), a graph break's or recompile site's count (`countText`: the hover's title), the graph breaks one per line and fix
(`breakSites`, s28) and, in a report read
from logs, where Dynamo compiled frames and made no graph of them, that no
compiled code ran (`noGraphText`; a script's region says it as its answer: noCompiledCode), the compile phases' heading
(`phasesText`: compiles and the compile total), and (schema 1.27) what the compiler did, counted (`countsText`), its compile time by phase (`compileTimeText`) and its caches (`cacheText`). Said from the record with formats.py's numbers each time the report is written (answer.attach)."""

from __future__ import annotations

from collections.abc import Sequence

from .. import formats
from ..shapes.compiler import CompilePhase, CompilerInsight, CudaGraphSkip, CudaGraphStatus, GraphBreak, StepSpan
from ..shapes.ranks import RankEntry
from ..shapes.report import Report
from . import compile_names, mode_line, rank_text


def _skip_key(status: CudaGraphStatus) -> str:
    skip = status.get("explanation")
    if skip is None:
        return status.get("reason") or ""
    location = skip.get("location")
    return f"{skip['kind']}\0{location['file'] if location else None}\0{location['line'] if location else None}"


def cuda_graph_lines(statuses: list[CudaGraphStatus]) -> list[str]:
    """ "CUDA graphs: 1 of 2 graphs captured", then each kind of skip (with its graphs, line and fix), the graphs a log
    cannot place, PyTorch's hints, and the graphs with no reason recorded; [] where CUDA graphs were not in use."""
    if not statuses:
        return []
    captured = sum(1 for s in statuses if s["status"] == "captured")
    lines = [f"CUDA graphs: {captured} of {formats.plural(len(statuses), 'graph')} captured"]
    skips: dict[str, tuple[CudaGraphStatus, int]] = {}
    for status in (s for s in statuses if s["status"] == "skipped"):
        key = _skip_key(status)
        seen = skips.get(key)
        skips[key] = (seen[0], seen[1] + 1) if seen else (status, 1)
    for status, count in skips.values():
        skip = status.get("explanation")
        location = skip.get("location") if skip else None
        where = f" at {formats.place(location['file'], location['line'], location.get('cell'))}" if location else ""
        graphs = f" ({count} graphs)" if count > 1 else ""
        what = skip["what"] if skip else status.get("reason") or "no reason given"
        lines.append(f"  skipped{graphs}{where}: {what}")
        if skip and skip.get("fix"):
            lines.append(f"    fix: {skip.get('fix')}")
    unknown = [s for s in statuses if s["status"] == "unknown"]
    if unknown:
        reason = unknown[0].get("reason") or "the log cannot say"
        lines.append(f"  {formats.plural(len(unknown), 'graph')} unknown: {reason}")
    hints: dict[str, CudaGraphSkip] = {}
    for hint in (h for s in statuses for h in s.get("hints") or []):
        hints[hint["kind"]] = hint
    for hint in hints.values():
        lines.append(f"  hint: {hint['what']}")
        if hint.get("fix"):
            lines.append(f"    fix: {hint.get('fix')}")
    silent = sum(1 for s in statuses if s["status"] == "not-captured")
    if silent:
        lines.append(
            f"  {formats.plural(silent, 'graph')} not captured, no reason recorded (never run after compiling, or "
            "captured outside the log)"
        )
    return lines


def no_graph(compiler: CompilerInsight) -> str | None:
    """Frames compiled and no graph made: whatever called them ran eagerly (the first graph break says why)."""
    frames = compiler.get("compiledFrames") or 0
    breaks = mode_line.break_count(compiler)
    if frames == 0 or compiler["graphCount"] != 0 or breaks == 0:
        return None
    return (
        f"No compiled code ran: Dynamo {compile_names.NO_GRAPH} of the {formats.plural(frames, 'frame')} it compiled; every call "
        f"of {'it' if frames == 1 else 'them'} ran eagerly (see the first graph break)"
    )


def _at_sites(n: int, sites: int, word: str) -> str:
    """ "4 graph breaks at 2 sites"; "2 recompiles" where each was a site of its own."""
    return formats.plural(n, word) + ("" if n == sites else f" at {formats.plural(sites, 'site')}")


def counts(compiler: CompilerInsight, entries: Sequence[RankEntry] = ()) -> str:
    """ "5 compiles, 3 graphs, 4 graph breaks at 2 sites, 2 recompiles, 0 failed compiles, 0 restarts"; a job read
    from its ranks' logs (entries: its ranks), what each rank compiled as its row counts it, then the failed compiles
    and restarts of them all: "1 graph, 3 graph breaks and 0 recompiles on rank 0; 2 graphs, 4 graph breaks and 2
    recompiles on rank 1; 0 failed compiles and 0 restarts across the ranks" (the merged record's graphs are the
    lowest rank's, its breaks each site's there: said as the job's, they disagreed with the rows, s29); "5 compiles (1
    graph; 4 captured nothing in forward)" where some made none (review 8 A7), as the compile phases' heading says it."""
    by_rank = rank_text.job_counts(entries) if len(entries) > 1 else []
    if by_rank:
        failed = sum(e.get("compileFailures") or 0 for e in entries)
        restarts = sum(e.get("restarts") or 0 for e in entries)
        either = f"{formats.plural(failed, 'failed compile')} and {formats.plural(restarts, 'restart')}"
        return "; ".join([*by_rank, f"{either} across the ranks"])
    breaks = compiler["graphBreaks"]
    recompiles = compiler.get("recompiles") or []
    sites = compiler.get("recompileSites")
    frames, graphs = compile_names.compile_count(compiler), compiler["graphCount"] or 0
    # where some compiles made no graph, the breakdown the compile phases' heading says, adding up (review 9 D3)
    made = (
        [compiles_made(frames, graphs, compiler)]
        if graphs < frames
        else [formats.plural(frames, "compile"), formats.plural(graphs, "graph")]
    )
    return ", ".join(
        [
            *made,
            # the sites the breaks are listed by (breakSites: one per line and fix)
            _at_sites(mode_line.break_count(compiler), len(compiler.get("breakSites") or breaks), "graph break"),
            _at_sites(len(recompiles), len(sites) if sites is not None else len(recompiles), "recompile"),
            formats.plural(len(compiler.get("compileFailures") or []), "failed compile"),
            formats.plural(len(compiler.get("restarts") or []), "restart"),
        ]
    )


_PHASES = ("dynamo", "aot", "inductor", "codegen")


def compile_time(compiler: CompilerInsight) -> str | None:
    """ "3.4 s (dynamo 1.2 s, aot 0.50 s, inductor 1.0 s, codegen 0.30 s)"; None where none was counted."""
    phases = compiler.get("compileSeconds") or {}
    total = phases.get("total")
    if not total:
        return None
    shares = [f"{k} {formats.seconds(phases[k])}" for k in _PHASES if phases.get(k)]
    return formats.seconds(total) + (f" ({', '.join(shares)})" if shares else "")


def _captured_where(compiler: CompilerInsight, idle: list[str]) -> str:
    """Where the compiles that captured nothing were (graphOps 0, schema 1.36: the frame broke or returned before
    Dynamo captured an op; not "no tensor work": a TransformerEncoder whose fast-path op broke at its first op does
    tensor work, review 9 C2): " in function forward" for the user's functions, " in torch.compile's wrapper of your
    module" or " in Python's contextlib.py" for frames of PyTorch's or a library's (compile_names.outside_frames;
    review 15 V1: DDP's count said no place at all), " in function forward and in Python's contextlib.py" for
    both."""
    frames = {str(f["compileId"]): f for f in compiler.get("frames") or []}
    of = [frames[c] for c in idle if c in frames]
    names = [
        compile_names.function_name(str(f["function"]), f["location"])
        for f in of
        if f.get("function") and f.get("location")
    ]
    outside = [f for f in of if f.get("library") or ("location" in f and f["location"] is None)]
    if not of or len(of) < len(idle) or len(names) + len(outside) < len(of):
        return ""
    said = compile_names.in_functions(names) if names else ""
    return said + (f"{' and' if said else ''} in {compile_names.outside_frames(outside)}" if outside else "")


# a compile of the part of a function Dynamo resumed after a graph break (its frame's function Dynamo's
# "torch_dynamo_resume_in_<function>_at_<line>") that made no graph, for no reason the record gives: what its row says
# of it ("…, after a graph break in it), made no graph"), never "for a reason the log does not give" beside that row
# (review 18Y Y8: DDP's contextlib resume frame)
RESUMED = "resumed after a graph break"
_RESUMED_FUNCTION = "torch_dynamo_resume_in_"


def _resumed(compiler: CompilerInsight, unsaid: list[str]) -> int:
    """How many of the compiles `unsaid` (made no graph, no reason recorded) are a part resumed after a graph break."""
    functions = {str(f["compileId"]): str(f.get("function") or "") for f in compiler.get("frames") or []}
    return sum(1 for c in unsaid if functions.get(c, "").startswith(_RESUMED_FUNCTION))


def _none_made(compiler: CompilerInsight) -> list[tuple[int, str]]:
    """Why compiles made no graph, where the record says (compile_names.no_graph_reasons, the rule the phases' rows
    are named by): each reason's count and its words ("captured nothing in function forward", "stopped at a graph
    break", "resumed after a graph break", "hit the recompile limit", "failed", "only autotuned"), in that order."""
    reasons = compile_names.no_graph_reasons(compiler)
    idle = [c for c, why in reasons.items() if why == compile_names.NOTHING_CAPTURED]
    said = [
        (len(idle), f"{compile_names.NOTHING_CAPTURED}{_captured_where(compiler, idle)}"),
        (sum(1 for why in reasons.values() if why == compile_names.AT_BREAK), compile_names.AT_BREAK),
        (_resumed(compiler, [c for c, why in reasons.items() if why is None]), RESUMED),
        *(
            (sum(1 for why in reasons.values() if why == words), words)
            for words in (compile_names.LIMIT_HIT, compile_names.FAILED, compile_names.AUTOTUNED_ONLY)
        ),
    ]
    return [(n, words) for n, words in said if n]


def compiles_made(compiles: int, graphs: int | None, compiler: CompilerInsight | None = None) -> str:
    """ "5 compiles (1 graph)", "1 compile (made no graph)": compiles, and beside them the graphs where some made none
    (review 5A G3: "1 compile, 783 ms" beside "made no graph"); the compile phases' heading, the counts and a region's
    facts say it alike (review 6C Z6, 14R R8: five wordings of one thing). Which made no graph and why, where the
    record says (review 8 A7/B4: "5 compiles (1 graph) · 4 graph breaks" read as graphs gone missing, each break
    starting a new graph), each reason in the same words and order with or without its count: "5 compiles (1 graph; 4
    made no graph: captured nothing in function forward)", "17 compiles (12 graphs; 5 made no graph: 4 captured nothing
    in function forward, 1 hit the recompile limit)". The reasons add up to the compiles (review 9 D3: a compile the
    log recorded no op count for was left unsaid): the rest said as that, "7 compiles (2 graphs; 5 made no graph: 4
    captured nothing, 1 for a reason the log does not give)", and with no reason recorded at all, "2 compiles (1 graph;
    1 made no graph for a reason the log does not give)"; reasons that overshoot the compiles (counted from another
    record) are not said as a breakdown."""
    if graphs is None or graphs >= compiles:
        return formats.plural(compiles, "compile")
    why = _none_made(compiler) if compiler else []
    none = compiles - graphs
    rest = none - sum(n for n, _ in why)
    if rest < 0:
        why, rest = [], none
    if not why:  # "(1 graph; 4 made no graph for reasons the log does not give)"
        made = f"{compile_names.NO_GRAPH} {compile_names.not_logged(none)}"
    elif len(why) == 1 and not rest:  # one reason for them all, its count the one before it
        made = f"{compile_names.NO_GRAPH}: {why[0][1]}"
    else:
        said = [f"{n} {words}" for n, words in why] + ([f"{rest} {compile_names.not_logged(rest)}"] if rest else [])
        made = f"{compile_names.NO_GRAPH}: {', '.join(said)}"
    if graphs == 0:  # "1 compile (made no graph: captured nothing)"
        return f"{formats.plural(compiles, 'compile')} ({made})"
    return f"{formats.plural(compiles, 'compile')} ({formats.plural(graphs, 'graph')}; {none} {made})"


def _time_span(seconds: list[float]) -> str:
    """ "5.28 s", "5.1–5.9 s", "980 ms–1.2 s": the least and the most of some compile totals."""
    low, high = formats.seconds(min(seconds)), formats.seconds(max(seconds))
    if low == high:
        return low
    (low_digits, low_unit), high_unit = low.split(" "), high.split(" ")[1]
    return f"{low_digits if low_unit == high_unit else low}–{high}"


def _drawn(ranks: Sequence[int], entries: Sequence[RankEntry]) -> str:
    """ "; rank 0's drawn (rank 2's alike, 5.28 s)", "; rank 0's drawn (ranks 1-63 alike, 5.1–5.9 s)": which rank's
    phases a group of ranks alike is drawn by, and the others' compile totals (their rows are not drawn)."""
    others = [entry.get("compileSeconds") for entry in entries if entry["rank"] in ranks[1:]]
    times = [t for t in others if t is not None]
    span = f", {_time_span(times)}" if times and len(times) == len(ranks) - 1 else ""
    whose = formats.rank_list(ranks[1:]) + ("'s" if len(ranks) == 2 else "")
    return f"; rank {ranks[0]}'s drawn ({whose} alike{span})"


def phases_text(
    compiler: CompilerInsight, entries: Sequence[RankEntry] = (), ranks: Sequence[int] | None = None
) -> str | None:
    """The compile phases' heading: "2 compiles, 239 ms, 1 cache hit", its total the compile total every other
    sentence says (compileSeconds.total: the region's facts, a rank's "compiling", compileTimeText), which its rows (one
    per compile, its outermost phases) add up to; review 4A F2: "2 compiles, 6.6 s" over rows adding up to 6.5 s. The
    rows' own sum where no total was counted; None without phases. In a job of ranks (entries), whose they are: the
    merged record's phases are the lowest rank's with a record (ranks/merge.merge_insights), "5 compiles (1 graph) on
    rank 0, 55.1 s" (review 10H H3: said as the job's beside rank 1's "2 graphs" and "compiling 57 s"); a group of
    ranks alike (`ranks`, schema 1.38 rankPhases: ranks/merge.rank_phases), theirs, the lowest rank's drawn: "5
    compiles (1 graph; 3 made no graph: captured nothing) on ranks 0 and 2, 5.78 s; rank 0's drawn (rank 2's alike, 5.28 s)"."""
    phases = compiler.get("phases") or []
    if not phases:
        return None
    compiles = len({p["compileId"] for p in phases})
    total = (compiler.get("compileSeconds") or {}).get("total") or sum(
        p["durMs"] for p in phases if p["depth"] == 0 and not p.get("cache")
    ) / 1000
    hits = sum(1 for p in phases if p.get("cacheHit"))
    # a cold cache beside a long total (review 5C X6: fused's 64.3 s with no word on why)
    graphs = compiler.get("graphCount")
    if ranks is None:
        recorded = [e["rank"] for e in entries if e.get("graphCount") is not None] if len(entries) > 1 else []
        ranks = [min(recorded)] if recorded else []
    whose = f" {rank_text.on_ranks(ranks, entries)}" if ranks else ""
    return ", ".join(
        [
            compiles_made(compiles, graphs, compiler) + whose,
            formats.seconds(total) + (mode_line.cold_cache(compiler) if graphs else ""),
            *([formats.plural(hits, "cache hit")] if hits else []),
        ]
    ) + (_drawn(ranks, entries) if len(ranks) > 1 else "")


def _under_cache_load(build: CompilePhase, phases: list[CompilePhase]) -> str | None:
    """The name of the cache load ("load from cache") that `build` lies inside, or None."""
    for p in phases:
        inside = p["startMs"] <= build["startMs"] and build["startMs"] < p["startMs"] + p["durMs"]
        loads = "cache" in p["name"].lower() and not p.get("cache")
        if p["compileId"] == build["compileId"] and p["depth"] < build["depth"] and inside and loads:
            return p["name"]
    return None


def cache_build(compiler: CompilerInsight) -> str | None:
    """Why a cache hit has a C++ compile under it: loading a cached graph builds its C++ where this machine has not
    built it yet (review 8 A9: "1 cache hit" over a 607 ms C++ compile read as a cache that did not work). None where
    no cache hit's load built anything."""
    phases = compiler.get("phases") or []
    hits = {p["compileId"] for p in phases if p.get("cacheHit")}
    builds = [
        (p, load)
        for p in phases
        if p["compileId"] in hits and not p.get("cache") and "c++ compile" in p["name"].lower()
        for load in [_under_cache_load(p, phases)]
        if load is not None
    ]
    if not builds:
        return None
    loads = sorted({load for _, load in builds})
    took = formats.ms(sum(p["durMs"] for p, _ in builds))
    compiles = len({p["compileId"] for p, _ in builds})
    many = f"{took} in {formats.plural(compiles, 'compile')}" if compiles > 1 else took
    under = " and ".join(f"'{load}'" for load in loads)
    return (
        "A cache hit still loads the graph it found, and loading it builds its C++ where this machine has not built"
        f" it yet: the C++ compile under {under} ({many}) is that build, not a compile the cache missed."
    )


_CACHES = (("fxGraph", "FX graph"), ("aotAutograd", "AOT autograd"))


def caches(compiler: CompilerInsight) -> str | None:
    """ "FX graph 2 hits, 1 miss; AOT autograd 1 hit"; None where no lookup was recorded."""
    said = []
    for key, name in _CACHES:
        looked = (compiler.get("cache") or {}).get(key) or {}
        parts = [
            formats.plural(n, word, words)
            for n, word, words in (
                (looked.get("hit", 0), "hit", "hits"),
                (looked.get("miss", 0), "miss", "misses"),
                (looked.get("bypass", 0), "bypass", "bypasses"),
            )
            if n
        ]
        if parts:
            said.append(f"{name} {', '.join(parts)}")
    return "; ".join(said) or None


# the pattern's eager clause (compiler/break_patterns._EAGER) for one call, and for the several a site names
_ONE_CALL, _THOSE_CALLS = "runs that call in Python", "runs those calls in Python"


def _named(names: list[str]) -> str:
    quoted = [f"`{name}`" for name in names]
    return quoted[0] if len(quoted) == 1 else f"{', '.join(quoted[:-1])} and {quoted[-1]}"


def break_sites(breaks: list[GraphBreak]) -> list[GraphBreak]:
    """The graph breaks as the user acts on them (s28, `breakSites`, said each time the report is written): one per
    line and fix, counted. Breaks of one pattern at one line with one fix (DDP's Logger call and its
    `_inside_ddp_forward`, both at the training line) are one thing to do: said once, naming each call that broke,
    their counts summed, every rank that had one (review 5C M9: "2 graph breaks" over an item and a "×2" item, DDP's
    fix printed under each). A break outside the table stays one site per reason."""
    grouped: dict[tuple[object, ...], list[GraphBreak]] = {}
    for item in breaks:
        loc, said = item.get("location"), item.get("explanation")
        where = (loc["file"], loc["line"], loc.get("cell")) if loc else (None, None, None)
        same = ("fix", said["pattern"], said["fix"]) if said else ("reason", item.get("reason"))
        grouped.setdefault((*where, *same), []).append(item)
    out: list[GraphBreak] = []
    for group in grouped.values():
        first = group[0]
        site: GraphBreak = {**first, "count": sum(b.get("count") or 1 for b in group)}
        ranked = [b["ranks"] for b in group if "ranks" in b]
        if ranked:
            site["ranks"] = sorted({rank for ranks in ranked for rank in ranks})
        on_ranks: dict[str, int] = {}
        for counted in (b["rankCounts"] for b in group if "rankCounts" in b):
            for rank, n in counted.items():
                on_ranks[rank] = on_ranks.get(rank, 0) + n
        if on_ranks:
            site["rankCounts"] = on_ranks
        broke = list(dict.fromkeys(str(e["broke"]) for b in group if (e := b.get("explanation")) and e.get("broke")))
        said = first.get("explanation")
        # the pattern's sentence names the call that broke once, as code (compiler/break_patterns._said)
        if said and len(broke) > 1 and f"`{broke[0]}`" in said["what"]:
            named = said["what"].replace(f"`{broke[0]}`", _named(broke), 1).replace(_ONE_CALL, _THOSE_CALLS)
            site["explanation"] = {**said, "what": named}
        site.pop("countText", None)  # the site's own count is said (compiler_text.count_texts)
        out.append(site)
    return out


def _on_ranks(counted: dict[str, int], entries: Sequence[RankEntry]) -> str:
    """ "3 graph breaks at this line on ranks 0 and 2, 4 on ranks 1 and 3", "2 graph breaks at this line on each
    rank": a torchrun job's break as each rank that had it counted it (its `count`, the headline rank's, said as the
    whole job's read "×3 on all 4 ranks" over rows of 4, s29)."""
    groups: dict[int, list[int]] = {}
    for rank, n in sorted(counted.items(), key=lambda pair: int(pair[0])):
        groups.setdefault(n, []).append(int(rank))
    (first, ranks), *rest = groups.items()
    head = f"{formats.plural(first, 'graph break')} at this line {rank_text.on_ranks(ranks, entries)}"
    return ", ".join([head, *(f"{n} {rank_text.on_ranks(more, entries)}" for n, more in rest)])


def count_texts(compiler: CompilerInsight, entries: Sequence[RankEntry] = ()) -> None:
    """A graph break or recompile site seen more than once: its count, as the hover's title says it; a torchrun job's
    break (entries: its ranks) each rank's count, whatever it is."""
    for item in [*compiler["graphBreaks"], *(compiler.get("breakSites") or [])]:
        counted = item.get("rankCounts")
        if counted and entries:
            item["countText"] = _on_ranks(counted, entries)
        elif (item.get("count") or 1) > 1:
            item["countText"] = f"{formats.plural(item.get('count') or 1, 'graph break')} at this line"
    for site in compiler.get("recompileSites") or []:
        if site["count"] > 1:
            site["countText"] = f"{formats.plural(site['count'], 'recompile')} at this line"


def _phase_texts(compiler: CompilerInsight, entries: Sequence[RankEntry], ranks: Sequence[int] | None = None) -> None:
    """A record's compile phases' heading and its cache hits' C++ build, where it has them."""
    phases = phases_text(compiler, entries, ranks)
    if phases is not None:
        compiler["phasesText"] = phases
    build = cache_build(compiler)
    if build is not None:
        compiler["cacheBuildText"] = build


def steps_text(steps: StepSpan) -> str:
    """ "step 2", "steps 2–3": the profiled steps a kernel's time per step is the mean of (kernelSteps)."""
    first, last = steps["first"], steps["last"]
    return f"step {first}" if first == last else f"steps {first}–{last}"


def attach(report: Report) -> None:
    """Each compiler record's lines and counts: the modes' and the regions'."""
    records = [m.get("compiler") for m in report["modes"]]
    records += [r.get("compiler") for r in report.get("regions") or []]
    for compiler in (c for c in records if c is not None):
        for steps in [compiler.get("kernelSteps"), *(k.get("kernelSteps") for k in compiler.get("kernels") or [])]:
            if steps is not None:
                steps["text"] = steps_text(steps)
        if compiler["graphBreaks"]:
            compiler["breakSites"] = break_sites(compiler["graphBreaks"])
        count_texts(compiler, report.get("ranks") or [])
        lines = cuda_graph_lines(compiler.get("cudaGraphs") or [])
        if lines:
            compiler["cudaGraphsLines"] = lines
        _phase_texts(compiler, report.get("ranks") or [])
        for group in compiler.get("rankPhases") or []:
            _phase_texts(group["compiler"], report.get("ranks") or [], group["ranks"])
        if report["target"]["kind"] != "logs":
            continue  # a region says it as its answer (noCompiledCode), and its facts in its headline
        text, seconds, cache = no_graph(compiler), compile_time(compiler), caches(compiler)
        if text is not None:
            compiler["noGraphText"] = text
        compiler["countsText"] = counts(compiler, report.get("ranks") or [])
        if seconds is not None:
            compiler["compileTimeText"] = seconds
        if cache is not None:
            compiler["cacheText"] = cache
