"""What the compiler did (a mode's or a region's `compiler`): graph breaks, recompiles, kernels, compile phases."""

from __future__ import annotations

from typing import Any, TypedDict

from .common import SourceLocation


class QuickFixEdit(TypedDict):
    line: int
    column: int
    endColumn: int
    expect: str
    text: str


class _QuickFix(TypedDict):
    kind: str
    title: str


class QuickFix(_QuickFix, total=False):
    statement: str
    comment: str
    edits: list[QuickFixEdit]


class _Explanation(TypedDict):
    what: str
    fix: str


class Explanation(_Explanation, total=False):
    quickFix: QuickFix | None
    quickFixes: list[QuickFix]  # further edits offered beside quickFix (mark-dynamic: script/mark_dynamic_edit.py)
    kind: str  # schema 1.42: "warmup-shape" for a warm-up's explanation (script/warmup_shape.py); 1.47 "grad-switch"
    madeFor: str  # schema 1.34: what the recompile was made for (compiler/made_for.py): "x's size 16 in dimension 0", "self.calls == 17"


class _BreakExplanation(TypedDict):
    pattern: str
    what: str
    fix: str


class BreakExplanation(_BreakExplanation, total=False):
    title: str
    broke: str | None
    quickFix: QuickFix | None


class BrokeAt(SourceLocation, total=False):
    library: bool


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
    countText: str  # schema 1.25, count > 1: "3 graph breaks at this line" (report/compiler_text.py)
    ranks: list[int]
    rankCounts: dict[str, int]  # schema 1.35, a torchrun job: its count on each rank that had it (ranks/merge.py)
    brokeAt: BrokeAt | None
    explanation: BreakExplanation | None


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
    explanation: Explanation | None
    ranks: list[int]


class _RecompileSite(TypedDict):
    pattern: str
    reason: str
    count: int
    location: SourceLocation | None


class RecompileSite(_RecompileSite, total=False):
    countText: str  # schema 1.25, count > 1: "7 recompiles at this line" (report/compiler_text.py)
    compileIds: list[str | None]
    values: list[str]
    trigger: str | None
    inTimedRegion: bool
    hint: str | None
    explanation: Explanation | None
    ranks: list[int]
    inDivergence: bool  # s28, a torchrun job: the ranks' divergence says it (report/rank_text.divergences)


class _CompiledFrame(TypedDict):
    compileId: str | None
    seconds: float


class CompiledFrame(_CompiledFrame, total=False):
    function: str | None
    location: SourceLocation | None
    # schema 1.31: a frame outside the user's files, where it is in words ("PyTorch's _dynamo/external_utils.py")
    library: str
    calledFrom: SourceLocation  # schema 1.35: a frame outside the user's files, the user's line whose call led there
    graphOps: int  # schema 1.36: the tensor ops in the graph it made (Dynamo's graph_op_count); 0: no graph
    nameText: str  # schema 1.28 (report/compile_names.py): "forward, recompiled for x's size 16 in dimension 0", "forward, recompile 1"


class _PerfHint(TypedDict):
    kind: str
    what: str
    message: str
    location: SourceLocation | None


class PerfHint(_PerfHint, total=False):
    op: str | None
    fix: str | None
    compileIds: list[str | None]


class _CudaGraphSkip(TypedDict):
    kind: str
    what: str
    cost: str


class CudaGraphSkip(_CudaGraphSkip, total=False):
    fix: str | None
    location: SourceLocation | None
    tensors: list[str]


class _CudaGraphStatus(TypedDict):
    compileId: str | None
    status: str


class CudaGraphStatus(_CudaGraphStatus, total=False):
    reason: str | None
    explanation: CudaGraphSkip
    hints: list[CudaGraphSkip]


class _KernelProvenance(TypedDict):
    name: str
    atenOps: list[str]
    sourceLines: list[SourceLocation]


class KernelProvenance(_KernelProvenance, total=False):
    compileId: str | None
    codeLine: int | None
    usPerStep: float | None
    nameText: str  # schema 1.28 (report/compile_names.py): "fused kernel 1 of forward (lines 12, 13)"
    lensText: str  # schema 1.28: "fuses lines 12, 13 (add, relu)"
    opsText: str  # schema 1.32: its ops as PyTorch users know them, "add, relu" (report/compile_names.ops_text)
    sharedText: str  # schema 1.29: "fused kernel 1 (lines 12, 13), made by 2 compiles: forward; forward, recompile 1"
    kernelSteps: (
        StepSpan  # schema 1.49, a script's kernel timed from its region's profile: the steps usPerStep is the mean of
    )


