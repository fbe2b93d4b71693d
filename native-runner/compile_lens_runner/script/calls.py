"""One call of a region as the script made it: input signature, grad mode, duration, compiles it started.

Nothing here synchronises the device: on CUDA two events are recorded on the current stream around the call and
read after the script ends (`resolve`); on CPU the call is bracketed by perf_counter. perf_counter brackets a CUDA call
too (its host time, `host_ms`): a launch-bound call's host time is close to its GPU time, a GPU-bound one's far under it
(measure/interleaved.eager_host_share).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

# Per-call events and records are kept for the first calls only; later calls are counted.
MAX_RECORDED_CALLS = 2000
_MAX_SCALAR_CHARS = 24
_MAX_SIGNATURE_LEAVES = 24


def grad_mode() -> str:
    import torch

    if torch.is_inference_mode_enabled():
        return "inference"
    return "grad" if torch.is_grad_enabled() else "no_grad"


def autocast() -> str | None:
    """The autocast in force, e.g. 'cuda float16': it changes what a call computes, so it is part of the signature
    and replays run under it."""
    import torch

    for device_type in ("cuda", "cpu"):
        try:
            if torch.is_autocast_enabled(device_type):
                return f"{device_type} {str(torch.get_autocast_dtype(device_type)).removeprefix('torch.')}"
        except (TypeError, AttributeError, RuntimeError):  # torch < 2.4 names these per device
            return None
    return None


def _cache_length(value: Any) -> int | None:
    """A transformers DynamicCache's length: what its tensors' guards check grows every token, so the signature says
    it (get_seq_length reads a shape there: no device work); None for any other object."""
    if not any(t.__name__ == "DynamicCache" for t in type(value).__mro__):
        return None
    try:
        return int(value.get_seq_length())
    except Exception:  # another library's class of that name, or a cache not set up yet: its name alone
        return None


def _leaf_text(value: Any) -> str:
    import torch

    if isinstance(value, torch.Tensor):
        return f"{str(value.dtype).removeprefix('torch.')}{list(value.shape)}"
    if value is None or isinstance(value, (bool, int, float, complex, str, torch.dtype, torch.device)):
        text = repr(value)
        return text if len(text) <= _MAX_SCALAR_CHARS else f"{type(value).__name__}(…)"
    length = _cache_length(value)
    return type(value).__name__ if length is None else f"{type(value).__name__}[length {length}]"


def flatten(args: tuple[Any, ...], kwargs: dict[str, Any]) -> list[tuple[str | None, Any]]:
    """The inputs' leaves, each with its keyword name (None for positional inputs)."""
    from torch.utils._pytree import tree_leaves

    named: list[tuple[str | None, Any]] = [(None, leaf) for leaf in tree_leaves(args)]
    for key in kwargs:
        named.extend((key, leaf) for leaf in tree_leaves(kwargs[key]))
    return named


def describe(leaves: list[tuple[str | None, Any]], grad: str, amp: str | None = None) -> str:
    """e.g. 'float32[5, 4096, 64], int64[5]; inference' (keyword inputs as name=...; '; autocast cuda float16'), read
    back by formats.signature_parts alone."""
    parts: list[str] = []
    for index, (name, value) in enumerate(leaves):
        if index == _MAX_SIGNATURE_LEAVES:
            parts.append(f"… {len(leaves) - index} more")
            break
        parts.append(f"{name}={_leaf_text(value)}" if name else _leaf_text(value))
    return f"{', '.join(parts)}; {grad}" + (f"; autocast {amp}" if amp else "")


def call_device(leaves: list[tuple[str | None, Any]], owner: Any) -> Any | None:
    """Where a call runs: the device of its first input tensor, else of its module's first parameter."""
    import torch

    device = next((v.device for _, v in leaves if isinstance(v, torch.Tensor)), None)
    if device is None and isinstance(owner, torch.nn.Module):
        first = next(owner.parameters(), None)
        device = first.device if first is not None else None
    return device


def cuda_stream(device: Any | None) -> Any | None:
    """The current stream of a CUDA call's device, or None (then perf_counter times it). CUDA is never touched
    for a call on another device, so a CPU script on a GPU machine is not made to initialise CUDA."""
    import torch

    if device is None or device.type != "cuda" or not torch.cuda.is_initialized():
        return None
    if torch.cuda.is_current_stream_capturing():  # inside the script's own CUDA graph capture: no timing events
        return None
    return torch.cuda.current_stream(device)


def graph_pool_bytes(device: Any) -> int | None:
    """Device memory the caching allocator holds in private memory pools on `device`: CUDA graphs' (Inductor's CUDA
    graph trees keep one pool per device, torch.cuda.graph one per capture). Read from the allocator's own host-side
    state (torch.cuda.memory_snapshot, whose segments name their pool): no synchronisation, no device work. None where
    it cannot be read."""
    import torch

    try:
        segments = torch.cuda.memory_snapshot()
        index = device.index if device.index is not None else torch.cuda.current_device()
        return sum(
            int(s["total_size"])
            for s in segments
            if s["device"] == index and tuple(s["segment_pool_id"]) != (0, 0)  # (0, 0): the default pool
        )
    except (RuntimeError, KeyError, TypeError, AttributeError):  # an allocator without per-segment pools
        return None


