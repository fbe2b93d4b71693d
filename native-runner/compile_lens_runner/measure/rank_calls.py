"""A torchrun job's calls of one region from its ranks' own (pure): per call index all ranks made, the slowest rank's
call and step, since a synchronous job's step is as long as its slowest rank's (script/in_situ_report.py compares them
as interleaved.compare compares one process's calls)."""

from __future__ import annotations

from ..shapes.region import RegionCall
from . import ranges


def slowest_ranks(ranks: list[list[RegionCall]]) -> dict[int, int]:
    """Per call index all ranks made (slowest_calls' calls), the position in `ranks` of the rank whose step, or call
    where it has no step, was the slowest: whose call slowest_calls' step time is."""
    by_index = [{int(c["index"]): c for c in calls} for calls in ranks]
    out: dict[int, int] = {}
    for index in sorted(set.intersection(*(set(d) for d in by_index))) if by_index else []:
        times = [d[index].get("stepMs") or d[index]["ms"] or 0.0 for d in by_index]
        out[index] = times.index(max(times))
    return out


def slowest_calls(ranks: list[list[RegionCall]]) -> list[RegionCall]:
    """A torchrun job's calls of a region from its ranks' (the first rank's first): per call index all ranks made, the
    slowest rank's call and step, since a synchronous job's step is as long as its slowest rank's. The ranks switch on
    the same call (Schedule fixed), so each index has one side and block; where they differ (a signature new to one
    rank's compiled side) the call has no side: it is no step either way. A step is steady only where it is on every
    rank (any compile, observer work or profiler in it on any rank)."""
    by_index = [{int(c["index"]): c for c in calls} for calls in ranks]
    out: list[RegionCall] = []
    for index in sorted(set.intersection(*(set(d) for d in by_index))) if by_index else []:
        each = [d[index] for d in by_index]
        same = len({(c.get("side"), c.get("block")) for c in each}) == 1
        ran = [c.get("ranCompiled") for c in each]
        call: RegionCall = {
            **each[0],
            "ms": ranges.slowest([c["ms"] for c in each]),
            "stepMs": ranges.slowest([c.get("stepMs") for c in each]),
            "compileIds": max((c.get("compileIds") or [] for c in each), key=len),
            "stepCompiles": max(int(c.get("stepCompiles") or 0) for c in each),
            "ranCompiled": False if False in ran else (True if all(r is True for r in ran) else None),
            "observer": any(c.get("observer") for c in each),
            "profiled": any(c.get("profiled") for c in each),
        }
        host = ranges.slowest([c.get("hostMs") for c in each])  # beside the slowest GPU time: eager's host share
        if host is None:
            call.pop("hostMs", None)
        else:
            call["hostMs"] = host
        if not same:  # no side: no step either way
            call.pop("side", None)
        out.append(call)
    return out
