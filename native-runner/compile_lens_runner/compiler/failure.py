"""A compiled call that failed, as a finding at the user's line: what in their code did it, and the fix in their terms.

Dynamo raises `Unsupported` with the user frame it was tracing (`real_stack`, else the "from user code:" part of
its message) and the kind of break (`gb_type`); a backend error (BackendCompilerFailed) names the backend. Imports no
torch: it reads the exception's attributes and text only.
"""

from __future__ import annotations

import re
import traceback

from ..shapes.common import SourceLocation
from ..shapes.in_situ import CompileFailure
from .user_code import innermost_user, location, parse_frames

_FULLGRAPH_OFF = "or compile without fullgraph=True (Dynamo then breaks the graph there and runs that part eagerly)"


def _user_frame(exc: BaseException) -> SourceLocation | None:
    stack = getattr(exc, "real_stack", None)
    if stack:
        frames = [location(f.filename, f.lineno or 0, f.name) for f in stack]
        found = innermost_user(frames)
        if found:
            return found
    text = str(exc)
    if "from user code:" in text:
        found = innermost_user(parse_frames(text.split("from user code:", 1)[1]))
        if found:
            return found
    return innermost_user(
        [location(f.filename, f.lineno or 0, f.name) for f in traceback.extract_tb(exc.__traceback__)]
    )


def _explained(exc: BaseException, code: str | None) -> tuple[str, str]:
    """(what, fix) in the user's terms."""
    kind = str(getattr(exc, "gb_type", "") or "")
    text = str(exc)
    first = next((line.strip() for line in text.splitlines() if line.strip()), type(exc).__name__)
    shown = f" (`{code}`)" if code else ""
    if kind == "Data-dependent branching" or "data-dependent branching" in text.lower():
        return (
            f"a branch on a tensor's value{shown}: which way it goes is known only when the call runs",
            "make it branchless with torch.where (compute both sides, pick per element), express it with "
            f"torch.cond, {_FULLGRAPH_OFF}",
        )
    if "data dependent" in text.lower() or "data-dependent" in text.lower():
        return (
            f"an operation whose result's shape or value depends on the data{shown} (e.g. .item(), nonzero, a "
            "boolean mask)",
            f"keep it on tensors (torch.where instead of masking, no .item()), {_FULLGRAPH_OFF}",
        )
    if "output of CUDAGraphs that has been overwritten" in text:  # torch/_inductor/cudagraph_trees.py
        return (
            f"a CUDA graph's output was read after a later replay had overwritten it{shown}: reduce-overhead "
            "replays each graph into the same memory, so a result kept from an earlier call (a cache, logits) is "
            "gone once the compiled code runs again",
            "call torch.compiler.cudagraph_mark_step_begin() before each call of the compiled code, or clone what "
            "you keep from a call (out.clone()) before the next one, as PyTorch's message says; or compile with "
            "mode='max-autotune-no-cudagraphs' (no CUDA graphs)",
        )
    if type(exc).__name__ == "BackendCompilerFailed" or "backend=" in first:
        return (
            f"the compiler backend failed on this code{shown}: {first}",
            "compile with backend='aot_eager' to see whether Inductor is the cause; if so, report the traceback to "
            "PyTorch, and leave this code eager (torch.compiler.disable on the function) meanwhile",
        )
    if type(exc).__name__ == "Unsupported" or kind:
        hint = next((line.split("Hint:", 1)[1].strip() for line in text.splitlines() if "Hint:" in line), None)
        return (
            f"{kind or first}{shown}: torch.compile cannot trace it",
            (f"{hint.rstrip('.')}; " if hint else "rewrite it with torch operations, ") + _FULLGRAPH_OFF,
        )
    return (f"compiling failed{shown}: {first}", f"see the traceback; {_FULLGRAPH_OFF}, or another backend")


def compile_failure(exc: BaseException, caller: SourceLocation | None = None) -> CompileFailure:
    """{what, fix, location (the user's line, or None), message (the exception's first line)}; caller: the user's
    call of the compiled code, for an error raised below it with no user frame of its own (a library's forward)."""
    own = _user_frame(exc)
    where = own or caller
    code = ((own.get("code") if own else None) or "").split(" #", 1)[
        0
    ].strip() or None  # the statement, not its comment
    what, fix = _explained(exc, code)
    first = next((line.strip() for line in str(exc).splitlines() if line.strip()), "")
    return {
        "what": what,
        "fix": fix[:1].upper() + fix[1:] + ".",
        "location": where,
        "message": re.sub(r"\s+", " ", f"{type(exc).__name__}: {first}")[:300],
    }


def headline(failure: CompileFailure) -> str:
    """`fails_at_serving.py:14: a branch on a tensor's value (...)`."""
    where = failure.get("location")
    place = f"{where['file'].rsplit('/', 1)[-1]}:{where['line']}: " if where else ""
    return f"{place}{failure['what']}"
