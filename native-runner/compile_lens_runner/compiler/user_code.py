"""Which frames are the user's own code, and source locations for them. Imports no torch (the supervisor uses it
to read ranks' stacks and tracebacks): torch's folder is found without importing it."""
from __future__ import annotations

import functools
import importlib.util
import linecache
import os
import re
import sysconfig
from typing import Any

_PACKAGE_NAME = __name__.split(".")[0]  # compile_lens_runner
_STDLIB_DIRS = tuple({os.path.realpath(sysconfig.get_paths()[k]) for k in ("stdlib", "platstdlib")})
_FRAME = re.compile(r'^\s*File "(?P<file>[^"]+)", line (?P<line>\d+), in (?P<fn>\S+)')


def _torch_dir() -> str | None:
    try:
        spec = importlib.util.find_spec("torch")
    except (ImportError, ValueError):
        return None
    return os.path.dirname(os.path.realpath(spec.origin)) if spec and spec.origin else None


_TORCH_DIR = _torch_dir()


# torch, libraries and the standard library as another machine's paths name them (a log made elsewhere; a checkout
# of torch used in place)
_LIBRARY_ELSEWHERE = re.compile(r"[\\/](?:site-packages|dist-packages)[\\/]|[\\/]lib[\\/]python\d+(?:\.\d+)?[\\/]"
                                r"|[\\/]torch[\\/](?:_[a-z]\w*|nn|fx|utils|distributed|autograd|optim|cuda|export|testing)[\\/]"
                                r"|[\\/]torch[\\/]\w+\.py$")


@functools.lru_cache(maxsize=65536)
def is_user_file(path: str) -> bool:
    """False for torch's own frames, the runner's machinery, the standard library and synthetic files."""
    if not path or path.startswith("<") or _LIBRARY_ELSEWHERE.search(path):
        return False
    real = os.path.realpath(path)
    # the runner's own frames, wherever its copy lives (logs recorded from another checkout say another path)
    parts = real.split(os.sep)
    if _PACKAGE_NAME in parts[:-1]:
        below = parts[len(parts) - parts[::-1].index(_PACKAGE_NAME):]  # the path under the last compile_lens_runner/
        # the built-in samples are user code (target/samples/; samples/ in logs of runners before 0.3), the rest is the runner
        return below[0] == "samples" or below[:2] == ["target", "samples"]
    if _TORCH_DIR and real.startswith(_TORCH_DIR + os.sep):
        return False
    if "site-packages" in real.split(os.sep):
        return False
    return not real.startswith(_STDLIB_DIRS)


def location(file: str, line: int, function: str | None) -> dict[str, Any]:
    code = linecache.getline(file, line).strip() or None
    return {"file": file if file.startswith("<") else os.path.abspath(file), "line": int(line), "function": function, "code": code}


def parse_frames(text: str) -> list[dict[str, Any]]:
    frames = []
    for raw in text.split("\n"):
        match = _FRAME.match(raw)
        if match:
            frames.append(location(match["file"], int(match["line"]), match["fn"]))
    return frames


def innermost_user(frames: list[dict[str, Any]]) -> dict[str, Any] | None:
    for frame in reversed(frames):
        if is_user_file(frame["file"]):
            return frame
    return None
