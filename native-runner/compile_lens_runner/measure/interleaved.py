"""In situ, interleaved: the observed run of the script is its own measurement (pure; tested on recorded calls).

After the compiled side's warm-up (its compiles), the observed run switches PyTorch's own stance
(`torch.compiler.set_stance("force_eager")` / `"default"`) between blocks of the script's top-level region calls, in
the order eager, compiled, compiled, eager, … (ABBA: a drift of the host's speed that is linear over four blocks
cancels). Both sides meet the same process, the same host state minutes apart never enters: on the H100 the same
eager decode step took 2.45 ms in one process and 4.07 ms in the next while the ratio inside each held within 5 %
(docs/BENCHMARKS.md §in situ). set_stance leaves compiled code as it is: reduce-overhead keeps its CUDA graphs.

Blocks (schedule.py): the stance is global, so blocks count the script's *top-level* region calls, every region's
together (a call made inside another region's call is part of that call and takes its block); when switching starts
and how many calls a block holds is the schedule's.

A *step* of a region is from the start of one of its calls to the start of its next call (backward, optimizer, data
included). A step is steady when: both its calls are in the same block (no switch inside it); no compile started in
it; neither call carried the observer's own work (observer) nor ran under the profiler (profiled); it is no
interruption (far above its side's median at its signature: interruptions.py, the host's time, not the script's); on the compiled
side, compiled code ran in its call (ranCompiled true: a call Dynamo ran eagerly, past the recompile limit or after a
failed compile, is never timed as compiled; how many did is said beside the number, `eagerFallback`); and it is not
eager's first step on its input signature (eager has first-call costs: cuBLAS/cuDNN heuristics, autotuning). A
compiled call that compiled nothing and ran compiled code is steady whatever its concrete sizes (one dynamic graph
serves a growing cache's every length), except where a new size warms up and records a CUDA graph (new_size_costs:
reduce-overhead on a GPU; its first CUDA_GRAPH_SETUP_CALLS calls at each size). Where Dynamo ran some compiled-side
calls eagerly, eager's steps at signatures compiled code never served are left out too ("never served compiled"): the
number compares the calls compiled code served. A region none of whose compiled-side calls ran compiled code gets no
speedup and says why.

Compared how (comparedBy): a region called with one signature is compared on it ("signature"); with several whose
steady steps mostly recur on both sides (a server's batch sizes), signature by signature, the speedup over the matched
mix (each compared signature weighed by how often the script called it: "matched-mix"). Where fewer than
MIN_MATCHED_SHARE of either side's steady steps have a signature the other side also has (a decode loop whose cache
grows every token: each length recurs once per sequence, and the schedule may give it to the same side each time),
the steps are pooled ("pooled"): only each side's first step is its first-call cost, and the ABBA order of the blocks
cancels a work that grows linearly with the call, so the number reads per step (per token) over the lengths the script
ran. Pairs: blocks 2j-1 and 2j (one eager, one compiled, adjacent); a pair's own ratio is the matched mix's at the host
state its blocks met (block_pairs: its steps each divided by their signature's median on that side, since a server's
pair of blocks seldom shares a batch size). The speedup is the middle pair's own ratio (ranges.middle: of an even
count the lower middle) and the times shown are that pair's (each side's median step in its two blocks: times calls
took, dividing to it): both sides of a pair met one host state, while each side's median over the run could take eager
from a slow stretch and compiled from a fast one (1.96× over pairs at 1.30-1.75×; across 13 H200 processes of one
decode loop the run's medians spread 38 %, the pairs' middle 9 %). Pooled, the pairs are not comparable (a pooled
pair's two blocks ran different lengths, and only the ABBA order over the whole run cancels that): each side's median
over the run. The interval is where a next run may land: the 5th-95th percentiles of the estimate over pairs resampled
with replacement, widened by sqrt(2) for the next run's own error, with the floor, and with fewer than
ranges.FEW_BLOCK_PAIRS pairs it reaches every pair's own ratio as well (ranges.of_block_pairs, through ranges.of_pairs:
the one rule of every range). The floor is ranges.FLOOR_PCT, or on CUDA where eager is launch-bound (its host time
close to its GPU time: host_share) the floor targets take for a launch-bound eager, or on a CPU the floor targets take
there (estimator.cpu_floor_pct): the pairs share one process and its host, and a next process may meet a host that
moved.
"""

