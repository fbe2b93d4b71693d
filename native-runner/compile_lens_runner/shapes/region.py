"""A compiled region of a script (report.regions[]): its calls, signatures, replayed measurements and in-situ result."""

from __future__ import annotations

from typing import Any, TypedDict

from .answer import Answer
from .common import Recommendation, SourceLocation
from .compiler import CompilerInsight
from .in_situ import RegionInSitu
from .mode import RegionMeasurement


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
    answer: Answer
    noCompiledCode: NoCompiledCode | None
    inSitu: RegionInSitu | None
