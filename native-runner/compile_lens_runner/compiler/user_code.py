"""Which frames are the user's own code, and source locations for them. Imports no torch (the supervisor uses it
to read ranks' stacks and tracebacks): torch's folder is found without importing it."""

from __future__ import annotations

import csv
import functools
import glob
import importlib.util
import itertools
import linecache
import os
import re
import sys
import sysconfig

from ..shapes.common import SourceLocation

_PACKAGE_NAME = __name__.split(".")[0]  # compile_lens_runner
# this interpreter's standard library and install folders (wherever they are: a venv, conda, a Debian Python)
_LIBRARY_DIRS = tuple(
    sorted(
        {
            os.path.join(os.path.realpath(path), "")
            for key, path in sysconfig.get_paths().items()
            if key in ("stdlib", "platstdlib", "purelib", "platlib") and path
        }
    )
)
# folders pip, conda and Debian install packages into, in any interpreter's paths (logs may come from another one)
_PACKAGE_FOLDERS = frozenset({"site-packages", "dist-packages", "__pypackages__"})
# another interpreter's standard library: .../lib/python3.11/, .../lib64/python3.13t/
_STDLIB_PART = re.compile(r"python\d+\.\d+t?")
_FRAME = re.compile(r'^\s*File "(?P<file>[^"]+)", line (?P<line>\d+), in (?P<fn>\S+)')


def _torch_dir() -> str | None:
    try:
        spec = importlib.util.find_spec("torch")
    except (ImportError, ValueError):
        return None
    return os.path.dirname(os.path.realpath(spec.origin)) if spec and spec.origin else None


_TORCH_DIR = _torch_dir()
_INDUCTOR_CACHE = (
    os.path.realpath(os.environ["TORCHINDUCTOR_CACHE_DIR"]) if os.environ.get("TORCHINDUCTOR_CACHE_DIR") else None
)


# torch and installed libraries as another machine's paths name them (a log made elsewhere, maybe on Windows; a
# checkout of torch used in place)
_LIBRARY_ELSEWHERE = re.compile(
    r"[\\/](?:site-packages|dist-packages)[\\/]|[\\/]lib[\\/]python\d+(?:\.\d+)?[\\/]"
    r"|[\\/]torch[\\/](?:_[a-z]\w*|nn|fx|utils|distributed|autograd|optim|cuda|export|testing)[\\/]"
    r"|[\\/]torch[\\/]\w+\.py$"
    # code Inductor and Triton generated, in their caches (/tmp/torchinductor_<user>/…, ~/.triton/)
    r"|[\\/]torchinductor_[^\\/]+[\\/]|[\\/]\.triton[\\/]cache[\\/]"
)


@functools.lru_cache(maxsize=256)
def _recorded_files(folder: str) -> frozenset[str]:
    """The files pip recorded (each *.dist-info/RECORD) as installed into `folder`, as real paths. An editable install
    records only its hook, and a project's *.egg-info is not a RECORD: the user's own sources are never listed."""
    files: set[str] = set()
    for record in glob.glob(os.path.join(glob.escape(folder), "*.dist-info", "RECORD")):
        try:
            with open(record, newline="", encoding="utf-8") as f:
                files.update(os.path.realpath(os.path.join(folder, row[0])) for row in csv.reader(f) if row)
        except (OSError, UnicodeDecodeError, csv.Error):
            continue
    return frozenset(files)


def _installed_on_path(real: str) -> bool:
    """A file pip installed into a folder the interpreter imports from (`pip install --target DIR` on PYTHONPATH)."""
    for entry in sys.path:
        folder = os.path.realpath(entry or os.curdir)
        if real.startswith(os.path.join(folder, "")) and real in _recorded_files(folder):
            return True
    return False


def _is_library(real: str) -> bool:
    """An installed package or a standard library, of this interpreter or another one."""
    if real.startswith(_LIBRARY_DIRS) or _installed_on_path(real):
        return True
    folders = real.split(os.sep)[:-1]
    if _PACKAGE_FOLDERS.intersection(folders):
        return True
    return any(
        lib in ("lib", "lib64") and _STDLIB_PART.fullmatch(name) is not None
        for lib, name in itertools.pairwise(folders)
    )


