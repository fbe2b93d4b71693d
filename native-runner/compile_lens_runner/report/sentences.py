"""Every sentence of an answer, written here and nowhere else (schema 1.21): the headline, the verdict's sentence and
each number's text, rendered from the answer's codes and numbers (report/answer.py decides them) with formats.py's
numbers, each reason in reason_text.py's words; and the compiler facts a headline ends with. The report carries the
strings; every surface (CLI, report panel, CodeLens, hover, Problems, Runs view, compare, --json) shows them as they
are.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from .. import formats
from ..shapes.answer import Answer, AnswerNumber
from ..shapes.compiler import CompilerInsight, Recompile
from ..shapes.ranks import RankEntry
from ..shapes.region import Region
from ..shapes.report import ProfilerNote, Report
from . import compile_names, compiler_text, in_situ_text, mode_line, rank_text, reason_text, run_source


def _why_no_range(n: AnswerNumber) -> str:
    """Why a number too noisy has no range, after the word for it (direction_text), and which side of 1× the range
    not said lay on (schema 1.36): "more than 3× away" read as at most 3× away, a direction it did not have (review
    8A A4). Its ends are never said (tooNoisy.low/high keep them for the record): "0.0002–25.4×" is no range (issue 44
    point 3), and an evidence number beside it is labelled as evidence (review H4), not a second answer."""
    noisy = n["tooNoisy"]
    if noisy["why"] == "too-few-pairs":
        return f"{formats.plural(n.get('pairs', 0), 'block')} each way"
    return "a next run could land more than 3× away" + _SIDE_OF_ONE.get(noisy.get("side", ""), "")


# a range that crosses 1× needs no words of its own: "too noisy to say" leads its number
_SIDE_OF_ONE = {"slower": ", though below 1×", "faster": ", though above 1×"}


def _no_direction_words(n: AnswerNumber) -> str:
    """The words for a number too noisy for a range: its direction where the whole range lay one way (schema 1.36),
    never its size; else that it points nowhere."""
    noisy = n["tooNoisy"]
    side = noisy.get("side")
    if side in ("slower", "faster"):
        # before the number, in the CodeLens's 46 characters with it: "stay eager: slower by a noisy amount, 0.094×"
        # ("slower, too noisy to size" read as a typo of "say": review 9E E1)
        return f"{side} by {NOISY_AMOUNT}"
    return _NO_DIRECTION[noisy["why"]]


def number_text(n: AnswerNumber) -> str:
    """ "1.31× per step in situ (1.22–1.40×)", "1.52× per token in situ (1.40–1.61×)" (a decode loop's step),
    "1.84× per call replayed with default (1.70–1.95×)", "3.31× per call with reduce-overhead (2.77–3.79×)": the one
    wording of a speedup and its range. A number that points nowhere for its noise (or for want of a range) says so
    first, so that no surface, shortened or not, leads with a number the runner does not stand by (issue 44): "too
    noisy to say, 1.07× per call in situ (a next run could land more than 3× away)", "slower by a noisy amount, 0.094×
    per call replayed (a next run could land more than 3× away, though below 1×)", "too noisy to say, 1.2× per step
    in situ (0.7–2.1×)", "no range measured, 1.84× per call replayed"; one timed on a busy host says that after it,
    too noisy or not, as the reason it decides nothing (review 9E E1: a CodeLens cut "host busy" from "slower, too
    noisy to size, 0.35×"): "0.90× per call replayed (0.85–0.96×), host busy, not trusted", "0.35× per call replayed
    (a next run could land more than 3× away, though below 1×), host busy, not trusted"."""
    mode = f" with {n['mode']}" if n.get("mode") and n["kind"] in ("replay-call", "target-rounds") else ""
    how = f"per {n['unit']} in situ" if n["kind"] == "in-situ-step" else reason_text.HOW[n["kind"]]
    ends = (n["low"], n["high"]) if "low" in n and "high" in n else ()
    text = f"{formats.speedup(n['value'])} {how}{mode}"
    noisy = n.get("tooNoisy")
    if noisy and n.get("direction") == "host-busy":  # the host's load is why it decides nothing: said after it
        text = f"{text} ({_why_no_range(n)})"
    elif noisy:
        text = f"{_no_direction_words(n)}, {text} ({_why_no_range(n)})"
    elif ends:
        text = f"{text} ({formats.interval(*ends, n['value'])})"
    direction = n.get("direction")  # absent in a number said before verdict.directed (a report before 1.26)
    if direction == "too-noisy" and not noisy and one_way(n):  # it points one way: the number first, as it does
        text = f"{text}, {direction_text(n)}"
    elif direction == "too-noisy" and not noisy:
        text = f"{direction_text(n)}, {text}"
    elif direction == "host-busy":
        text = f"{text}, {direction_text(n)}"
    return text


# a direction's size a next run could not say: "slower by a noisy amount" (no comma: a CodeLens cut at commas keeps
# the words whole)
NOISY_AMOUNT = "a noisy amount"
# the word beside a number (schema 1.26: its directionText), by its direction; too noisy: why no range is said
_DIRECTION_WORDS = {"faster": "faster", "host-busy": "host busy, not trusted"}
_NO_DIRECTION = {"range-too-wide": "too noisy to say", "too-few-pairs": "too few blocks to say"}


def one_way(n: AnswerNumber) -> str | None:
    """ "faster" or "slower" for a range wholly on one side of 1×, though too wide to decide on (3.36–7.32×: compiled
    is faster, by how much a next run cannot say), said or too wide to say (tooNoisy.side, schema 1.36); None for one
    that reaches both ways, or none."""
    if "low" not in n or "high" not in n:
        side = n["tooNoisy"].get("side") if "tooNoisy" in n else None
        return side if side in ("faster", "slower") else None
    return "faster" if n["low"] > 1.0 else "slower" if n["high"] < 1.0 else None


def direction_text(n: AnswerNumber) -> str:
    """ "faster", "compiled takes 1.92× as long" (a slowdown); "faster but too wide to decide" where the range points
    one way but spans too much to stand by ("slower by a noisy amount": it stays eager); "slower by a noisy amount"
    where a range too wide to say lay wholly on one side of 1× too; "too noisy to say", "no
    range measured" or "host busy, not trusted" where the number points nowhere."""
    direction = n["direction"]  # verdict.directed gives every number its direction
    if direction == "slower":  # "0.52× (slower)" read as 52 % slower (review 3B N9): the slowdown as a user reads it
        return f"compiled takes {formats.slowdown(n['value'], n.get('eagerMs'), n.get('compiledMs'))} as long"
    if direction != "too-noisy":
        return _DIRECTION_WORDS[direction]
    if n.get("tooNoisy"):
        return _no_direction_words(n)
    if way := one_way(n):
        # slower in every reading stays eager (verdict.slower_however_noisy): its size is what is too wide to say
        # no comma: a CodeLens cut at commas keeps the words whole
        return f"slower by {NOISY_AMOUNT}" if way == "slower" else "faster but too wide to decide"
    return "too noisy to say" if "low" in n and "high" in n else "no range measured"  # a report before ranges


def _verdict_part(answer: Answer) -> str:
    number = answer["number"]
    leading = any(
        r["code"] in reason_text.FAILURES for r in answer["reasons"]
    )  # the shape story leads, but is no failure
    if number is not None:
        said = number_text(number)
        return (
            f"measured before it: {said}"
            if leading and answer["verdict"] == "none"
            else f"{reason_text.VERDICT_WORDS[answer['verdict']]}: {said}"
        )
    rest = [r for r in answer["reasons"] if r["code"] not in reason_text.LEADING and r["code"] not in _BESIDE_NUMBER]
    if leading:
        return ""
    return (
        f"{reason_text.VERDICT_WORDS[answer['verdict']]}: {reason_text.clause(rest[0])}"
        if rest
        else reason_text.VERDICT_WORDS[answer["verdict"]]
    )


# reasons said in the headline after the number: what makes the verdict what it is
_AFTER_NUMBER = frozenset(
    {
        "pays-back-after",
        "not-clearly-faster",
        "near-the-bar",
        "too-noisy-to-decide",
        "no-range",
        "host-contended",
        "in-situ-too-few",
        "in-situ-own-cost",
        "eager-fallback",
        "backend-no-kernels",
    }
)
# the reason a number's own words say (number_text), by its direction
_SAID_BY_NUMBER = {"too-noisy": "too-noisy-to-decide", "host-busy": "host-contended"}
# said beside the verdict (what an in-situ number leaves out, the shape fix as measured): never the reason in its place
_BESIDE_NUMBER = frozenset({"eager-fallback", "in-situ-left-out", "decode-loop", "shape-fix"})


# past this a headline is cut on every surface that shows it (issue 44)
HEADLINE_MAX = 200


def headline(answer: Answer, facts: list[str]) -> str:
    """The one line: leading reasons (the shape story in its one fact), the verdict and its number, why, then the facts
    ("2 graphs", "compile 3.4 s"). The shape fixes, measured or not, and a decode loop's per-sequence times are said
    in the sentence, and so are the reasons after the number, last first, that would take it past HEADLINE_MAX."""
    lead = [reason_text.clause(r) for r in answer["reasons"] if r["code"] in reason_text.LEADING]
    number = answer["number"]
    # a number that points nowhere says why (number_text): "too noisy to decide" or "host busy" after it says it twice
    said_by_number = _SAID_BY_NUMBER.get(number.get("direction", "")) if number else None
    if number and said_by_number == "too-noisy-to-decide" and "low" not in number and "tooNoisy" not in number:
        said_by_number = "no-range"
    # near the bar qualifies the verdict, never sizes it: the first clause a headline too long leaves to the sentence
    said = sorted(answer["reasons"], key=lambda r: r["code"] == "near-the-bar")
    after = [reason_text.clause(r) for r in said if r["code"] in _AFTER_NUMBER and r["code"] != said_by_number]
    after = after if number else []
    while True:
        # a reason two measurements share (the host busy for in situ and for the replay) is said once
        line = " · ".join(dict.fromkeys(p for p in [*lead, _verdict_part(answer), *after, *facts] if p))
        if len(line) <= HEADLINE_MAX or not after:
            return line
        after.pop()  # the sentence says every reason: the verdict, its number and the facts are what must show


def headline_after_lead(answer: Answer) -> str:
    """The headline without its leading clauses, for a line that follows their sentences in full (the script's
    recommendation: the deciding region's shape story is said once, with its fix)."""
    leading = (reason_text.clause(r) for r in answer["reasons"] if r["code"] in reason_text.LEADING)
    lead = " · ".join(dict.fromkeys(p for p in leading if p))
    said = answer["headline"]
    return said[len(lead) + len(" · ") :] if lead and said.startswith(f"{lead} · ") else said


def verdict_sentence(answer: Answer, source: str = run_source.SCRIPT) -> str:
    """The verdict and its reasons in full: "Compile (default): 1.31× per step in situ (1.22–1.40×). Its 11.7 s
    compile pays back after 212 steps, this run made 400." ("Compile: 1.30× per call with default …" where the number
    names the mode); source: what the user ran (run_source.noun), where a reason's sentence names it."""
    verdict, number = answer["verdict"], answer["number"]
    # the mode to compile with, where its number does not name it already
    mode = "" if number is not None and number.get("mode") == answer["mode"] else f" ({answer['mode']})"
    head = {
        "compile": f"Compile{mode}",
        "compile-for-longer-runs": f"Compile{mode} for longer runs",
        "stay-eager": "Stay eager",
        "none": "No verdict",
    }[verdict]
    lead = [reason_text.sentence(r, source) for r in answer["reasons"] if r["code"] in reason_text.LEADING]
    rest = [reason_text.sentence(r, source) for r in answer["reasons"] if r["code"] not in reason_text.LEADING]
    said = f"{head}: {number_text(number)}." if number is not None else f"{head}."
    return " ".join([*lead, said, *rest])


def compiler_facts(compiler: CompilerInsight | None, compile_s: float | None) -> list[str]:
    """A target mode's compiler facts for its headline: graphs, breaks, recompiles, compile time."""
    graphs = compiler.get("graphCount") if compiler else None
    breaks, recompiles = (
        (mode_line.break_count(compiler), len(compiler.get("recompiles") or [])) if compiler else (0, 0)
    )
    out = [formats.plural(graphs or 0, "graph"), formats.plural(breaks, "break")]
    if recompiles:
        out.append(formats.plural(recompiles, "recompile"))
    if compile_s is not None:
        out.append(mode_line.compile_text(compile_s, compiler))
    return out


_TRIGGER_CALL = rank_text.TRIGGER_CALL  # the call that set a recompile off: "call 3 of DistributedDataParallel …"


def recompiles_text(items: list[Recompile], on: str = "") -> str:
    """ "2 recompiles"; several frames recompiled by one call (DDP's forward and the model's, set off by one new
    batch size) said as the one event it was: "recompiled at call 3" (on: " on rank 1", after the call). Not how many
    frames: the user wrote one call, and a wrapper's frame is no frame of theirs (review 5C P12)."""
    triggers = {item.get("trigger") for item in items}
    call = _TRIGGER_CALL.match(next(iter(triggers)) or "") if len(items) > 1 and len(triggers) == 1 else None
    if call:
        return f"recompiled at call {call[1]}{on}"
    return formats.plural(len(items), "recompile") + on


def _recompiled(region: Region, job: Sequence[RankEntry]) -> tuple[int | None, int, list[str]]:
    """A region's graphs, graph breaks and recompiles said ("recompiled at call 3 on rank 1"): in a torchrun job (job:
    its ranks) each recompile is said with the ranks it happened on, "on each rank" where every rank had it."""
    compiler = region.get("compiler")
    if compiler is None:  # the calls say it when there is no compiler record
        count = sum(1 for c in region["calls"] if c.get("event") == "recompiled")
        return None, 0, [formats.plural(count, "recompile")] if count else []
    by_ranks: dict[tuple[int, ...], list[Recompile]] = {}
    for item in compiler.get("recompiles") or []:
        by_ranks.setdefault(tuple(sorted(item.get("ranks") or [])) if job else (), []).append(item)
    said = [
        recompiles_text(items, f" {rank_text.on_ranks(ranks, job)}" if ranks else "")
        for ranks, items in by_ranks.items()
    ]
    return compiler.get("graphCount"), mode_line.break_count(compiler), said


def _graphs(graphs: int | None) -> list[str]:
    return [formats.plural(graphs, "graph")] if graphs is not None else []


def counts(region: Region, job: Sequence[RankEntry] = ()) -> list[str]:
    """A region's compiler facts for its headline: graphs, breaks, recompiles (_recompiled), calls that ran eagerly.
    job: a torchrun job's ranks, whose graphs and breaks are said as each rank counted them, with whose they are
    (rank_text.region_counts: the rank table's rows say the same counts)."""
    graphs, breaks, recompiled = _recompiled(region, job)
    # calls Dynamo ran eagerly: said here unless the shape story says them (the recompile limit's, over the script's
    # calls as written; or beside an in-situ number, the compiled side's): one quantity, one value
    shapes, situ = region.get("shapes"), region.get("inSitu")
    limit = shapes.get("recompileLimit") if shapes else None
    beside = situ is not None and situ.get("eagerFallback") and (situ.get("step") or situ.get("call"))
    said = bool(limit and limit["eagerCalls"]) or bool(beside)
    eager_calls = 0 if said else sum(1 for c in region["calls"] if c.get("ranCompiled") is False)
    compiled = (
        rank_text.region_counts(region["id"], job)
        if job
        else [*_graphs(graphs), *([formats.plural(breaks, "break")] if breaks else [])]
    )
    out = [*compiled, *recompiled]
    if eager_calls:
        out.append(f"{formats.plural(eager_calls, 'call')} ran eagerly")
    return out


def _compiles(region: Region, graphs: int | None) -> list[str]:
    """The graphs said beside the compiles where some compiles made none (a frame that broke or returned before Dynamo captured an op,
    recompiled): the compile rows under the facts count compiles, so the facts say both (review 4B M6: "1 graph" above
    five compile rows), as the rows' heading does: "5 compiles (1 graph)"."""
    compiler = region.get("compiler")
    compiles = compile_names.compile_count(compiler) if compiler else 0
    if graphs is None or compiles <= graphs:
        return _graphs(graphs)
    return [compiler_text.compiles_made(compiles, graphs, compiler)]


def _breaks_made_nothing(compiler: CompilerInsight | None) -> bool:
    """Whether every graph break of the record was in a compile that made no graph (compile_names.no_graph_reasons:
    the rule the compile phases' rows are named by)."""
    breaks = (compiler.get("graphBreaks") or []) if compiler else []
    idle = compile_names.no_graph_reasons(compiler) if compiler and breaks else {}
    return bool(breaks) and all(str(b.get("compileId")) in idle for b in breaks)


def _in_no_graph(breaks: int) -> str:
    """ " (in compiles that made no graph)", said after a count of graph breaks every one of which was."""
    return f" (in {'a compile' if breaks == 1 else 'compiles'} that {compile_names.NO_GRAPH})"


def region_facts(region: Region, job: Sequence[RankEntry] = (), source: str = run_source.SCRIPT) -> list[str]:
    """What the script did with a region, counted (schema 1.32: region.facts, the CLI's region line and the report
    panel's): "12 calls", "5 compiles (1 graph)", "2 graph breaks", "3 calls ran eagerly", "3.5 s compiling in the
    script's own calls". In a torchrun job (job: its ranks) the graphs and breaks as each rank counted them, as the
    rank table counts graphs (review 6C Z4: not "5 compiles made 1 graph on rank 0 (4 made none)" above rank 0's
    "recompiles 0"): "1 graph and 3 graph breaks on ranks 0 and 2", "2 graphs and 4 graph breaks on ranks 1 and 3",
    "recompiled at call 3 on ranks 1 and 3", and the compile time of the rank whose calls these are, "50.3 s
    compiling on rank 0 in the script's own calls"; "the notebook's own calls" in a notebook's run (source:
    run_source.noun)."""
    graphs, breaks, recompiled = _recompiled(region, job)
    # breaks all in compiles that made no graph: said so, or "1 graph and 3 graph breaks" reads as a miscount, each
    # break splitting a graph in two (review 15 U3: DDP's contextlib frames broke and made nothing); in a job after
    # each rank's count alike (review 16 X7: "every graph break in a compile that made no graph" read as a heading)
    idle = _in_no_graph if breaks and _breaks_made_nothing(region.get("compiler")) else None
    compiled = (
        rank_text.region_counts(region["id"], job, idle)
        if job
        else [
            *_compiles(region, graphs),
            *([formats.plural(breaks, "graph break") + (idle(breaks) if idle else "")] if breaks else []),
        ]
    )
    out = [formats.plural(region["callCount"], "call"), *compiled, *recompiled]
    eager_calls = sum(1 for c in region["calls"] if c.get("ranCompiled") is False)
    if eager_calls:
        out.append(f"{formats.plural(eager_calls, 'call')} ran eagerly")
    # the compiler's own count in the script's run (in situ, the warm-up's time beyond eager steps is another
    # measurement, said as that); compiles that made no graph are said as the attempt they were
    reported = in_situ_text.compile_seconds_reported(region)
    if reported is not None:
        doing = "trying to compile" if graphs == 0 else "compiling"
        rank = rank_text.headline_rank(job)
        on = f" on rank {rank}" if rank is not None else ""
        cold = mode_line.cold_cache(region.get("compiler")) if graphs else ""
        out.append(f"{formats.seconds(reported)} {doing}{on} in the {source}'s own calls{cold}")
    return out


def region_labels(regions: list[Region]) -> dict[str, str]:
    """Each region as its headings and panes say it (schema 1.33: region.label, review 3B D22: "r0"/"r1" before every
    name): its name, "TinyTransformer"; its id after it only where another region has the same name, "forward (r1)"."""
    names = [r["name"] for r in regions]
    return {r["id"]: f"{r['name']} ({r['id']})" if names.count(r["name"]) > 1 else r["name"] for r in regions}


def profiler_note(report: Report) -> ProfilerNote | None:
    """What a report's traces are, beside each timeline pane (schema 1.33, review 3C R7): they ran under the profiler,
    the answer's numbers did not. None for a report read from logs: it has no trace."""
    if report["target"]["kind"] == "logs":
        return None
    return {
        "label": "slower than timed",
        "text": "This trace ran under the profiler: its overhead is in every time here. The answer's numbers come "
        "from runs without it.",
    }


def header_text(report: Report) -> str:
    """ "fused.py on cpu (Intel Xeon …): ok" (schema 1.29): which run, on which device, how it ended; the CLI's first
    line after the product's name. A report read from logs says what it read: "compiler logs train (2 ranks): 2 logs
    read, nothing timed"."""
    if report["target"]["kind"] == "logs":
        logs = report.get("logs")
        ranks = len(report.get("ranks") or [])
        across = f" ({formats.plural(ranks, 'rank')})" if ranks else ""
        read = formats.plural(len(logs["files"]) if logs else 0, "log")
        return f"compiler logs {report['target']['name']}{across}: {read} read, nothing timed"
    env = report["environment"]
    return f"{title_text(report)} on {env['device']} ({env['deviceName']}): {report['status']}"


def title_text(report: Report) -> str:
    """ "compile_target in fused.py", "ddp_train, rank 1 of 4" (report.titleText): what the report is about, as the
    user wrote it, for every title of it (the panel's heading, its tab, the CLI's header). A function target's name
    ("fused-compile_target") is for folders; a rank's own report says which rank it is (review 4B P5)."""
    target = report["target"]
    function, file = target.get("function"), target.get("file")
    named = (
        f"{function} in {os.path.basename(file)}"
        if target["kind"] == "function" and function and file
        else target["name"]
    )
    rank = report.get("rank")
    return f"{named}, rank {rank['rank']} of {rank['worldSize']}" if rank else named
