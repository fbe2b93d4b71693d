"""When the observer may run its own work between the script's lines: measuring a region whose handle the script just
dropped (held.py) runs inside the weakref callback, that is wherever the last reference went, so it runs only where
replaying cannot disturb what the script is in the middle of, nor run under a mode the script has in force. Elsewhere
it waits for the next safe point (regions.py)."""

from __future__ import annotations

import gc
import threading
from typing import Any

from .calls import autocast


def _dynamo_idle() -> bool:
    """Neither compiling (a frame's locals can be freed while Dynamo traces) nor running under a Dynamo context (a
    replay there would be traced into the enclosing compile)."""
    from torch._guards import CompileContext

    if CompileContext.try_get() is not None:
        return False
    try:
        from torch._C._dynamo.eval_frame import get_eval_frame_callback
    except ImportError:  # an older torch: the compile context is all that can be read
        return True
    return get_eval_frame_callback() is None


def _no_ambient_mode() -> bool:
    """No mode of the script's in force that a replay would run under besides its capture's own: inference mode,
    autocast, a torch-function mode (`with torch.device(...)`, set_default_device) or a dispatch mode."""
    import torch

    return (
        not torch.is_inference_mode_enabled()
        and autocast() is None
        and torch._C._len_torch_function_stack() == 0
        and torch._C._len_torch_dispatch_stack() == 0
    )


class SafePoints:
    """Tracks garbage collections (gc.callbacks) and the observer's own work; `now()` says whether this is a safe point:
    the script's own thread, outside every region call, collection and observer work, Dynamo idle, no mode in force."""

    def __init__(self) -> None:
        self.thread: threading.Thread | None = None
        self.collecting = False
        self.busy = False  # the observer's own work (a torch.compile it observes, a release point, a measurement)

    def _gc_phase(self, phase: str, _info: dict[str, Any]) -> None:
        self.collecting = phase == "start"

    def start(self) -> None:
        self.thread = threading.current_thread()
        gc.callbacks.append(self._gc_phase)

    def stop(self) -> None:
        self.thread = None
        if self._gc_phase in gc.callbacks:
            gc.callbacks.remove(self._gc_phase)

    def now(self, in_region_call: bool) -> bool:
        return (
            self.thread is threading.current_thread()
            and not in_region_call
            and not self.collecting
            and not self.busy
            and _dynamo_idle()
            and _no_ambient_mode()
        )
