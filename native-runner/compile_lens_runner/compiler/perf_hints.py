"""PyTorch's performance hints (the `perf_hints` log channel) as findings at the user's line where one can be named.

Inductor says them while it compiles (e.g. "Using FallbackKernel: aten.sort.stable": an op it calls ATen for instead of
generating and fusing code); the FX node it is lowering then carries the user's stack, so the recorder copies the hint
into the structured log with that line. The channel logs at INFO, below what torch's loggers let through unless the user
asked for TORCH_LOGS=perf_hints: the recorder opens its loggers to INFO for itself only, and passes on to torch's own
handlers exactly what they got before (warnings), so the user's console is unchanged.
"""

from __future__ import annotations

import logging
import re

from ..shapes.common import SourceLocation
from ..shapes.compiler import PerfHint
from . import torch_trace as tt
from .torch_trace import Record
from .user_code import innermost_user, parse_frames

PERF_HINT = "compile_lens_perf_hint"
# the modules whose perf_hints logger says something about the user's code (torch 2.4 - 2.13)
_MODULES = (
    "torch._inductor.graph",
    "torch._inductor.compile_fx",
    "torch._inductor.codegen.simd",
    "torch._inductor.codegen.triton",
    "torch._dynamo.variables.optimizer",
)
_FALLBACK = re.compile(r"Using FallbackKernel: (?:torch\.ops\.)?([\w.]+)")
# hints about Inductor's own choices, with nothing for the user to act on
_NOT_THE_USERS = re.compile(r"comprehensive padding|tiling", re.I)


def _node_stack() -> str | None:
    """The user's stack of the FX node Inductor is lowering, when it is lowering one."""
    try:
        from torch._inductor.virtualized import V

        node = V.graph.current_node
    except (AttributeError, AssertionError, ImportError):  # no graph being lowered
        return None
    stack = node.meta.get("stack_trace") if node is not None else None
    return str(stack) if stack else None


class PerfHintRecorder(logging.Handler):
    """Copies each hint into the structured log; passes records at or above `passes_from` on to where they went before
    the recorder opened the logger: its parent where it propagated, else (torch closes an artifact logger's propagation
    once Inductor is imported, and gives it no handler) logging's last resort, which printed its warnings."""

    def __init__(self, parent: logging.Logger | None, passes_from: int | None) -> None:
        super().__init__(logging.DEBUG)
        self._parent, self._passes_from = parent, passes_from

    def emit(self, record: logging.LogRecord) -> None:
        message = record.getMessage().strip()
        if not _NOT_THE_USERS.search(message):
            from torch._guards import CompileContext

            compile_id = CompileContext.current_compile_id()
            tt.emit(
                PERF_HINT,
                {
                    "message": message,
                    "compileId": str(compile_id) if compile_id is not None else None,
                    "stack": _node_stack(),
                },
            )
        if self._passes_from is None or record.levelno < self._passes_from:
            return
        if self._parent is not None:
            self._parent.handle(record)
        elif logging.lastResort is not None and record.levelno >= logging.lastResort.level:
            logging.lastResort.handle(record)


def install() -> None:
    """Records the perf_hints channel. Where the user enabled it (TORCH_LOGS=perf_hints) the loggers are left as they
    are and only the recorder is added."""
    from torch._logging._internal import log_state

    enabled = log_state.is_artifact_enabled("perf_hints")
    for module in _MODULES:
        log = logging.getLogger(f"{module}.__perf_hints")
        if any(isinstance(h, PerfHintRecorder) for h in log.handlers):
            continue  # installed by an earlier run in this process
        if enabled:
            log.addHandler(PerfHintRecorder(None, None))
            continue
        # a logger with handlers of its own keeps them (they see what it logs); one without them printed its warnings
        # through its parent, or through the last resort where it did not propagate
        passes_from = log.getEffectiveLevel() if log.propagate or not log.handlers else None
        log.addHandler(PerfHintRecorder(log.parent if log.propagate else None, passes_from))
        log.setLevel(logging.INFO)
        log.propagate = False


def _explain(message: str, location: SourceLocation | None) -> PerfHint:
    fallback = _FALLBACK.search(message)
    if fallback:
        op = re.sub(r"\.(default|stable|Tensor)$", "", fallback[1])
        return {
            "kind": "fallback-kernel",
            "op": op,
            "message": message,
            "compileIds": [],
            "location": location,
            "what": (
                f"Inductor calls ATen's own kernel for `{op}` instead of generating code for it, so it is not "
                "fused with the ops around it (usual for library kernels such as attention, sort or linear algebra)."
            ),
            "fix": (
                "Nothing to do for a library kernel; for an op of your own, a decomposition into torch ops (or a "
                "Triton kernel registered as a custom op) lets Inductor fuse it."
            ),
        }
    return {
        "kind": "other",
        "op": None,
        "what": f"PyTorch's performance hint: {message}",
        "fix": None,
        "message": message,
        "compileIds": [],
        "location": location,
    }


def hints(records: list[Record]) -> list[PerfHint]:
    """One entry per hint and user line: {kind, op, what, fix, message, compileIds, location}."""
    found: dict[tuple[str, str | None, int | None], PerfHint] = {}
    for r in records:
        if r.artifact != PERF_HINT:
            continue
        payload = r.payload_json() or {}
        message = str(payload.get("message") or "")
        location = innermost_user(parse_frames(str(payload.get("stack") or "")))
        key = (message, location["file"] if location else None, location["line"] if location else None)
        entry = found.setdefault(key, _explain(message, location))
        entry.setdefault("compileIds", []).append(payload.get("compileId") or r.compile_id)
    return list(found.values())