class CallClock:
    """Brackets one call: CUDA events on the call's stream (no synchronisation) and perf_counter (on CPU the call's
    time, on CUDA its host time). On CUDA two more events bracket the observer's own work around the call (`entered`
    when the observer took the call, `left` when it handed the result back): where the device sat idle through that
    work it shows as a gap between them on the device's timeline, which the step leaves out (and where the device was
    still busy with the script's work the gap is zero: the observer's time was hidden, nothing is taken out)."""

    def __init__(self, stream: Any | None, entered: Any | None = None) -> None:
        self.stream = stream
        self.events: tuple[Any, Any] | None = None
        self.entered = entered  # recorded when the observer took the call (own_mark), on the region's last stream
        self.left: Any | None = None
        self.t0 = 0.0
        self.cpu_ms: float | None = None

    def start(self) -> None:
        if self.stream is not None:
            import torch

            self.events = (torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True))
            self.t0 = time.perf_counter()
            self.events[0].record(self.stream)
        else:
            self.t0 = time.perf_counter()

    def stop(self) -> None:
        if self.events is not None:
            self.events[1].record(self.stream)
        self.cpu_ms = (time.perf_counter() - self.t0) * 1000.0

    def handed_back(self) -> None:
        """The observer's work after the call is done: the script runs again from here."""
        if self.events is not None:
            self.left = own_mark(self.stream)

    @property
    def host_ms(self) -> float | None:
        """A CUDA call's host time (its launches, and any wait on the device inside it); None on CPU, where the call's
        time is all the host's."""
        return self.cpu_ms if self.stream is not None else None

    @property
    def name(self) -> str:
        return "cuda-events" if self.stream is not None else "perf-counter"


def own_mark(stream: Any | None) -> Any | None:
    """A timing event recorded now on `stream` (None: no CUDA stream, nothing recorded)."""
    if stream is None:
        return None
    import torch

    event = torch.cuda.Event(enable_timing=True)
    event.record(stream)
    return event


@dataclass
class CallRecord:
    index: int
    signature: str
    grad_mode: str
    clock: CallClock
    compile_ids: list[str] = field(default_factory=list)
    ran_compiled: bool | None = None
    ms: float | None = None
    profiled: bool = False  # ran inside the profile window (profile_window.py): its duration includes the profiler's
    observer: bool = False  # carried the observer's state check or capture (or enclosed a nested region's): not plain
    side: str | None = None  # interleaved in situ (script/interleave.py): "compiled" or "eager" (the stance it ran at)
    block: int | None = None  # its block of the interleaving (0: the compiled warm-up)
    compiles_at_start: int = 0  # compiles started in the process before the call: a step's compiles are the difference
    own_before_s: float = 0.0  # the observer's own time before the clock started and after it stopped (CPU clock:
    own_after_s: float = 0.0  # taken out of the step, which runs from this call's start to the next call's start;
    # on CUDA the clock's own events say it: CallClock)
    step_ms: float | None = None
    step_compiles: int | None = None
    graph_bytes: int | None = None  # what the CUDA graphs' memory pools grew by over the call (read at few calls only)

    def resolve_step(self, following: CallRecord | None, wait: bool = True) -> None:
        """The step from this call's start to the region's next call's start (before either is resolved)."""
        if following is None:
            return
        self.step_compiles = following.compiles_at_start - self.compiles_at_start
        mine, theirs = self.clock.events, following.clock.events
        if mine is not None and theirs is not None:
            try:
                if not wait and not theirs[0].query():
                    return
                theirs[0].synchronize()
                step = float(mine[0].elapsed_time(theirs[0]))
                # the device's idle time while the observer worked, after this call and before the next one
                if self.clock.left is not None:
                    step -= float(mine[1].elapsed_time(self.clock.left))
                if following.clock.entered is not None:
                    step -= float(following.clock.entered.elapsed_time(theirs[0]))
                self.step_ms = max(0.0, step)
            except RuntimeError:
                self.step_ms = None
        elif (
            self.clock.stream is None
            and following.clock.stream is None
            and self.clock.cpu_ms is not None
            and following.clock.cpu_ms is not None
        ):
            own = self.own_after_s + following.own_before_s
            self.step_ms = max(0.0, (following.clock.t0 - self.clock.t0 - own) * 1000.0)

    def resolve(self, wait: bool = True) -> None:
        """Reads the call's duration; on CUDA waits for its end event (called after the script, never during).
        wait=False leaves a CUDA call whose end event has not completed unresolved (a rank stopped mid-collective)."""
        if self.clock.stream is None:
            self.ms = self.clock.cpu_ms
            return
        if self.clock.events is None:  # resolved already
            return
        start, end = self.clock.events
        try:
            if not wait and not end.query():
                return
            end.synchronize()
            self.ms = float(start.elapsed_time(end))
        except RuntimeError:  # an event never recorded (the call raised before it) or a failed device
            self.ms = None
        self.clock.events = None
        self.clock.entered = self.clock.left = None


def resolve_all(calls: list[CallRecord], wait: bool = True) -> None:
    """Resolves a region's recorded calls, each step first (it needs the next call's start event)."""
    for i, call in enumerate(calls):
        call.resolve_step(calls[i + 1] if i + 1 < len(calls) else None, wait)
        call.resolve(wait)
