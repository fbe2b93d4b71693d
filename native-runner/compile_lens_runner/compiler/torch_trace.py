"""Reads the compiler's structured log (TORCH_TRACE) and writes Compile Lens markers into it.

A log line is a glog prefix, `] `, a JSON object; an optional payload follows on tab-indented lines. Markers
(artifact `compile_lens_marker`) split the log into modes and phases, so every compile, break and recompile
is attributed to the call that caused it.
"""

from __future__ import annotations

import enum
import glob
import itertools
import json
import logging
import os
import re
from array import array
from collections.abc import Callable
from typing import Any, Final, Protocol

from . import trace_scan
from .trace_scan import ChromiumEvent
from .trace_scan import new_event as _new_event

MARKER = "compile_lens_marker"
# The marker suffix of a copy compiled only to be profiled (on CPU, kernels that name themselves in the trace): the
# tool's own work, kept out of its mode's insight and out of `inspect`.
PROFILED_COPY = ":kernel-profile"
CUDAGRAPH_SKIP = "compile_lens_cudagraph_skip"


class _Unparsed(enum.Enum):
    """A record's JSON or event not read yet (None is read: no event, a payload that is no JSON)."""

    TOKEN = 0


_UNPARSED: Final = _Unparsed.TOKEN
_KEPT_PAYLOAD = 1 << 12  # characters (bytes logged): a longer payload is read again when asked again, not kept


class Source(Protocol):
    def raw(self, start: int, end: int) -> bytes: ...


class InMemory:
    """Payloads read from bytes held here (a fed chunk)."""

    def __init__(self, data: bytes) -> None:
        self.data = data

    def raw(self, start: int, end: int) -> bytes:
        return self.data[start:end]


