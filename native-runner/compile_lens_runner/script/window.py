"""A torch.profiler trace of the script's own calls: the ranks of a torchrun job cannot be replayed (one rank alone
would wait forever in its collectives), so each rank profiles a window of what the script itself runs.

The window is decided the same way on every rank, so the ranks' traces cover the same steps: it opens at the
START_CALL-th call (0-based) of the first region to be called that often — its *pilot* — and each later call of
the pilot begins a new `ProfilerStep#N`. The first step is the profiler's warmup (not in the trace); the next
STEPS are recorded, each from one pilot call to the next, so a step holds everything the script did in between
(backward, optimizer, collectives). A script that ends inside the window keeps the steps recorded so far (the
last one up to the script's end).

The in-situ windows (script/interleave.py) are the same window opened at a given call (start_call 0, the first call
it is shown): one per side, inside the interleaved run. A window whose profiler could not start still counts its
steps (`open`), so ranks that hold their schedule for it still switch on the same call. An in-situ window ends at
its block's end (finish(block_ended=True), before the first call outside its block: a new signature's compile in an
eager block), so its trace holds only its side's calls: the steps recorded before that call.
"""

from __future__ import annotations

from typing import Any

from ..shapes.common import ProfileWindow as WindowEntry

START_CALL = 1  # call 0 compiles; the warmup step absorbs what call 1 may still recompile
STEPS = 3


class ProfileWindow:
    def __init__(self, trace_path: str, start_call: int = START_CALL) -> None:
        self.trace_path = trace_path
        self.start_call = start_call
        self.pilot: Any = None
        self.steps = 0  # prof.step() calls made: the warmup step is 0
        self.recorded = 0  # steps in the exported trace
        self.from_call: int | None = None
        self.skipped: str | None = None  # why no trace was taken
        self.block_ended = False  # closed before a call outside its block, not at STEPS or the script's end
        self._prof: Any = None
        self._done = False

    @property
    def active(self) -> bool:
        return self._prof is not None

    @property
    def open(self) -> bool:
        """Opened and not yet closed, whether or not its profiler runs."""
        return self.pilot is not None and not self._done

    def before_call(self, region: Any) -> bool:
        """Called before each top-level region call (region.call_count: calls so far); True when the call runs
        inside the window (its duration includes profiler overhead)."""
        if self._done:
            return False
        if self.pilot is None:
            if region.call_count < self.start_call:
                return False
            self.pilot, self.from_call = region, region.call_count
            return self._start()
        if region is self.pilot:
            self.steps += 1
            if self._prof is not None:
                self._prof.step()
            if self.steps > STEPS:
                self._stop()
                return False
        return self.active

    def _start(self) -> bool:
        import torch
        from torch.profiler import ProfilerActivity, profile, schedule

        if torch.autograd.profiler._is_profiler_enabled:
            self.skipped = "the script runs its own profiler"
            return False
        activities = [ProfilerActivity.CPU]
        if torch.cuda.is_available() and torch.cuda.is_initialized():
            activities.append(ProfilerActivity.CUDA)
        prof = profile(
            activities=activities,
            schedule=schedule(wait=0, warmup=1, active=STEPS, repeat=1),
            on_trace_ready=self._export,
        )
        try:
            prof.start()
        except RuntimeError as exc:  # another profiler is running (the script's own, started another way)
            self.skipped = f"torch.profiler could not start: {exc}"
            return False
        self._prof = prof
        return True

    def _export(self, prof: Any) -> None:
        prof.export_chrome_trace(self.trace_path)
        self.recorded = min(self.steps, STEPS)

    def _stop(self) -> None:
        prof, self._prof, self._done = self._prof, None, self.pilot is not None
        if prof is not None:
            prof.stop()

    def finish(self, block_ended: bool = False) -> None:
        """At the script's end, or before a call outside its block (block_ended): a window still open keeps the steps
        recorded so far, each whole (a step ends where the next call begins)."""
        if self.open:
            self.block_ended = block_ended
        self._stop()

    def describe(self) -> WindowEntry:
        """The window as the report says it: its pilot region, the call it opened at, the steps in the trace and,
        without a trace, why."""
        why = self.skipped
        if why is None and not self.recorded:
            why = (
                f"no region was called {START_CALL + 1} times"
                if self.pilot is None
                else "its block ended before the window's first recorded step"
                if self.block_ended
                else "the script ended before the window's first recorded step"
            )
        return {
            "region": getattr(self.pilot, "id", None),
            "fromCall": self.from_call,
            "steps": self.recorded,
            "skipped": why,
        }
