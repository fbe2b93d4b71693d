"""The script's kernels timed per step (review 14R R9: the kernel card of a script's region said "this one took
1.80 µs" with no time per step beside the compare's 1.26 µs/step): the script itself is not profiled, each region's
replay of the script's own compiled callable (as written) is, so each region's kernels are timed from that profile,
over the steps a compare counts (compiler/artifacts.time_kernels)."""

from __future__ import annotations

import os

from ..compiler.artifacts import time_kernels
from ..shapes.compiler import CompilerInsight, StepSpan
from ..shapes.region import Region
from .replay import AS_WRITTEN


def time_script_kernels(script: CompilerInsight | None, regions: list[Region], workdir: str, steps: int) -> None:
    """The script's kernels (`script`: its mode's compiler record), and each region's record of them, timed from the
    region's as-written profile (under `workdir`, of `steps` profiled steps); those of a region not profiled as
    written stay untimed. Each of the script's kernels says its own region's steps; the script's record says steps
    only where every region's are alike (the code read's item 4: the last region timed said its steps for all)."""
    spans: list[StepSpan | None] = []
    for region in regions:
        traced = next((m for m in region["measurements"] if m["mode"] == AS_WRITTEN and m.get("trace")), None)
        path = os.path.join(workdir, str(traced["trace"])) if traced else None
        if path is None or not os.path.exists(path):
            continue
        own = region.get("compiler")
        ids = {str(f["compileId"]) for f in (own.get("frames") or [])} if own else set()
        if script and ids:
            spans.append(time_kernels(script, path, steps, ids))
        if own:
            time_kernels(own, path, steps)
    alike = {(span["first"], span["last"]) for span in spans if span is not None}
    if script is not None and len(alike) == 1 and None not in spans:
        first, last = alike.pop()
        script["kernelSteps"] = {"first": first, "last": last}
    elif script is not None and spans:
        script.pop("kernelSteps", None)
