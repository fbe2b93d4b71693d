"""Measures a region on the inputs the script really gave it: eager (the original callable) against compiled (torch's
compiled callable that the script's calls ran, and what-if modes compiled afresh), with the paired-rounds engine of
targets: when the script drops the region (between its lines, its random state kept: rng_kept), or after it ends.

Signatures measured: the most frequent one, and the last one when it differs. Only regions that were called at
least MIN_CALLS times, ran compiled code and passed region_capture's state checks are replayed; the others say why.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .. import formats
from ..compiler import torch_trace as tt
from ..compiler.insight import compiler_insight
from ..errors import classify
from ..measure import correctness, paired, timing
from ..measure.profiling import ProfileFacts, kernel_profiled, profile_steps, profiled_options
from ..shapes.mode import CUDAGRAPH_MODES, Correctness, RegionMeasurement
from .capture import Capture
from .held import FREED

if TYPE_CHECKING:
    from .regions import Region

MIN_CALLS = 3
AS_WRITTEN = "as-written"
_WARM_MAX = 20  # calls at most while warming a replay
# What-if modes recompile the script's own code objects; Dynamo's per-code limit must not turn them eager.
_REPLAY_RECOMPILE_LIMIT = 64


@dataclass
class ReplayContext:
    cfg: timing.TimingConfig
    workdir: str
    profiled_steps: int
    watch: paired.Watch  # compiles and compiled-frame counts
    records: Callable[[str], list[tt.Record]]  # structured-log records under a marker mode
    progress: Callable[[str], None]
    compile: Callable[..., Any]  # torch's own torch.compile (not the script-mode observer), isolated where it can be
    compiles: bool = True  # may compile code of its own (what-if modes, the profile's copy): not mid-script unisolated


def isolating(compile: Callable[..., Any]) -> Callable[..., Any] | None:
    """torch.compile with isolate_recompiles=True (torch 2.13): a replay's own compiles (what-if modes, the profile's
    copy) then keep their cache entries apart and never count against the script's recompile limit, which matters
    when the script goes on after one of its regions was measured; None on a torch without it."""
    import functools
    import inspect

    try:
        parameters = inspect.signature(compile).parameters
    except (TypeError, ValueError):
        return None
    return functools.partial(compile, isolate_recompiles=True) if "isolate_recompiles" in parameters else None


def left_out_unisolated(region: Region, what_if: list[str]) -> str | None:
    """What measuring the region mid-script leaves out on a torch without isolate_recompiles, and why: its own
    compiles (what-if modes, the profile's copy) would add to the script's recompile limit. None: nothing."""
    parts = [f"the what-if mode{'s' if len(what_if) > 1 else ''} {', '.join(what_if)}"] if what_if else []
    if kernel_profiled(_device(region), region.options["backend"]):
        parts.append("per-kernel names in its CPU profile (a copy compiled to record them)")
    if not parts:
        return None
    return (
        f"measured when the script let go of it, on a torch without torch.compile(isolate_recompiles=...) (2.13+): "
        f"{' and '.join(parts)} would have compiled into the script's own recompile limit, so they were left out"
    )


def chosen_signatures(region: Region) -> list[tuple[str, str]]:
    """(signature, why): the most frequent signature, then the last one when it differs. Among equally frequent ones
    (a script whose every call had its own size), one the script's calls ran compiled code at; the last one unless its
    calls all ran eagerly: a signature past the recompile limit runs eagerly, and its replay would time eager code on
    both sides."""
    if not region.signatures:
        return []
    replay = region.replay
    frequent = max(
        region.signatures,
        key=lambda s: (region.signatures[s], s in replay.ran_compiled, s in replay.captures, region.last_call[s]),
    )
    last = region.last_signature
    eager_only = last in replay.ran_eagerly and last not in replay.ran_compiled
    return [(frequent, "most-frequent")] + ([(last, "last")] if last and last != frequent and not eager_only else [])


def not_measured_reason(region: Region, fallback: str | None) -> str | None:
    """Why this region is not measured, in words; None when it can be."""
    if region.call_count < MIN_CALLS:
        times = "once" if region.call_count == 1 else f"{region.call_count} times"
        return (
            f"called {times}: at least {MIN_CALLS} calls are needed to measure it (the first compiles)"
            if region.call_count
            else "no call of its own (a call from inside another compiled region is compiled into that region)"
        )
    if region.replay.unsafe:
        return region.replay.unsafe
    if fallback:
        return f"every call ran eagerly ({fallback}): there is no compiled code to measure"
    if region.held.released:
        return FREED
    missing = [s for s, _ in chosen_signatures(region) if s not in region.replay.captures]
    if missing:
        return region.replay.missing(missing[0])
    gone = next((why for s, _ in chosen_signatures(region) if (why := region.replay.captures[s].gone())), None)
    return gone


def _measures(capture: Capture) -> str:
    """What a replay times, in words: a training region's replay is its forward alone."""
    if capture.grad_mode == "grad":
        return "replay: the region's forward on captured inputs, autograd recording (no backward, no optimizer step)"
    return f"replay: the region's calls on captured inputs ({capture.grad_mode})"


def _device(region: Region) -> str:
    return "cuda" if region.device == "cuda" else "cpu"


def _side(fn: Any, capture: Capture) -> paired.Side:
    args, kwargs = capture.arguments()
    return paired.Side(lambda: fn(*args, **kwargs), capture.context)


def _call(fn: Any, capture: Capture) -> Any:
    side = _side(fn, capture)
    with side.context():
        return side.call()


def check_outputs(eager: Any, compiled: Any, capture: Capture, device: str) -> Correctness:
    """Compiled against eager outputs on the captured inputs, judged against a higher-precision run of the original
    callable when they differ (correctness.judge); keyword inputs are bound to it."""
    import functools

    import torch

    def output(fn: Any) -> Any:
        correctness.seed_everything()
        out = _call(fn, capture)
        return torch.utils._pytree.tree_map(lambda v: v.detach().clone() if isinstance(v, torch.Tensor) else v, out)

    args, kwargs = capture.arguments()
    original = functools.partial(eager, **kwargs) if kwargs else eager
    return correctness.judge(original, args, capture.grad_mode, output(eager), output(compiled), device)


@contextlib.contextmanager
def rng_kept() -> Iterator[None]:
    """The script's random state (Python's, NumPy's, torch's on the CPU and every initialised GPU) as it was before:
    a replay between the script's lines seeds (check_outputs) and draws (dropout)."""
    import random

    import numpy as np
    import torch

    saved = random.getstate(), np.random.get_state()
    devices = (
        list(range(torch.cuda.device_count())) if torch.cuda.is_initialized() else []
    )  # CUDA is never started here
    try:
        with torch.random.fork_rng(devices=devices):
            yield
    finally:
        random.setstate(saved[0])
        np.random.set_state(saved[1])


@contextlib.contextmanager
def _replay_limits() -> Iterator[None]:
    import torch

    limit = max(int(torch._dynamo.config.cache_size_limit), _REPLAY_RECOMPILE_LIMIT)
    with torch._dynamo.config.patch(cache_size_limit=limit):
        yield


class RegionReplay:
    """Measures one region: every chosen signature as written, then each what-if mode."""

    def __init__(self, ctx: ReplayContext, region: Region, compile_seconds: float | None) -> None:
        self.ctx = ctx
        self.region = region
        self.compile_seconds = compile_seconds
        self.eager_profiles: dict[str, tuple[str, ProfileFacts]] = {}  # by signature: its trace, what it found

    def measure(self, what_if: list[str]) -> list[RegionMeasurement]:
        out = []
        with _replay_limits():
            for index, (signature, why) in enumerate(chosen_signatures(self.region)):
                capture = self.region.replay.captures[signature]
                tag = "" if index == 0 else "last-"
                out.append(self._one(AS_WRITTEN, self.region.compiled, capture, why, tag))
                out.extend(self._one(mode, None, capture, why, tag) for mode in what_if)
        return out

    def _one(self, mode: str, compiled: Any, capture: Capture, why: str, tag: str) -> RegionMeasurement:
        region, ctx = self.region, self.ctx
        marker = f"{region.id}:{mode}"
        entry: RegionMeasurement = {
            "mode": mode,
            "status": "ok",
            "error": None,
            "compileSeconds": None,
            "timing": None,
            "speedup": None,
            "breakEvenCalls": None,
            "trace": None,
            "kernelsPerStep": None,
            "compiler": None,
            "peakMemoryBytes": None,
            "signature": capture.signature,
            "why": why,
            "measures": _measures(capture),
        }
        device = _device(region)
        stage = "compiling" if compiled is None else "warming up"
        ctx.progress(f"Measuring {region.id} ({region.name}) {mode} on {capture.signature}")
        try:
            tt.mark(marker, "compile" if compiled is None else "warmup")
            if compiled is None:
                compiled = self._compile_fresh(mode)
                entry["compileSeconds"] = round(self._first_call_seconds(compiled, capture, device), 4)
            else:
                entry["compileSeconds"] = self.compile_seconds
            self._warm(compiled, capture, device)
            stage = "timing"
            self._time(entry, region.eager, compiled, capture, device, marker)
            stage = "profiling"
            tt.mark(marker, "profile")
            self._profiles(entry, mode, tag, compiled, capture, device)
            stage = "checking outputs"
            tt.mark(marker, "correctness")
            entry["correctness"] = check_outputs(region.eager, compiled, capture, device)
            if not entry["correctness"]["ok"]:
                entry["error"] = {
                    "kind": "mismatch",
                    "message": f"Compiled outputs differ from eager: {entry['correctness']['message']}",
                    "fix": "Check for ops with undefined order or randomness; compile with backend='aot_eager' to see whether Inductor is the cause.",
                    "traceback": None,
                }
        except _RanEagerly as exc:
            entry.update(
                {
                    "status": "error",
                    "error": {
                        "kind": "compile",
                        "message": str(exc),
                        "traceback": None,
                        "fix": RAN_EAGERLY_FIX,
                    },
                }
            )
        except Exception as exc:
            err = classify(exc, f"{stage} {region.name} ({mode}) on the script's inputs")
            if stage == "compiling" and err.kind == "user-code":
                err.kind = "compile"
            if err.kind == "compile":  # no "other modes": only the modes this run measured exist for the user
                err.fix = (
                    "Compile without fullgraph=True, or with backend='aot_eager' to see whether Inductor is the cause; "
                    "report the traceback to PyTorch if it is."
                )
            entry.update({"status": "error", "error": err.to_json(), "speedup": None})
        finally:
            tt.mark(marker, "done")
        if mode != AS_WRITTEN:
            entry["compiler"] = compiler_insight(
                ctx.records(marker),
                lambda r: f"a replay with {capture.signature}",
                device == "cuda" and mode in CUDAGRAPH_MODES,
                on_cpu=device == "cpu",
            )
        return entry

    def _compile_fresh(self, mode: str) -> Any:
        opts = {k: v for k, v in self.region.compile_kwargs.items() if k in ("dynamic", "fullgraph")}
        return self.ctx.compile(self.region.eager, mode=mode, **opts)

    def _first_call_seconds(self, fn: Any, capture: Capture, device: str) -> float:
        return paired.first_call_seconds(_side(fn, capture), device)

    def _warm(self, fn: Any, capture: Capture, device: str) -> None:
        paired.warm(_side(fn, capture), device, self.ctx.watch.compiles, max_calls=_WARM_MAX)

    def _time(
        self, entry: RegionMeasurement, eager: Any, compiled: Any, capture: Capture, device: str, marker: str
    ) -> None:
        def why_recompiled(_phase: str, compiles: int) -> str:
            return (
                f"{formats.plural(compiles, 'compile')} ran inside the timed region: a replayed call took a path warmup "
                "had not compiled."
            )

        paired.measure(
            _side(eager, capture),
            _side(compiled, capture),
            device,
            self.ctx.cfg,
            self.ctx.watch,
            entry,
            lambda phase: tt.mark(marker, phase, inputs=capture.signature),
            why_recompiled,
            lambda: self._warm(compiled, capture, device),
        )
        if entry.get("fallback"):
            raise _RanEagerly(entry["fallback"]["eagerFrames"])

    def _profiles(
        self, entry: RegionMeasurement, mode: str, tag: str, compiled: Any, capture: Capture, device: str
    ) -> None:
        """Profiles the compiled side (and eager, once per signature) into `entry`."""
        region, ctx = self.region, self.ctx
        os.makedirs(os.path.join(ctx.workdir, "regions"), exist_ok=True)

        def profile(fn: Any, name: str) -> tuple[str, ProfileFacts]:
            rel = os.path.join("regions", f"{region.id}-{tag}{name}.trace.json")
            return rel, profile_steps(
                lambda: _call(fn, capture), device, os.path.join(ctx.workdir, rel), ctx.profiled_steps
            )

        if capture.signature not in self.eager_profiles:
            self.eager_profiles[capture.signature] = profile(region.eager, "eager")
        eager_trace, eager = self.eager_profiles[capture.signature]
        trace, facts = profile(self._profiled_copy(mode, compiled, capture, device), mode)
        entry["trace"] = trace
        entry.update(facts)
        entry.update(
            {
                "eagerTrace": eager_trace,
                "eagerKernelsPerStep": eager.get("kernelsPerStep"),
                "eagerGpuIdlePct": eager.get("gpuIdlePct"),
            }
        )

    def _profiled_copy(self, mode: str, compiled: Any, capture: Capture, device: str) -> Any:
        """What the profile runs: on CPU with Inductor (measure/profiling.kernel_profiled) a copy compiled for the
        profile, so that the timed code stays as the script compiled it; its compile is under its own log marker."""
        options = self.region.options
        if not self.ctx.compiles or not kernel_profiled(device, options["backend"]):
            return compiled
        own = options["mode"] if mode == AS_WRITTEN else mode
        tt.mark(f"{self.region.id}:{mode}{tt.PROFILED_COPY}", "compile")
        try:
            copy = self.ctx.compile(
                self.region.eager,
                backend="inductor",
                dynamic=options["dynamic"],
                fullgraph=options["fullgraph"],
                options={
                    **(self.region.compile_kwargs.get("options") or {}),
                    **profiled_options(own, options["dynamic"]),
                },
            )
            self._warm(copy, capture, device)
        finally:
            tt.mark(f"{self.region.id}:{mode}", "profile")
        return copy


# a replay whose compiled side ran no compiled code: why, and what to do (the region's story names the script's calls
# that ran eagerly and why; past the recompile limit, the shape fix)
RAN_EAGERLY_FIX = (
    "The region's story says which of the script's calls ran eagerly and why; past the recompile limit, mark the "
    "dimension that changes dynamic (torch._dynamo.mark_dynamic) or raise torch._dynamo.config.recompile_limit."
)


def ran_eagerly(frames: int) -> str:
    """ "no compiled code ran in the replay: torch.compile ran the region's code uncompiled, 916 times, so both sides
    timed the same eager code": said after "Measuring default failed: " in the region's sentence."""
    return (
        "no compiled code ran in the replay: torch.compile ran the region's code uncompiled, "
        f"{formats.plural(frames, 'time')}, so both sides timed the same eager code"
    )


class _RanEagerly(Exception):
    def __init__(self, frames: int) -> None:
        super().__init__(ran_eagerly(frames))
