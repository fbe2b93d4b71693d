"""The script's own calls, compiled against eager, from whole runs of the script (pure; tested on recorded runs).

A *pair* is two runs of the unmodified script: one as written, one with compiling turned off by PyTorch's switch.
Per region, calls are matched by index and signature (up to the first call where the two runs differ: after it,
the same index may be different work). A *step* is the time from one call of a region to its next call: what a
training step, a decode step or a request really costs (backward, optimizer, data, cache updates included).

Steady state: from the first call (not the script's first) whose call and step compiled nothing in the compiled
run, once both runs' first slow calls are over (lazy initialisation and the like slow eager's first calls too); its steps that compiled nothing are the steady steps. A later step that compiled at a signature the region had
already been called with is a recurring recompile: its time over a steady step is counted in the compiled step cost,
shared over the steps from steady on. The warm-up before steady state, and later steps that compiled a signature seen
for the first time (a short last batch), are the compile cost inside the script (their time over eager's, resp. over
a steady compiled step), which break-even pays back in steps.

The estimate is eager's median steady step over compiled's, pooled over the pairs. Steps within one run are a
distribution, not repeated rounds of one thing, so the interval holds: the 5th-95th percentiles of the estimate over
steady steps resampled by index within each pair (which steps were slow), the estimate of every eager run against
every compiled run (run-to-run variation, once there are two pairs), and a floor for what differs between
processes and the pairs of one profile cannot show: estimator.FLOOR_STEADY_PCT (2 %) for steady steps, and
estimator.FLOOR_SEPARATE_RUNS_PCT (10 %) when a run's steady steps met noise. Runs of a script are whole processes minutes apart, and
a Python-bound eager step follows the host CPU's speed: on a shared host it moved 10 % between two profiles while
each profile's own pairs agreed within 3 % (docs/BENCHMARKS.md §in situ).

The host's speed is known, not guessed: the recorder probes the host CPU before a region's first call and every
PROBE_EVERY-th call after it (calls marked `observer`, whose step and the step ending at them are left out). Each
steady step takes the host state of its nearest probe; the host's fast state is the CONFIRM_ROUNDS-th fastest probe
of all runs of the profile (one lucky probe is no state steps ran in; faster probes are reported). A launch-bound step
follows the CPU's speed, and a vCPU can run at half speed for a whole run (docs/BENCHMARKS.md §constants), so the
estimate compares like with like: only pairs whose two runs both have ENOUGH_STEPS steps at the fast state count,
with those steps (never one pair's eager against another's compiled run), and pairs run (up to MAX_PAIRS) until
ENOUGH_PAIRS do. The interval also reaches every run that met the fast state against every other side's (eager's
fast-state step moved 1.5x between runs on the H100), and, with one such pair, the other pairs' own speedups. When no
pair met it, all pairs count and the interval widens by how slow each side's steps typically ran (`slowHost`).
"""

from __future__ import annotations

import math
import random
import statistics
from bisect import bisect_left
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .. import formats
from ..shapes.common import Sides, SlowSides
from ..shapes.in_situ import InSituSpeedup, PairNotUsed, PairSpeedup, RegionInSitu
from . import estimator

RESAMPLES = 1000
# A region whose steady steps are fewer than this, or noisy, or whose interval straddles a verdict's boundary, gets
# another pair of runs (needs_another_pair).
ENOUGH_STEPS = 8
WIDE_PCT = 20.0
BOUNDARIES = (1.0, 1.05)
# Pairs of runs at most: a second for a noisy, short or boundary-straddling interval, more (up to MAX_PAIRS) while
# fewer than ENOUGH_PAIRS pairs ran both of their runs at the host's fast state.
MAX_PAIRS = 4
ENOUGH_PAIRS = 2
MAX_PAIRS_NOISY = 2
MAX_SERIES = 2000
SETTLED_FACTOR = 2.0  # a call slower than this times the later calls' median is still warming up (_settled)


