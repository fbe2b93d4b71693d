"""Structured errors: every failure becomes {kind, message, fix, traceback}, never a raw traceback alone."""

from __future__ import annotations

import traceback as tb

from .shapes.common import RunError

TRITON_MISSING_TEXT = "Cannot find a working triton installation"


class RunnerError(Exception):
    def __init__(self, kind: str, message: str, fix: str, traceback: str | None = None) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.fix = fix
        self.traceback = traceback

    def to_json(self) -> RunError:
        return {"kind": self.kind, "message": self.message, "fix": self.fix, "traceback": self.traceback}


def _first_line(exc: BaseException) -> str:
    """The exception's first line, plus Dynamo's `Explanation:` line, which names the cause."""
    text = str(exc).strip()
    lines = text.splitlines()
    summary = f"{type(exc).__name__}: {lines[0] if lines else ''}".rstrip(": ")
    explanation = next((line.split("Explanation:", 1)[1].strip() for line in lines if "Explanation:" in line), None)
    return f"{summary} ({explanation})" if explanation else summary


def _is_oom(exc: BaseException) -> bool:
    return type(exc).__name__ in ("OutOfMemoryError", "MemoryError") or "out of memory" in str(exc).lower()


def _from_compiler(exc: BaseException) -> bool:
    """True when the exception was raised inside torch's compiler stack rather than by the user's code."""
    if type(exc).__module__.startswith(("torch._dynamo", "torch._inductor", "torch._functorch")):
        return True
    frames = tb.extract_tb(exc.__traceback__)
    return bool(frames) and any(
        part in frames[-1].filename for part in ("torch/_dynamo", "torch/_inductor", "torch/_functorch")
    )


def classify(exc: BaseException, during: str) -> RunnerError:
    """Turns an exception raised while `during` (e.g. "compiling mode default") into a RunnerError."""
    if isinstance(exc, RunnerError):
        return exc
    trace = "".join(tb.format_exception(type(exc), exc, exc.__traceback__))
    summary = _first_line(exc)
    if TRITON_MISSING_TEXT in str(exc):
        return RunnerError(
            "triton-missing",
            f"{summary} (while {during})",
            "Install Triton for this CUDA build of PyTorch: pip install triton",
            trace,
        )
    if _is_oom(exc):
        return RunnerError(
            "out-of-memory",
            f"Ran out of memory while {during}: {summary}",
            "Use a smaller batch or input in the target, or free memory held by other processes.",
            trace,
        )
    if _from_compiler(exc):
        return RunnerError(
            "compile",
            f"torch.compile failed while {during}: {summary}",
            "Try another mode or backend, set fullgraph off, or report the traceback to PyTorch; other modes still ran.",
            trace,
        )
    if isinstance(exc, ModuleNotFoundError) and exc.name:
        import sys

        return RunnerError(
            "user-code",
            f"The target's code raised while {during}: {summary}",
            f"Install {exc.name.split('.')[0]} in the interpreter Compile Lens runs ({sys.executable} -m pip install "
            f"{exc.name.split('.')[0]}), or select the interpreter that has it.",
            trace,
        )
    return RunnerError(
        "user-code",
        f"The target's code raised while {during}: {summary}",
        "Fix the error in your code (see traceback); the runner ran it exactly as written.",
        trace,
    )
