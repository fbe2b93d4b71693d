"""The report's main objects as typed dicts, for the code that builds them: report.schema.json is the one definition
of the report, and test/python/test_report_shapes.py fails when these name other keys, or other required keys, than
it does. A leaf: the producers in every layer may build the report with them (measure/ keeps to plain values).
Each `_Name` holds the keys the schema requires, `Name` adds the optional ones."""
from __future__ import annotations

from typing import Any, Literal, TypedDict

Verdict = Literal["compile", "compile-for-longer-runs", "stay-eager", "none"]


class _Report(TypedDict):
    schemaVersion: str
    runner: dict[str, Any]
    createdAt: str
    status: str
    error: RunError | None
    environment: dict[str, Any]
    target: dict[str, Any]
    settings: dict[str, Any]
    eager: dict[str, Any]
    modes: list[ModeResult]
    recommendation: Recommendation


class Report(_Report, total=False):
    headline: str
    regions: list[Region]
    inSitu: ReportInSitu
    ranks: list[RankEntry]
    divergence: list[Divergence]
    logs: dict[str, Any]
    rank: dict[str, Any]


class _RunError(TypedDict):
    kind: str
    message: str
    fix: str


class RunError(_RunError, total=False):
    traceback: str | None


class _SourceLocation(TypedDict):
    file: str
    line: int


class SourceLocation(_SourceLocation, total=False):
    function: str | None
    code: str | None
    cell: int | None


class _Timing(TypedDict):
    medianMs: float
    minMs: float
    maxMs: float
    spreadPct: float
    rounds: list[float]
    callsPerRound: int
    method: str


class Timing(_Timing, total=False):
    estimateMs: float
    stopReason: str
    cpuProbeMs: list[float]
    extraRounds: int
    valid: bool
    invalidReason: str
    speedup: float | None
    hostLoad: dict[str, Any]  # measure/host.py load_evidence: schema 1.19


class _Recommendation(TypedDict):
    mode: str | None
    reason: str


class Recommendation(_Recommendation, total=False):
    verdict: Verdict


class _GraphBreak(TypedDict):
    reason: str
    location: SourceLocation | None
    userStack: list[SourceLocation]


class GraphBreak(_GraphBreak, total=False):
    hint: str | None
    gbId: str | None
    docUrl: str | None
    compileId: str | None
    count: int
    ranks: list[int]
    brokeAt: dict[str, Any] | None
    explanation: dict[str, Any] | None


class _Recompile(TypedDict):
    reason: str
    location: SourceLocation | None


class Recompile(_Recompile, total=False):
    compileId: str | None
    trigger: str | None
    inTimedRegion: bool
    allReasons: list[str]
    pattern: str
    hint: str | None
    explanation: dict[str, Any] | None
    ranks: list[int]


class _CompilerInsight(TypedDict):
    graphCount: int
    graphBreaks: list[GraphBreak]
    recompiles: list[Recompile]


class CompilerInsight(_CompilerInsight, total=False):
    recompileSites: list[dict[str, Any]]
    guardCount: int | None
    compileSeconds: dict[str, Any]
    torchTraceLog: str | None
    compiledFrames: int
    frames: list[dict[str, Any]]
    cache: dict[str, Any]
    perfHints: list[dict[str, Any]]
    cudaGraphs: list[dict[str, Any]]
    kernels: list[dict[str, Any]]
    compileFailures: list[dict[str, Any]]
    restarts: list[dict[str, Any]]
    compiles: list[dict[str, Any]]
    phases: list[dict[str, Any]]


class _ModeResult(TypedDict):
    mode: str
    status: str
    error: RunError | None
    compileSeconds: float | None
    timing: Timing | None
    speedup: float | None
    trace: str | None
    kernelsPerStep: float | None
    compiler: CompilerInsight | None


