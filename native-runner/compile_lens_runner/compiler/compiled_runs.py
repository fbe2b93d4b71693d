"""Did compiled code run? Counts Dynamo's guard checks of compiled frames, process-wide.

Each time a frame that has compiled code is entered, Dynamo checks its cached entries' guards and calls the
guard-complete hook with the outcome: a hit runs compiled code; a miss either recompiles the frame (a compile
of an existing frame starts, which CompileWatcher counts as a recompile) or, once the frame hit the recompile
limit (RUN_ONLY), runs the frame eagerly without a word. So over any stretch of calls, misses that started no
recompile are frames that ran eagerly: compiled timings over such calls time eager code. (A frame's first
compile follows no guard check, so it is not counted against misses.)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ..measure.paired import RunCounts

if TYPE_CHECKING:
    from .torch_trace import CompileWatcher


class CompiledRuns:
    """Installs the guard-complete hook once (chaining any hook set before it) and counts hits and misses."""

    def __init__(self, compiles: Callable[[], tuple[int, int]]) -> None:
        self.hits = 0
        self.misses = 0
        self._compiles = compiles
        self.available = False
        self._previous: Callable[[bool], bool] | None = None

    def install(self) -> CompiledRuns:
        try:
            from torch._C._dynamo.eval_frame import set_guard_complete_hook
        except ImportError:  # torch < 2.6 has no such hook: ran_compiled() then says None
            return self
        self._previous = set_guard_complete_hook(self._hook)
        self.available = True
        return self

    def _hook(self, cache_hit: bool) -> bool:
        result = self._previous(cache_hit) if self._previous is not None else cache_hit
        if result:
            self.hits += 1
        else:
            self.misses += 1
        return result

    def snapshot(self) -> RunCounts:
        compiles, recompiles = self._compiles()
        return RunCounts(self.hits, self.misses, compiles, recompiles)


def install(watcher: CompileWatcher) -> CompiledRuns:
    """A counter that takes its compile counts from the CompileWatcher (torch_trace.install_watcher())."""
    return CompiledRuns(lambda: (watcher.compiles, watcher.recompiles)).install()
