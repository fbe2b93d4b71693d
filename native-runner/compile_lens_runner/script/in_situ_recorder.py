"""The light observer of an in-situ run (in_situ_run.py): the same regions as regions.py sees, only timed.

It replaces torch.compile while the script runs, as RegionRecorder does, but keeps no inputs, checks no state and
holds no reference to the script's modules or tensors: per top-level call of a region it keeps the signature, the
call's start and end (CUDA events on the call's stream, no synchronisation; else perf_counter) and how many compiles
had started (Dynamo's compile-start callback, which the compiled run fires and the force_eager run never does).

A step is from one call of a region to its next call. On the CPU clock, the observer's own time between two calls
(signature, bookkeeping) is measured and taken out of the step, so no duration carries the tool's work; the calls
themselves are bracketed as tightly as Python allows. Calls made inside another region's call are not counted: in
the compiled run Dynamo inlines them, in the eager run they would run as separate calls.

The host CPU's speed is probed (measure/host.py) before the clock of a region's first call and of every PROBE_EVERY-th
call after it: a launch-bound step follows the CPU's speed, and on a VM a vCPU can run at half speed for seconds, a
whole run's steady state. On a CUDA run that is its job's only process the probe also moves the script's thread to the
CPU that probes fastest, as the replay does; the thread gets its CPUs back when the script ends. A probed call is marked
`observer`: its step and the step that ends at it carry the probe's time (and the move), and are no steady steps.
"""

from __future__ import annotations

import contextlib
import functools
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from ..compiler.failure import compile_failure
from ..errors import _from_compiler
from ..measure.host import HostSpeed
from ..shapes.common import SourceLocation
from ..shapes.in_situ import CompileFailure
from .calls import MAX_RECORDED_CALLS, autocast, call_device, cuda_stream, describe, flatten, grad_mode
from .regions import ScriptStopped, _is_method, _options, _user_location, function_name


@dataclass
class _Call:
    index: int
    signature: str
    compiles_before: int
    compiles_after: int = 0
    start: Any = None  # perf_counter seconds, or a CUDA event
    end: Any = None
    own_before_s: float = 0.0  # the observer's own time before the call started, and after it ended
    own_after_s: float = 0.0
    probe_ms: float | None = None  # the host CPU probe taken before this call's clock started


@dataclass
class LightRegion:
    id: str
    name: str
    kind: str
    location: SourceLocation | None
    options: dict[str, Any]  # the script's torch.compile arguments, as _options summarises them
    calls: list[_Call] = field(default_factory=list)
    call_count: int = 0
    failure: CompileFailure | None = None

    def to_json(self) -> dict[str, Any]:
        """The region in an in-situ run's timings file (in_situ/<side>-<pair>.json), which the parent reads back
        (measure/in_situ.py): a file of the runner's own, not part of the report."""
        calls = []
        for i, call in enumerate(self.calls):
            following = self.calls[i + 1] if i + 1 < len(self.calls) else None
            ms = _elapsed_ms(call.start, call.end)
            step = None
            if following is not None:
                step = _elapsed_ms(call.start, following.start)
                if step is not None and not _is_event(call.start):
                    step = max(0.0, step - (call.own_after_s + following.own_before_s) * 1000.0)
            calls.append(
                {
                    "index": call.index,
                    "signature": call.signature,
                    "ms": _round(ms),
                    "stepMs": _round(step),
                    "compiles": call.compiles_after - call.compiles_before,
                    "stepCompiles": (following.compiles_before if following else call.compiles_after)
                    - call.compiles_before,
                }
            )
            if call.probe_ms is not None:
                calls[-1].update(probeMs=_round(call.probe_ms), observer=True)
        return {
            "id": self.id,
            "name": self.name,
            "kind": self.kind,
            "location": self.location,
            "options": self.options,
            "callCount": self.call_count,
            "calls": calls,
            "failure": self.failure,
            "clock": "cuda-events" if self.calls and _is_event(self.calls[0].start) else "perf-counter",
        }


def _is_event(stamp: Any) -> bool:
    return stamp is not None and not isinstance(stamp, float)


def _elapsed_ms(start: Any, end: Any) -> float | None:
    if start is None or end is None:
        return None
    if not _is_event(start):
        return (end - start) * 1000.0 if not _is_event(end) else None
    try:
        end.synchronize()
        return float(start.elapsed_time(end))
    except (RuntimeError, AttributeError):  # an event never recorded (the call raised) or a failed device
        return None


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


class _Depth(threading.local):
    def __init__(self) -> None:
        self.depth = 0


# A probe costs ~1 ms (a move to another CPU ~1 ms per CPU) and takes two steps out of the steady ones.
PROBE_EVERY = 16


