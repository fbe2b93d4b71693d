"""A compile target (a built-in sample or the user's FILE:FN): eager timed and profiled alone, then each mode compiled,
warmed, measured against eager (measure/paired.py), checked for correctness and profiled (on CPU, a copy compiled for
the profile: see TargetRun.profiled_copy)."""

from __future__ import annotations

import os
from typing import Any

from .. import formats
from ..compiler import artifacts, explain
from ..compiler import torch_trace as tt
from ..compiler.insight import TIMED_PHASES, compiler_insight
from ..errors import classify
from ..measure import correctness, paired, speedups, timing
from ..measure.grad_mode import grad_context
from ..measure.profiling import (
    LAUNCH_BOUND_IDLE_PCT,
    PROFILED_STEPS,
    ProfileFacts,
    kernel_profiled,
    profile_steps,
    profiled_options,
)
from ..run import Run
from ..shapes.mode import CUDAGRAPH_MODES, Correctness, ModeResult
from .load import Variant, describe_inputs, load_function_target, load_sample


class TargetRun:
    """Measures one target in every mode the spec asks for, writing the run's report as it goes."""

    def __init__(self, run: Run) -> None:
        self.run = run
        self.spec = run.spec
        self.report = run.report
        self.device: str = run.device
        self.workdir = run.workdir

    def progress(self, phase: str, fraction: float, message: str) -> None:
        self.run.progress(phase, fraction, message)

    def checkpoint(self) -> None:
        self.run.checkpoint()

    # -- one side --------------------------------------------------------------------------------------------
    def side(self, variant: Variant, inputs: tuple[Any, ...], grad: str) -> paired.Side:
        def context() -> Any:
            variant.activate()
            return grad_context(grad)

        return paired.Side(lambda: variant.call(inputs), context)

    def warm(self, variant: Variant, inputs: tuple[Any, ...], grad: str) -> None:
        paired.warm(self.side(variant, inputs, grad), self.device, lambda: self.run.watcher.compiles)

    def first_call_seconds(self, variant: Variant, inputs: tuple[Any, ...], grad: str) -> float:
        return paired.first_call_seconds(self.side(variant, inputs, grad), self.device)

    # -- the run ---------------------------------------------------------------------------------------------
    def execute(self) -> None:
        t = self.spec["target"]
        self.progress("load", 0.03, "Loading the target")
        target = (
            load_sample(t["sample"], self.device) if "sample" in t else load_function_target(t["target"], self.device)
        )
        if self.spec["train"] and not target.train:
            target.train, target.grad_mode = True, "grad"
        self.target = target
        self.report["target"] = target.describe()
        self.warm_inputs = target.warmup_inputs or target.inputs
        self.warm_grad = target.warmup_grad_mode or target.grad_mode
        dynamic = {"true": True, "false": False}.get(self.spec["dynamic"], target.overrides.get("dynamic"))
        self.dynamic = dynamic
        self.backend = target.overrides.get("backend", self.spec["backend"])
        self.report["settings"].update(
            {
                "dynamic": dynamic,
                "backend": self.backend
                if isinstance(self.backend, str)
                else getattr(self.backend, "__name__", "custom"),
                "inputs": describe_inputs(target.inputs),
                "warmupInputs": describe_inputs(target.warmup_inputs),
                "gradMode": target.grad_mode,
                "warmupGradMode": self.warm_grad,
                "train": target.train,
                "compileAttr": target.compile_attr,
            }
        )
        self.run_eager()
        modes = self.spec["modes"]
        for index, mode in enumerate(modes):
            span = 0.85 / len(modes)
            self.report["modes"].append(self.run_mode(mode, 0.12 + index * span, span))
            self.checkpoint()
        speedups.adjust(self.report["modes"], self.report["eager"], on_cpu=self.device == "cpu")
        failed = [m for m in self.report["modes"] if m["status"] != "ok"]
        if failed and len(failed) == len(self.report["modes"]):
            first = failed[0]["error"]
            assert first is not None  # a failed mode says why
            self.report["error"] = {**first, "message": f"Every mode failed; {failed[0]['mode']}: {first['message']}"}

    def run_eager(self) -> None:
        target = self.target
        eager = Variant(target, None)
        tt.mark(None, "eager")
        self.progress("eager", 0.05, "Running eager (warmup)")
        try:
            self.first_call_seconds(eager, self.warm_inputs, self.warm_grad)
            self.warm(eager, self.warm_inputs, self.warm_grad)
            self.warm(eager, target.inputs, target.grad_mode)
            self.progress("eager", 0.08, "Timing eager")
            method = timing.method_text(self.device, self.run.cfg, paired=False)
            self.report["eager"]["timing"] = timing.measure_alone(
                paired.block(self.side(eager, target.inputs, target.grad_mode), self.device), self.run.cfg, method
            )
            self.progress("eager", 0.1, "Profiling eager")
            trace, facts = self.profile(eager, "eager")
            alone = self.report["eager"]
            alone["trace"], alone["kernelsPerStep"] = trace, facts.get("kernelsPerStep")
            alone["peakMemoryBytes"] = facts.get("peakMemoryBytes")
            if "gpuIdlePct" in facts:  # CUDA only
                alone["gpuIdlePct"] = facts["gpuIdlePct"]
            idle = alone.get("gpuIdlePct")
            if idle is not None:
                alone["launchBound"] = idle >= LAUNCH_BOUND_IDLE_PCT
        except Exception as exc:
            raise classify(exc, "running the model eagerly") from None
        self.checkpoint()

    def profile(self, variant: Variant, name: str) -> tuple[str, ProfileFacts]:
        """The profile's trace (relative to the report) and what it found."""
        path = os.path.join(self.workdir, f"{name}.trace.json")
        variant.activate()

        def step() -> None:
            with grad_context(self.target.grad_mode):
                variant.call(self.target.inputs)

        return os.path.basename(path), profile_steps(step, self.device, path, PROFILED_STEPS)

    def compile(self, mode: str) -> Any:
        import torch

        kwargs: dict[str, Any] = {"backend": self.backend, "dynamic": self.dynamic, "fullgraph": self.spec["fullgraph"]}
        if self.backend == "inductor" or mode != "default":
            kwargs["mode"] = mode
        return torch.compile(Variant(self.target, None).compile_target(), **kwargs)

    def profiled_copy(self, mode: str, compiled: Variant) -> Variant:
        """What the profile runs. On CPU with Inductor (measure/profiling.kernel_profiled) the timed code was compiled
        as the user's would be, without per-kernel recording, so the profile runs a copy compiled with it, by the calls
        that compiled the timed code (warmup inputs, then the timed ones): its compile ids are the timed code's, so
        its kernels' times land on the timed code's kernels. Its records are under their own marker, out of the
        mode's compiler insight. Elsewhere the profile runs the timed code itself."""
        if not kernel_profiled(self.device, self.backend):
            return compiled
        import torch

        torch._dynamo.reset()
        tt.mark(f"{mode}{tt.PROFILED_COPY}", "compile")
        copy = Variant(
            self.target,
            torch.compile(
                Variant(self.target, None).compile_target(),
                backend="inductor",
                dynamic=self.dynamic,
                fullgraph=self.spec["fullgraph"],
                options=profiled_options(mode, self.dynamic),
            ),
        )
        self.first_call_seconds(copy, self.warm_inputs, self.warm_grad)
        self.warm(copy, self.warm_inputs, self.warm_grad)
        self.warm(copy, self.target.inputs, self.target.grad_mode)
        return copy

    def trigger_text(self, record: tt.Record) -> str | None:
        dyn = f"dynamic={self.dynamic}"
        timed = describe_inputs(self.target.inputs)
        warm = describe_inputs(self.warm_inputs)
        if record.phase in TIMED_PHASES:
            region = "the timed region" if record.phase == "timed" else "the re-measured timed region"
            return (
                f"a call on {formats.inputs(f'{timed}; {self.target.grad_mode}')} in {region}, after a warmup on "
                f"{formats.inputs(f'{warm}; {self.warm_grad}')}; {dyn}"
            )
        if record.phase in ("compile", "warmup"):
            return f"a warmup call on {formats.inputs(f'{warm}; {self.warm_grad}')}; {dyn}"
        if record.phase == "rewarm":
            return f"re-warming with the timed inputs {timed}; {dyn}"
        return f"a call during {record.phase or 'setup'}; {dyn}" if record.phase else None

    def run_mode(self, mode: str, start: float, span: float) -> ModeResult:
        import torch

        entry: ModeResult = {
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
        }
        torch._dynamo.reset()
        target, eager = self.target, Variant(self.target, None)
        stage = "compiling"
        try:
            tt.mark(mode, "compile")
            self.progress("compile", start, f"Compiling mode {mode} (first call)")
            compiled = Variant(target, self.compile(mode))
            entry["compileSeconds"] = round(self.first_call_seconds(compiled, self.warm_inputs, self.warm_grad), 4)
            stage = "warming up"
            tt.mark(mode, "warmup")
            self.progress("warmup", start + span * 0.3, f"Warming up {mode}")
            self.warm(compiled, self.warm_inputs, self.warm_grad)
            stage = "timing"
            self.progress("timing", start + span * 0.4, f"Timing {mode} against eager")
            self.measure(mode, entry, eager, compiled)
            stage = "checking outputs"
            tt.mark(mode, "correctness")
            entry["correctness"] = self.check(eager, compiled)
            if not entry["correctness"]["ok"]:
                entry["error"] = {
                    "kind": "mismatch",
                    "message": f"Compiled outputs are less accurate than eager: {entry['correctness']['message']}",
                    "fix": "Check for ops with undefined order or randomness; try another mode or backend, or report it to PyTorch.",
                    "traceback": None,
                }
            stage = "profiling"
            self.progress("profile", start + span * 0.7, f"Profiling {mode}")
            profiled = self.profiled_copy(mode, compiled)
            tt.mark(mode, "profile")
            before = self.run.runs.snapshot()
            entry["trace"], facts = self.profile(profiled, mode)
            entry.update(facts)
            ran = self.run.runs.snapshot() - before
            if self.run.runs.available and ran.ran_compiled() is False and not entry.get("fallback"):
                paired.mark_fallback(entry, ran)  # the profiled calls ran eagerly: its trace and kernels too
        except Exception as exc:
            err = classify(exc, f"{stage} mode {mode}")
            if stage == "compiling" and err.kind == "user-code":
                err.kind = "compile"
            entry.update({"status": "error", "error": err.to_json()})
        finally:
            tt.mark(mode, "done")
            try:
                insight = entry["compiler"] = compiler_insight(
                    self.run.records(mode),
                    self.trigger_text,
                    self.device == "cuda" and mode in CUDAGRAPH_MODES,
                    on_cpu=self.device == "cpu",
                )
                insight["torchTraceLog"] = self.run.trace_log_relpath()
                artifacts.attach(
                    insight,
                    self.run.records(mode),
                    self.workdir,
                    mode,
                    entry["trace"],
                    PROFILED_STEPS,
                    on_cpu=self.device == "cpu",
                )
            except Exception as exc:  # insight is best effort; the measurement stands without it
                entry["compilerError"] = classify(exc, f"reading the compiler log of mode {mode}").to_json()
            if entry.get("fallback"):
                self.explain_fallback(entry)
            torch._dynamo.reset()
        return entry

    def measure(self, mode: str, entry: ModeResult, eager: Variant, compiled: Variant) -> None:
        target, run = self.target, self.run
        watch = paired.Watch(lambda: run.watcher.compiles, run.runs.snapshot, run.runs.available)

        def why_recompiled(phase: str, compiles: int) -> str:
            reasons = [
                str((r.payload_json() or [r.payload])[0])
                for r in run.records(mode)
                if r.phase == phase and r.artifact == "recompile_reasons"
            ]
            guards = [r.split("\n", 1)[0] for r in reasons]
            timed, warm = (
                f"{describe_inputs(target.inputs)} ({target.grad_mode})",
                f"{describe_inputs(self.warm_inputs)} ({self.warm_grad})",
            )
            cause = explain.timing_cause(timed, warm)
            cuda_graphs = self.device == "cuda" and mode in CUDAGRAPH_MODES
            explained = (
                explain.explain(
                    reasons[0].split("\n", 1)[0], reasons[0], None, cuda_graphs, on_cpu=self.device == "cpu"
                )
                if reasons
                else None
            )
            if explained:
                cause += f". {explain.voided_tail(guards[0], explained)}"
            return explain.recompiled_while_timing(compiles, guards, cause)

        def rewarm() -> None:
            tt.mark(mode, "rewarm")
            self.progress("timing", 0.0, f"{mode}: a recompile hit the timed region; re-warming and re-measuring")
            self.warm(compiled, target.inputs, target.grad_mode)

        paired.measure(
            self.side(eager, target.inputs, target.grad_mode),
            self.side(compiled, target.inputs, target.grad_mode),
            self.device,
            run.cfg,
            watch,
            entry,
            lambda phase: tt.mark(mode, phase, inputs=describe_inputs(target.inputs)),
            why_recompiled,
            rewarm,
        )

    def explain_fallback(self, entry: ModeResult) -> None:
        """Names why the timed compiled calls ran eagerly, from the mode's compiler log (read after the mode)."""
        fallback = entry["fallback"]
        fallback.update(
            explain.fallback_cause(entry.get("compiler"), entry.get("ranCompiled"), fallback["eagerFrames"])
        )
        entries = (
            f" ({fallback['eagerFrames']} of {fallback['frameEntries']} entries into compiled frames)"
            if fallback["frameEntries"]
            else ""
        )
        timed = entry["timing"]
        assert timed is not None  # a fallback is found in timed calls
        timed["invalidReason"] = (
            f"Dynamo ran the compiled calls eagerly{entries}, so what was timed as compiled "
            f"is eager code: {fallback['cause']}."
        )

    def check(self, eager: Variant, compiled: Variant) -> Correctness:
        import torch

        grad = "no_grad" if self.target.train else self.target.grad_mode

        def output(variant: Variant) -> Any:
            variant.activate()
            correctness.seed_everything()
            with grad_context(grad):
                out = variant.forward(self.target.inputs)
            return torch.utils._pytree.tree_map(lambda v: v.detach().clone() if isinstance(v, torch.Tensor) else v, out)

        eager_out, compiled_out = output(eager), output(compiled)
        eager.activate()  # the reference runs the uncompiled model
        return correctness.judge(self.target.model, self.target.inputs, grad, eager_out, compiled_out, self.device)