class _FailedGuard(TypedDict):
    compileId: str | None
    reason: str
    guards: str | None
    line: int | None
    guard: str | None


class FailedGuard(_FailedGuard, total=False):
    sourceText: str  # schema 1.36: where the guarded value is in the user's code (report/guard_text.py)


class _CompileArtifacts(TypedDict):
    compileId: str
    outputCode: str | None
    guards: str | None
    fxGraph: str | None
    failedGuards: list[FailedGuard]


class CompileArtifacts(_CompileArtifacts, total=False):
    guardCount: int | None


class _CompilePhase(TypedDict):
    compileId: str
    name: str
    startMs: float
    durMs: float
    depth: int


class CompilePhase(_CompilePhase, total=False):
    cache: str
    cacheHit: bool
    shortName: str  # schema 1.38 to 1.41 only: its short name, the last of its labels since (the chart reads it there)
    labels: list[str]  # schema 1.40: its bar's names told apart from its compile's others (compiler/phase_names.py)
    uncountedLabels: list[str]  # schema 1.44: its labels less their "(1 of 2)", where they count it
    countedText: str  # schema 1.51: where they count it, its mates' count and time in all ("13 × C++ compile, 18.5 s")


# Cache lookups by cache (fxGraph, aotAutograd), then by outcome (hit, miss, bypass).
CacheCounts = dict[str, dict[str, int]]


class _CompilerInsight(TypedDict):
    graphCount: int
    graphBreaks: list[GraphBreak]
    recompiles: list[Recompile]


class _StepSpan(TypedDict):
    first: int
    last: int


class StepSpan(_StepSpan, total=False):
    """Profiled steps, first to last, by the numbers their markers say (ProfilerStep#2 is step 2)."""

    text: str  # schema 1.45: "steps 2–3" (compiler_text.steps_text)


class CompilerInsight(_CompilerInsight, total=False):
    recompileSites: list[RecompileSite]
    breakSites: list[GraphBreak]  # s28: graphBreaks one per line and fix (report/compiler_text.py)
    guardCount: int | None
    compileSeconds: dict[str, float]  # by phase
    torchTraceLog: str | None
    compiledFrames: int
    frames: list[CompiledFrame]
    cache: CacheCounts
    perfHints: list[PerfHint]
    cudaGraphs: list[CudaGraphStatus]
    kernels: list[KernelProvenance]
    kernelSteps: StepSpan  # schema 1.43: the profiled steps each kernel's usPerStep is the mean of
    compileFailures: list[dict[str, Any]]  # the schema leaves their keys open
    restarts: list[dict[str, Any]]  # {compileId, reason}: the schema leaves their keys open
    compiles: list[CompileArtifacts]
    phases: list[CompilePhase]
    breakCost: str  # schema 1.24: what its graph breaks cost, in words (report/notes.py)
    cudaGraphsLines: list[str]  # schema 1.25: cudaGraphs in lines (report/compiler_text.py)
    noGraphText: str  # schema 1.25: frames compiled and no graph made, in words (report/compiler_text.py)
    countsText: str  # schema 1.27, a report read from logs: compiles, graphs, breaks, recompiles, failures, restarts
    compileTimeText: str  # schema 1.27, logs: the compile time by phase
    cacheText: str  # schema 1.27, logs: the FX graph and AOT autograd caches' lookups
    phasesText: str  # the compile phases' heading: compiles, the compile total, cache hits (report/compiler_text.py)
    cacheBuildText: str  # 1.36: why a cache hit has a C++ compile under it (report/compiler_text.py cache_build)
    phaseRowTexts: dict[
        str, str
    ]  # 1.47: the phase rows' names of compiles no frame lists; 1.49: and that made no graph
    rankPhases: list[RankPhases]  # 1.38, a torchrun job's script: each rank's compile phases (ranks/merge.rank_phases)


class _RankPhases(TypedDict):
    ranks: list[int]
    compiler: CompilerInsight


class RankPhases(_RankPhases, total=False):
    regions: dict[str, str]  # the region (its name) each compile id compiled
