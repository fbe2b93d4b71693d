"""Reads the compiler's structured log (TORCH_TRACE) and writes Compile Lens markers into it.

A log line is a glog prefix, `] `, a JSON object; an optional payload follows on tab-indented lines. Markers
(artifact `compile_lens_marker`) split the log into modes and phases, so every compile, break and recompile
is attributed to the call that caused it.
"""
from __future__ import annotations

import glob
import json
import logging
import os
import re
from dataclasses import dataclass, field
from typing import Any

MARKER = "compile_lens_marker"
# The marker suffix of a copy compiled only to be profiled (on CPU, kernels that name themselves in the trace): the
# tool's own work, kept out of its mode's insight and out of `inspect`.
PROFILED_COPY = ":kernel-profile"
CUDAGRAPH_SKIP = "compile_lens_cudagraph_skip"
_PREFIX = re.compile(r"^[VIWEC]\d{4} [\d:.]+ +\d+ [^\]]*\] (\{.*)$")
_UNPARSED = object()
_CONTEXT_KEYS = {"frame_id", "frame_compile_id", "attempt", "has_payload", "rank", "stack", "compiled_autograd_id"}


@dataclass
class Record:
    kind: str
    meta: dict[str, Any]
    payload: str
    compile_id: str | None
    mode: str | None = None
    phase: str | None = None
    strings: dict[int, str] = field(default_factory=dict, repr=False)
    _json: Any = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._json = _UNPARSED

    @property
    def artifact(self) -> str | None:
        return self.meta.get("name") if self.kind == "artifact" else None

    def payload_json(self) -> Any:
        """The payload parsed as JSON (None when it is not), parsed once: several readers ask for it."""
        if self._json is _UNPARSED:
            try:
                self._json = json.loads(self.payload)
            except ValueError:
                self._json = None
        return self._json


def _kind(entry: dict[str, Any]) -> str:
    return next((k for k in entry if k not in _CONTEXT_KEYS), "unknown")


class Parser:
    """Parses a structured log incrementally; interned file names and the current marker carry across feeds.
    Lines that are not records are skipped (a log may be truncated mid-write) and counted: `unreadable` lines, the
    first of them at 1-based line `first_unreadable`; `ranks` are the ranks records named; `marked` says whether
    Compile Lens wrote markers into the log (a log written elsewhere has none)."""

    def __init__(self) -> None:
        self.strings: dict[int, str] = {}
        self.marker: dict[str, Any] = {}
        self.marked = False
        self.lines = 0
        self.unreadable = 0
        self.first_unreadable: int | None = None
        self.ranks: set[int] = set()

    def _skip(self, at: int) -> None:
        self.unreadable += 1
        if self.first_unreadable is None:
            self.first_unreadable = self.lines + at + 1

    def feed(self, text: str) -> list[Record]:
        records: list[Record] = []
        lines = text.split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        i = 0
        while i < len(lines):
            match = _PREFIX.match(lines[i])
            i += 1
            if not match:
                if lines[i - 1].strip():
                    self._skip(i - 1)
                continue
            try:
                entry = json.loads(match.group(1))
            except ValueError:
                self._skip(i - 1)
                continue
            payload_lines = []
            # a payload's own blank lines (export's printed programs) lose their tab: still the payload
            while i < len(lines) and (lines[i].startswith("\t") or (not lines[i] and i + 1 < len(lines) and lines[i + 1].startswith("\t"))):
                payload_lines.append(lines[i][1:])
                i += 1
            if not isinstance(entry, dict):
                self._skip(i - 1)
                continue
            if isinstance(entry.get("rank"), int):
                self.ranks.add(entry["rank"])
            kind = _kind(entry)
            if kind == "str" and isinstance(entry["str"], list) and len(entry["str"]) == 2:
                self.strings[int(entry["str"][1])] = str(entry["str"][0])
                continue
            value = entry.get(kind)
            meta: dict[str, Any] = value if isinstance(value, dict) else {}
            frame, attempt = entry.get("frame_id"), entry.get("frame_compile_id")
            compile_id = f"{frame}/{attempt}" if frame is not None and attempt is not None else meta.get("compile_id")
            record = Record(kind, meta, "\n".join(payload_lines), compile_id, strings=self.strings)
            if record.artifact == MARKER:
                self.marker = record.payload_json() or {}
                self.marked = True
                continue
            record.mode, record.phase = self.marker.get("mode"), self.marker.get("phase")
            records.append(record)
        self.lines += len(lines)
        return records


