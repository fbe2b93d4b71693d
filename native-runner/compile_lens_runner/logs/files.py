"""Which logs the paths given to `inspect` hold: a log (`.log`, `.log.gz`, any text file named directly), a folder as
TORCH_TRACE leaves it (one `dedicated_log_torch_trace_rank_N_*.log` per rank, perhaps in per-node subfolders), or a
folder written by `attach` (ranks/rank<k>/attach.json). What cannot be used is said in `warnings`, never fatal."""

from __future__ import annotations

import functools
import gzip
import itertools
import os
import re
from dataclasses import dataclass, field

from ..compiler import torch_trace as tt
from ..ranks.paths import ATTACH_FILE
from . import forked

_RANK = re.compile(r"rank_(\d+)")
_LOG = re.compile(r"\.log(\.gz)?$")
MAX_DEPTH = 3  # folders below a given one that are searched (per-node copies, torch_trace/)


@dataclass
class LogFile:
    path: str
    rank: int | None  # from its name (rank_N); else the ranks its records name


@dataclass
class Found:
    logs: list[LogFile] = field(default_factory=list)
    jobs: list[str] = field(default_factory=list)  # folders written by `attach`
    warnings: list[str] = field(default_factory=list)


def _rank_of(path: str) -> int | None:
    match = _RANK.search(os.path.basename(path))
    return int(match[1]) if match else None


def _walk(folder: str, found: Found) -> None:
    for root, dirs, files in os.walk(folder):
        depth = 0 if root == folder else os.path.relpath(root, folder).count(os.sep) + 1
        if any(
            os.path.isfile(os.path.join(root, "ranks", d, ATTACH_FILE))
            for d in (os.listdir(os.path.join(root, "ranks")) if os.path.isdir(os.path.join(root, "ranks")) else [])
        ):
            found.jobs.append(root)
            dirs[:] = []
            continue
        if depth >= MAX_DEPTH:
            dirs[:] = []
        dirs.sort()
        for name in sorted(files):
            path = os.path.join(root, name)
            if not _LOG.search(name):
                if root == folder:
                    found.warnings.append(f"{path}: not a TORCH_TRACE log (.log or .log.gz), skipped")
                continue
            found.logs.append(LogFile(path, _rank_of(path)))


def find(paths: list[str]) -> Found:
    found = Found()
    for given in paths:
        path = os.path.abspath(given)
        if os.path.isdir(path):
            _walk(path, found)
        elif os.path.isfile(path):
            found.logs.append(LogFile(path, _rank_of(path)))
        else:
            found.warnings.append(f"{given}: no such file or folder")
    empty = [log for log in found.logs if os.path.getsize(log.path) == 0]
    found.warnings += [f"{log.path}: empty, skipped" for log in empty]
    found.logs = [log for log in found.logs if log not in empty]
    return found


BLOCK = 16 << 20  # bytes read at a time: a log is read in blocks, never whole
SPLIT_BYTES = 32 << 20  # a plain log this large is read in parts at once (a smaller one is read before forking pays)


def _record_start(data: bytes) -> int:
    """Where the last line of `data` that may begin a record starts (0: none): a block is parsed up to there, so no
    payload is split between blocks (payload lines start with a tab, a record's with its glog level)."""
    for start in (max(len(data) - (1 << 20), 0), 0):  # the last megabyte first: a level never logged is not
        at = max(data.rfind(b"\n" + level, start) for level in (b"V", b"I", b"W", b"E", b"C")) + 1  # looked for in all
        if at:
            return at
    return 0


def read(path: str, block: int = BLOCK) -> tuple[list[tt.Record], tt.Parser]:
    """A log's records (gzip or plain), read in blocks; unreadable bytes become U+FFFD, unreadable lines are counted
    by the parser. A plain log's payloads are read back from the file when asked, a gzipped one's are kept. A large
    plain log is read in parts at once, one per core."""
    if path.endswith(".gz"):
        return _read_gzip(path, block)
    log, size = tt.LogFile(path), os.path.getsize(path)
    parts = _parts(log, size, forked.cores()) if size >= SPLIT_BYTES and forked.sharing() else [0, size]
    later, (records, parser) = forked.alongside(
        [functools.partial(_part_sent, path, start, stop, block) for start, stop in itertools.pairwise(parts[1:])],
        lambda: _read_part(log, parts[0], parts[1], block),
    )
    whole = tt.InFile(log, 0)  # the parts' records name their spans in the file
    for sent, part in later:
        _join(records, parser, tt.received(sent, parser.strings, whole), part)
    return records, parser