class LogFile:
    """A log read back when a reader asks for a payload: a large log is not held in memory. Opened at the first read
    and kept open (a report reads a few thousand payloads); read at an offset, never seeking, as a forked reader
    shares the descriptor."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._fd: int | None = None

    def read(self, start: int, end: int) -> bytes:
        if self._fd is None:
            self._fd = os.open(self.path, os.O_RDONLY)
        return os.pread(self._fd, end - start, start)

    def lines(self, size: int) -> int:
        """How many lines the first `size` bytes hold."""
        block = 16 << 20
        return sum(self.read(at, min(at + block, size)).count(b"\n") for at in range(0, size, block))

    def __getstate__(self) -> dict[str, Any]:
        return {"path": self.path, "_fd": None}  # sent to another process: it opens the file itself

    def __del__(self) -> None:
        if self._fd is not None:
            os.close(self._fd)


class InFile:
    """Payloads of bytes fed from a log file, read back from it; `offset`: where the fed bytes began in the file."""

    def __init__(self, log: LogFile, offset: int) -> None:
        self.log, self.offset = log, offset

    def raw(self, start: int, end: int) -> bytes:
        return self.log.read(self.offset + start, self.offset + end)


class Record:
    """One record: its kind, metadata (its envelope's value of the kind), payload text, compile id ("frame/compile"),
    the attempt at that compile that logged it (Dynamo restarts a compile's analysis: only the last attempt's graph is
    compiled) and the mode and phase Compile Lens marked it under. A payload is decoded when first read."""

    __slots__ = (
        "_end",
        "_event",
        "_json",
        "_meta",
        "_payload",
        "_source",
        "_start",
        "artifact",
        "attempt",
        "compile_id",
        "kind",
        "mode",
        "phase",
        "strings",
    )

    def __init__(
        self,
        kind: str,
        meta: dict[str, Any] | tuple[int, int],
        payload: str | None,
        compile_id: str | None,
        mode: str | None = None,
        phase: str | None = None,
        strings: dict[int, str] | None = None,
        source: Source | None = None,
        span: tuple[int, int] = (0, 0),
        event: ChromiumEvent | None = None,
        attempt: int = 0,
    ) -> None:
        """`meta` (start, end): where its JSON is in `source`, read and parsed when first asked for; `payload` None: the bytes at `span` of `source` are the
        payload as logged; `event`: the chromium event when read from them already."""
        self.kind, self._meta, self.compile_id, self.mode, self.phase = kind, meta, compile_id, mode, phase
        self.attempt = attempt
        self.strings = strings if strings is not None else {}
        self.artifact: str | None = meta.get("name") if kind == "artifact" and isinstance(meta, dict) else None
        self._payload, self._source, (self._start, self._end) = payload, source, span
        self._json: Any = _UNPARSED
        self._event: ChromiumEvent | _Unparsed | None = _UNPARSED if event is None else event

    def __repr__(self) -> str:
        return f"Record({self.kind!r}, compile_id={self.compile_id!r}, mode={self.mode!r}, phase={self.phase!r})"

    @property
    def meta(self) -> dict[str, Any]:
        """Its envelope's value of its kind ({} when that is not an object)."""
        if isinstance(self._meta, tuple):
            try:
                value = trace_scan.value_of(self._source.raw(*self._meta) if self._source else b"")
            except ValueError:  # a line damaged inside, its start and end whole
                value = None
            self._meta = value if isinstance(value, dict) else {}
        return self._meta

    @property
    def payload(self) -> str:
        text = self.payload_once()
        if self._payload is None and len(text) <= _KEPT_PAYLOAD:
            self._payload = text
        return text

    def payload_once(self) -> str:
        """The payload's text, not kept by the record: for a reader that asks once (it writes it to a file)."""
        if self._payload is not None:
            return self._payload
        return trace_scan.payload_text(self.logged()) if self._end > self._start else ""

    def logged(self) -> bytes:
        """The payload's bytes as logged (each line but a blank one starts with a tab); a record without one: none."""
        if self._end <= self._start or self._source is None:
            return b""
        return self._source.raw(self._start, self._end)

    def payload_lines(self) -> int:
        """How many line breaks the payload's text has, counted in its bytes as logged when its text is not held (it
        has the same ones): the text is not decoded."""
        return self._payload.count("\n") if self._payload is not None else self.logged()[1:].count(b"\n")

    def same_payload(self) -> bytes | str:
        """What tells two records' payloads apart without decoding them: the bytes as logged, or the text a record was
        made with (equal keys, equal payloads; different keys may still decode to the same text)."""
        return self._payload if self._payload is not None and self._source is None else self.logged()

    def payload_has(self, text: str) -> bool:
        """Whether the payload holds `text` (ASCII, without line breaks or tabs), looked for in its bytes as logged:
        such text reads the same undecoded."""
        return text in self._payload if self._payload is not None else text.encode() in self.logged()

    def payload_json(self, keep: bool = True) -> Any:
        """The payload parsed as JSON (None when it is not), parsed once when small: several readers ask for it.
        keep=False: not kept, for a reader whose process the others do not share (a log's artifacts are written while
        its insight is read in a forked process)."""
        if self._json is not _UNPARSED:
            return self._json
        parsed = self._parsed()
        if keep and self._end - self._start <= _KEPT_PAYLOAD:
            self._json = parsed
        return parsed

    def _parsed(self) -> Any:
        try:
            # JSON allows the tab that starts each logged line (it is never inside a string): no need to decode its
            # lines, only the bytes (json.loads of bytes first guesses their encoding: a third of a small payload's time)
            return json.loads(self.logged().decode() if self._payload is None and self._source else self.payload)
        except UnicodeDecodeError:  # then as the payload's text reads (bad bytes replaced)
            return self._parse(self.payload)
        except ValueError:
            return None

    @staticmethod
    def _parse(text: str) -> Any:
        try:
            return json.loads(text)
        except ValueError:
            return None

    def event(self) -> ChromiumEvent | None:
        """A chromium_event's name, phase, time and args.compile_id (None: another kind, or a payload that is not a
        JSON object)."""
        if self._event is _UNPARSED:
            self._event = None
            if self.kind == "chromium_event":  # its JSON is not kept: a large log has large events
                self._event = trace_scan.event_from_json(self._parsed() if self._json is _UNPARSED else self._json)
        return self._event


# What a process that read records from a log file sends back of them (`sent`), and the records made again from it
# (`received`): field by field, not a tuple per record (a part of a large log has half a million records: the tuples
# took more memory and time than the records), spans in the file in arrays
Sent = tuple[
    list[str],
    list[Any],
    list[Any],
    list[Any],
    list[Any],
    "array[int]",
    list[Any],
    list[Any],
    "array[float]",
    list[Any],
    "array[int]",
]


def sent(records: list[Record]) -> Sent:
    offsets = [record._source.offset if isinstance(record._source, InFile) else 0 for record in records]
    metas = [
        (r._meta[0] + at, r._meta[1] + at) if isinstance(r._meta, tuple) else r._meta
        for r, at in zip(records, offsets, strict=True)
    ]
    spans = array(
        "q", itertools.chain.from_iterable((r._start + at, r._end + at) for r, at in zip(records, offsets, strict=True))
    )
    events = [
        r._event if isinstance(r._event, ChromiumEvent) and r._event.ts is not None else (None, None, 0.0, None)
        for r in records
    ]  # an event without a time is read again when asked
    return (
        [r.kind for r in records],
        metas,
        [r.compile_id for r in records],
        [r.mode for r in records],
        [r.phase for r in records],
        spans,
        [e[0] for e in events],
        [e[1] for e in events],
        array("d", (e[2] or 0.0 for e in events)),
        [e[3] for e in events],
        array("l", (r.attempt for r in records)),
    )


def received(fields: Sent, strings: dict[int, str], log: InFile) -> list[Record]:
    """The records `sent` sent, their payloads read from `log` (at offset 0), their file names from `strings`."""
    kinds, metas, ids, modes, phases, spans, names, phs, times, event_ids, attempts = fields
    starts, ends = itertools.islice(spans, 0, None, 2), itertools.islice(spans, 1, None, 2)
    return [
        Record(
            kind,
            meta,
            None,
            cid,
            mode,
            phase,
            strings,
            log,
            (start, end),
            None if name is None else _new_event(ChromiumEvent, (name, ph, ts, event_id)),
            attempt,
        )
        for kind, meta, cid, mode, phase, start, end, name, ph, ts, event_id, attempt in zip(
            kinds, metas, ids, modes, phases, starts, ends, names, phs, times, event_ids, attempts, strict=True
        )
    ]


class Parser:
    """Parses a structured log incrementally; interned file names and the current marker carry across feeds.
    Lines that are not records are skipped (a log may be truncated mid-write) and counted: `unreadable` lines, the
    first of them at 1-based line `first_unreadable`; `ranks` are the ranks records named; `marked` says whether
    Compile Lens wrote markers into the log (a log written elsewhere has none). Each feed must end at a line's end
    and at a record's: a payload is not continued across feeds."""

    def __init__(self, lines_before: Callable[[int], int] | None = None, fed: int = 0) -> None:
        """`lines_before(n)`: how many lines the log's first n bytes hold, asked when a line is first found unreadable
        (a log file counts them on disk then); without it, the lines of each feed are counted as it is read. `fed`:
        the bytes of the log before the first one fed (a log read in parts)."""
        self.strings: dict[int, str] = {}
        self.marker: dict[str, Any] = {}
        self._markers: dict[bytes, dict[str, Any]] = {}  # read so far, by their payload as logged
        self.marked = False
        self.unmarked = 0  # records read before the first marker (a log read in parts: another part's marker is theirs)
        self._lines_before = lines_before
        self.fed = fed  # bytes
        self.lines = 0  # fed so far (counted without lines_before), while none was unreadable
        self.unreadable = 0
        self.first_unreadable: int | None = None
        self.ranks: set[int] = set()

    def _skip(self, data: bytes, at: int) -> None:
        """The line starting at byte `at` of the fed data is not a record."""
        self.unreadable += 1
        if self.first_unreadable is None:
            before = self._lines_before(self.fed) if self._lines_before else self.lines
            self.first_unreadable = before + data.count(b"\n", 0, at) + 1

    def _stray(self, data: bytes, start: int, end: int) -> None:
        """Lines outside any record (blank ones are not counted)."""
        if start >= end or not data[start:end].strip():
            return
        at = start
        for line in data[start:end].split(b"\n"):
            if line.decode("utf-8", errors="replace").strip():
                self._skip(data, at)
            at += len(line) + 1

    def feed(self, text: str) -> list[Record]:
        return self.feed_bytes(text.encode("utf-8"))

    def feed_bytes(self, data: bytes, source: Source | None = None, end: int | None = None) -> list[Record]:
        """The records in `data` (up to `end`); `source` reads their payloads back (default: from `data`, which they
        then keep)."""
        source = source or InMemory(data)
        end = len(data) if end is None else end
        records: list[Record] = []
        append, strings, ranks = records.append, self.strings, self.ranks
        mode, phase, marked, unmarked = self.marker.get("mode"), self.marker.get("phase"), self.marked, 0
        by_shape, interned, event = trace_scan.by_shape, trace_scan.interned, trace_scan.event
        pending = None  # a record whose payload's end is known at the next one's start
        first = trace_scan.FIRST.match(data, 0, end)
        for match in itertools.chain((first,) if first else (), trace_scan.HEADER.finditer(data, 0, end)):
            if pending is None:
                self._stray(data, 0, match.start(1))
            elif pending.end() != match.start():  # lines between its payload and the next record
                self._record(data, pending, match.start(1), source, records)
                mode, phase, marked = self.marker.get("mode"), self.marker.get("phase"), self.marked
            elif (entry := by_shape(pending)) is not None:  # the common case, in this loop
                kind, meta, compile_id, rank, attempt = entry
                if rank is not None:
                    ranks.add(rank)
                at = pending.end()
                record = Record(
                    kind,
                    meta,
                    None,
                    compile_id,
                    mode,
                    phase,
                    strings,
                    source,
                    (pending.end(14) + 1, at),
                    event(pending, at) if kind == "chromium_event" else None,
                    attempt,
                )
                if record.artifact != MARKER:
                    unmarked += not marked
                    append(record)
                else:
                    self._mark(data, record)
                    mode, phase, marked = self.marker.get("mode"), self.marker.get("phase"), True
            elif (string := interned(pending)) is not None:
                strings[string[0]] = string[1]
            else:
                self._record(data, pending, match.start(1), source, records)
            pending = match
        self.unmarked += unmarked
        if pending is None:
            self._stray(data, 0, end)
        else:
            self._record(data, pending, end, source, records)
        if self.first_unreadable is None and self._lines_before is None:  # only to number the first unreadable line
            self.lines += data.count(b"\n", 0, end) + (1 if end and data[end - 1] != 10 else 0)
        self.fed += end
        return records

    def _payload_end(self, data: bytes, start: int, end: int) -> int:
        """Where the payload after a header (from `start`) ends: it is its tab-indented lines, and its own blank lines
        (export's printed programs lose their tab on those); lines after it up to `end` are strays."""
        last = end - 1 if end > start and data[end - 1] == 10 else end  # without the line break before the next header
        if start < last and data[start] == 9 and data.count(b"\n\t", start, last) == data.count(b"\n", start, last):
            return last
        at = start
        lines = data[start:last].split(b"\n") if start < last else []
        for i, line in enumerate(lines):
            if not (line.startswith(b"\t") or (not line and i + 1 < len(lines) and lines[i + 1].startswith(b"\t"))):
                break
            at += len(line) + 1
        payload_end = at - 1 if at > start else start
        self._stray(data, min(at, end), end)
        return payload_end

    def _record(self, data: bytes, header: re.Match[bytes], end: int, source: Source, records: list[Record]) -> None:
        """The record of a HEADER match whose lines end at `end` (the next record's start, or the data's end)."""
        start = header.end(14) + 1  # the payload's first byte
        try:
            entry = trace_scan.envelope(header)
        except ValueError:
            self._skip(data, header.start(1))
            self._stray(data, start, end)
            return
        payload_end = header.end()
        if payload_end != end and not (payload_end == end - 1 and data[payload_end] == 10):
            payload_end = self._payload_end(data, start, end)  # blank or stray lines after the header
        if entry is None:
            self._skip(data, header.start(1))
            return
        kind, value, compile_id, rank, attempt = entry
        if isinstance(rank, int):
            self.ranks.add(rank)
        if kind == "str" and isinstance(value, list) and len(value) == 2:
            self.strings[int(value[1])] = str(value[0])
            return
        meta: dict[str, Any] | tuple[int, int] = value if isinstance(value, (dict, tuple)) else {}
        event = trace_scan.event(header, payload_end) if kind == "chromium_event" else None
        record = Record(
            kind,
            meta,
            None,
            compile_id,
            self.marker.get("mode"),
            self.marker.get("phase"),
            self.strings,
            source,
            (start, payload_end),
            event,
            attempt,
        )
        if record.artifact != MARKER:
            self.unmarked += not self.marked
            records.append(record)
        else:
            self._mark(data, record)

    def _mark(self, data: bytes, marker: Record) -> None:
        """A Compile Lens marker read from the fed `data`: the mode and phase of the records after it. Its payload is
        read from those bytes, not the file its record reads from (a log has a marker per mode and phase)."""
        logged = data[marker._start : marker._end]
        value = self._markers.get(logged)  # a mode's markers repeat (a log of many runs has thousands)
        if value is None:
            value = self._markers[logged] = (
                Record(marker.kind, {}, None, None, source=InMemory(logged), span=(0, len(logged))).payload_json() or {}
            )
        self.marker = value
        self.marked = True


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
        self.records.extend(self.parser.feed_bytes(chunk[:end]))
        return self.records


def emit(name: str, payload: dict[str, Any]) -> None:
    from torch._logging._internal import trace_structured

    trace_structured(
        "artifact",
        metadata_fn=lambda: {"name": name, "encoding": "json"},
        payload_fn=lambda: payload,
        expect_trace_id=False,
        record_logging_overhead=False,
    )


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
        emit(
            CUDAGRAPH_SKIP,
            {"message": message.strip(), "compileId": str(compile_id) if compile_id is not None else None},
        )


def install_watcher() -> CompileWatcher:
    from torch._logging._internal import trace_log

    watcher = CompileWatcher()
    trace_log.addHandler(watcher)
    logging.getLogger("torch._inductor.cudagraph_utils.__cudagraphs").addHandler(CudagraphSkipRecorder())
    return watcher
