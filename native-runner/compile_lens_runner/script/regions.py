"""Observes every callable that torch.compile (or nn.Module.compile) returns while a script runs: a *region*.

`RegionRecorder.installed()` replaces `torch.compile` for the duration of the script only. What the script gets
back behaves as torch's own result would:
- torch.compile(module) returns torch's OptimizedModule itself (same class, attributes, state_dict); only its
  instance `forward` (torch sets one per instance) is wrapped, so calls are seen;
- torch.compile(function), `@torch.compile` and `@torch.compile(mode=...)` return a function wrapping torch's, with
  torch's attributes copied (`_torchdynamo_inline`: an enclosing compiled region still inlines the original);
- nn.Module.compile() calls torch.compile(self._call_impl), so it is seen as a region of kind module-compile.
Each call is recorded by `region_calls` (duration without synchronisation, signature, compiles it started) and its
inputs kept for replay by `region_capture`; nothing else runs inside the script's calls. The state check and the
capture run on few calls only (capture.py), outside the call's clock, and those calls (and any call that encloses
observer work of a nested region) are marked `observer` so the steady state leaves them out. While the in-situ
interleaving runs (interleave.py), inputs are captured only on calls that are no steady step anyway (block 0: the
warm-up, a signature's first compiled call; a signature's first call, unless the signature changes every call): a
capture's copy in the steps the measurement rests on would drop them
(a server's signatures churning through the capture slots put one into half its steps). A region holds the
script's objects only while the script does (held.py): when the script drops what torch.compile returned to it, the
region is measured (`on_drop`: then, when that is a safe point (safe_point.py), else at the next one: the next
torch.compile, the next top-level region call, the script's end) and released; each torch.compile call also releases
what the script dropped of regions that cannot be told so (nn.Module.compile, lazy modules, reference cycles).
"""

from __future__ import annotations

import contextlib
import functools
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..compiler.failure import compile_failure
from ..compiler.user_code import innermost_user, location
from ..errors import _from_compiler
from ..measure.interleaved import CUDA_GRAPH_SETUP_CALLS
from ..shapes.common import SourceLocation
from ..shapes.in_situ import CompileFailure
from ..shapes.mode import CUDAGRAPH_MODES
from . import calls as region_calls
from . import capture as region_capture
from . import held as region_held
from . import shape_fix_apply
from .calls import (
    MAX_RECORDED_CALLS,
    CallClock,
    CallRecord,
    autocast,
    call_device,
    cuda_stream,
    describe,
    flatten,
    grad_mode,
)
from .safe_point import SafePoints
from .shape_fix_apply import ShapeFixPlan

if TYPE_CHECKING:
    from ..compiler.compiled_runs import CompiledRuns
    from ..compiler.torch_trace import CompileWatcher
    from .interleave import Interleaver
    from .window import ProfileWindow


class ScriptStopped(BaseException):
    """Raised into the script once `--calls N` is reached (BaseException: `except Exception` does not stop it)."""


@dataclass
class Region:
    id: str
    name: str
    kind: str  # module | function | module-compile
    location: SourceLocation | None
    options: dict[str, Any]  # the script's torch.compile arguments, as _options summarises them
    # compiled: torch's compiled callable the script's calls ran (called for replay, never recorded: the instance
    # `forward` torch set on an OptimizedModule, or torch's compiled function); eager: the original callable (the
    # module, the function, or the module's _call_impl); owner: what holds the region's state (the module, or the
    # function). Held only while the script holds them (held.py).
    held: region_held.Held
    compile_kwargs: dict[str, Any] = field(default_factory=dict)
    calls: list[CallRecord] = field(default_factory=list)
    call_count: int = 0
    compile_ids: list[str] = field(default_factory=list)
    signatures: Counter[str] = field(default_factory=Counter)
    first_call: dict[str, int] = field(default_factory=dict)
    last_call: dict[str, int] = field(default_factory=dict)
    replay: region_capture.ReplayInputs = field(default_factory=region_capture.ReplayInputs)
    stopped_after: int | None = None
    method: bool = False  # a function whose first parameter is `self` (@torch.compile on a method)
    device: str | None = None  # where its first call ran ("cpu", "cuda", ...)
    failure: CompileFailure | None = (
        None  # its first compiled call that failed, at the user's line (compiler/failure.py)
    )
    fix: ShapeFixPlan | None = None  # the shape fix this run applies to it (script/shape_fix.py)
    compiled_signatures: set[str] = field(default_factory=set)  # signatures a compiled-side call ran
    # a compiled-side call at a signature new to it ran compiled code without compiling: a dynamic graph serves new sizes
    serves_new_sizes: bool = False
    graph_setup: Counter[str] = field(default_factory=Counter)  # compiled-side calls per signature, under CUDA graphs
    stream: Any = None  # the CUDA stream its last call ran on (None: not CUDA), where the next call's observer marks in

    @property
    def compiled(self) -> Any:
        return self.held.get("compiled")

    @property
    def eager(self) -> Any:
        return self.held.get("eager")

    @property
    def owner(self) -> Any:
        return self.held.get("owner")

    @property
    def last_signature(self) -> str | None:
        return max(self.last_call, key=lambda s: self.last_call[s]) if self.last_call else None


