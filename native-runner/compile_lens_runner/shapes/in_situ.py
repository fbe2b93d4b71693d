"""The script's own calls and steps, compiled against eager (report.inSitu, a region's inSitu)."""

from __future__ import annotations

from typing import Any, Literal, TypedDict

from .common import HostLoad, InSituWindow, RunError, Sides, SlowSides, SourceLocation

Method = Literal["interleaved", "separate-runs"]


class _InSituRun(TypedDict):
    side: str
    pair: int
    status: str


class InSituRun(_InSituRun, total=False):
    file: str | None
    mode: str | None
    wallSeconds: float | None
    error: RunError | None
    switch: str | None
    scriptExitCode: int | None


class _PairSpeedup(TypedDict):
    eagerMs: float
    compiledMs: float
    speedup: float
    steps: int


class PairSpeedup(_PairSpeedup, total=False):
    pair: int


class FastStateSteps(TypedDict, total=False):
    eager: int
    compiled: int


class PairNotUsed(TypedDict):
    pair: int
    why: str
    speedup: float | None


class SignatureSpeedup(TypedDict):
    signature: str
    eagerMs: float
    compiledMs: float
    speedup: float
    steps: Sides
    calls: int


class _InSituSpeedup(TypedDict):
    eagerMs: float
    compiledMs: float
    speedup: float
    low: float
    high: float


class InSituSpeedup(_InSituSpeedup, total=False):
    floorPct: float
    noisy: bool
    samples: int
    perRun: list[PairSpeedup]
    fastStateSteps: list[FastStateSteps]
    pairsUsed: list[int]
    pairsNotUsed: list[PairNotUsed]
    pairs: int
    pairRatios: list[float]
    comparedBy: str
    signatures: list[SignatureSpeedup]
    notCompared: list[str]
    fastStateProbeMs: float
    fasterProbesMs: list[float]
    slowHost: SlowSides


class StepWorkSide(TypedDict):
    device: str
    steps: int
    workMsPerStep: float
    kernelsPerStep: float
    profiledStepMs: float
    wallMs: float | None
    wallFrom: str
    busyPct: float | None
    launchBound: bool


class StepWork(TypedDict):
    eager: StepWorkSide
    compiled: StepWorkSide
    text: str


class _CompileFailure(TypedDict):
    what: str
    fix: str
    location: SourceLocation | None


class CompileFailure(_CompileFailure, total=False):
    message: str
    index: int


class WhatIf(TypedDict):
    mode: str
    step: InSituSpeedup | None
    call: InSituSpeedup | None
    compileSeconds: float | None
    breakEvenSteps: int | None
    reason: str | None
    failure: CompileFailure | None


# One call: [ms, stepMs, compiles in the step], interleaved with its call index after.
InSituPoint = list[Any]


class Series(TypedDict):
    compiled: list[InSituPoint]
    eager: list[InSituPoint]


class EagerFallback(TypedDict):
    """The compiled side's calls that Dynamo ran eagerly (recompile limit, failed compile), out of its calls."""

    calls: int
    of: int


class InterruptedSide(TypedDict):
    """Schema 1.35: one side's steady steps left out as interruptions (measure/interruptions.py)."""

    steps: int
    lowMs: float
    highMs: float
    medianMs: float | None  # the median they stood far above; None where they were at several signatures


class Interrupted(TypedDict):
    """Schema 1.35: the steps left out as interruptions, per side, and the rule (measure/ranges.far_above)."""

    eager: InterruptedSide | None
    compiled: InterruptedSide | None
    times: float  # ranges.FAR_TIMES
    mads: float  # ranges.FAR_MADS


class HostShare(TypedDict):
    """How much of eager the host sets in situ (CUDA): its steady calls' host time over their GPU time, and the floor
    of the intervals when that makes eager launch-bound (measure/interleaved.host_share)."""

    eagerPct: float
    calls: int
    launchBound: bool
    floorPct: float | None


