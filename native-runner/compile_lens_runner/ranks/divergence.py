"""Where the ranks of a torchrun job ran differently: each divergence in one sentence, at the user's line.

Input per rank: its script-mode compiler insight (graphs, breaks, recompiles, cache lookups per compile), its
regions (which call compiled or recompiled) and the collectives of its profiled steps (collectives.py). Pure: the
supervisor compares the ranks' reports after torchrun ends; tests compare recorded logs.

Kinds, and why each matters:
- recompile: a rank recompiled where another did not (or at another call): from then on they run different graphs;
- graph-break: a rank broke the graph where another did not;
- graph-count: the ranks compiled different numbers of graphs (said only when no recompile or break explains it);
- collectives: the collectives of the profiled steps differ in order or number: a collective that is not matched
  on every rank hangs the job or mixes up data;
- cache: a compile loaded from the FX graph / AOT autograd cache on one rank was compiled afresh on another —
  the same graph, more compile time on that rank (severity "warning": ranks sharing a cache race to fill it, so
  this may differ from run to run; it never means the ranks ran different code).
"""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Iterable
from typing import Any, TypedDict

from ..compiler.explain import guard_sentence, pattern
from ..compiler.recompile_sites import seen_through_library
from ..formats import rank_list
from ..report import compile_names
from ..shapes.common import SourceLocation
from ..shapes.compiler import CompilerInsight, GraphBreak, Recompile
from ..shapes.ranks import Divergence
from ..shapes.region import Region

DIFFERENT_GRAPHS = "the ranks ran different graphs"


class RankFacts(TypedDict):
    """What divergence compares of one rank."""

    rank: int
    compiler: CompilerInsight | None  # its script-mode insight; None: none was read
    regions: list[Region]
    collectives: list[dict[str, Any]] | None  # collectives.sequence: the profiled steps' collectives, in order


def _insight(facts: RankFacts) -> CompilerInsight:
    insight = facts["compiler"]
    assert insight is not None  # only ranks with an insight are compared on it
    return insight


def _place(loc: SourceLocation | None) -> str | None:
    if not loc or not loc.get("file"):
        return None
    cell = f" cell {at + 1}," if isinstance(at := loc.get("cell"), int) else ""
    return f"{os.path.basename(loc['file'])}{cell}:{loc['line']}"


def _readable(reason: str) -> str:
    """torch's "tensor 'x' size mismatch at index 0. expected 16, actual 12" reads as "... at index 0 (expected 16, actual 12)"."""
    return re.sub(r"\. (expected [^,]+, actual \S+)$", r" (\1)", reason.strip())


def _entry(
    kind: str,
    message: str,
    ranks: Iterable[int],
    location: SourceLocation | None,
    details: dict[str, Any],
    severity: str = "error",
) -> Divergence:
    return {
        "kind": kind,
        "severity": severity,
        "message": message,
        "location": location,
        "ranks": sorted(set(ranks)),
        "details": details,
    }


def _region_call(facts: RankFacts, compile_id: str | None) -> tuple[Region, int] | None:
    """The region and the script's call (its index) in which the compile `compile_id` ran."""
    for region in facts.get("regions") or []:
        for call in region.get("calls") or []:
            if compile_id and compile_id in (call.get("compileIds") or []):
                return region, int(call["index"])
    return None


def _frame_name(insight: CompilerInsight, compile_id: str | None) -> str | None:
    """The user's function the compile traced (None for torch's own frames, e.g. DDP's forward wrappers)."""
    return next(
        (
            f.get("function")
            for f in insight.get("frames") or []
            if f.get("compileId") == compile_id and f.get("location")
        ),
        None,
    )


def _recompile_key(facts: RankFacts, item: Recompile) -> tuple[Any, ...]:
    loc = item.get("location")
    found = _region_call(facts, item.get("compileId"))
    where = (found[0]["id"], found[1]) if found else (None, None)
    return (loc["file"] if loc else None, loc["line"] if loc else None, pattern(str(item.get("reason", ""))), *where)


# one recompile key that ranks hit a different number of times: a rank that did and what it hit, times per rank, most
_Uneven = tuple[RankFacts, Recompile, dict[int, int], int]


def _recompiles(ranks: list[RankFacts]) -> list[Divergence]:
    """Recompiles keyed by site, guard pattern and (where a region call holds it) region and call: a key that some
    ranks have more often than others is a divergence. Frames recompiled in the same call on the same ranks (a
    wrapper's frame and the model's own, e.g. DDP's forward and the module's) are one divergence, said for the
    first of them: the line that made the call."""
    per_rank: dict[int, Counter[tuple[Any, ...]]] = {}
    example: dict[tuple[Any, ...], tuple[RankFacts, Recompile]] = {}
    for facts in ranks:
        seen: Counter[tuple[Any, ...]] = Counter()
        for item in _insight(facts).get("recompiles") or []:
            key = _recompile_key(facts, item)
            seen[key] += 1
            example.setdefault(key, (facts, item))
        per_rank[facts["rank"]] = seen
    grouped: dict[tuple[Any, ...], list[_Uneven]] = {}
    for key, (facts, item) in example.items():
        counts = {rank: per_rank[rank][key] for rank in per_rank}
        if len(set(counts.values())) == 1:
            continue
        most = max(counts.values())
        did = tuple(r for r, n in counts.items() if n == most)
        where = key[-2:] if key[-1] is not None else key
        grouped.setdefault((where, did), []).append((facts, item, counts, most))
    return [_recompile_divergence(group) for group in grouped.values()]


