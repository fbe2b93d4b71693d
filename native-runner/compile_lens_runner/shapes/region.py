"""A compiled region of a script (report.regions[]): its calls, signatures, replayed measurements and in-situ result."""

from __future__ import annotations

from typing import Any, TypedDict

from .answer import Answer
from .common import Recommendation, SourceLocation
from .compiler import CompilerInsight
from .in_situ import EagerFallback, InSituSpeedup, RegionInSitu
from .mode import RegionMeasurement


class _RegionCall(TypedDict):
    index: int
    ms: float | None
    signature: str
    event: str


class RegionCall(_RegionCall, total=False):
    clock: str
    hostMs: float  # a CUDA call's host time (perf_counter around it); absent on CPU, where ms is the host's
    cudaGraphBytes: int  # under CUDA graphs, a size's first calls: what the graphs' memory pools grew by over it
    gradMode: str
    compileIds: list[str]
    compileSeconds: float | None
    recompileReason: str | None
    recompileWhy: str | None
    said: str  # schema 1.24: what happened at it (compiled, recompiled, ran eagerly), in words (report/story.py)
    ranCompiled: bool | None
    fallbackReason: str | None
    recompileLimit: int  # schema 1.25: the limit its function reached, where that is why it ran eagerly
    profiled: bool
    observer: bool
    side: str
    block: int
    stepMs: float | None
    stepCompiles: int | None


class _RegionSignature(TypedDict):
    signature: str
    calls: int


class RegionSignature(_RegionSignature, total=False):
    firstCall: int
    lastCall: int
    measured: bool


class _SteadyState(TypedDict):
    fromCall: int
    medianMs: float


class SteadyState(_SteadyState, total=False):
    spreadPct: float | None
    # schema 1.31: the median is of one input signature's calls, the most frequent among the steady calls; how many
    # signatures those had, and how many calls the median is of
    signature: str
    signatures: int
    calls: int
    said: str  # schema 1.25: the first-call chart's tooltip for it (report/chart_text.py)
    label: str  # schema 1.25: its label on the chart
    inSitu: bool  # s27: the in-situ number's steady state (report/chart_text.py)


class _Replay(TypedDict):
    replayable: bool
    reason: str | None


class Replay(_Replay, total=False):
    leftOut: str | None


class _NoCompiledCode(TypedDict):
    cause: str


class NoCompiledCode(_NoCompiledCode, total=False):
    headline: str  # the answer's sentence for it (report/sentences.py), written with the report
    location: SourceLocation | None
    fix: str | None
    gbId: str | None
    pattern: str | None


class ShapeChange(TypedDict):
    input: str  # its keyword or guard name ("x", "cache.layers[0].keys"), else "input N" (its position)
    dim: int
    sizes: list[int]  # the distinct sizes seen, ascending (the first shape_facts.MAX_SIZES)
    count: int  # how many distinct sizes


class DecodeLoop(TypedDict):
    growsBy: int  # the size grew by this much from one call to the next (a token at a time: 1)
    repetitions: int  # sequences: the size restarted this many times less one
    callsPerRepetition: int


class AutomaticDynamic(TypedDict):
    call: int  # the call whose size change recompiled with the dimension symbolic
    seconds: float | None  # that recompile
    servedCalls: int  # later calls the graph served without compiling


class RecompileLimit(TypedDict):
    limit: int | None
    graphs: int | None
    sizes: int  # distinct signatures the script called it with
    eagerSizes: int  # those past the limit: every call of them ran eagerly
    eagerCalls: int  # the script's calls of those signatures
    calls: int
    fromCall: int | None  # the first call that ran eagerly


class _WarmupShape(TypedDict):
    input: str
    dim: int
    warmupSize: int
    realSize: int
    warmupLine: int | None
    realLine: int | None
    realCall: int  # the first real call: it recompiled
    recompileSeconds: float | None
    realCalls: int


class WarmupShape(_WarmupShape, total=False):
    # schema 1.36, a notebook: the cells of warmupLine and realLine, each line then within its cell
    warmupCell: int
    realCell: int
    realSizes: list[int]  # schema 1.41: the real calls' sizes where they vary (traffic), ascending


class CacheUse(TypedDict):
    hits: int  # Inductor's FX graph and AOT autograd cache lookups that hit, in a run's compiles of the region
    lookups: int


class ShapeFixCache(TypedDict):
    fix: CacheUse  # the fix run's: it compiles into an empty cache of its own
    script: CacheUse  # the script's run's, in the user's own caches


class _ShapeFix(TypedDict):
    fix: str  # in the user's terms: "dynamic=True", "x's dimension 0 marked dynamic (mark_dynamic)", "buckets of 8, 16"
    kind: str  # dynamic | mark-dynamic | warmup-shape | buckets
    measured: bool
    why: str | None  # not measured: why (and how to measure it)


class ShapeFix(_ShapeFix, total=False):
    whyCode: str  # not measured: budget | timeout (--shape-fix on measures it) | failed | refused | no-call
    buckets: list[int]  # buckets: the sizes padded to
    graphs: int | None
    compileSeconds: float | None
    step: InSituSpeedup | None
    call: InSituSpeedup | None
    eagerFallback: EagerFallback | None
    realCallMs: float | None
    wallSeconds: float | None
    compileCache: ShapeFixCache  # schema 1.24: the caches each side's compileSeconds compiled from


class _RegionShapes(TypedDict):
    dynamic: bool | None  # torch.compile's dynamic= as the script wrote it (None: not given, automatic)
    signatures: int
    graphs: int | None
    changed: list[ShapeChange]
    loop: DecodeLoop | None
    automaticDynamic: AutomaticDynamic | None
    recompileLimit: RecompileLimit | None
    warmup: WarmupShape | None
    cudaGraphSizes: int | None  # reduce-overhead on a GPU: sizes compiled code ran, each a CUDA graph recorded


class ShapeFixOffer(TypedDict):
    runs: int  # the fix runs the budget left out
    seconds: float  # about how long they take
    title: str  # the editor's CodeLens / Quick Fix that runs them (report/shape_text.py)


class RegionShapes(_RegionShapes, total=False):
    fixes: list[ShapeFix]  # the shape fixes, each measured on the script's own calls (or why not)
    measure: ShapeFixOffer | None  # fixes the budget left out: measuring them is one click away
    cudaGraphBytes: int | None  # the device memory its CUDA graphs' pools took while recording (shape_facts)


class _Region(TypedDict):
    id: str
    name: str
    kind: str
    location: SourceLocation | None
    callCount: int
    calls: list[RegionCall]
    replay: Replay
    measurements: list[RegionMeasurement]


class Region(_Region, total=False):
    options: dict[str, Any]  # the script's own torch.compile arguments, as it passed them
    device: str | None
    callsTruncated: bool
    signatures: list[RegionSignature]
    compiler: CompilerInsight | None
    steadyState: SteadyState | None
    recommendation: Recommendation | None
    stoppedAfterCalls: int | None
    headline: str
    facts: list[str]  # schema 1.32: what the script did with it, counted, in words (report/sentences.region_facts)
    label: str  # schema 1.33: its name, its id after it where another region shares it (sentences.region_labels)
    rolesText: str  # schema 1.40: the title over its replays' numbers, by their roles (report/roles.py)
    modeText: str  # schema 1.33: the script's mode as written (report/mode_line.script_mode): "mode='default'"
    story: str | None
    chartNotes: list[str]  # schema 1.25: what the first-call chart leaves out, in words (report/chart_text.py)
    answer: Answer
    noCompiledCode: NoCompiledCode | None
    inSitu: RegionInSitu | None
    shapes: RegionShapes | None