def _read_gzip(path: str, block: int) -> tuple[list[tt.Record], tt.Parser]:
    parser = tt.Parser()
    records: list[tt.Record] = []
    carry = b""
    with gzip.open(path, "rb") as f:
        while True:
            more = f.read(block)
            ended, data = not more, carry + more if carry else more
            del more  # not held twice
            cut = len(data) if ended else _record_start(data)
            if cut == 0 and not ended:
                carry = data  # one record longer than a block
                continue
            records += parser.feed_bytes(data, tt.InMemory(data[:cut]), cut)
            carry = data[cut:]
            if ended:
                return records, parser


def _read_part(log: tt.LogFile, start: int, stop: int, block: int) -> tuple[list[tt.Record], tt.Parser]:
    """The records of bytes start..stop of a plain log (each a record's start, or its end), their payloads left in
    the file; the lines before an unreadable one are counted on disk when one is found."""
    parser = tt.Parser(log.lines, fed=start)
    records: list[tt.Record] = []
    offset, carried = start, 0
    while True:  # from where the last block was cut: the bytes carried over are read again, not copied
        want = carried + block
        data = log.read(offset, min(offset + want, stop))
        ended = len(data) < want
        cut = len(data) if ended else _record_start(data)
        if cut == 0 and not ended:
            carried = len(data)  # one record longer than a block
            continue
        records += parser.feed_bytes(data, tt.InFile(log, offset), cut)
        offset, carried = offset + cut, len(data) - cut
        if ended:
            return records, parser


def _part_sent(path: str, start: int, stop: int, block: int) -> tuple[tt.Sent, tt.Parser]:
    """A part read in a forked process, as sent back: its records' fields and its parser."""
    records, parser = _read_part(tt.LogFile(path), start, stop, block)
    return tt.sent(records), parser


def _join(records: list[tt.Record], parser: tt.Parser, later: list[tt.Record], part: tt.Parser) -> None:
    """The records of the log's next part, read by `part`, added to those read so far by `parser`, as one parser
    reading on would have read them: under the marker in force where the part began, with all file names."""
    if parser.marked:
        mode, phase = parser.marker.get("mode"), parser.marker.get("phase")
        for record in later[: part.unmarked]:
            record.mode, record.phase = mode, phase
    else:
        parser.unmarked += part.unmarked
    records += later
    parser.strings.update(part.strings)  # the records share one table: a name given again is its last
    parser.ranks |= part.ranks
    parser.unreadable += part.unreadable
    if parser.first_unreadable is None:
        parser.first_unreadable = part.first_unreadable
    if part.marked:
        parser.marker, parser.marked = part.marker, True


_RECORD_LINE = re.compile(rb"\n[VIWEC]")  # a line that may begin a record (a payload's start with a tab)


OWN_SHARE = 1.15  # this process's part against a worker's: a worker's records are also sent back and made again here


def _parts(log: tt.LogFile, size: int, count: int) -> list[int]:
    """Where the log's parts begin, then its size: each at the first line from its share of the bytes on that may
    begin a record (as a block is cut, so no payload is split); the first part, read here, is OWN_SHARE times larger."""
    starts = [0]
    for share in range(1, count):
        at = int(size * (OWN_SHARE + share - 1) / (OWN_SHARE + count - 1))
        while at < size:
            data = log.read(at, min(at + (1 << 20), size))
            found = _RECORD_LINE.search(data)
            if found:
                at += found.start() + 1
                break
            at += max(len(data) - 1, 1)  # a line break at the block's end: its next line is in the next block
        if starts[-1] < at < size:
            starts.append(at)
    return [*starts, size]


def one_per_rank(logs: list[LogFile], warnings: list[str]) -> dict[int, LogFile]:
    """Rank -> its log. Several logs of one rank (compile subprocesses write small ones beside the rank's own): the
    largest, the others said."""
    by_rank: dict[int, list[LogFile]] = {}
    for log in logs:
        if log.rank is not None:
            by_rank.setdefault(log.rank, []).append(log)
    chosen = {}
    for rank, same in sorted(by_rank.items()):
        same.sort(key=lambda log: os.path.getsize(log.path), reverse=True)
        chosen[rank] = same[0]
        warnings += [
            f"{log.path}: another log of rank {rank}, smaller than {same[0].path}; skipped" for log in same[1:]
        ]
    return chosen