def parse(text: str) -> list[Record]:
    return Parser().feed(text)


class LogFollower:
    """Reads this process's structured log as it grows, so each mode parses only what it added."""

    def __init__(self, trace_dir: str) -> None:
        self.trace_dir = trace_dir
        self.parser = Parser()
        self.offset = 0
        self.records: list[Record] = []
        self._path: str | None = None

    def path(self) -> str | None:
        """The log this process writes: torch names it dedicated_log_torch_trace_*.log; compile subprocesses
        may add their own (small) ones beside it, so the largest is ours. Chosen once, then followed."""
        if self._path is None:
            files = sorted(glob.glob(os.path.join(self.trace_dir, "*.log")), key=os.path.getsize)
            self._path = files[-1] if files else None
        return self._path

    def read(self) -> list[Record]:
        """All records so far; only complete lines are consumed (the rest waits for the next read)."""
        flush()
        path = self.path()
        if path is None or not os.path.exists(path):
            return self.records
        with open(path, "rb") as f:
            f.seek(self.offset)
            chunk = f.read()
        end = chunk.rfind(b"\n") + 1
        self.offset += end
        self.records.extend(self.parser.feed(chunk[:end].decode("utf-8", errors="replace")))
        return self.records


def emit(name: str, payload: dict[str, Any]) -> None:
    from torch._logging import trace_structured

    trace_structured("artifact", metadata_fn=lambda: {"name": name, "encoding": "json"}, payload_fn=lambda: payload,
                     expect_trace_id=False, record_logging_overhead=False)


def mark(mode: str | None, phase: str, **extra: Any) -> None:
    emit(MARKER, {"mode": mode, "phase": phase, **extra})
    flush()


def flush() -> None:
    from torch._logging._internal import trace_log

    for handler in trace_log.handlers:
        handler.flush()


class CompileWatcher(logging.Handler):
    """Counts compiles as they start (dynamo_start records), so a compile inside a timed region is caught live.
    `recompiles` counts those of a frame that already had compiled code (frame_compile_id > 0): each answers a
    guard miss of that frame (compiled_runs.py); `started` lists every compile id in order."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.compiles = 0
        self.recompiles = 0
        self.started: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        metadata = getattr(record, "metadata", None)
        if not isinstance(metadata, dict) or "dynamo_start" not in metadata or metadata.get("attempt", 0):
            return  # an attempt > 0 restarts the analysis of a compile already counted
        self.compiles += 1
        frame, attempt = metadata.get("frame_id"), metadata.get("frame_compile_id")
        if isinstance(attempt, int) and attempt > 0:
            self.recompiles += 1
        self.started.append(f"{frame}/{attempt}")


class CudagraphSkipRecorder(logging.Handler):
    """Copies Inductor's "skipping cudagraphs due to ..." warnings into the structured log. Some are decided at
    compile time (then a compile id is known), some at the first replay (mutated inputs), where none is."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)

    def emit(self, record: logging.LogRecord) -> None:
        message = record.getMessage()
        if "cudagraph" not in message:
            return
        from torch._guards import CompileContext

        compile_id = CompileContext.current_compile_id()
        emit(CUDAGRAPH_SKIP, {"message": message.strip(), "compileId": str(compile_id) if compile_id is not None else None})


def install_watcher() -> CompileWatcher:
    from torch._logging._internal import trace_log

    watcher = CompileWatcher()
    trace_log.addHandler(watcher)
    logging.getLogger("torch._inductor.cudagraph_utils.__cudagraphs").addHandler(CudagraphSkipRecorder())
    return watcher