class OwnCost(TypedDict):
    """Compile Lens's own work on an eager call in situ where it is not small against eager's time per step (or call)
    (measure/interleaved.own_cost): the in-situ number then decides nothing, the replay does."""

    ms: float  # at most this a call (measure/interleaved.OWN_CALL_MS)
    eagerMs: float  # eager's time per step or call in situ (the number's own)
    pct: float  # ms over eagerMs, in %
    unit: Literal["step", "call"]


class MedianText(TypedDict):
    """schema 1.25: each side's steady median on the in-situ overlay, in words (report/chart_text.py)."""

    compiled: str
    eager: str


class CompileStep(TypedDict):
    """schema 1.25: a step that compiled, as its mark on the in-situ overlay says it (report/chart_text.py)."""

    side: Literal["compiled", "eager"]
    index: int
    text: str


class _StepPoint(TypedDict):
    index: int
    counted: bool
    leftOut: str | None


class StepPoint(_StepPoint, total=False):
    """s27: a step the in-situ series draws: whether the number counted it, else why not (a `dropped` key); under
    torchrun, whose step it is and the ranks that compiled in it; its mark's words (report/chart_text.py)."""

    rank: int
    compiledOn: list[int]
    text: str


class _NoStep(TypedDict):
    code: Literal["eager-stance-only", "never-compiled", "before-interleaving", "no-steady-side", "no-shared-signature"]


class NoStep(_NoStep, total=False):
    """Why an interleaved measurement has no step speedup (measure/interleaved.py), with what its sentence needs:
    never-compiled the compiled calls' fallback sentence; before-interleaving the region's calls and the quiet calls
    the interleaving waits for; no-steady-side the side with no steady step."""

    fallback: str | None
    calls: int
    quietCalls: int
    side: Literal["eager", "compiled"]


class _RegionInSitu(TypedDict):
    pairs: int


class RegionInSitu(_RegionInSitu, total=False):
    method: Method
    steadySteps: Sides
    dropped: dict[str, int]  # steps left out, by why
    interrupted: Interrupted | None  # schema 1.35
    eagerFallback: EagerFallback | None
    hostShare: HostShare | None
    compiledCalls: int
    eagerCalls: int
    matchedCalls: int
    unmatched: str | None
    steadyFromCall: int | None
    warmupCalls: int
    step: InSituSpeedup | None
    call: InSituSpeedup | None
    lateCompiles: int
    lateCompileMs: float
    laterFirstCompiles: int
    compileSeconds: float | None
    compileSecondsPerRun: list[float | None]
    breakEvenSteps: int | None
    stepsMade: int
    paysBack: bool | None
    regionSeconds: Sides | None
    stepsPerSecond: Sides | None
    reason: str | None  # noStep in words (report/in_situ_text.py)
    noStep: NoStep | None
    ownCost: OwnCost | None
    series: Series
    medianText: MedianText
    steadyText: str
    compileSteps: list[CompileStep]
    stepPoints: list[StepPoint]
    ranksText: str
    work: StepWork | None
    lines: list[str]  # schema 1.24: these numbers in the runner's words (report/in_situ_text.py)
    failure: CompileFailure | None
    whatIf: list[WhatIf]
    ranks: list[dict[str, Any]]  # {rank, step}: the schema leaves their keys open
    hostLoad: HostLoad
    slowestRank: bool


class _ReportInSitu(TypedDict):
    pairs: int
    order: list[str]
    runs: list[InSituRun]
    wallSeconds: dict[str, list[float]] | None  # compiled, eager: per run
    skipped: str | None


class ReportInSitu(_ReportInSitu, total=False):
    method: Method
    wallText: str  # schema 1.29 (report/in_situ_text.wall_text): "whole script, fastest of 2 runs each: as written …"
    schedule: dict[str, Any]  # the schema leaves its keys open (described in words)
    windows: dict[str, InSituWindow] | None  # by side
    repeatedBecause: str | None
    stoppedBecause: str | None
