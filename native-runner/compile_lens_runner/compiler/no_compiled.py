"""A region whose calls ran no compiled code at all: Dynamo entered its frames, but every graph it could have made was
cut before any op (the first op broke, or every compile failed), so each call ran the user's code eagerly and the
"compiled" run executed the same code as the eager one. Said first, with what stopped it and where; no speedup is
shown for it (a comparison of eager code with itself)."""

from __future__ import annotations

from ..shapes.common import SourceLocation
from ..shapes.compiler import CompilerInsight
from ..shapes.region import NoCompiledCode


def _place(location: SourceLocation | None) -> str:
    if not location:
        return ""
    return f" at {str(location['file']).replace(chr(92), '/').rsplit('/', 1)[-1]}:{location['line']}"


def no_compiled_code(insight: CompilerInsight | None, calls: int) -> NoCompiledCode | None:
    """{cause, location, fix, gbId, pattern} when the region was called, Dynamo compiled its frames and
    made no graph; None when some graph was made (or nothing was called or compiled)."""
    if (
        not insight
        or calls == 0
        or insight.get("graphCount")
        or not (insight.get("compiledFrames") or insight.get("compileFailures"))
    ):
        return None
    breaks = insight.get("graphBreaks") or []
    failures = insight.get("compileFailures") or []
    first = next((b for b in breaks if b.get("location")), breaks[0] if breaks else None)
    if first is not None:
        explanation = first.get("explanation")
        broke = explanation.get("broke") if explanation else None
        what = f"`{broke}` broke the graph" if broke else f"a graph break ({first['reason'].split(':', 1)[0]})"
        broke_at = first.get("brokeAt")
        where = broke_at if broke_at and broke_at.get("library") else None
        inside = (
            f" inside {str(where['file']).replace(chr(92), '/').rsplit('/', 1)[-1]}:{where['line']}" if where else ""
        )
        cause = f"{what}{_place(first.get('location'))}{inside} before any op was compiled"
        fix = explanation["fix"] if explanation else None
        location = first.get("location")
        gb, pattern = first.get("gbId"), explanation["pattern"] if explanation else None
    elif failures:
        failure = failures[0]
        reason = str(failure.get("reason") or "").strip().split("\n", 1)[0]
        cause = f"every compile failed ({failure.get('failType') or 'error'}: {reason})"
        fix = (
            "Make it compile: set torch._dynamo.config.suppress_errors = False to see the error where it happens, then "
            "fix or report it."
        )
        location, gb, pattern = None, None, None
    else:
        cause = "Dynamo made no graph of it (every frame it entered was skipped)"
        fix, location, gb, pattern = None, None, None, None
    # its sentence (headline) is the answer's, written with the report (report/sentences.py)
    return {"cause": cause, "location": location, "fix": fix, "gbId": gb, "pattern": pattern}