def _user_location() -> SourceLocation | None:
    """The innermost user frame of the current stack: the line that called torch.compile (or `.compile()`, or
    the `@torch.compile` decorator line)."""
    frames: list[SourceLocation] = []
    frame = sys._getframe(1)
    while frame is not None:
        frames.append(location(frame.f_code.co_filename, frame.f_lineno, frame.f_code.co_name))
        frame = frame.f_back  # type: ignore[assignment]
    return innermost_user(frames[::-1])


def function_name(fn: Any) -> str:
    """A compiled function's region name; a module's bound __call__ (transformers' generate() compiles
    `model.__call__` for a static cache, which is Module._wrapped_call_impl) is named by the module's class."""
    owner = getattr(fn, "__self__", None)
    if (
        getattr(fn, "__name__", "") in ("_wrapped_call_impl", "__call__")
        and owner is not None
        and hasattr(owner, "forward")
    ):
        return f"{type(owner).__name__}.__call__"
    return str(getattr(fn, "__qualname__", None) or getattr(fn, "__name__", None) or type(fn).__name__)


def _is_method(fn: Any) -> bool:
    import inspect

    try:
        first = next(iter(inspect.signature(fn).parameters), None)
    except (TypeError, ValueError):
        return False
    return first == "self" and not inspect.ismethod(fn)


def _options(kwargs: dict[str, Any]) -> dict[str, Any]:
    backend = kwargs.get("backend") or "inductor"
    return {
        "mode": kwargs.get("mode") or "default",
        "backend": backend if isinstance(backend, str) else getattr(backend, "__name__", type(backend).__name__),
        "dynamic": kwargs.get("dynamic"),
        "fullgraph": bool(kwargs.get("fullgraph", False)),
    }


def _hide_from_dynamo() -> None:
    """Dynamo must never compile the observer's own frames: when an enclosing compiled region runs a region's
    call eagerly (after a graph break), its frame would otherwise be traced as if it were the script's code."""
    try:
        from torch._dynamo.trace_rules import add
    except ImportError:  # an older torch without it: such calls are rare (a region called eagerly inside another)
        return
    for name in (__name__, region_calls.__name__, region_capture.__name__, shape_fix_apply.__name__):
        add(name)


# A region is judged "changing" (a new signature almost every call) only after this many calls: before, each new
# signature runs compiled as written (a short script's replay needs the graphs the script compiled).
CHANGING_AFTER_CALLS = 10


def _changing(region: Region) -> bool:
    """Its signature changed nearly every call so far: more than half its calls had a signature of their own."""
    return region.call_count >= CHANGING_AFTER_CALLS and len(region.signatures) > region.call_count / 2


class _ThreadState(threading.local):
    def __init__(self) -> None:
        self.claimed: list[set[str]] = []  # per active region call: compile ids its nested region calls took
        self.observer_work = 0  # counts state checks, captures and releases: a call that saw it move was not plain