from __future__ import annotations

import dataclasses
import math
import statistics
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, Literal

from ..shapes.common import Sides
from ..shapes.in_situ import (
    EagerFallback,
    HostShare,
    InSituSpeedup,
    Interrupted,
    NoStep,
    OwnCost,
    RegionInSitu,
    Series,
    SignatureSpeedup,
    StepPoint,
)
from ..shapes.region import RegionCall
from . import estimator, interruptions, ranges
from .schedule import WARM_QUIET_CALLS

METHOD: Final = "interleaved"
MAX_SERIES = 2000


@dataclass(frozen=True)
class Call:
    """One call of a region as the report's `calls` carry it (region_entry.calls_json)."""

    index: int
    signature: str
    side: str | None  # "compiled" | "eager"; None: made before interleaving existed (no stance recorded)
    block: int | None
    ms: float | None
    step_ms: float | None
    compiles: int
    step_compiles: int
    ran_compiled: bool | None
    observer: bool = False
    profiled: bool = False
    host_ms: float | None = None  # a CUDA call's host time (script/calls.py); None on CPU
    size: str = ""  # its own signature where `signature` is POOLED (a CUDA graph is still recorded per size)

    @staticmethod
    def from_json(data: RegionCall) -> Call:
        return Call(
            int(data["index"]),
            str(data["signature"]),
            data.get("side"),
            data.get("block"),
            data["ms"],
            data.get("stepMs"),
            len(data.get("compileIds") or []),
            int(data.get("stepCompiles") or 0),
            data.get("ranCompiled"),
            bool(data.get("observer")),
            bool(data.get("profiled")),
            data.get("hostMs"),
        )


@dataclass
class Split:
    """A region's calls sorted by what they may count for. steps/calls: side -> indices of steady steps / calls."""

    steps: dict[str, list[int]]
    calls: dict[str, list[int]]
    dropped: dict[str, int]  # why steps were not steady -> how many
    compiled_ran: bool  # some compiled-side call ran compiled code
    left_out: dict[int, str]  # a call's index in the list -> why the step it begins is not steady (a `dropped` key)
    interrupted: Interrupted | None = None  # the steps left out as interruptions ("interrupted")


def _plain(c: Call) -> bool:
    return not (c.observer or c.profiled or c.ms is None)


POOLED = "*"
# Per signature only while the signatures both sides have hold at least this share of each side's steady steps.
MIN_MATCHED_SHARE = 0.5


def pooled(calls: list[Call]) -> list[Call]:
    return [dataclasses.replace(c, signature=POOLED, size=c.signature) for c in calls]


def _unserved(calls: list[Call]) -> set[str]:
    """Where Dynamo ran some compiled-side calls eagerly (past the recompile limit), the signatures compiled code never
    served: eager's steps at them have nothing compiled to compare with; empty when every compiled-side call ran
    compiled code (a dynamic graph serves sizes it has not met yet)."""
    compiled = [c for c in calls if c.side == "compiled"]
    if not any(c.ran_compiled is False for c in compiled):
        return set()
    served = {c.signature for c in compiled if c.ran_compiled is True}
    return {c.signature for c in calls} - served


# Under CUDA graph trees (reduce-overhead) a compiled graph's first call at a size warms up (runs it in the graphs'
# memory pool) and its second records the CUDA graph (torch/_inductor/cudagraph_trees.py: warmed_up_functions): only
# the third replays it.
CUDA_GRAPH_SETUP_CALLS = 2