# an installed package by the folder below site-packages, wherever the environment is (a torch inside
# /opt/torch/.venv is PyTorch's from its package folder on, not from /opt/torch); a PyTorch built from source by the
# folder below its last torch/
_PLACES = (
    (re.compile(r"[\\/](?:site-packages|dist-packages)[\\/]torch[\\/](.+)$"), "PyTorch's {}"),
    (re.compile(r"[\\/](?:site-packages|dist-packages)[\\/](.+)$"), "{}"),
    (re.compile(r"[\\/]lib[\\/]python\d+(?:\.\d+)?[\\/](.+)$"), "Python's {}"),
    (re.compile(r"^.*[\\/]torch[\\/](.+)$"), "PyTorch's {}"),
)


def library_place(path: str) -> str:
    """Where a file outside the user's files is, in words: "PyTorch's _dynamo/external_utils.py", "Python's
    contextlib.py", "transformers/models/llama/modeling_llama.py" (the path below site-packages), else its name."""
    for pattern, said in _PLACES:
        match = pattern.search(path)
        if match:
            return said.format(match[1].replace("\\", "/"))
    return os.path.basename(path.replace("\\", "/"))


@functools.lru_cache(maxsize=65536)
def is_user_file(path: str) -> bool:
    """False for torch's own frames, the runner's machinery, installed packages (site-packages, dist-packages, in a
    virtualenv, conda or the system, or a folder pip installed into on the import path), any standard library,
    code Inductor generated, and synthetic files."""
    if not path or path.startswith("<") or _LIBRARY_ELSEWHERE.search(path):
        return False
    real = os.path.realpath(path)
    if _INDUCTOR_CACHE and real.startswith(_INDUCTOR_CACHE + os.sep):  # generated code in a cache the user moved
        return False
    # the runner's own frames, wherever its copy lives (logs recorded from another checkout say another path)
    parts = real.split(os.sep)
    if _PACKAGE_NAME in parts[:-1]:
        below = parts[len(parts) - parts[::-1].index(_PACKAGE_NAME) :]  # the path under the last compile_lens_runner/
        # the built-in samples are user code (target/samples/; samples/ in logs of runners before 0.3), the rest is the runner
        return below[0] == "samples" or below[:2] == ["target", "samples"]
    if _TORCH_DIR and real.startswith(_TORCH_DIR + os.sep):
        return False
    return not _is_library(real)


@functools.lru_cache(maxsize=8192)
def _code(file: str, line: int) -> str | None:
    """A line's code, asked again for every record that names its frame (linecache looks for a missing file on disk
    each time)."""
    return linecache.getline(file, line).strip() or None


@functools.lru_cache(maxsize=8192)
def _absolute(file: str) -> str | None:
    """A synthetic file's name as it is, an absolute path made normal (the same few files are named by every frame of
    every record); None for a relative path (it depends on the working folder at the time)."""
    if file.startswith("<"):
        return file
    return os.path.normpath(file) if os.path.isabs(file) else None


def location(file: str, line: int, function: str | None) -> SourceLocation:
    return {
        "file": _absolute(file) or os.path.abspath(file),
        "line": int(line),
        "function": function,
        "code": _code(file, int(line)),
    }


def parse_frames(text: str) -> list[SourceLocation]:
    """The frames of a formatted stack; a frame's code is its file's line, else the line the stack printed under it
    (a log recorded elsewhere, or a compile cache filled by a checkout that is gone, names a file not on this disk)."""
    frames: list[SourceLocation] = []
    lines = text.split("\n")
    for i, raw in enumerate(lines):
        match = _FRAME.match(raw)
        if match:
            frame = location(match["file"], int(match["line"]), match["fn"])
            printed = lines[i + 1].strip() if i + 1 < len(lines) else ""
            if frame["code"] is None and printed and not _FRAME.match(lines[i + 1]):
                frame["code"] = printed
            frames.append(frame)
    return frames


def innermost_user(frames: list[SourceLocation]) -> SourceLocation | None:
    for frame in reversed(frames):
        if is_user_file(frame["file"]):
            return frame
    return None
