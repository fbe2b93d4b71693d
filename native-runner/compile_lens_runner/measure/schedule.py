"""The in-situ schedule: which side (eager or compiled) each of the script's top-level region calls runs on, in
blocks switched by PyTorch's own stance (measure/interleaved.py says why blocks, why ABBA, and how they are compared).

Switching starts once WARM_QUIET_CALLS top-level calls in a row compiled nothing (at least MIN_WARM_CALLS calls in); a
block holds, of each region it calls, as many calls as take about BLOCK_TARGET_MS by the warm-up's own steps
(MIN_BLOCK..MAX_BLOCK): a script that calls two regions in turn (a server's model and its pooling) gets steps of both in
every block, where counting top-level calls alone gave each region one call a block and so no step. Ranks of a torchrun
job switch together on the same call: their schedule is fixed by call count (RANKS_START_CALL, RANKS_BLOCK), never by
timing, compiles or which regions a rank calls, which differ between ranks.
"""

from __future__ import annotations

import collections
import itertools
import math
import statistics
from collections.abc import Sequence
from typing import Any

ORDER = ("eager", "compiled", "compiled", "eager")  # ABBA, repeated
WARM_QUIET_CALLS = 2
MIN_WARM_CALLS = 3
# Small blocks make many pairs of a short loop: on the H200 (docs/BENCHMARKS.md, "Smaller blocks for short loops")
# 8 ms / 2 calls brought three processes of a 60-step train/validate loop within 9 % of each other where 20 ms / 4 left 24 %.
BLOCK_TARGET_MS = 8.0
MIN_BLOCK = 2
MAX_BLOCK = 12
RANKS_START_CALL = 8
RANKS_BLOCK = 6
# Why, per step: one torch.profiler window of the script's own steps per side (script/window.py), opened at the first
# call of that side's first block (eager's first calls on its signature fall in the window's unrecorded warmup
# step); the block is held open for the window's calls, which are never steady steps (profiled).
PROFILED_BLOCKS = {"eager": 1, "compiled": 2}


class Schedule:
    """Which side the next top-level call runs on. fixed: a torchrun rank (start and block size by call count only)."""

    def __init__(self, fixed: bool = False) -> None:
        self.fixed = fixed
        self.calls = 0
        self.start: int | None = None
        self.block_calls = RANKS_BLOCK if fixed else MIN_BLOCK
        self.held = 0  # calls inside the profiled windows: they extend their block
        self.block = 0
        self._in_block: collections.Counter[object] = collections.Counter()  # region -> its calls in the block
        self._quiet = 0
        self._quiet_starts: list[float] = []

    def next_call(self, now_s: float, hold: bool = False, region: object = None) -> tuple[str, int]:
        """(side, block) of `region`'s call about to start at perf_counter `now_s`; block 0 is the compiled warm-up.
        hold: the call is inside a profiled window (PROFILED_BLOCKS): it stays in the current block and takes none of
        its places, so the block still holds its block_calls calls outside the window."""
        n = self.calls
        self.calls += 1
        if self.start is None:
            ready = n >= RANKS_START_CALL if self.fixed else n >= MIN_WARM_CALLS and self._quiet >= WARM_QUIET_CALLS
            if not ready:
                self._quiet_starts.append(now_s)
                return "compiled", 0
            self.start = n
            if not self.fixed:
                self.block_calls = block_size([*self._quiet_starts[-WARM_QUIET_CALLS:], now_s])
        elif hold:
            self.held += 1
            return ORDER[(self.block - 1) % len(ORDER)], self.block
        key = None if self.fixed else region
        if self.block == 0 or self._in_block[key] >= self.block_calls:
            self.block += 1
            self._in_block.clear()
        self._in_block[key] += 1
        return ORDER[(self.block - 1) % len(ORDER)], self.block

    def call_ended(self, compiled: bool) -> None:
        """After a top-level call of the warm-up: whether any compile started during it."""
        if self.start is None:
            self._quiet = 0 if compiled else self._quiet + 1
            if compiled:
                self._quiet_starts.clear()

    def to_json(self) -> dict[str, Any]:
        """report.inSitu.schedule, whose keys the schema leaves open (it names them in words)."""
        return {
            "startCall": self.start,
            "blockCalls": self.block_calls,
            "order": "ABBA (eager first)",
            "fixedForRanks": self.fixed,
            "topLevelCalls": self.calls,
            "heldCalls": self.held,
        }


def block_size(starts: Sequence[float]) -> int:
    """Calls per block from the warm-up's last steps (start to start, seconds): about BLOCK_TARGET_MS of them."""
    steps = [(b - a) * 1000.0 for a, b in itertools.pairwise(starts) if b > a]
    if not steps:
        return MIN_BLOCK
    return max(MIN_BLOCK, min(MAX_BLOCK, math.ceil(BLOCK_TARGET_MS / statistics.median(steps))))