def split(calls: list[Call], new_size_costs: bool = False, pool: bool = False) -> Split:
    """Applies the steady-step rules (module doc) to one region's calls, in order. new_size_costs: a compiled call's
    first CUDA_GRAPH_SETUP_CALLS at a size pay for more than its compile (a CUDA graph warmed up and recorded for it),
    so they are no steady steps either; pool: the signatures are pooled (only each side's first step is a first-call
    cost)."""
    steps: dict[str, list[int]] = {"eager": [], "compiled": []}
    plain_calls: dict[str, list[int]] = {"eager": [], "compiled": []}
    dropped = {"warm-up": 0, "switch": 0, "first on its signature": 0, "compiled": 0, "observer": 0, "ran eagerly": 0}
    dropped["never served compiled"] = dropped["first eager call"] = 0
    seen: dict[str, set[str]] = {"eager": set(), "compiled": set()}
    compiled_at: dict[str, int] = {}  # the compiled side's calls so far, per signature
    unserved = _unserved(calls)
    left_out: dict[int, str] = {}
    for i, c in enumerate(calls):
        if c.side is None:
            continue
        nxt = calls[i + 1] if i + 1 < len(calls) else None
        opening = not seen[c.side]
        first = opening if pool else c.signature not in seen[c.side]
        seen[c.side].add(c.signature)
        size = c.size or c.signature
        if c.side == "compiled":
            compiled_at[size] = compiled_at.get(size, 0) + 1
        graph_setup = new_size_costs and c.side == "compiled" and compiled_at[size] <= CUDA_GRAPH_SETUP_CALLS
        why: str | None = None
        if c.side == "compiled" and c.ran_compiled is not True:
            why = "ran eagerly"
        elif c.signature in unserved:  # eager at a size Dynamo runs eagerly as written too (past the recompile limit)
            why = "never served compiled"
        elif not c.block:
            why = "warm-up"
        elif c.compiles:
            why = "compiled"
        elif opening and c.side == "eager":  # eager's first call of all: its costs are eager's, whatever the shape
            why = "first eager call"
        elif (first and (c.side == "eager" or pool)) or graph_setup:
            why = "first on its signature"
        else:
            if _plain(c):
                plain_calls[c.side].append(i)
            if nxt is None or c.step_ms is None:
                continue
            if nxt.block != c.block:
                why = "switch"
            elif c.step_compiles:
                why = "compiled"
            elif not (_plain(c) and _plain(nxt)):
                why = "observer"
            else:
                steps[c.side].append(i)
                continue
        # a step is a call and the next: the last call begins none, so it is no step left out (review 3C R9: "4
        # calls" beside "4 steps left out"); its own time still counts per call
        if nxt is not None:
            dropped[why] += 1
            left_out[i] = why
    # last, of the steps steady by every other rule: a median among them is what the far ones stand above
    far, interrupted = interruptions.leave_out(steps, lambda i: calls[i].signature, lambda i: calls[i].step_ms or 0.0)
    for side, indices in far.items():
        steps[side] = [i for i in steps[side] if i not in indices]
        # its call too: the per-call number meets the host's interruptions by the same rule (a compiled call's median
        # 0.536 ms beside its step's 0.471 ms, review 9 C1)
        plain_calls[side] = [i for i in plain_calls[side] if i not in indices]
        dropped["interrupted"] = dropped.get("interrupted", 0) + len(indices)
        left_out.update(dict.fromkeys(indices, "interrupted"))
    compiled_ran = any(c.ran_compiled is True for c in calls if c.side == "compiled")
    return Split(steps, plain_calls, {k: v for k, v in dropped.items() if v}, compiled_ran, left_out, interrupted)


def matched_share(calls: list[Call], s: Split) -> float:
    """The least share, over both sides, of steady steps whose signature the other side has steady steps of too."""
    signatures = {side: {calls[i].signature for i in steps} for side, steps in s.steps.items()}
    both = signatures["eager"] & signatures["compiled"]
    shares = [
        sum(1 for i in steps if calls[i].signature in both) / len(steps) if steps else 0.0 for steps in s.steps.values()
    ]
    return min(shares)


def compared(calls: list[Call], new_size_costs: bool = False) -> tuple[list[Call], Split, bool]:
    """(the calls as compared, their split, pooled): per signature where the signatures recur on both sides, else
    pooled (module doc), each call's signature then POOLED."""
    s = split(calls, new_size_costs)
    if len({c.signature for c in calls}) > 1 and matched_share(calls, s) < MIN_MATCHED_SHARE:
        return pooled(calls), split(calls, new_size_costs, pool=True), True
    return calls, s, False