class RegionRecorder:
    """Patches torch.compile while the script runs and records every call of every region."""

    def __init__(
        self,
        watcher: CompileWatcher,
        runs: CompiledRuns,
        stop_after_calls: int | None = None,
        on_stop: Callable[[Region], None] | None = None,
        window: ProfileWindow | None = None,
        no_replay: str | None = None,
        on_drop: Callable[[Region], None] | None = None,
        interleaver: Interleaver | None = None,
        fixes: list[ShapeFixPlan] | None = None,
    ) -> None:
        """window: profiles a window of the script's own calls (torchrun ranks); no_replay: why no region may be
        replayed (then no inputs are kept); on_drop: measures a region whose handle the script dropped, at a safe
        point; the region is released after it; interleaver: switches the stance between blocks of the script's
        calls (in situ, interleaved: script/interleave.py); fixes: the shape fixes this run applies, each at its
        torch.compile line (a fix run: script/shape_fix.py)."""
        self.interleaver = interleaver
        self.fixes = {(f["file"], f["line"]): f for f in fixes or []}
        # a buckets fix per region it pads (by the region as the fix plan names it: the script's own run's id)
        self.buckets: dict[str, shape_fix_apply.Buckets] = {}
        self.watcher = watcher
        self.window = window
        self.no_replay = no_replay
        self.runs = runs
        self.regions: list[Region] = []
        self.recording = False
        self.stop_after_calls = stop_after_calls
        self.on_stop = on_stop
        self.stopped_by: Region | None = None
        self.original_compile: Callable[..., Any] | None = None
        self._thread = _ThreadState()
        self.budget = region_capture.CaptureBudget()
        self.on_drop = on_drop
        self.safe = SafePoints()
        self._dropped: list[Region] = []  # regions whose handle the script dropped, waiting for a safe point

    @contextlib.contextmanager
    def installed(self) -> Iterator[None]:
        import torch

        _hide_from_dynamo()
        self.original_compile = torch.compile
        undo_optimizers = region_capture.track_optimizers()
        torch.compile = self._compile
        self.recording = True
        self.safe.start()
        try:
            yield
        finally:
            self.recording = False
            if self.interleaver is not None:
                self.interleaver.end()
            self.safe.stop()
            torch.compile = self.original_compile
            undo_optimizers()

    @contextlib.contextmanager
    def paused(self) -> Iterator[None]:
        """Calls made by the runner itself (replays while the script is stopped) are not the script's calls."""
        was, self.recording = self.recording, False
        try:
            with self.interleaver.suspended() if self.interleaver is not None else contextlib.nullcontext():
                yield
        finally:
            self.recording = was

    # -- torch.compile, as the script sees it ---------------------------------------------------------------
    def _compile(self, model: Any = None, **kwargs: Any) -> Any:
        if model is None:  # @torch.compile(mode=...): the decorator is applied later
            return lambda fn: self._compile(fn, **kwargs)
        assert self.original_compile is not None
        where = _user_location()
        fix = self.fixes.get((where["file"], where["line"])) if where and self.fixes else None
        compiled = self.original_compile(model, **shape_fix_apply.compile_kwargs(fix, kwargs))
        if kwargs.get("disable") or not self.recording:
            return compiled
        import torch

        self.settle()
        self._release_dropped()
        region_id = f"r{len(self.regions)}"
        if isinstance(model, torch.nn.Module):
            original_forward = compiled.forward
            region = Region(
                region_id,
                type(model).__name__,
                "module",
                where,
                _options(kwargs),
                region_held.Held(compiled=original_forward, eager=model, owner=model),
                kwargs,
            )
            self._add(region)
            compiled.forward = self._observer(region, original_forward)
            if (
                getattr(original_forward, "__self__", None) is not compiled
            ):  # a lazy module's runs a method of the handle
                self._watch(region, compiled)
            return compiled
        owner = getattr(model, "__self__", None)
        if isinstance(owner, torch.nn.Module) and getattr(model, "__name__", "") == "_call_impl":
            region = Region(
                region_id,
                type(owner).__name__,
                "module-compile",
                where,
                _options(kwargs),
                region_held.Held(compiled=compiled, eager=model, owner=owner),
                kwargs,
            )
        else:
            region = Region(
                region_id,
                function_name(model),
                "function",
                where,
                _options(kwargs),
                region_held.Held(compiled=compiled, eager=model, owner=model),
                kwargs,
                method=_is_method(model),
            )
        self._add(region)
        handle = functools.wraps(compiled)(self._observer(region, compiled))
        if (
            region.kind == "function"
        ):  # nn.Module.compile() keeps the handle in the module: it lives as long as the module
            self._watch(region, handle)
        return handle

    def _add(self, region: Region) -> None:
        if region.location is not None and self.fixes:
            region.fix = self.fixes.get((region.location["file"], region.location["line"]))
            if region.fix is not None and region.fix["kind"] == shape_fix_apply.BUCKETS:
                self.buckets.setdefault(region.fix["region"], shape_fix_apply.Buckets(region.fix))
        region.replay = region_capture.ReplayInputs(self.budget)
        region.replay.unsafe = self.no_replay
        self.regions.append(region)

    # -- what the script drops --------------------------------------------------------------------------------
    def _watch(self, region: Region, handle: Any) -> None:
        def dropped() -> None:
            self._dropped.append(region)
            self.settle()

        region.held.watch(handle, dropped)

    def settle(self) -> None:
        """At a safe point, measures (on_drop) and releases every region whose handle the script dropped; elsewhere
        they wait for the next one. Nothing it does reaches the script: a failure is the region's own."""
        if not self._dropped or not self.recording or not self.safe.now(bool(self._thread.claimed)):
            return
        self.safe.busy = True
        try:
            while self._dropped:
                region = self._dropped.pop(0)
                if region.held.released:  # measured already (--calls N) or freed at a release point
                    continue
                try:
                    if self.on_drop is not None:
                        with self.paused():
                            self.on_drop(region)
                except Exception as exc:  # a defect of the observer's own: said, never raised into the script's line
                    print(f"Compile Lens: measuring {region.id} ({region.name}) failed: {exc!r}", file=sys.stderr)
                region.replay.release()
                region.held.release()
        finally:
            self.safe.busy = False

    def _release_dropped(self) -> None:
        """A release point (held.py): the regions whose objects the script dropped let them go, with their inputs (a
        dropped region still waiting for a safe point too: the script's memory is not held past it)."""
        self._thread.observer_work += 1
        self.safe.busy = True
        try:
            freed = {id(h) for h in region_held.release_dropped([r.held for r in self.regions])}
        finally:
            self.safe.busy = False
        for region in self.regions:
            if id(region.held) in freed:
                region.replay.release()

    # -- one call -------------------------------------------------------------------------------------------
    def _observer(self, region: Region, call: Callable[..., Any]) -> Callable[..., Any]:
        def observed(*args: Any, **kwargs: Any) -> Any:
            if not self.recording:
                return call(*args, **kwargs)
            if self.stopped_by is not None:
                raise ScriptStopped()
            if region.fix is not None and region.call_count == 0:  # a fix run's warm-up at the real calls' shape
                args, kwargs = shape_fix_apply.warmed_inputs(region.fix, args, kwargs)
            shape_fix_apply.mark(region.fix, args, kwargs, region.method)
            return self._record(region, call, args, kwargs)

        return observed

    def _record(self, region: Region, call: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        entered = time.perf_counter()
        # on the stream its last call ran on (CallClock); past the recorded calls no step is read, so none is made
        entered_mark = region_calls.own_mark(region.stream) if region.call_count <= MAX_RECORDED_CALLS else None
        settled = bool(self._dropped)  # a replay ran before this call: its step is the runner's work too
        if settled:  # a top-level call is a safe point for a drop that came at an unsafe one
            self.settle()
        # a method's `self` is the state it runs on, not an input: it is checked as state and left out of the signature
        is_method = region.method and bool(args)
        owner = args[0] if is_method else region.owner
        leaves = flatten(args[1:] if is_method else args, kwargs)
        grad, amp = grad_mode(), autocast()
        signature = describe(leaves, grad, amp)
        index = region.call_count
        top_level = not self._thread.claimed
        side, block = None, None
        if self.interleaver is not None:  # a top-level call may switch the stance; a nested one is part of its caller
            side, block = (
                self.interleaver.before_call(
                    region, f"{region.id}: {signature}", _changing(region) or region.serves_new_sizes
                )
                if top_level
                else self.interleaver.current()
            )
        try:
            check = region.replay.check(owner, leaves, index)
            held = (
                region_capture.capture(signature, grad, amp, args, kwargs, owner, is_method)
                if region.replay.wants(signature)
                and (not block or not (region.signatures[signature] or _changing(region)))
                else None
            )
        except Exception as exc:  # the observer's own work never fails the script's call: the region is not replayed
            region.replay.give_up(exc)
            check, held = None, None
        # a buckets fix pads the compiled side's calls (never the eager side's: it stands for the script as written)
        buckets = self.buckets.get(region.fix["region"]) if region.fix is not None and side != "eager" else None
        cut, checked = None, False
        if buckets is not None:
            with self.paused():
                args, kwargs, cut, checked = buckets.prepare(region.eager, args, kwargs, region.method)
        observer = check is not None or held is not None or settled or checked
        if observer:
            self._thread.observer_work += 1
        device = call_device(leaves, owner)
        if region.device is None and device is not None:
            region.device = device.type
        profiled = self.interleaver is not None and self.interleaver.profiled  # a nested call: its caller's
        if self.window is not None:  # the window opens and steps only at the script's own (top-level) calls
            profiled = (self.window.before_call(region) if not self._thread.claimed else self.window.active) or profiled
        stream = cuda_stream(device)
        clock = CallClock(stream, entered_mark if stream is not None and stream == region.stream else None)
        region.stream = stream
        # a size's first calls under CUDA graphs warm up and record its graph: what the graphs' pools grow by is read
        # around them, once inside the clock and once after it, so that only this call's own step (never a steady
        # step: interleaved.split) holds the reads
        pool = (
            clock.stream is not None
            and side != "eager"
            and region.options.get("mode") in CUDAGRAPH_MODES
            and region.graph_setup[signature] < CUDA_GRAPH_SETUP_CALLS
        )
        started, before = len(self.watcher.started), self.runs.snapshot()
        work = self._thread.observer_work
        claimed: set[str] = set()
        self._thread.claimed.append(claimed)
        clock.start()
        own_before = (clock.t0 - entered) if clock.events is None else 0.0
        pool_before = region_calls.graph_pool_bytes(device) if pool else None
        try:
            out = call(*args, **kwargs)
            return out if cut is None else cut(out)
        except Exception as exc:
            if region.failure is None and (len(self.watcher.started) > started or _from_compiler(exc)):
                region.failure = {**compile_failure(exc, _user_location()), "index": index}
            raise
        finally:
            clock.stop()
            pool_after = region_calls.graph_pool_bytes(device) if pool_before is not None else None
            left = time.perf_counter()
            observer = observer or self._thread.observer_work != work  # a nested region's observer work ran inside
            counts = self.runs.snapshot() - before
            self._thread.claimed.pop()
            ids = [cid for cid in self.watcher.started[started:] if cid not in claimed]
            for outer in self._thread.claimed:
                outer.update(ids)
            region.call_count += 1
            region.compile_ids.extend(ids)
            region.signatures[signature] += 1
            region.first_call.setdefault(signature, index)
            region.last_call[signature] = index
            if top_level and self.interleaver is not None:
                self.interleaver.after_call(len(self.watcher.started) > started)
            # at the eager stance Dynamo runs the original code without a guard check: no compiled code ran
            ran = None if side == "eager" else counts.ran_compiled()
            if pool:
                region.graph_setup[signature] += 1
            if side != "eager":
                if signature not in region.compiled_signatures and not ids and ran is True:
                    region.serves_new_sizes = True
                region.compiled_signatures.add(signature)
            record = None
            if index < MAX_RECORDED_CALLS:
                record = CallRecord(
                    index,
                    signature,
                    grad,
                    clock,
                    ids,
                    ran,
                    profiled=profiled,
                    observer=observer,
                    side=side,
                    block=block,
                    compiles_at_start=started,
                    own_before_s=own_before,
                    graph_bytes=None if pool_after is None or pool_before is None else pool_after - pool_before,
                )
                region.calls.append(record)
            try:
                region.replay.after(check)
            except Exception as exc:
                region.replay.give_up(exc)
            region.replay.note(region.signatures, signature, ran)
            if held is not None:
                region.replay.keep(held)
            self._maybe_stop(region)
            if record is not None and clock.events is None:
                record.own_after_s = time.perf_counter() - left
            if record is not None:
                clock.handed_back()

    def _maybe_stop(self, region: Region) -> None:
        if self.stop_after_calls is None or self.stopped_by is not None or region.call_count < self.stop_after_calls:
            return
        self.stopped_by = region
        region.stopped_after = region.call_count
        if self.on_stop is not None:
            with self.paused():
                self.on_stop(region)
        raise ScriptStopped()
