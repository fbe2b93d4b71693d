"""Which logs the paths given to `inspect` hold: a log (`.log`, `.log.gz`, any text file named directly), a folder as
TORCH_TRACE leaves it (one `dedicated_log_torch_trace_rank_N_*.log` per rank, perhaps in per-node subfolders), or a
folder written by `attach` (ranks/rank<k>/attach.json). What cannot be used is said in `warnings`, never fatal."""
from __future__ import annotations

import gzip
import os
import re
from dataclasses import dataclass, field

from ..compiler import torch_trace as tt
from ..ranks.paths import ATTACH_FILE

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
        if any(os.path.isfile(os.path.join(root, "ranks", d, ATTACH_FILE)) for d in
               (os.listdir(os.path.join(root, "ranks")) if os.path.isdir(os.path.join(root, "ranks")) else [])):
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
    by the parser. A plain log's payloads are read back from the file when asked, a gzipped one's are kept."""
    gz = path.endswith(".gz")
    parser = tt.Parser()
    records: list[tt.Record] = []
    offset, carry, log = 0, b"", tt.LogFile(path)
    with (gzip.open(path, "rb") if gz else open(path, "rb")) as f:
        while True:
            if gz:
                more = f.read(block)
                ended, data = not more, carry + more if carry else more
                del more  # not held twice
            else:  # from where the last block was cut: the bytes carried over are read again, not copied
                want = len(carry) + block
                data = os.pread(f.fileno(), want, offset)
                ended = len(data) < want
            cut = len(data) if ended else _record_start(data)
            if cut == 0 and not ended:
                carry = data  # one record longer than a block
                continue
            records += parser.feed_bytes(data, tt.InMemory(data[:cut]) if gz else tt.InFile(log, offset), cut)
            offset, carry = offset + cut, data[cut:]
            if ended:
                return records, parser


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
        warnings += [f"{log.path}: another log of rank {rank}, smaller than {same[0].path}; skipped" for log in same[1:]]
    return chosen
