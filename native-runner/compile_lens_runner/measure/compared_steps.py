"""The profiled steps a trace's per-step numbers are the mean of: the one rule of the runner's kernel times
(profiling.kernel_us_per_step, the report's kernelSteps) and the webview's trace compare
(webview/analysis/compare.ts comparedRun, through stepsCompared), said once in report.schema.json kernelSteps. The rule's words, the
names of a compile's spans and its cases are compared_steps.json's, which both read (the compare through
extension/shared/trace/sliceKinds.ts); each side's compared_run is held to its cases by a test."""

from __future__ import annotations

import json
import os
import re
from typing import Any

with open(os.path.join(os.path.dirname(__file__), "compared_steps.json"), encoding="utf-8") as _spec:
    SPEC: dict[str, Any] = json.load(_spec)

_STEP_MARK = re.compile(r"ProfilerStep#(\d+)")
# a compile's span on the host, as the timeline finds them (the plain twins of `dynamo_timed` phases it also counts
# lie inside these, so a step overlaps one exactly when it overlaps these)
_COMPILE_NAME = re.compile(SPEC["compileName"])
_DEVICE_CATS = ("kernel", "gpu_memcpy", "gpu_memset", "gpu_user_annotation")


def compared_run(compiling: list[bool]) -> tuple[int, int] | None:
    """The steps compared by compared_steps.json's rule, as (first, last) indices into the marked steps, given which
    of them a compile ran in; None without steps."""
    if not compiling:
        return None
    start = 1 if len(compiling) > 1 else 0
    first, last, best = start, len(compiling) - 1, 0
    run_start = start
    for k in range(start, len(compiling)):
        if compiling[k]:
            run_start = k + 1
        elif k - run_start + 1 > best:
            first, last, best = run_start, k, k - run_start + 1
    return first, last


def compared_steps(events: list[dict[str, Any]]) -> list[tuple[int, float, float]]:
    """The steps compared (compared_run), as (number, start, end). One marker per step, the CPU's: a CUDA trace marks
    each step on the stream too (`gpu_user_annotation`, on the GPU's clock)."""
    marked = sorted(
        {
            int(m[1]): (int(m[1]), float(e["ts"]), float(e["ts"]) + e.get("dur", 0))
            for e in events
            if e.get("cat") != "gpu_user_annotation" and (m := _STEP_MARK.fullmatch(e.get("name", ""))) is not None
        }.values()
    )
    compiles = [
        (float(e["ts"]), float(e["ts"]) + e.get("dur", 0))
        for e in events
        if e.get("cat") not in _DEVICE_CATS and _COMPILE_NAME.search(e.get("name", ""))
    ]
    run = compared_run(
        [any(c_start < end and c_end > start for c_start, c_end in compiles) for _, start, end in marked]
    )
    return marked[run[0] : run[1] + 1] if run else []
