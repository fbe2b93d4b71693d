"""The profiled steps a trace's per-step numbers are the mean of: the one rule of the runner's kernel times
(profiling.kernel_us_per_step, the report's kernelSteps) and the webview's trace compare
(webview/analysis/compare.ts stepsCompared), said once in report.schema.json kernelSteps."""

from __future__ import annotations

import re
from typing import Any

_STEP_MARK = re.compile(r"ProfilerStep#(\d+)")
# a compile's span on the host, as the timeline finds them (extension/shared/trace/sliceKinds.ts COMPILE_NAME; the
# plain twins of `dynamo_timed` phases it also counts lie inside these, so a step overlaps one exactly when it
# overlaps these)
_COMPILE_NAME = re.compile(
    r"\(dynamo_timed\)$|compile_id=\d|"
    r"^(dynamo|entire_frame_compile|backend_compile|compile_attempt_\d+|inductor_compile|compile_fx_inner|aot_compile)$|"
    r"torch/_dynamo/convert_frame\.py\(\d+\): (_compile|compile_inner)$|"
    r"torch/_inductor/compile_fx\.py\(\d+\): (compile_fx|compile_fx_inner|fx_codegen_and_compile)$"
)
_DEVICE_CATS = ("kernel", "gpu_memcpy", "gpu_memset", "gpu_user_annotation")


def compared_steps(events: list[dict[str, Any]]) -> list[tuple[int, float, float]]:
    """The steps compared, as (number, start, end): of the marked steps, every one but the first where there are two or
    more (the first holds the profiler's start-up), and of those the longest run in which no compile ran (a step that
    compiled is the compiler's time), the first of equal runs; where every one compiled, all of them. One marker per
    step, the CPU's: a CUDA trace marks each step on the stream too (`gpu_user_annotation`, on the GPU's clock)."""
    marked = sorted(
        {
            int(m[1]): (int(m[1]), float(e["ts"]), float(e["ts"]) + e.get("dur", 0))
            for e in events
            if e.get("cat") != "gpu_user_annotation" and (m := _STEP_MARK.fullmatch(e.get("name", ""))) is not None
        }.values()
    )
    if not marked:
        return []
    compiles = [
        (float(e["ts"]), float(e["ts"]) + e.get("dur", 0))
        for e in events
        if e.get("cat") not in _DEVICE_CATS and _COMPILE_NAME.search(e.get("name", ""))
    ]
    start = 1 if len(marked) > 1 else 0
    first, last, best = start, len(marked) - 1, 0
    run_start = start
    for k in range(start, len(marked)):
        _, step_start, step_end = marked[k]
        if any(c_start < step_end and c_end > step_start for c_start, c_end in compiles):
            run_start = k + 1
        elif k - run_start + 1 > best:
            first, last, best = run_start, k, k - run_start + 1
    return marked[first : last + 1]