def _recompile_divergence(group: list[_Uneven]) -> Divergence:
    facts, item, counts, most = group[0]
    did = [r for r, n in counts.items() if n == most]
    others = [r for r, n in counts.items() if n < most]
    found = _region_call(facts, item.get("compileId"))
    function = _frame_name(_insight(facts), item.get("compileId"))
    what = function or "the compiled code"
    if found:
        region, index = found
        name = str(region["name"])
        what = f"{function} of {name}" if function and function != name else name
        what += f" at call {index}"
    times = "" if most == 1 else f" {most}×"
    by_count: dict[int, list[int]] = {}
    for r in others:
        by_count.setdefault(counts[r], []).append(r)
    fewer = "; ".join(f"{rank_list(ranks)} {'did not' if n == 0 else f'{n}×'}" for n, ranks in sorted(by_count.items()))
    # each frame's change as its finding says it (recompile_sites.group_sites), a wrapper's view of the user's change left out
    items = [other for _, other, _, _ in group]
    said = [other for other in items if not seen_through_library(other, items)]
    changes = "; ".join(dict.fromkeys(_change(other) for other in said))
    message = f"{rank_list(did)} recompiled {what}{times} — {changes} — {fewer}: {DIFFERENT_GRAPHS}"
    location = item.get("location") or (found[0]["location"] if found else None)
    explanation = said[0].get("explanation")
    return _entry(
        "recompile",
        message,
        did,
        location,
        {
            "reasons": [other.get("reason") for _, other, _, _ in group],
            "counts": {str(r): n for r, n in counts.items()},
            "region": found[0]["id"] if found else None,
            "call": found[1] if found else None,
            "fix": explanation["fix"] if explanation else None,
        },
    )


def _change(item: Recompile) -> str:
    """A recompile's failed guard in its finding's words (its explanation's first clause), else a short sentence for
    it, else PyTorch's words."""
    explanation = item.get("explanation")
    if explanation:
        first = explanation["what"].split("; ", 1)[0].rstrip(".")
        return first[:1].lower() + first[1:]
    reason = str(item.get("reason", ""))  # PyTorch's words stay in details["reasons"]
    return guard_sentence(reason) or _readable(reason)


def _graph_breaks(ranks: list[RankFacts]) -> list[Divergence]:
    sites: dict[tuple[Any, ...], tuple[GraphBreak, set[int]]] = {}
    for facts in ranks:
        for item in _insight(facts).get("graphBreaks") or []:
            loc = item.get("location")
            key = (loc["file"] if loc else None, loc["line"] if loc else None, item.get("reason"))
            sites.setdefault(key, (item, set()))[1].add(facts["rank"])
    everyone = {facts["rank"] for facts in ranks}
    out: list[Divergence] = []
    for item, broke in sites.values():
        if broke == everyone:
            continue
        at = _place(item.get("location"))
        message = (
            f"{rank_list(broke)} broke the graph{f' at {at}' if at else ''} — {item.get('reason')} — "
            f"{rank_list(everyone - broke)} did not: {DIFFERENT_GRAPHS}"
        )
        explanation = item.get("explanation")
        out.append(
            _entry(
                "graph-break",
                message,
                broke,
                item.get("location"),
                {"reason": item.get("reason"), "fix": explanation["fix"] if explanation else None},
            )
        )
    return out


def _graph_counts(ranks: list[RankFacts]) -> list[Divergence]:
    counts = {facts["rank"]: int(_insight(facts).get("graphCount") or 0) for facts in ranks}
    if len(set(counts.values())) == 1:
        return []
    groups: dict[int, list[int]] = {}
    for rank, n in counts.items():
        groups.setdefault(n, []).append(rank)
    parts = [
        f"{rank_list(members)} compiled {n} graph{'' if n == 1 else 's'}"
        for n, members in sorted(groups.items(), key=lambda g: min(g[1]))
    ]
    common = max(groups.items(), key=lambda g: (len(g[1]), -min(g[1])))[0]
    odd = [r for r, n in counts.items() if n != common]
    return [
        _entry(
            "graph-count",
            f"{'; '.join(parts)}: {DIFFERENT_GRAPHS}",
            odd,
            None,
            {"graphCount": {str(r): n for r, n in counts.items()}},
        )
    ]


