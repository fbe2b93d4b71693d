"""A torch.profiler trace of the script's own calls: the ranks of a torchrun job cannot be replayed (one rank alone
would wait forever in its collectives), so each rank profiles a window of what the script itself runs.

The window is decided the same way on every rank, so the ranks' traces cover the same steps: it opens at the
START_CALL-th call (0-based) of the first region to be called that often — its *pilot* — and each later call of
the pilot begins a new `ProfilerStep#N`. The first step is the profiler's warmup (not in the trace); the next
STEPS are recorded, each from one pilot call to the next, so a step holds everything the script did in between
(backward, optimizer, collectives). A script that ends inside the window keeps the whole steps recorded so far.

The in-situ windows (script/interleave.py) are the same window opened at a given call (start_call 0, the first call
it is shown): one per side, inside the interleaved run. A window whose profiler could not start still counts its
steps (`open`), so ranks that hold their schedule for it still switch on the same call. An in-situ window ends at
its block's end (finish(block_ended=True), before the first call outside its block: a new signature's compile in an
eager block), so its trace holds only its side's calls: the steps recorded before that call.

A trace holds whole steps only: a window that ends inside a step (at the script's end, at a replay, before another
region's call) drops that step from its trace (drop_step). Such a step ran from the pilot's call through whatever the
script did next (in train_small.py, the three loops of other regions after the pilot's last call, their compiles
too), and the trace's panes would show it as that one call.
"""

from __future__ import annotations

import json
import os
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
        self._cut = False  # closed inside a step: no pilot call ended it
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
        if self._cut and self.steps <= STEPS:  # stopped inside its last recorded step
            self.recorded -= 1
            if self.recorded:
                drop_step(self.trace_path, self.steps)
            else:
                os.remove(self.trace_path)

    def _stop(self) -> None:
        prof, self._prof, self._done = self._prof, None, self.pilot is not None
        if prof is not None:
            prof.stop()

    def finish(self, block_ended: bool = False, before: Any = None) -> None:
        """At the script's end, at a replay, or before a call outside its block (block_ended; before: the region of
        that call): a window still open keeps the whole steps recorded so far, a step being whole where the pilot's
        next call ends it."""
        if self.open:
            self.block_ended = block_ended
            self._cut = before is not self.pilot
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


_DEVICE = ("kernel", "gpu_memcpy", "gpu_memset", "gpu_user_annotation")


def drop_step(path: str, step: int) -> None:
    """Rewrites the Chrome trace at `path` without ProfilerStep#`step`, its last: the events the host began from that
    step's start on, the device's work they launched (by correlation: a kernel of an earlier step may run after it),
    and their flow arrows."""
    with open(path, encoding="utf-8") as f:
        trace = json.load(f)
    events = trace.get("traceEvents", [])
    name = f"ProfilerStep#{step}"
    cut = min(
        (float(e["ts"]) for e in events if e.get("cat") == "user_annotation" and e.get("name") == name), default=None
    )
    if cut is None:
        return

    def late(e: dict[str, Any]) -> bool:
        return isinstance(e.get("ts"), (int, float)) and float(e["ts"]) >= cut

    launched = {
        (e.get("args") or {}).get("correlation")
        for e in events
        if e.get("cat") in ("cuda_runtime", "cuda_driver") and late(e)
    }
    starts = {e.get("id") for e in events if e.get("ph") == "s" and not late(e)}

    def kept(e: dict[str, Any]) -> bool:
        if e.get("name") == name:
            return False
        if e.get("ph") == "f":
            return e.get("id") in starts
        correlation = (e.get("args") or {}).get("correlation")
        if e.get("cat") in _DEVICE and correlation is not None:
            return correlation not in launched
        return not late(e)

    trace["traceEvents"] = [e for e in events if kept(e)]
    with open(path, "w", encoding="utf-8") as f:
        json.dump(trace, f)