def _pairs(blocks: set[int]) -> list[tuple[int, int]]:
    """Adjacent blocks (1, 2), (3, 4), …: one eager and one compiled each (schedule.ORDER)."""
    return [(b, b + 1) for b in sorted(blocks) if b % 2 == 1 and b + 1 in blocks]


Sample = dict[str, dict[str, list[float]]]  # side -> signature -> durations


def _mix(sample: Sample, weights: dict[str, int]) -> tuple[float, float, list[str]] | None:
    """(eager ms, compiled ms) over the signatures both sides have, each weighed by the script's calls of it."""
    both = [s for s in weights if sample["eager"].get(s) and sample["compiled"].get(s)]
    if not both:
        return None
    total = sum(weights[s] for s in both)
    eager = sum(weights[s] * statistics.median(sample["eager"][s]) for s in both) / total
    compiled = sum(weights[s] * statistics.median(sample["compiled"][s]) for s in both) / total
    return eager, compiled, both


def _sample(
    calls: list[Call],
    picks: dict[str, list[int]],
    duration: Callable[[Call], float | None],
    blocks: set[int] | None = None,
) -> Sample:
    out: Sample = {"eager": {}, "compiled": {}}
    for side, indices in picks.items():
        for i in indices:
            c = calls[i]
            value = duration(c)
            if value is not None and (blocks is None or c.block in blocks):
                out[side].setdefault(c.signature, []).append(value)
    return out


@dataclass(frozen=True)
class BlockPair:
    """A pair of adjacent blocks: its steps (sample), each side's time in it over the matched mix and their ratio
    (block_pairs)."""

    sample: Sample
    eager_ms: float
    compiled_ms: float

    @property
    def ratio(self) -> float:
        return self.eager_ms / self.compiled_ms


def block_pairs(
    calls: list[Call],
    picks: dict[str, list[int]],
    duration: Callable[[Call], float | None],
    whole: Sample,
    weights: dict[str, int],
) -> list[BlockPair]:
    """Each pair of adjacent blocks with each side's time in it over the matched mix (_mix of the whole run's `whole`):
    the side's mix time times its median step in the pair (of an even count the lower middle: a step that ran), each
    step divided by its signature's median on that side over the run, so a pair whose blocks ran different sizes (a
    server's batches) still reads the host state it met on the script's mix; of one signature that is the pair's median
    step itself, a time a call took. Pairs without values both ways are left out."""
    mixed = _mix(whole, weights)
    if mixed is None:
        return []
    reference = {side: {sig: statistics.median(whole[side][sig]) for sig in mixed[2]} for side in ("eager", "compiled")}
    blocks = {calls[i].block for indices in picks.values() for i in indices if calls[i].block}
    out: list[BlockPair] = []
    for a, b in _pairs({x for x in blocks if x is not None}):
        sample = _sample(calls, picks, duration, {a, b})
        sides = [
            [v / reference[side][sig] for sig, values in sample[side].items() if sig in mixed[2] for v in values]
            for side in ("eager", "compiled")
        ]
        if sides[0] and sides[1]:
            out.append(
                BlockPair(
                    sample, mixed[0] * statistics.median_low(sides[0]), mixed[1] * statistics.median_low(sides[1])
                )
            )
    return out


