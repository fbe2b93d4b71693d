"""A torchrun job's ranks (report.ranks[], report.divergence[], a rank's own report.rank) and the logs `inspect` read."""

from __future__ import annotations

from typing import Any, TypedDict

from .common import ProfileWindow, RunError, SourceLocation
from .compiler import CacheCounts, QuickFix
from .region import SteadyState


class _RankRegion(TypedDict):
    id: str
    name: str
    callCount: int


class RankRegion(_RankRegion, total=False):
    steadyState: SteadyState | None
    # schema 1.35: what the region compiled on this rank, as its own report counts them (ranks/merge.counted)
    graphCount: int | None
    graphBreaks: int | None
    recompiles: int | None


class RankStack(TypedDict, total=False):
    waitingIn: str | None
    location: SourceLocation | None


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
    window: ProfileWindow | None
    torchTraceLog: str | None
    graphCount: int | None
    graphBreaks: int | None
    recompiles: int | None
    compileSeconds: float | None
    cache: CacheCounts | None
    regions: list[RankRegion]
    collectives: list[str] | None
    stack: RankStack | None
    stacks: str | None
    # schema 1.25: the rank in words (report/rank_text.py); 1.27: the rank and how it ended
    labelText: str
    errorText: str
    factsText: str
    # schema 1.36: its recompiles as the events they were, "recompiled at call 3 (2 compiles)" (report/rank_text.py)
    recompilesText: str
    # schema 1.39: the rank table's recompiles cell, "at call 3 (2 compiles)" (report/rank_text.recompile_cell)
    recompilesCell: str
    regionsText: list[str]
    waitingText: str


class _Divergence(TypedDict):
    kind: str
    message: str
    ranks: list[int]


class Divergence(_Divergence, total=False):
    severity: str
    location: SourceLocation | None
    details: dict[str, Any]  # the schema leaves it open: what each kind compared
    quickFixes: list[QuickFix]  # s28: the edits of the recompile sites it says (report/rank_text.divergences)


class _RankSelf(TypedDict):
    rank: int
    worldSize: int


class RankSelf(_RankSelf, total=False):
    localRank: int
    trace: str | None
    window: ProfileWindow | None
    host: str | None
    nodeRank: int | None


class _LogFile(TypedDict):
    path: str
    rank: int | None
    records: int


class LogFile(_LogFile, total=False):
    unreadableLines: int
    damagedPayloads: int
    marked: bool


class EarlierAttempt(TypedDict):
    attempt: int
    folder: str | None
    status: str
    failedRank: int | None
    failedAt: SourceLocation | None
    message: str | None


class _LogsRead(TypedDict):
    files: list[LogFile]
    warnings: list[str]


class LogsRead(_LogsRead, total=False):
    attached: str | None
    attempts: list[EarlierAttempt]
    restartsText: str  # schema 1.27: the attempts in one sentence (report/rank_text.py)
    sourceMap: list[dict[str, Any]]  # written by the extension after the runner, never here