@dataclass(frozen=True)
class Call:
    """One call of a region in one run: its duration, the step it begins (to the region's next call; None for the
    last), and how many compiles started during the call and during the step (the call included)."""

    index: int
    signature: str
    ms: float | None
    step_ms: float | None
    compiles: int = 0
    step_compiles: int = 0
    probe_ms: float | None = None  # the host CPU probe taken before the call (host.cpu_probe)
    observer: bool = (
        False  # the recorder's own work (the probe) ran before this call: its adjacent steps are not steady
    )

    @property
    def span_ms(self) -> float | None:
        """What the call cost the script: its step, or (the last call) the call itself."""
        return self.step_ms if self.step_ms is not None else self.ms

    @staticmethod
    def from_json(data: dict[str, Any]) -> Call:
        return Call(
            int(data["index"]),
            str(data["signature"]),
            data.get("ms"),
            data.get("stepMs"),
            int(data.get("compiles") or 0),
            int(data.get("stepCompiles") or 0),
            data.get("probeMs"),
            bool(data.get("observer")),
        )


@dataclass
class PairView:
    """One pair's matched calls of one region, split into warm-up, steady steps, steady calls and late compiles."""

    compiled: list[Call]
    eager: list[Call]
    matched: int
    divergence: int | None  # first index where the runs' signatures differ (None: none in the shorter run)
    steady_from: int | None
    steady_steps: list[int]
    steady_calls: list[int]
    late_steps: list[int]  # compiled again at a signature already seen: recurring
    new_steps: list[int]  # compiled at a signature seen for the first time, after steady state began

    @property
    def warmup(self) -> range:
        return range(self.steady_from if self.steady_from is not None else self.matched)