def estimate(
    calls: list[Call],
    picks: dict[str, list[int]],
    duration: Callable[[Call], float | None],
    weights: dict[str, int],
    floor: float = ranges.FLOOR_PCT,
    paired: bool = True,
) -> InSituSpeedup | None:
    """The speedup over the matched mix of signatures, its interval from the pairs of adjacent blocks with at least
    `floor` % either side, and what it rests on (schema `$defs/inSituSpeedup`); None when no signature has steady
    values on both sides. paired (not pooled): the speedup is the middle pair of blocks' own ratio (ranges.middle, of
    an even count the lower middle) and the times shown that pair's (block_pairs: each side's median step in its two
    blocks), so they are times calls took and divide to it; its range is the middle's over the pairs resampled. Both
    blocks of a pair met one host state, while each side's median over the run could take eager from a slow stretch
    and compiled from a fast one: 1.96x over pairs at 1.30-1.75x in one process; on 22 recorded H200 processes the
    run's medians spread 38 % across 13 of decode_static_kv (1.10x then 1.24x in one device call), 14 % across 5 of
    hf_train, 17 % across 4 of train_validate, the pairs' middle ratio 9 %, 7 % and 14 % (docs/BENCHMARKS.md "The
    in-situ number: the middle pair of blocks"). An earlier compiled time derived from the pairs (eager's median over
    their ratio) read 0.73 ms where the compiled calls' median was 1.37 ms: a time no call took. Pooled (paired
    False: a pooled pair's two blocks ran different lengths, and only the ABBA order over the whole run cancels that)
    and per signature (a pair of blocks seldom holds every signature: a server's batch sizes): each side's median
    over the run."""
    whole = _sample(calls, picks, duration)
    mixed = _mix(whole, weights)
    if mixed is None:
        return None
    eager_ms, compiled_ms, both = mixed
    pairs = block_pairs(calls, picks, duration, whole, weights)
    pair_ratios = [p.ratio for p in pairs]
    if paired and pairs:
        middle = ranges.middle(pairs, lambda p: p.ratio)
        eager_ms, compiled_ms = middle.eager_ms, middle.compiled_ms
        speedup = middle.ratio
        low, high = ranges.of_block_pairs(
            speedup, floor, pairs, lambda chosen: ranges.middle(chosen, lambda p: p.ratio).ratio, pair_ratios
        )
    else:
        speedup = eager_ms / compiled_ms

        def of(chosen: list[BlockPair]) -> float:
            merged: Sample = {"eager": {}, "compiled": {}}
            for pair in chosen:
                for side in merged:
                    for sig, values in pair.sample[side].items():
                        merged[side].setdefault(sig, []).extend(values)
            got = _mix(merged, weights)
            return speedup if got is None else got[0] / got[1]

        low, high = ranges.of_block_pairs(speedup, floor, pairs, of, pair_ratios)
    per_signature: list[SignatureSpeedup] = [
        {
            "signature": s,
            "eagerMs": round(statistics.median(whole["eager"][s]), 4),
            "compiledMs": round(statistics.median(whole["compiled"][s]), 4),
            "speedup": round(statistics.median(whole["eager"][s]) / statistics.median(whole["compiled"][s]), 4),
            "steps": {"eager": len(whole["eager"][s]), "compiled": len(whole["compiled"][s])},
            "calls": weights[s],
        }
        for s in both
    ]
    left = sorted(s for side in whole.values() for s in side if s not in both)
    return {
        "eagerMs": round(eager_ms, 4),
        "compiledMs": round(compiled_ms, 4),
        "speedup": round(speedup, 4),
        "low": round(low, 4),
        "high": round(high, 4),
        "floorPct": floor,
        "samples": min(sum(len(v) for v in whole["eager"].values()), sum(len(v) for v in whole["compiled"].values())),
        "pairs": len(pair_ratios),
        "pairRatios": [round(r, 4) for r in pair_ratios],
        "comparedBy": "signature" if len(both) == 1 else "matched-mix",
        "signatures": per_signature,
        "notCompared": sorted(set(left)),
    }


def host_share(calls: list[Call], eager_calls: list[int]) -> HostShare | None:
    """How much of eager the host sets, from its steady calls (their indices): the median over them of the call's host
    time over its GPU time, in % (at most 100: a call that waits on the device inside it is the host's whole), and the
    floor that gives its interval (estimator.in_situ_floor_pct, the rule targets use on eager's GPU idle share). A
    launch-bound eager runs at the host's speed, and the host moved between processes (docs/BENCHMARKS.md, "Shapes that
    change on the H200"): an interval without that floor held within its process and missed the next. None where no
    steady eager call has a host time (CPU: the host sets both sides)."""
    shares = [
        min(1.0, c.host_ms / c.ms)
        for c in (calls[i] for i in eager_calls)
        if c.host_ms is not None and c.ms is not None and c.ms > 0
    ]
    if not shares:
        return None
    pct = round(100 * statistics.median(shares), 1)
    floor = estimator.in_situ_floor_pct(pct)
    return {"eagerPct": pct, "calls": len(shares), "launchBound": floor is not None, "floorPct": floor}