class ModeResult(_ModeResult, total=False):
    speedupEstimator: str
    speedupInterval: dict[str, Any]
    speedupMedianRatio: float | None
    ranCompiled: bool | None
    fallback: dict[str, Any]
    gpuIdlePct: float | None
    breakEvenCalls: float | None
    peakMemoryBytes: int | None
    eagerTiming: Timing | None
    outsideGraphsMsPerStep: float | None
    speedupSpreadPct: float | None
    speedupIqrPct: float | None
    discardedTimings: list[Timing]
    correctness: dict[str, Any]
    compilerError: RunError | None
    scriptExitCode: int


class RegionMeasurement(ModeResult, total=False):
    signature: str
    why: str
    measures: str
    eagerTrace: str | None
    eagerKernelsPerStep: float | None
    eagerGpuIdlePct: float | None


class _RegionCall(TypedDict):
    index: int
    ms: float | None
    signature: str
    event: str


class RegionCall(_RegionCall, total=False):
    clock: str
    gradMode: str
    compileIds: list[str]
    compileSeconds: float | None
    recompileReason: str | None
    ranCompiled: bool | None
    fallbackReason: str | None
    profiled: bool
    observer: bool
    side: str
    block: int
    stepMs: float | None
    stepCompiles: int | None


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
    perRun: list[dict[str, Any]]
    fastStateSteps: list[dict[str, Any]]
    pairsUsed: list[int]
    pairsNotUsed: list[dict[str, Any]]
    pairs: int
    pairRatios: list[float]
    comparedBy: str
    signatures: list[dict[str, Any]]
    notCompared: list[str]
    fastStateProbeMs: float
    fasterProbesMs: list[float]
    slowHost: dict[str, Any]


class _RegionInSitu(TypedDict):
    pairs: int


class RegionInSitu(_RegionInSitu, total=False):
    method: Literal["interleaved", "separate-runs"]
    steadySteps: dict[str, Any]
    dropped: dict[str, Any]
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
    regionSeconds: dict[str, Any] | None
    stepsPerSecond: dict[str, Any] | None
    reason: str | None
    series: dict[str, Any]
    work: dict[str, Any] | None
    failure: dict[str, Any] | None
    whatIf: list[dict[str, Any]]
    ranks: list[dict[str, Any]]
    hostLoad: dict[str, Any]  # measure/host.py load_evidence: schema 1.19
    slowestRank: bool


class _Region(TypedDict):
    id: str
    name: str
    kind: str
    location: SourceLocation | None
    callCount: int
    calls: list[RegionCall]
    replay: dict[str, Any]
    measurements: list[RegionMeasurement]


class Region(_Region, total=False):
    options: dict[str, Any]
    device: str | None
    callsTruncated: bool
    signatures: list[dict[str, Any]]
    compiler: CompilerInsight | None
    steadyState: dict[str, Any] | None
    recommendation: Recommendation | None
    stoppedAfterCalls: int | None
    headline: str
    noCompiledCode: dict[str, Any] | None
    inSitu: RegionInSitu | None


class _ReportInSitu(TypedDict):
    pairs: int
    order: list[str]
    runs: list[dict[str, Any]]
    wallSeconds: dict[str, list[float]] | None  # compiled, eager: per run
    skipped: str | None


class ReportInSitu(_ReportInSitu, total=False):
    method: Literal["interleaved", "separate-runs"]
    schedule: dict[str, Any]
    windows: dict[str, Any] | None
    repeatedBecause: str | None
    stoppedBecause: str | None


class _RankEntry(TypedDict):
    rank: int


class RankEntry(_RankEntry, total=False):
    trace: str | None
    status: str
    host: str
    nodeRank: int
    localRank: int
    compileFailures: int
    restarts: int
    exitCode: int | None
    error: RunError | None
    failedAt: SourceLocation | None
    report: str | None
    window: dict[str, Any] | None
    torchTraceLog: str | None
    graphCount: int | None
    graphBreaks: int | None
    recompiles: int | None
    compileSeconds: float | None
    cache: dict[str, Any] | None
    regions: list[dict[str, Any]]
    collectives: list[str] | None
    stack: dict[str, Any] | None
    stacks: str | None


class _Divergence(TypedDict):
    kind: str
    message: str
    ranks: list[int]


class Divergence(_Divergence, total=False):
    severity: str
    location: SourceLocation | None
    details: dict[str, Any]
