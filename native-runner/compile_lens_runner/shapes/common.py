"""Objects every part of the report uses: an error, a source line, a timing, a recommendation, a pair of sides."""

from __future__ import annotations

from typing import Literal, TypedDict

Verdict = Literal["compile", "compile-for-longer-runs", "stay-eager", "none"]


class _SourceLocation(TypedDict):
    file: str
    line: int


class SourceLocation(_SourceLocation, total=False):
    function: str | None
    code: str | None
    cell: int | None


class _RunError(TypedDict):
    kind: str
    message: str
    fix: str


class RunError(_RunError, total=False):
    traceback: str | None
    location: SourceLocation


class LoadAverage(TypedDict):
    start: float
    end: float


class HostLoad(TypedDict):
    cpus: int
    threads: int
    samples: int
    contendedSamples: int
    othersRunning: list[int] | None  # [fewest, most]
    loadAverage: LoadAverage | None
    stealPct: float | None
    contended: bool
    reason: str | None
    fix: str | None


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
    hostLoad: HostLoad


class _Recommendation(TypedDict):
    mode: str | None
    reason: str


class Recommendation(_Recommendation, total=False):
    verdict: Verdict


class Sides(TypedDict):
    compiled: float
    eager: float


class SlowSides(TypedDict, total=False):
    """Per side, its CPU probe over the host's fastest state (a mode's interval, an in-situ speedup)."""

    eager: float
    compiled: float


class ProfileWindow(TypedDict, total=False):
    region: str | None
    fromCall: int | None
    steps: int
    skipped: str | None


class InSituWindow(ProfileWindow, total=False):
    trace: str | None