# What Compile Lens itself adds to an eager call in situ (docs/BENCHMARKS.md, "The eager stance's wrapper"): at the
# eager stance the script's compiled callable still passes through torch.compile's wrapper, which the script without
# torch.compile would not pay (+0.007 ms a call at load 7, +0.02-0.05 at load 12-20 on the 2-core VM; a module's twice
# a function's), and the call runs between the observer's own work. Not subtracted: it moves with the host's load.
OWN_CALL_MS: Final = 0.05
# Beyond this share of eager's time (a third of the CPU floor) the in-situ ratio reads high: calls of 0.02-0.23 ms read
# 1.6-3.3x their ground truth. The number then decides nothing; the replay (the original code, back to back) does.
MAX_OWN_PCT: Final = 5.0


def own_cost(x: InSituSpeedup | None, unit: Literal["step", "call"]) -> OwnCost | None:
    """Where Compile Lens's own work on an eager call (OWN_CALL_MS) is more than MAX_OWN_PCT % of eager's time per
    step (unit "step") or call in situ, what it is against it; else None (a step holds one call of its region)."""
    if x is None or x["eagerMs"] <= 0:
        return None
    pct = round(100.0 * OWN_CALL_MS / x["eagerMs"], 1)  # the rule holds on the share the report shows
    if pct <= MAX_OWN_PCT:
        return None
    return {"ms": OWN_CALL_MS, "eagerMs": x["eagerMs"], "pct": pct, "unit": unit}


def _compile_cost_ms(calls: list[Call], steady_eager: float) -> float:
    """The compiled side's warm-up and compiling steps over a steady eager step: the compile inside the script."""
    cost = 0.0
    for i, c in enumerate(calls[:-1]):
        if c.side == "compiled" and (not c.block or c.compiles or c.step_compiles) and calls[i + 1].block == c.block:
            cost += max(0.0, (c.step_ms or c.ms or 0.0) - steady_eager)
    return cost


def _no_step(s: Split, calls: list[Call], fallback: str | None) -> NoStep:
    """Why there is no step speedup, as a code and its numbers (report/in_situ_text.py says it)."""
    if calls and all(c.side == "eager" for c in calls):
        return {"code": "eager-stance-only"}
    if not s.compiled_ran:
        return {"code": "never-compiled", "fallback": fallback}
    if not any(c.block for c in calls):
        return {"code": "before-interleaving", "calls": len(calls), "quietCalls": WARM_QUIET_CALLS}
    if not s.steps["eager"] or not s.steps["compiled"]:
        return {"code": "no-steady-side", "side": "eager" if not s.steps["eager"] else "compiled"}
    return {"code": "no-shared-signature"}


def series(calls: list[Call]) -> Series:
    """[ms, stepMs, compiles in the step, call index] per call of each side, for the report panel's overlay."""
    out: Series = {"compiled": [], "eager": []}
    for c in calls[:MAX_SERIES]:
        point: list[float | int | None] = [c.ms, c.step_ms, c.step_compiles, c.index]
        if c.side == "compiled":
            out["compiled"].append(point)
        elif c.side == "eager":
            out["eager"].append(point)
    return out


def step_points(calls: list[Call], s: Split) -> list[StepPoint]:
    """Each step the series draws (a call with a step time, of the first MAX_SERIES), whether the number counted it
    and if not why (its `dropped` key): the chart shades the counted steps only, as the lines count them."""
    counted = {i for indices in s.steps.values() for i in indices}
    points: list[StepPoint] = []
    for i, c in enumerate(calls[:MAX_SERIES]):
        if c.side in ("compiled", "eager") and c.step_ms is not None and c.step_ms > 0:
            points.append({"index": c.index, "counted": i in counted, "leftOut": s.left_out.get(i)})
    return points


