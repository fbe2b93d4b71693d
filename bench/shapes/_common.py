"""What the shape bench scripts share (bench/shapes/run.py runs them): the device, small sizes for --quick
(SHAPES_QUICK=1), the variant (SHAPES_VARIANT: "as-written", "eager": compiling off with
torch.compiler.set_stance("force_eager"), "fix": dynamic=True, "mark": mark_dynamic on the dimension that changes,
where the script has a tensor to mark; else as written), and the script's
own clock (SHAPES_OWN_CLOCK=1: CUDA-synchronised at the end of each step only then; never under a profile)."""

from __future__ import annotations

import json
import os
import statistics
import time

import torch

CUDA = torch.cuda.is_available()
DEVICE = "cuda" if CUDA else "cpu"
QUICK = os.environ.get("SHAPES_QUICK") == "1"
VARIANT = os.environ.get("SHAPES_VARIANT", "as-written")
OWN_CLOCK = os.environ.get("SHAPES_OWN_CLOCK") == "1"
if VARIANT == "eager":
    torch.compiler.set_stance("force_eager")


def dynamic(as_written: bool | None) -> bool | None:
    """torch.compile's dynamic= for this variant: the fix's dynamic=True, else the script's own."""
    return True if VARIANT == "fix" else as_written


def mark(tensor: torch.Tensor, dim: int) -> torch.Tensor:
    """The "mark" variant: torch._dynamo.mark_dynamic on the dimension that changes, as the profile's fix does."""
    if VARIANT == "mark":
        torch._dynamo.mark_dynamic(tensor, dim)
    return tensor


class Clock:
    """The script's own clock: each step's time (start to start) and the whole run's, printed as one JSON line."""

    def __init__(self) -> None:
        self.started = time.perf_counter()
        self.stamps: list[float] = []

    def tick(self) -> None:
        if OWN_CLOCK:
            if CUDA:
                torch.cuda.synchronize()
            self.stamps.append(time.perf_counter())

    def report(self, skip: int) -> None:
        """skip: the first steps (compiles, first-call costs) left out of the steady median."""
        if not OWN_CLOCK:
            return
        if CUDA:
            torch.cuda.synchronize()
        steps = [(b - a) * 1000 for a, b in zip(self.stamps, self.stamps[1:], strict=False)][skip:]
        print(
            "SHAPES_TIMING "
            + json.dumps(
                {
                    "variant": VARIANT,
                    "stepMs": round(statistics.median(steps), 4) if steps else None,
                    "steps": len(steps),
                    "runSeconds": round(time.perf_counter() - self.started, 3),
                    # the device memory the process holds at its end: as written minus eager is what compiling (its
                    # CUDA graphs' pools, under reduce-overhead) added, beside the profile's cudaGraphBytes
                    "reservedBytes": torch.cuda.memory_reserved() if CUDA else None,
                }
            ),
            flush=True,
        )
