"""The stance switch of the observed run (measure/interleaved.py says why and when): before each top-level region
call, PyTorch's own `torch.compiler.set_stance` is set to the side the schedule gives ("force_eager" for eager,
"default" for compiled). The runner's own work (replays at a drop, --calls N) runs at the default stance, and the
script ends at the stance it began with. With a trace folder, each side's first block opens a profiler window of the
script's own steps (measure/schedule.PROFILED_BLOCKS; measure/step_work.py reads its trace), which ends at the first
call outside that block."""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable, Iterator
from typing import Any

from ..measure.host import LoadWatch
from ..measure.schedule import PROFILED_BLOCKS, Schedule
from ..shapes.common import InSituWindow
from .window import ProfileWindow

STANCES = {"compiled": "default", "eager": "force_eager"}


def available() -> Callable[..., Any] | None:
    """torch.compiler.set_stance (torch >= 2.6), or None."""
    import torch

    return getattr(getattr(torch, "compiler", None), "set_stance", None)


def _current_stance() -> str | None:
    try:
        from torch._dynamo.eval_frame import _stance
    except ImportError:
        return None
    return str(getattr(_stance, "stance", None))


class Interleaver:
    """Switches the stance between blocks of the script's top-level region calls. ranks: a torchrun rank (a schedule
    fixed by call count, so all ranks switch on the same call)."""

    def __init__(
        self,
        set_stance: Callable[..., Any],
        ranks: bool = False,
        trace_dir: str | None = None,
        load: LoadWatch | None = None,
    ) -> None:
        self.schedule = Schedule(fixed=ranks)
        self.load = load  # a CPU run: the host's load, sampled at each switch between blocks and at the end
        self.windows = (
            {
                side: ProfileWindow(os.path.join(trace_dir, f"in-situ-{side}.trace.json"), start_call=0)
                for side in PROFILED_BLOCKS
            }
            if trace_dir is not None
            else {}
        )
        self.profiled = (
            False  # the current top-level call is in a profiled window (or closes one: it exports the trace)
        )
        self._set = set_stance
        self.side = "compiled"
        self.block = 0
        self.stopped: str | None = None  # why the switching stopped (the script set a stance of its own)
        self._compiled_seen: set[str] = set()
        self._call_block = 0  # the block of the current top-level call (0 for one that ran compiled out of turn)

    def before_call(self, region: Any, signature: str, new_sizes_served: bool = False) -> tuple[str, int]:
        """The (side, block) of the top-level call of `region` about to start, the stance set for it. A signature (the
        region's id and its inputs') the compiled side has not run yet runs compiled whatever the block (in block 0:
        it is no steady call): its compile, and a compile that fails, happen as they would in the script as written.
        Not for a region whose compiled code already served a new size without compiling (new_sizes_served: one
        dynamic graph serves a growing cache's every length, nothing to compile) or whose signature changes nearly
        every call, which would otherwise never run eagerly."""
        self.profiled = False
        if self.stopped is not None:
            return self.side, 0  # no longer interleaved: no steady step (block 0 is warm-up)
        window_side = next((side for side, w in self.windows.items() if w.open), None)
        side, self.block = self.schedule.next_call(
            time.perf_counter(), hold=window_side is not None, region=getattr(region, "id", region)
        )
        block = self.block
        if side == "eager" and signature not in self._compiled_seen and not new_sizes_served:
            side, block = "compiled", 0
        if side == "compiled":
            self._compiled_seen.add(signature)
        window = self.windows[window_side] if window_side is not None else None
        if window_side is not None and (side, block) != (window_side, PROFILED_BLOCKS[window_side]):
            # a call outside the window's block (a new signature compiling in the eager block): the window ends before
            # it, so a trace labelled eager holds no compiled call; this call exports the trace (profiled)
            self.windows[window_side].finish(block_ended=True, before=region)
            window, self.profiled = None, True
        if side != self.side:
            if _current_stance() != STANCES[self.side]:  # the script changed the stance itself: it is left alone
                self.stopped = f"the script set torch.compiler.set_stance({_current_stance()!r}) itself"
                for w in self.windows.values():
                    w.finish()
                return self.side, 0
            self._set(STANCES[side])
            self.side = side
            if self.load is not None:  # a step that spans a switch is no steady step: the sample costs no timed step
                self.load.sample()
        self._call_block = block
        if window is not None:
            window.before_call(region)
            self.profiled = True
        elif block == PROFILED_BLOCKS.get(side) and side in self.windows and self.windows[side].pilot is None:
            self.profiled = self.windows[side].before_call(region)
        return self.side, block

    def current(self) -> tuple[str, int]:
        """(side, block) for a call made inside a top-level call: its caller's."""
        return self.side, 0 if self.stopped is not None else self._call_block

    def after_call(self, compiled: bool) -> None:
        self.schedule.call_ended(compiled)

    @contextlib.contextmanager
    def suspended(self) -> Iterator[None]:
        """The runner's own calls (replays) run compiled code as written, at the default stance and outside the profiled
        windows (a second torch.profiler inside one would end the window's session under it)."""
        for window in self.windows.values():  # its steps are the script's: a replay's own profile ends it
            if window.open:
                window.finish()
        was = self.side
        self.restore()
        try:
            yield
        finally:
            if was != self.side and self.stopped is None:
                self._set(STANCES[was])
                self.side = was

    def end(self) -> None:
        """At the script's end: the default stance; a window still open keeps the steps it recorded."""
        for window in self.windows.values():
            window.finish()
        if self.load is not None:
            self.load.sample()
        self.restore()

    def restore(self) -> None:
        if self.side != "compiled":
            self._set(STANCES["compiled"])
            self.side = "compiled"

    def to_json(self) -> dict[str, Any]:  # report.inSitu.schedule: the schema leaves its keys open
        return dict(
            self.schedule.to_json(),
            stoppedBecause=self.stopped,
            **({"hostLoad": self.load.evidence()} if self.load is not None else {}),
        )

    def profile_json(self) -> dict[str, InSituWindow]:
        """Per side, its window (ProfileWindow.describe) and the trace it wrote (None without one)."""
        return {
            side: {**w.describe(), "trace": w.trace_path if w.recorded and os.path.exists(w.trace_path) else None}
            for side, w in self.windows.items()
        }