def _cache_outcomes(insight: CompilerInsight) -> dict[tuple[str, str], str]:
    """(compile id, cache name) -> the outcome of all that compile's lookups in that cache, from the compile phases:
    a compile looks the FX graph cache up once per graph (forward, then backward), and a backward's hit is no hit for
    the forward compiled afresh: "hit" when every lookup hit, "hit for 1 of its 2 lookups" when some did, else miss or
    bypass (not "of 2 graphs": the rank table counts Dynamo's graphs)."""
    lookups: dict[tuple[str, str], list[str]] = {}
    for p in insight.get("phases") or []:
        if cache := p.get("cache"):
            lookups.setdefault((str(p["compileId"]), str(p["name"])), []).append(str(cache))
    return {key: _outcome(seen) for key, seen in lookups.items()}


def _outcome(seen: list[str]) -> str:
    hits = seen.count("hit")
    if hits == len(seen):
        return "hit"
    if hits:
        return f"hit for {hits} of its {len(seen)} lookups"
    return "miss" if "miss" in seen else seen[0]


def _caches(ranks: list[RankFacts]) -> list[Divergence]:
    """Per compile id every rank ran: its cache lookups (FX graph, AOT autograd) whose outcome differs between ranks."""
    outcomes = {facts["rank"]: _cache_outcomes(_insight(facts)) for facts in ranks}
    shared = set.intersection(*(set(o) for o in outcomes.values())) if outcomes else set()
    differing: dict[str, dict[str, dict[int, str]]] = {}
    for compile_id, cache in sorted(shared):
        seen = {rank: o[(compile_id, cache)] for rank, o in outcomes.items()}
        if len(set(seen.values())) > 1:
            differing.setdefault(compile_id, {})[cache] = seen
    out: list[Divergence] = []
    for compile_id, caches in differing.items():
        # by its function, as every surface names a compile (the id stays in details)
        what = compile_names.compile_name(_insight(ranks[0]).get("frames") or [], compile_id)
        names = " and the ".join(sorted(caches))
        seen = next(iter(caches.values()))
        hit = [r for r, s in seen.items() if s == "hit"]
        missed = sorted({r for outcome in caches.values() for r, s in outcome.items() if s != "hit"})
        if hit and not set(hit) & set(missed):
            how = ", ".join(sorted({outcome[r] for outcome in caches.values() for r in missed if outcome[r] != "hit"}))
            message = (
                f"{what} was loaded from the {names} on {rank_list(hit)} and compiled afresh on {rank_list(missed)} "
                f"({how}): the same graph, more compile time on {rank_list(missed)}"
            )
        else:
            message = f"{what}: " + "; ".join(
                f"the {cache} {', '.join(f'{s} on {rank_list([r])}' for r, s in sorted(o.items()))}"
                for cache, o in sorted(caches.items())
            )
        out.append(
            _entry(
                "cache",
                message,
                missed,
                None,
                {
                    "compileId": compile_id,
                    "outcomes": {cache: {str(r): s for r, s in o.items()} for cache, o in caches.items()},
                },
                severity="warning",
            )
        )
    return out


def _collectives(ranks: list[RankFacts]) -> list[Divergence]:
    seqs = {
        facts["rank"]: [c["name"] for c in made] for facts in ranks if (made := facts.get("collectives")) is not None
    }
    if len(seqs) < 2 or len({tuple(s) for s in seqs.values()}) == 1:
        return []
    first = next(
        i
        for i in range(max(map(len, seqs.values())) + 1)
        if len({s[i] if i < len(s) else None for s in seqs.values()}) > 1
    )
    lengths = {rank: len(s) for rank, s in seqs.items()}
    issued = (
        "; ".join(f"{rank_list([r])} issued {n}" for r, n in sorted(lengths.items()))
        if len(set(lengths.values())) > 1
        else f"each rank issued {next(iter(lengths.values()))}"
    )
    at = ", ".join(f"{rank_list([r])} {s[first] if first < len(s) else 'none'}" for r, s in sorted(seqs.items()))
    common = Counter(tuple(s) for s in seqs.values()).most_common(1)[0][0]
    odd = [r for r, s in seqs.items() if tuple(s) != common]
    message = (
        f"the ranks' collectives differ in the profiled steps ({issued}); the first difference is collective "
        f"#{first + 1}: {at} — a collective not matched on every rank hangs the job or mixes up its data"
    )
    return [
        _entry(
            "collectives",
            message,
            odd,
            None,
            {"firstDifference": first, "counts": {str(r): n for r, n in lengths.items()}},
        )
    ]


def find(ranks: list[RankFacts]) -> list[Divergence]:
    known = [facts for facts in ranks if facts.get("compiler")]
    out: list[Divergence] = []
    if len(known) >= 2:
        out += _recompiles(known) + _graph_breaks(known)
        if not out:  # a recompile or break on some ranks explains a different graph count
            out += _graph_counts(known)
        out += _caches(known)
    out += _collectives(ranks)
    return out
