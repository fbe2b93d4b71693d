"""Why, per step, in words (schema 1.17: a region's `inSitu.work.text`): what each side's profiled steps show
(measure/step_work.py counts it), said each time the report is written (in_situ_text.attach).

On a GPU: its work and kernels per step, how busy it was, whether it waited on the CPU's launches. On a CPU the
profiler's overhead is in every op: where it slowed either side's steps past PROFILER_SLOWED times their timed
length, the ops' share of the step is the profiler's, so only the op counts and that slowdown are said (review 6C Z2: "a profiled
step took 88.8 ms → 167 ms … (without it 0.639 ms → 0.678 ms), and ops took 98% → 100% of the profiled step").

A CPU step's ops count each compiled graph's call as one op: the script's own compiled code does not record the C++
functions Inductor generated for it (only the replay's profiled copy is compiled to record them, measure/profiling.py), so the
in-situ trace cannot count them. The replay counts the ATen ops and C++ functions inside the graph (its `CPU ops /
call`, the compare's rule): the line names both rules and says the replay's count beside its own (review 18X X1:
"6 → 2 ops per step" over "CPU ops / call 5 → 5" read as almost everything fused, and as nothing)."""

from __future__ import annotations

from .. import formats
from ..measure.step_work import Sides
from ..shapes.in_situ import InSituSpeedup, StepWorkSide
from ..shapes.mode import RegionMeasurement

# a profiled step this many times its timed one is mostly the profiler's own time
PROFILER_SLOWED = 10.0


def _counts(before: float, after: float, noun: str) -> str:
    """ "20 → 2 CPU ops", "20 → 1 CPU op": the noun agrees with the count just before it (review 19Y Y3: "20 → 1 CPU
    ops per call" read as a typo)."""
    said = formats.count(after)
    return f"{formats.count(before)} → {said} {noun if said == '1' else noun + 's'}"


def _busy(e: StepWorkSide, c: StepWorkSide) -> str | None:
    """ "20% → 40% of the wall step" (of the profiled step where no steady step was set beside it)."""
    if e["busyPct"] is None or c["busyPct"] is None:
        return None
    of = "wall" if e["wallFrom"] == "steady steps" else "profiled"
    return f"{formats.pct(e['busyPct'])} → {formats.pct(c['busyPct'])} of the {of} step"


def _slowed(e: StepWorkSide, c: StepWorkSide, step: InSituSpeedup | None) -> tuple[float, float] | None:
    """How many times its timed length the profiler made each side's step (eager, compiled); None without a timed
    step."""
    if not step or not step["eagerMs"] or not step["compiledMs"]:
        return None
    return e["profiledStepMs"] / step["eagerMs"], c["profiledStepMs"] / step["compiledMs"]


def replay_ops(measurements: list[RegionMeasurement]) -> tuple[float, float] | None:
    """The replay's CPU ops per call, eager's and compiled's, of the script's mode as written (the in-situ steps'):
    None where that replay failed or counted none."""
    written = next((m for m in measurements if m.get("mode") == "as-written" and m.get("status") == "ok"), None)
    if written is None:
        return None
    eager, compiled = written.get("eagerKernelsPerStep"), written.get("kernelsPerStep")
    return (eager, compiled) if eager is not None and compiled is not None else None


def _cpu(e: StepWorkSide, c: StepWorkSide, step: InSituSpeedup | None, replay: tuple[float, float] | None) -> str:
    ops = (
        f"{_counts(e['kernelsPerStep'], c['kernelsPerStep'], 'op')} per step, each compiled graph's call counted as "
        "one op"
    )
    if replay is not None:
        ops += (
            " (the replay counts the ATen ops and generated C++ functions inside it: "
            f"{_counts(replay[0], replay[1], 'CPU op')} per call)"
        )
    slowed = _slowed(e, c, step)
    if step and slowed is not None and max(slowed) >= PROFILER_SLOWED:
        # its times are the profiler's, not the step's: a third time for one step (review 6B J), said as how much
        return (
            f"{ops}; the profiler made these steps {formats.speedup(slowed[0])} and {formats.speedup(slowed[1])} as "
            "long as timed, too much to tell which part of a step was ops and which was Python"
        )
    busy = _busy(e, c)
    if busy is None:
        return f"{ops}; the rest is Python and PyTorch's own work between ops"
    return f"{ops}; ops took {busy}, the rest is Python and PyTorch's own work between ops"


def _gpu(e: StepWorkSide, c: StepWorkSide) -> str:
    text = (
        f"GPU work {formats.ms(e['workMsPerStep'])} → {formats.ms(c['workMsPerStep'])} per step, "
        f"{_counts(e['kernelsPerStep'], c['kernelsPerStep'], 'kernel')}"
    )
    busy = _busy(e, c)
    if not busy:
        return text
    bound = [side for side, work in (("eager", e), ("compiled", c)) if work["launchBound"]]
    why = (
        "both ways launch-bound: the GPU waited on the CPU (its launches, Python) the rest of each step"
        if len(bound) == 2
        else f"{bound[0]} was launch-bound: the CPU launches were the rest"
        if bound
        else "the GPU's own work was most of each step"
    )
    text += f"; GPU busy {busy}: {why}"
    saved = (e["wallMs"] or 0.0) - (c["wallMs"] or 0.0)  # busy is known: both walls are
    if e["wallFrom"] == c["wallFrom"] == "steady steps" and saved > 0:  # wall = GPU busy + GPU idle, both ways
        work = e["workMsPerStep"] - c["workMsPerStep"]
        text += (
            f"; of the {formats.ms(saved)} saved per step, {formats.ms(work)} is GPU work and "
            f"{formats.ms(saved - work)} the GPU's idle time (the CPU's side)"
            if work >= 0
            else f"; the step is {formats.ms(saved)} shorter though the GPU worked {formats.ms(-work)} more: it "
            f"idled {formats.ms(saved - work)} less (the CPU's side)"
        )
    return text


def text(work: Sides, step: InSituSpeedup | None, replay: tuple[float, float] | None = None) -> str:
    """The line that says a region's step work (step: its in-situ step speedup, whose times are the timed steps';
    replay: its replay's CPU ops per call, replay_ops, said beside a CPU step's)."""
    e, c = work["eager"], work["compiled"]
    return _gpu(e, c) if e["device"] == "cuda" else _cpu(e, c, step, replay)
