"""One mode's measurement (report.modes[], a region's measurements[]): its timing, speedup, interval, correctness."""

from __future__ import annotations

from typing import Literal, TypedDict, get_args

from .common import RunError, SlowSides, Timing
from .compiler import CompilerInsight

CudaGraphMode = Literal["reduce-overhead", "max-autotune"]  # torch.compile modes that capture CUDA graphs
CUDAGRAPH_MODES: tuple[str, ...] = get_args(CudaGraphMode)


class PrecisionSettings(TypedDict, total=False):
    cudaMatmulAllowTf32: bool | None
    cudnnAllowTf32: bool | None
    float32MatmulPrecision: str | None


class _Correctness(TypedDict):
    ok: bool
    maxAbsError: float | None


class Correctness(_Correctness, total=False):
    dtype: str | None
    atol: float | None
    rtol: float | None
    message: str | None
    reference: str
    referenceNote: str | None
    eagerRmse: float | None
    compiledRmse: float | None
    multiplier: float | None
    precision: PrecisionSettings


class _RunEager(TypedDict):
    eagerMs: float
    bestEagerMs: float


class RunEager(_RunEager, total=False):
    compiledMs: float
    basis: str
    cpuProbeMinMs: float


class _SpeedupInterval(TypedDict):
    low: float
    high: float


class SpeedupInterval(_SpeedupInterval, total=False):
    floorPct: float
    noisySides: list[str]
    slowHost: SlowSides
    runEager: RunEager


class _Fallback(TypedDict):
    cause: str | None
    fix: str | None


class Fallback(_Fallback, total=False):
    eagerFrames: int
    frameEntries: int


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
    speedupInterval: SpeedupInterval
    speedupMedianRatio: float | None
    ranCompiled: bool | None
    fallback: Fallback
    gpuIdlePct: float | None
    breakEvenCalls: float | None
    peakMemoryBytes: int | None
    eagerTiming: Timing | None
    outsideGraphsMsPerStep: float | None
    speedupSpreadPct: float | None
    speedupIqrPct: float | None
    discardedTimings: list[Timing]
    correctness: Correctness
    compilerError: RunError | None
    scriptExitCode: int
    notes: list[str]  # schema 1.24: the sentences beside its number (report/notes.py)
    measuredText: str  # schema 1.25: a target mode's measurement in one line (report/mode_line.py)
    remeasuredText: str  # schema 1.33: why it was timed again (report/mode_line.remeasured_text)
    mismatchText: str  # schema 1.33: outputs that differ from eager's (report/mode_line.mismatch_text)
    modeText: str  # schema 1.33: its mode as written in torch.compile (report/mode_line.mode_code)


class RegionMeasurement(ModeResult, total=False):
    signature: str
    why: str
    inputsText: str  # which inputs, among how many, in words (report/mode_line.py inputs_text)
    signatureText: str  # schema 1.43: the signature said, "float32[4, 8] with grad" (formats.inputs)
    roleText: str  # schema 1.40: its number's role, the answer's speedup or evidence beside it (report/roles.py)
    measures: str
    eagerTrace: str | None
    eagerKernelsPerStep: float | None
    eagerGpuIdlePct: float | None