def _settled(calls: list[Call], matched: int) -> int:
    """The first call (from 1 on) after a run's warm-up that is no compile: lazy initialisation, the allocator, a
    library's autotuning make a run's first calls slow with compiling off too. It is the first call within
    SETTLED_FACTOR of the median call of the later half of the matched calls."""
    later = [c.ms for c in calls[matched // 2 : matched] if c.ms is not None]
    if len(later) < 2:
        return 1
    settled_ms = SETTLED_FACTOR * statistics.median(later)
    for i in range(1, matched):
        ms = calls[i].ms
        if ms is not None and ms <= settled_ms:
            return i
    return 1


def view(compiled: list[Call], eager: list[Call]) -> PairView:
    shorter = min(len(compiled), len(eager))
    divergence = next((i for i in range(shorter) if compiled[i].signature != eager[i].signature), None)
    matched = shorter if divergence is None else divergence
    # the region's own calls decide where its steady state begins (another region may compile in every step), in both
    # runs: a call that compiled nothing, once each run's own warm-up is over
    settled = max(_settled(compiled, matched), _settled(eager, matched))
    steady_from = next((i for i in range(settled, matched) if compiled[i].compiles == 0), None)
    steps: list[int] = []
    calls: list[int] = []
    late: list[int] = []
    new: list[int] = []
    seen = {c.signature for c in compiled[: steady_from or 0]}
    if steady_from is not None:
        for i in range(steady_from, matched):
            c, e = compiled[i], eager[i]
            observed = c.observer or e.observer
            if c.compiles == 0 and c.ms is not None and e.ms is not None and not observed:
                calls.append(i)
            first_time = c.signature not in seen
            seen.add(c.signature)
            if c.step_ms is None or e.step_ms is None or i + 1 >= matched:
                continue  # a step is matched when both of its ends are
            if c.step_compiles == 0:
                if not (observed or compiled[i + 1].observer or eager[i + 1].observer):  # no probe in the step
                    steps.append(i)
            elif c.compiles:  # the region's own call compiled: its cost
                (new if first_time else late).append(i)
            # else something else compiled during the step (another region): its cost, in no steady step
    return PairView(compiled, eager, matched, divergence, steady_from, steps, calls, late, new)


def _ratio_of_medians(eager: Sequence[float], compiled: Sequence[float]) -> float:
    return statistics.median(eager) / statistics.median(compiled)


def resampled(eager: list[float], compiled: list[float], seed: int = 0) -> tuple[float, float]:
    """5th and 95th percentiles of the ratio of medians over matched steps drawn with replacement (by index: the
    same steps of both runs, seeded so that a report is repeatable). When the host filter kept different steps of
    each side, each side's are drawn on their own."""
    rng = random.Random(seed)
    n, m = len(eager), len(compiled)
    values = []
    for _ in range(RESAMPLES):
        picks = [rng.randrange(n) for _ in range(n)]
        others = picks if n == m else [rng.randrange(m) for _ in range(m)]
        values.append(_ratio_of_medians([eager[i] for i in picks], [compiled[i] for i in others]))
    return estimator.percentile(values, 0.05), estimator.percentile(values, 0.95)


def _noisy(values: list[float]) -> bool:
    return len(values) >= 2 and estimator.noisy(values)


def estimate(
    eager_runs: list[list[float]], compiled_runs: list[list[float]], extra_ms: list[float] | None = None
) -> InSituSpeedup | None:
    """Speedup from the steady durations of each pair (eager_runs[k] and compiled_runs[k] matched by index, unless
    the host filter left one side's run out: []), with its interval. extra_ms[k]: what late compiles add to each
    compiled step of pair k (their share)."""
    extra = extra_ms or [0.0] * len(eager_runs)
    eagers = [e for e in eager_runs if e]
    compileds = [(c, x) for c, x in zip(compiled_runs, extra, strict=True) if c]
    if not eagers or not compileds:
        return None
    share = statistics.mean(x for _, x in compileds)
    eager_ms = statistics.median([v for e in eagers for v in e])
    compiled_ms = statistics.median([v for c, _ in compileds for v in c]) + share
    speedup = eager_ms / compiled_ms
    noisy_runs = any(_noisy(e) for e in eagers) or any(_noisy(c) for c, _ in compileds)
    fewest = min(len(v) for v in eagers + [c for c, _ in compileds])
    floor = estimator.FLOOR_SEPARATE_RUNS_PCT if noisy_runs or fewest < 3 else estimator.FLOOR_STEADY_PCT
    bounds = [speedup * (1 - floor / 100), speedup * (1 + floor / 100)]
    per_run: list[PairSpeedup] = []
    for e, c, x in zip(eager_runs, compiled_runs, extra, strict=True):
        if not (e and c):
            continue
        own = statistics.median(e) / (statistics.median(c) + x)
        per_run.append(
            {
                "eagerMs": round(statistics.median(e), 4),
                "compiledMs": round(statistics.median(c) + x, 4),
                "speedup": round(own, 4),
                "steps": len(e),
            }
        )
        bounds.append(own)
        if len(e) >= 4 and len(c) >= 4:
            low, high = resampled(e, [v + x for v in c])
            bounds += [low, high]
    for e in eagers:  # every eager run against every compiled run: what the next pair may give
        for c, x in compileds:
            bounds.append(statistics.median(e) / (statistics.median(c) + x))
    return {
        "eagerMs": round(eager_ms, 4),
        "compiledMs": round(compiled_ms, 4),
        "speedup": round(speedup, 4),
        "low": round(min(bounds), 4),
        "high": round(max(bounds), 4),
        "floorPct": floor,
        "noisy": noisy_runs,
        "samples": min(sum(len(e) for e in eagers), sum(len(c) for c, _ in compileds)),
        "perRun": per_run,
    }


def _nearest_probes(calls: list[Call], indices: list[int]) -> list[float | None]:
    """Per index, the probe of the call nearest to it (by index) in this run; None where the run has none."""
    probed = [(c.index, c.probe_ms) for c in calls if c.probe_ms is not None]
    at = [i for i, _ in probed]
    out: list[float | None] = []
    for i in indices:
        k = bisect_left(at, i)
        near = [j for j in (k - 1, k) if 0 <= j < len(probed)]
        out.append(min((probed[j] for j in near), key=lambda p: abs(p[0] - i))[1] if near else None)
    return out


def probes_of(runs: list[list[Call]]) -> list[float]:
    return sorted(c.probe_ms for run in runs for c in run if c.probe_ms is not None)


def fast_state_probe(probes: list[float]) -> float | None:
    """The host's fast state over all runs of a profile (both sides): the CONFIRM_ROUNDS-th fastest probe, a state the
    host held at that many probes (one lucky probe is no state its steps ran in); None without probes."""
    if not probes:
        return None
    return probes[min(estimator.CONFIRM_ROUNDS, len(probes)) - 1]


@dataclass
class HostFiltered:
    """The pairs whose two runs both met the host's fast state, each side's steady values in them (only those at it),
    and what the report says about the pairs: which were used, why the others were not, how many steps of each run
    were at the fast state (None without probes) and, when no pair met it on both sides, per side how much slower than
    the fast state its steps' median probe read the host (the values are then all of every pair's)."""

    eager: list[list[float]]
    compiled: list[list[float]]
    extra_ms: list[float]
    pairs: list[int]  # the pairs whose values these are (numbers from 1)
    used: list[int]  # the pairs that met the host's fast state on both sides ([] when none did: then pairs is all)
    not_used: list[PairNotUsed]
    fast_runs: list[
        tuple[list[float], list[float], float]
    ]  # every (eager, compiled, extra) of runs that met the fast state
    fast_steps: list[dict[str, int]] | None
    slow_host: dict[str, float]


def _pair_left_out(fast: dict[str, int], need: int) -> str | None:
    """Why a pair's runs are not comparable at the host's fast state; None if they are."""
    never = [side for side in ("eager", "compiled") if fast[side] == 0]
    if len(never) == 2:
        return "neither run ran at the host's fast state"
    if never:
        return f"{never[0]} never ran at the host's fast state"
    few = [f"{side} {fast[side]}" for side in ("eager", "compiled") if fast[side] < need]
    if few:
        return f"steps at the host's fast state: {', '.join(few)} (fewer than {need})"
    return None


def host_filtered(
    views: list[PairView],
    picks: list[list[int]],
    duration: Callable[[Call], float],
    fastest: float | None,
    extra_ms: list[float] | None = None,
) -> HostFiltered:
    """picks[k]: pair k's steady indices; duration(call) -> ms; extra_ms[k]: what late compiles add to pair k's
    compiled steps. A pair counts only when both its runs have at least ENOUGH_STEPS (or all) of their values at the
    fast state: a launch-bound step follows the host CPU, and sides taken from different pairs met different hosts.
    When no pair does, every pair counts with all its values and each side's slow state widens the interval."""
    extra = extra_ms or [0.0] * len(views)
    values = {
        "eager": [[duration(v.eager[i]) for i in p] for v, p in zip(views, picks, strict=True)],
        "compiled": [[duration(v.compiled[i]) for i in p] for v, p in zip(views, picks, strict=True)],
    }
    every = list(range(1, len(views) + 1))
    if fastest is None:
        return HostFiltered(values["eager"], values["compiled"], extra, every, every, [], [], None, {})
    counts: list[dict[str, int]] = [{} for _ in views]
    fast_values: dict[str, list[list[float]]] = {"eager": [], "compiled": []}
    probes: dict[str, list[float]] = {"eager": [], "compiled": []}
    for side in ("eager", "compiled"):
        for k, (v, p) in enumerate(zip(views, picks, strict=True)):
            nearest = _nearest_probes(v.eager if side == "eager" else v.compiled, p)
            fast = [
                x
                for x, probe in zip(values[side][k], nearest, strict=True)
                if probe is None or estimator.at_fast_state(probe, fastest)
            ]
            counts[k][side] = len(fast)
            fast_values[side].append(fast)
            probes[side] += [probe for probe in nearest if probe is not None]
    used: list[int] = []
    not_used: list[PairNotUsed] = []
    for k, p in enumerate(picks):
        why = _pair_left_out(counts[k], min(ENOUGH_STEPS, len(p))) if p else "no steady value"
        if why is None:
            used.append(k + 1)
        else:
            e, c = values["eager"][k], values["compiled"][k]
            own = statistics.median(e) / (statistics.median(c) + extra[k]) if e and c else None
            not_used.append({"pair": k + 1, "why": why, "speedup": None if own is None else round(own, 4)})
    # each side's runs with enough values at the fast state, in any pair: every one against every other side's
    met = {
        side: [
            k
            for k, (v, p) in enumerate(zip(fast_values[side], picks, strict=True))
            if v and len(v) >= min(ENOUGH_STEPS, len(p))
        ]
        for side in ("eager", "compiled")
    }
    fast_runs = [
        (fast_values["eager"][i], fast_values["compiled"][j], extra[j]) for i in met["eager"] for j in met["compiled"]
    ]
    if used:
        keep = [k - 1 for k in used]
        return HostFiltered(
            [fast_values["eager"][k] for k in keep],
            [fast_values["compiled"][k] for k in keep],
            [extra[k] for k in keep],
            used,
            used,
            not_used,
            fast_runs,
            counts,
            {},
        )
    # the state each side's steps typically ran in: how far from the fast state the pairs' steps were
    slow = {side: statistics.median(probes[side]) / fastest for side in ("eager", "compiled") if probes[side]}
    return HostFiltered(
        values["eager"],
        values["compiled"],
        extra,
        every,
        [],
        not_used,
        fast_runs,
        counts,
        {side: ratio for side, ratio in slow.items() if ratio > 1 + estimator.FAST_STATE_PCT / 100},
    )


def _fast_state(probes: list[float]) -> tuple[float, list[float]]:
    """The host's fast state as the report gives it (fastStateProbeMs, fasterProbesMs): its probe, and the probes that
    read the host faster still (more than FAST_STATE_PCT % below it: too few to be a state steps ran in, they say the
    whole profile may have run slow)."""
    level = fast_state_probe(probes) or 0.0
    faster = [p for p in probes if not estimator.at_fast_state(level, p)]
    return round(level, 4), [round(p, 4) for p in faster]


def _host_estimate(filtered: HostFiltered, probes: list[float]) -> InSituSpeedup | None:
    """estimate() of the used pairs' fast-state values, with the pairs used and why others were not (and their own
    speedup over all their steps, which the interval reaches while fewer than ENOUGH_PAIRS pairs are used), fastStateSteps,
    the host's fast state (fastStateProbeMs) and the profile's fastest probe (below it: the host ran faster at a few
    probes than in any state its steps could be counted in) and, when no pair met the fast state on both sides,
    slowHost and the interval widened towards what that state could give."""
    est = estimate(filtered.eager, filtered.compiled, filtered.extra_ms)
    if est is None:
        return est
    for run, pair in zip(
        est["perRun"],
        [k for k, e, c in zip(filtered.pairs, filtered.eager, filtered.compiled, strict=True) if e and c],
        strict=True,
    ):
        run["pair"] = pair
    if filtered.fast_steps is None:
        return est
    level, faster = _fast_state(probes)
    est.update(
        {
            "fastStateSteps": [{"eager": n["eager"], "compiled": n["compiled"]} for n in filtered.fast_steps],
            "pairsUsed": filtered.used,
            "pairsNotUsed": filtered.not_used,
            "fastStateProbeMs": level,
            "fasterProbesMs": faster,
        }
    )
    # what the next run may give at the fast state: every run that met it against every other side's, whichever pair
    # (a launch-bound eager step moved 1.5x between runs at the same probe: docs/BENCHMARKS.md §in-situ)
    crossed = [statistics.median(e) / (statistics.median(c) + x) for e, c, x in filtered.fast_runs]
    if crossed:
        est.update({"low": round(min(est["low"], *crossed), 4), "high": round(max(est["high"], *crossed), 4)})
    others = [n["speedup"] for n in filtered.not_used if n["speedup"] is not None]
    if filtered.used and len(filtered.used) < ENOUGH_PAIRS and others:
        # one pair shows no run-to-run variation: the other pairs' own speedups (at whatever state the host was in
        # during them) bound what a next run may give
        est.update({"low": round(min(est["low"], *others), 4), "high": round(max(est["high"], *others), 4)})
    if filtered.slow_host:
        slow: SlowSides = {}
        if "eager" in filtered.slow_host:
            slow["eager"] = round(filtered.slow_host["eager"], 3)
        if "compiled" in filtered.slow_host:
            slow["compiled"] = round(filtered.slow_host["compiled"], 3)
        est["slowHost"] = slow
        low, high = estimator.widened_for_slow_host(
            est["speedup"],
            est["low"],
            est["high"],
            filtered.slow_host.get("eager", 1.0),
            filtered.slow_host.get("compiled", 1.0),
        )
        est.update({"low": round(low, 4), "high": round(high, 4)})
    return est


def _late_share(v: PairView) -> tuple[float, float]:
    """(total ms late compiles added over a steady compiled step, that total shared over the steps from steady on)."""
    if not v.late_steps or not v.steady_steps:
        return 0.0, 0.0
    steady = statistics.median(v.compiled[i].step_ms or 0.0 for i in v.steady_steps)
    total = sum(max(0.0, (v.compiled[i].step_ms or 0.0) - steady) for i in v.late_steps)
    return total, total / (len(v.steady_steps) + len(v.late_steps))


def _compile_cost_ms(v: PairView) -> float | None:
    """How much longer the compiled run's warm-up calls (to steady state, their steps included) took than eager's,
    plus what later first-time compiles took over a steady compiled step."""
    spans = [(v.compiled[i].span_ms, v.eager[i].span_ms) for i in v.warmup]
    if not spans or any(c is None or e is None for c, e in spans):
        return None
    cost = sum(c or 0.0 for c, _ in spans) - sum(e or 0.0 for _, e in spans)
    if v.new_steps and v.steady_steps:
        steady = statistics.median(v.compiled[i].step_ms or 0.0 for i in v.steady_steps)
        cost += sum(max(0.0, (v.compiled[i].step_ms or 0.0) - steady) for i in v.new_steps)
    return cost


def _region_seconds(v: PairView) -> Sides | None:
    spans = [(v.compiled[i].span_ms, v.eager[i].span_ms) for i in range(v.matched)]
    if not spans or any(c is None or e is None for c, e in spans):
        return None
    return {
        "compiled": round(sum(c or 0.0 for c, _ in spans) / 1000, 6),
        "eager": round(sum(e or 0.0 for _, e in spans) / 1000, 6),
    }


def series(calls: list[Call]) -> list[list[float | int | None]]:
    """[ms, stepMs, compiles] per call, for the report panel's overlay."""
    return [
        [None if c.ms is None else round(c.ms, 4), None if c.step_ms is None else round(c.step_ms, 4), c.step_compiles]
        for c in calls[:MAX_SERIES]
    ]


def _why_no_steps(first: PairView, calls: int) -> str:
    if first.matched == 0:
        return "no call ran in both runs"
    if first.steady_from is None:
        return (
            f"every one of the script's {calls} call(s) after its first compiled: the script never reached a call "
            "without compiling"
        )
    if any(first.compiled[i].step_compiles for i in range(first.steady_from, first.matched - 1)):
        return "something compiled in every step after the region's warm-up (another region's compiles): no step without compiling"
    return "no step of the steady state was matched in both runs (the region's last call has no step)"


def compare(compiled_runs: list[list[Call]], eager_runs: list[list[Call]]) -> RegionInSitu:
    """A region's in-situ result (schema `$defs/inSitu`) from the calls of each pair's two runs (pair k:
    compiled_runs[k], eager_runs[k]); pair 0 is the first, whose compiled run compiled from cold."""
    views = [view(c, e) for c, e in zip(compiled_runs, eager_runs, strict=True)]
    first = views[0]
    late = [_late_share(v) for v in views]
    probes = probes_of(compiled_runs + eager_runs)
    fastest = fast_state_probe(probes)
    step = _host_estimate(
        host_filtered(
            views, [v.steady_steps for v in views], lambda c: c.step_ms or 0.0, fastest, [s for _, s in late]
        ),
        probes,
    )
    call = _host_estimate(host_filtered(views, [v.steady_calls for v in views], lambda c: c.ms or 0.0, fastest), probes)
    costs = [_compile_cost_ms(v) for v in views]
    cost_ms = costs[0]
    steps_made = len(compiled_runs[0])
    break_even = None
    if step is not None and cost_ms is not None and step["eagerMs"] > step["compiledMs"]:
        break_even = math.ceil(len(first.warmup) + max(0.0, cost_ms) / (step["eagerMs"] - step["compiledMs"]))
    unmatched = None
    if first.divergence is not None:
        unmatched = (
            f"the runs' calls differ from call {first.divergence} on (compiled: {first.compiled[first.divergence].signature}; "
            f"eager: {first.eager[first.divergence].signature}): calls {first.divergence}+ are not compared"
        )
    elif len(first.compiled) != len(first.eager):
        unmatched = (
            f"the compiled run made {len(first.compiled)} call(s), the eager run {len(first.eager)}: the first "
            f"{first.matched} are compared"
        )
    return {
        "pairs": len(views),
        "compiledCalls": len(first.compiled),
        "eagerCalls": len(first.eager),
        "matchedCalls": first.matched,
        "unmatched": unmatched,
        "steadyFromCall": first.steady_from,
        "warmupCalls": len(first.warmup),
        "step": step,
        "call": call,
        "lateCompiles": len(first.late_steps),
        "lateCompileMs": round(late[0][0], 4),
        "laterFirstCompiles": len(first.new_steps),
        "compileSeconds": None if cost_ms is None else round(max(0.0, cost_ms) / 1000, 4),
        "compileSecondsPerRun": [None if c is None else round(max(0.0, c) / 1000, 4) for c in costs],
        "breakEvenSteps": break_even,
        "stepsMade": steps_made,
        "paysBack": None if break_even is None else break_even <= steps_made,
        "regionSeconds": _region_seconds(first),
        "stepsPerSecond": None
        if step is None
        else {"eager": round(1000 / step["eagerMs"], 3), "compiled": round(1000 / step["compiledMs"], 3)},
        "reason": None if step is not None else _why_no_steps(first, steps_made),
        "series": {"compiled": series(first.compiled), "eager": series(first.eager)},
    }


def needs_another_pair(result: RegionInSitu) -> str | None:
    """Why one more pair of runs is needed for this region's step speedup to support a verdict; None if not. Fewer
    than ENOUGH_PAIRS pairs whose two runs both met the host's fast state get pairs up to MAX_PAIRS, the other reasons
    up to MAX_PAIRS_NOISY."""
    step = result.get("step")
    pairs = result["pairs"]
    if step is None or pairs >= MAX_PAIRS:
        return None  # no steady step: another pair would not make one; or the pairs are all run
    used = step.get("pairsUsed")
    if used is not None and len(used) < ENOUGH_PAIRS and step.get("pairsNotUsed"):
        first = step["pairsNotUsed"][0]
        return (
            f"{len(used)} of {pairs} pair(s) ran both sides at the host's fast state (pair {first['pair']}: "
            f"{first['why']})"
        )
    if pairs >= MAX_PAIRS_NOISY:
        return None
    if step["samples"] < ENOUGH_STEPS * result["pairs"]:
        return f"{step['samples']} steady steps"
    if step["high"] > step["low"] * (1 + WIDE_PCT / 100):
        return f"interval {formats.interval(step['low'], step['high'])}"
    for boundary in BOUNDARIES:
        if step["low"] < boundary < step["high"]:
            return f"interval {formats.interval(step['low'], step['high'])} straddles {formats.speedup(boundary)}"
    if result["pairs"] == 1 and step["noisy"]:
        return "noisy steps"
    return None


# An in-situ run's timings file (script/in_situ_recorder.py: its regions and their calls) is the runner's own, no
# part of the report: its regions are read here as parsed.
def calls_of(region: dict[str, Any]) -> list[Call]:
    return [Call.from_json(c) for c in region.get("calls") or []]


def same_region(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    """Regions of two runs are one when the script made them in the same order at the same line with the same name."""
    where_a, where_b = a.get("location") or {}, b.get("location") or {}
    return (a.get("id"), a.get("name"), where_a.get("file"), where_a.get("line")) == (
        b.get("id"),
        b.get("name"),
        where_b.get("file"),
        where_b.get("line"),
    )


def region_in(run: dict[str, Any], region: Mapping[str, Any]) -> dict[str, Any] | None:
    """The run's region that is `region` (a run's, or the report's)."""
    return next((r for r in run.get("regions") or [] if same_region(r, region)), None)


def compare_runs(compiled: list[dict[str, Any]], eager: list[dict[str, Any]]) -> dict[str, RegionInSitu]:
    """Per region id of the first compiled run: compare() over the pairs in which both runs made that region."""
    out: dict[str, RegionInSitu] = {}
    for region in compiled[0].get("regions") or [] if compiled else []:
        pairs = [
            (c, e)
            for c, e in ((region_in(c, region), region_in(e, region)) for c, e in zip(compiled, eager, strict=True))
            if c is not None and e is not None
        ]
        if pairs:
            out[region["id"]] = compare([calls_of(c) for c, _ in pairs], [calls_of(e) for _, e in pairs])
    return out


def slowest(values: list[Any]) -> Any:
    """The slowest rank's value (None when a rank has none)."""
    return None if any(v is None for v in values) else max(values)


def slowest_rank(ranks: list[dict[str, Any]]) -> dict[str, Any]:
    """One run of a torchrun job from its ranks' runs: per call of each region (matched by index across ranks), the
    slowest rank's call and step, since the job's step is as long as its slowest rank's. The ranks' own runs are kept
    under `ranks` (each compared on its own by the report)."""
    first = ranks[0]
    regions = []
    for region in first.get("regions") or []:
        mine = [r for r in (region_in(rank, region) for rank in ranks) if r is not None]
        count = min(len(r.get("calls") or []) for r in mine)
        calls = []
        for i in range(count):
            each = [r["calls"][i] for r in mine]
            probes = [c["probeMs"] for c in each if c.get("probeMs") is not None]
            calls.append(
                dict(
                    each[0],
                    ms=slowest([c.get("ms") for c in each]),
                    stepMs=slowest([c.get("stepMs") for c in each]),
                    probeMs=max(probes) if probes else None,
                    observer=any(c.get("observer") for c in each),
                    compiles=max(int(c.get("compiles") or 0) for c in each),
                    stepCompiles=max(int(c.get("stepCompiles") or 0) for c in each),
                )
            )
        failure = next((r["failure"] for r in mine if r.get("failure")), None)
        regions.append(
            dict(region, calls=calls, failure=failure, callCount=min(int(r.get("callCount") or 0) for r in mine))
        )
    errors = [r.get("outcome") for r in ranks if (r.get("outcome") or {}).get("status") == "error"]
    return dict(
        first,
        regions=regions,
        outcome=errors[0] if errors else first.get("outcome"),
        wallSeconds=slowest([r.get("wallSeconds") for r in ranks]),
        ranks=ranks,
    )
