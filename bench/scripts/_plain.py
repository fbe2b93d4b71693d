"""What the in-situ bench scripts share: the device, sizes (small without CUDA or with IN_SITU_SMALL=1), `--eager`
(the script as a user would run it with compiling off: torch.compiler.set_stance("force_eager")), and the script's
own clock for its steps (CUDA-synchronised at the end of each step only when timing is asked for: --own-clock)."""

from __future__ import annotations

import itertools
import os
import statistics
import sys
import time

import torch

CUDA = torch.cuda.is_available()
SMALL = not CUDA or os.environ.get("IN_SITU_SMALL") == "1"
DEVICE = "cuda" if CUDA else "cpu"
EAGER = "--eager" in sys.argv
OWN_CLOCK = "--own-clock" in sys.argv
if EAGER:
    torch.compiler.set_stance("force_eager")


class Steps:
    """The script's own step clock: prints the median step over the steps after `skip` (its warm-up)."""

    def __init__(self, name: str, skip: int) -> None:
        self.name, self.skip, self.stamps = name, skip, []

    def tick(self) -> None:
        if OWN_CLOCK:
            if CUDA:
                torch.cuda.synchronize()
            self.stamps.append(time.perf_counter())

    def report(self) -> None:
        if not OWN_CLOCK:
            return
        steps = [(b - a) * 1000 for a, b in itertools.pairwise(self.stamps)][self.skip :]
        side = "eager" if EAGER else "compiled"
        print(f"{self.name} {side}: median step {statistics.median(steps):.3f} ms over {len(steps)}", flush=True)