class LightRecorder:
    """Patches torch.compile for one in-situ run. mode: the what-if mode every torch.compile of the script gets
    (None: as written)."""

    def __init__(self, stop_after_calls: int | None, mode: str | None = None) -> None:
        self.regions: list[LightRegion] = []
        self.stop_after_calls = stop_after_calls
        self.mode = mode
        self.compiles = 0
        self.stopped = False
        self._depth = _Depth()
        self._original: Callable[..., Any] | None = None
        # Probes only: the script's thread is never moved to another CPU (what it starts would inherit a one-CPU mask)
        self.host = HostSpeed()

    def _on_compile_start(self, _args: Any = None) -> None:
        self.compiles += 1

    @contextlib.contextmanager
    def installed(self) -> Iterator[None]:
        import torch
        from torch._dynamo.callback import callback_handler

        try:
            from torch._dynamo.trace_rules import add

            add(__name__)  # Dynamo never traces the observer's frames (regions.py says why)
        except ImportError:
            pass
        self._original = torch.compile
        callback_handler.register_start_callback(self._on_compile_start)
        torch.compile = self._compile
        try:
            yield
        finally:
            torch.compile = self._original
            callback_handler.remove_start_callback(self._on_compile_start)

    def _compile(self, model: Any = None, **kwargs: Any) -> Any:
        if model is None:  # @torch.compile(mode=...)
            return lambda fn: self._compile(fn, **kwargs)
        assert self._original is not None
        options = _options(kwargs)
        if self.mode is not None and not kwargs.get("disable"):
            kwargs = {k: v for k, v in kwargs.items() if k != "options"}  # torch takes mode or options, not both
            kwargs["mode"] = self.mode
        compiled = self._original(model, **kwargs)
        if kwargs.get("disable"):
            return compiled
        import torch

        where = _user_location()
        region_id = f"r{len(self.regions)}"
        if isinstance(model, torch.nn.Module):
            region = LightRegion(region_id, type(model).__name__, "module", where, options)
            self.regions.append(region)
            compiled.forward = self._observer(region, compiled.forward, False)
            return compiled
        owner = getattr(model, "__self__", None)
        if isinstance(owner, torch.nn.Module) and getattr(model, "__name__", "") == "_call_impl":
            region = LightRegion(region_id, type(owner).__name__, "module-compile", where, options)
        else:
            region = LightRegion(region_id, function_name(model), "function", where, options)
        self.regions.append(region)
        return functools.wraps(compiled)(self._observer(region, compiled, _is_method(model)))

    def _observer(self, region: LightRegion, call: Callable[..., Any], method: bool) -> Callable[..., Any]:
        def observed(*args: Any, **kwargs: Any) -> Any:
            if self._depth.depth:  # inside another region's call: part of that call
                return call(*args, **kwargs)
            return self._record(region, call, method, args, kwargs)

        return observed

    def _record(
        self, region: LightRegion, call: Callable[..., Any], method: bool, args: tuple[Any, ...], kwargs: dict[str, Any]
    ) -> Any:
        entered = time.perf_counter()
        if self.stopped:
            raise ScriptStopped()
        leaves = flatten(args[1:] if method and args else args, kwargs)
        stream = cuda_stream(call_device(leaves, None))
        record = _Call(region.call_count, describe(leaves, grad_mode(), autocast()), self.compiles)
        keep = region.call_count < MAX_RECORDED_CALLS
        if keep:
            region.calls.append(record)
        region.call_count += 1
        self._depth.depth += 1
        if keep and record.index % PROBE_EVERY == 0:
            record.probe_ms = self.host.probe()
        if stream is not None:
            import torch

            record.start, record.end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            record.own_before_s = time.perf_counter() - entered
            record.start.record(stream)
        else:
            record.start = time.perf_counter()
            record.own_before_s = record.start - entered
        try:
            return call(*args, **kwargs)
        except Exception as exc:
            if region.failure is None and (self.compiles > record.compiles_before or _from_compiler(exc)):
                region.failure = {**compile_failure(exc, _user_location()), "index": record.index}
            raise
        finally:
            if stream is not None:
                record.end.record(stream)
                left = time.perf_counter()
            else:
                left = record.end = time.perf_counter()
            self._depth.depth -= 1
            record.compiles_after = self.compiles
            if self.stop_after_calls is not None and region.call_count >= self.stop_after_calls:
                self.stopped = True
            record.own_after_s = time.perf_counter() - left
            if not keep:
                record.start = record.end = None

    def to_json(self) -> list[dict[str, Any]]:
        return [region.to_json() for region in self.regions]
