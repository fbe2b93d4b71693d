"""The report itself (report.json): its header, the eager baseline, and the parts the other modules define."""

from __future__ import annotations

from typing import Any, TypedDict

from .answer import Answer
from .common import Recommendation, RunError, Timing
from .in_situ import ReportInSitu
from .mode import ModeResult
from .ranks import Divergence, LogsRead, RankEntry, RankSelf
from .region import Region


class RunnerInfo(TypedDict):
    version: str


class _Environment(TypedDict):
    python: str
    torch: str | None
    device: str
    deviceName: str
    platform: str


class Environment(_Environment, total=False):
    triton: str | None
    cudaVersion: str | None


class _Target(TypedDict):
    kind: str
    name: str


class Target(_Target, total=False):
    file: str | None
    function: str | None
    line: int | None


class _Eager(TypedDict):
    timing: Timing | None
    trace: str | None
    kernelsPerStep: float | None


class Eager(_Eager, total=False):
    peakMemoryBytes: int | None
    gpuIdlePct: float | None
    launchBound: bool | None
    launchBoundText: str  # schema 1.24: why the speedup belongs to this host (report/notes.py)


class _Report(TypedDict):
    schemaVersion: str
    runner: RunnerInfo
    createdAt: str
    status: str
    error: RunError | None
    environment: Environment
    target: Target
    settings: dict[str, Any]  # the run's options as given: the schema leaves their keys open
    eager: Eager
    modes: list[ModeResult]
    recommendation: Recommendation


class ProfilerNote(TypedDict):
    label: str
    text: str


class Report(_Report, total=False):
    headline: str
    speedupNote: str  # report/mode_line.speedup_note: the modes table's legend, in plain words
    titleText: str  # report/sentences.title_text: "compile_target in fused.py", "ddp_train, rank 1 of 4"
    headerText: str  # schema 1.29 (report/sentences.header_text): "fused.py on cpu (Intel Xeon …): ok"
    profilerNote: ProfilerNote  # schema 1.33 (report/sentences.profiler_note): beside each timeline pane
    answer: Answer
    regions: list[Region]
    inSitu: ReportInSitu
    ranks: list[RankEntry]
    divergence: list[Divergence]
    logs: LogsRead
    rank: RankSelf