def eager_fallback(calls: list[Call]) -> EagerFallback | None:
    """The compiled side's calls Dynamo ran eagerly (past the recompile limit, a failed compile): never timed as
    compiled, said beside the number; None when every compiled-side call ran compiled code (or none could be told)."""
    compiled = [c for c in calls if c.side == "compiled"]
    eager = sum(1 for c in compiled if c.ran_compiled is False)
    return {"calls": eager, "of": len(compiled)} if eager else None


def compare(
    calls_json: list[RegionCall],
    calls_made: int,
    fallback: str | None = None,
    new_size_costs: bool = False,
    on_cpu: bool = False,
) -> RegionInSitu:
    """A region's in-situ result (schema `$defs/inSitu`) from its calls in the observed run. new_size_costs: a new size
    records a CUDA graph (split); on_cpu: the script ran on a CPU (estimator.cpu_floor_pct)."""
    recorded = [Call.from_json(c) for c in calls_json]
    calls, s, pool = compared(recorded, new_size_costs)
    weights: dict[str, int] = {}
    for c in calls:
        weights[c.signature] = weights.get(c.signature, 0) + 1
    host = host_share(calls, s.calls["eager"])
    floor = host["floorPct"] if host and host["floorPct"] is not None else ranges.FLOOR_PCT
    if on_cpu:
        floor = estimator.cpu_floor_pct()
    step = estimate(calls, s.steps, lambda c: c.step_ms, weights, floor, not pool) if s.compiled_ran else None
    call = estimate(calls, s.calls, lambda c: c.ms, weights, floor, not pool) if s.compiled_ran else None
    for result in (step, call):
        if result is not None and pool:
            result.update({"comparedBy": "pooled", "signatures": [], "notCompared": []})
    cost_ms = _compile_cost_ms(calls, step["eagerMs"]) if step is not None else None
    break_even = None
    if step is not None and cost_ms is not None and step["eagerMs"] > step["compiledMs"]:
        break_even = math.ceil(cost_ms / (step["eagerMs"] - step["compiledMs"]))
    per_side = {side: [c for c in calls if c.side == side] for side in ("compiled", "eager")}
    spent: Sides = {
        "compiled": round(sum((c.step_ms or c.ms or 0.0) for c in per_side["compiled"]) / 1000, 6),
        "eager": round(sum((c.step_ms or c.ms or 0.0) for c in per_side["eager"]) / 1000, 6),
    }
    first = step or call
    return {
        "method": METHOD,
        "pairs": first.get("pairs", 0) if first else 0,
        "compiledCalls": len(per_side["compiled"]),
        "eagerCalls": len(per_side["eager"]),
        "warmupCalls": sum(1 for c in calls if c.side == "compiled" and not c.block),
        "steadyFromCall": next((c.index for c in calls if c.block), None),
        "steadySteps": {"eager": len(s.steps["eager"]), "compiled": len(s.steps["compiled"])},
        "dropped": s.dropped,
        "interrupted": s.interrupted,
        "eagerFallback": eager_fallback(calls),
        "hostShare": host,
        "step": step,
        "call": call,
        "compileSeconds": None if cost_ms is None else round(cost_ms / 1000, 4),
        "breakEvenSteps": break_even,
        "stepsMade": calls_made,
        "paysBack": None if break_even is None else break_even <= calls_made,
        "regionSeconds": spent if per_side["eager"] and per_side["compiled"] else None,
        "stepsPerSecond": None
        if step is None
        else {"eager": round(1000 / step["eagerMs"], 3), "compiled": round(1000 / step["compiledMs"], 3)},
        "noStep": None if step is not None else _no_step(s, calls, fallback),
        # the wrapper and the observer cost host time: on CUDA it adds to a step only where the host sets eager's time
        # (launch-bound: host_share's floor); elsewhere it runs while the GPU works
        "ownCost": None
        if not on_cpu and (host is None or host["floorPct"] is None)
        else own_cost(step, "step")
        if step is not None
        else own_cost(call, "call"),
        "series": series(calls),
        "stepPoints": step_points(calls, s),
    }
