"""The worker process: imports torch, loads the target, times/profiles eager and each mode, checkpoints report.json.

It runs under the supervisor (supervisor.py) with TORCH_TRACE pointing into the report directory; the supervisor
enforces the timeout and cancellation and finishes the report if this process is stopped.
"""
from __future__ import annotations

import dataclasses
import json
import os
import signal
from typing import Any, Callable

from . import advice, compiled_runs, compiler_artifacts, correctness, explain, report, run_speedups, timing
from . import torch_trace as tt
from .errors import RunnerError, classify
from .insight import TIMED_PHASES, compiler_insight
from .profiling import LAUNCH_BOUND_IDLE_PCT, profile_steps
from .progress import channel
from .targets import Target, Variant, grad_context, load_function_target, load_sample

MIN_TORCH = (2, 4)
PROFILED_STEPS = 3
CUDAGRAPH_MODES = ("reduce-overhead", "max-autotune")


def _version_tuple(version: str) -> tuple[int, int]:
    parts = version.split("+")[0].split(".")
    try:
        return int(parts[0]), int(parts[1])
    except (IndexError, ValueError):
        return (0, 0)


def import_torch() -> Any:
    try:
        import torch
    except ImportError as exc:
        raise RunnerError("torch-missing", f"PyTorch is not importable from this Python: {exc}",
                          "Install it into the interpreter Compile Lens uses: pip install torch (or set compileLens.pythonPath).") from None
    version = str(getattr(torch, "__version__", "0.0"))
    if _version_tuple(version) < MIN_TORCH:
        raise RunnerError("torch-too-old", f"PyTorch {version} is too old: torch.compile profiling needs 2.4 or newer.",
                          "Upgrade: pip install -U 'torch>=2.4'")
    return torch


def describe_inputs(inputs: tuple | None) -> str:
    import torch

    def one(value: Any) -> str:
        if isinstance(value, torch.Tensor):
            return f"{str(value.dtype).removeprefix('torch.')}{list(value.shape)}"
        if hasattr(value, "shape") and hasattr(value, "dtype"):
            return f"ndarray {value.dtype}{list(value.shape)}"
        return type(value).__name__
    return ", ".join(one(v) for v in inputs or ())


class Run:
    def __init__(self, spec: dict[str, Any]) -> None:
        self.spec = spec
        self.workdir: str = spec["workdir"]
        self.report_path = os.path.join(self.workdir, "report.json")
        self.trace_dir = os.path.join(self.workdir, "torch_trace")
        self.cfg = timing.TimingConfig.for_run(spec["quick"], spec.get("rounds"))
        self.report: dict[str, Any] = report.skeleton(self._target_stub(), self._settings(), report.environment("cpu", None))

    def _target_stub(self) -> dict[str, Any]:
        t = self.spec["target"]
        if "sample" in t:
            return {"kind": "sample", "name": t["sample"], "file": None, "function": None, "line": None}
        if "script" in t:
            path = os.path.abspath(t["script"])
            return {"kind": "script", "name": os.path.splitext(os.path.basename(path))[0], "file": path, "function": None, "line": None}
        return {"kind": "function", "name": t["target"], "file": None, "function": None, "line": None}

    def _settings(self) -> dict[str, Any]:
        s = self.spec
        return {"modes": s["modes"], "dynamic": s["dynamic"], "fullgraph": s["fullgraph"], "backend": s["backend"],
                "device": s["device"], "quick": s["quick"], "rounds": self.cfg.rounds, "minRoundMs": self.cfg.min_round_ms,
                "train": s["train"], "timeoutSeconds": s.get("timeout"), "profiledSteps": PROFILED_STEPS}

    def checkpoint(self) -> None:
        self.report["status"] = report.overall_status(self.report)
        report.write(self.report_path, self.report)

    def progress(self, phase: str, fraction: float, message: str) -> None:
        channel.progress(phase, fraction, message)

    # -- setup ---------------------------------------------------------------------------------------------
    def setup(self) -> None:
        self.progress("import", 0.01, "Importing torch")
        torch = import_torch()
        device = self.spec["device"]
        if device == "auto":
            device = "cuda" if torch.cuda.is_available() else "cpu"
        elif device == "cuda" and not torch.cuda.is_available():
            raise RunnerError("bad-target", "--device cuda was requested but torch.cuda.is_available() is False.",
                              "Use --device cpu (or auto), or install a CUDA build of PyTorch.")
        self.device = device
        self.cfg = dataclasses.replace(self.cfg, host=timing.HostSpeed(cpus=timing.movable_cpus(device)))
        self.report["environment"] = report.environment(device, torch.__version__)
        self.report["settings"]["device"] = device
        if device == "cuda":
            from torch.utils._triton import has_triton

            if not has_triton():
                raise RunnerError("triton-missing", "Cannot find a working triton installation: torch.compile on CUDA needs Triton.",
                                  "pip install triton (the version matching your PyTorch build)")
        else:
            torch._inductor.config.cpp.enable_kernel_profile = True  # names each C++ kernel in the profiler trace
        self.watcher = tt.install_watcher()
        self.runs = compiled_runs.install(self.watcher)
        self.log = tt.LogFollower(self.trace_dir)
        tt.mark(None, "start")

    def sync(self) -> None:
        if self.device == "cuda":
            import torch

            torch.cuda.synchronize()

    # -- helpers -------------------------------------------------------------------------------------------
    def block(self, variant: Variant, inputs: tuple, grad: str) -> timing.Block:
        clock = timing.make_clock(self.device)

        def calls(k: int) -> None:
            for _ in range(k):
                variant.call(inputs)

        def run(n: int, warm: int) -> float:
            variant.activate()
            with grad_context(grad):
                return clock(calls, n, warm)
        return run

    def warm(self, variant: Variant, inputs: tuple, grad: str) -> None:
        variant.activate()
        with grad_context(grad):
            timing.warm_until_stable(lambda: variant.call(inputs), self.sync, lambda: self.watcher.compiles)

    def first_call_seconds(self, variant: Variant, inputs: tuple, grad: str) -> float:
        variant.activate()
        with grad_context(grad):
            return timing.first_call_seconds(lambda: variant.call(inputs), self.sync)

    def records(self, mode: str | None) -> list[tt.Record]:
        return [r for r in self.log.read() if r.mode == mode]

    # -- target run ----------------------------------------------------------------------------------------
    def execute_target(self) -> None:
        t = self.spec["target"]
        self.progress("load", 0.03, "Loading the target")
        target = load_sample(t["sample"], self.device) if "sample" in t else load_function_target(t["target"], self.device)
        if self.spec["train"] and not target.train:
            target.train, target.grad_mode = True, "grad"
        self.target = target
        self.report["target"] = target.describe()
        self.warm_inputs = target.warmup_inputs or target.inputs
        self.warm_grad = target.warmup_grad_mode or target.grad_mode
        dynamic = {"true": True, "false": False}.get(self.spec["dynamic"], target.overrides.get("dynamic"))
        self.dynamic = dynamic
        self.backend = target.overrides.get("backend", self.spec["backend"])
        self.report["settings"].update({
            "dynamic": dynamic, "backend": self.backend if isinstance(self.backend, str) else getattr(self.backend, "__name__", "custom"),
            "inputs": describe_inputs(target.inputs), "warmupInputs": describe_inputs(target.warmup_inputs),
            "gradMode": target.grad_mode, "warmupGradMode": self.warm_grad, "train": target.train,
            "compileAttr": target.compile_attr})
        self.run_eager()
        modes = self.spec["modes"]
        for index, mode in enumerate(modes):
            span = 0.85 / len(modes)
            self.report["modes"].append(self.run_mode(mode, 0.12 + index * span, span))
            self.checkpoint()
        run_speedups.adjust(self.report)
        self.report["recommendation"] = advice.recommend(self.report["modes"])
        failed = [m for m in self.report["modes"] if m["status"] != "ok"]
        if failed and len(failed) == len(self.report["modes"]):
            first = failed[0]["error"]
            self.report["error"] = dict(first, message=f"Every mode failed; {failed[0]['mode']}: {first['message']}")

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
            method = timing.method_text(self.device, self.cfg, paired=False)
            self.report["eager"]["timing"] = timing.measure_alone(self.block(eager, target.inputs, target.grad_mode), self.cfg, method)
            self.progress("eager", 0.1, "Profiling eager")
            self.report["eager"].update(self.profile(eager, "eager"))
            idle = self.report["eager"].get("gpuIdlePct")
            if idle is not None:
                self.report["eager"]["launchBound"] = idle >= LAUNCH_BOUND_IDLE_PCT
        except Exception as exc:
            raise classify(exc, "running the model eagerly") from None
        self.checkpoint()

    def profile(self, variant: Variant, name: str) -> dict[str, Any]:
        path = os.path.join(self.workdir, f"{name}.trace.json")
        variant.activate()

        def step() -> None:
            with grad_context(self.target.grad_mode):
                variant.call(self.target.inputs)
        facts = profile_steps(step, self.device, path, PROFILED_STEPS)
        return {"trace": os.path.basename(path), **facts}

    def compile(self, mode: str) -> Any:
        import torch

        kwargs: dict[str, Any] = {"backend": self.backend, "dynamic": self.dynamic, "fullgraph": self.spec["fullgraph"]}
        if self.backend == "inductor" or mode != "default":
            kwargs["mode"] = mode
        return torch.compile(Variant(self.target, None).compile_target(), **kwargs)

    def trigger_text(self, record: tt.Record) -> str | None:
        dyn = f"dynamic={self.dynamic}"
        timed = describe_inputs(self.target.inputs)
        warm = describe_inputs(self.warm_inputs)
        if record.phase in TIMED_PHASES:
            region = "the timed region" if record.phase == "timed" else "the re-measured timed region"
            return f"a call with {timed} ({self.target.grad_mode}) in {region}, after warmup with {warm} ({self.warm_grad}); {dyn}"
        if record.phase in ("compile", "warmup"):
            return f"a warmup call with {warm} ({self.warm_grad}); {dyn}"
        if record.phase == "rewarm":
            return f"re-warming with the timed inputs {timed}; {dyn}"
        return f"a call during {record.phase or 'setup'}; {dyn}" if record.phase else None

    def run_mode(self, mode: str, start: float, span: float) -> dict[str, Any]:
        import torch

        entry: dict[str, Any] = {"mode": mode, "status": "ok", "error": None, "compileSeconds": None, "timing": None,
                                 "speedup": None, "breakEvenCalls": None, "trace": None, "kernelsPerStep": None,
                                 "compiler": None, "peakMemoryBytes": None}
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
            stage = "profiling"
            tt.mark(mode, "profile")
            self.progress("profile", start + span * 0.7, f"Profiling {mode}")
            before = self.runs.snapshot()
            facts = self.profile(compiled, mode)
            entry.update(facts)
            profiled = self.runs.snapshot() - before
            if self.runs.available and profiled.ran_compiled() is False and not entry.get("fallback"):
                self.mark_fallback(entry, profiled)  # the profiled calls ran eagerly: its trace and kernels too
            stage = "checking outputs"
            tt.mark(mode, "correctness")
            entry["correctness"] = self.check(eager, compiled)
            if not entry["correctness"]["ok"]:
                entry["error"] = {"kind": "mismatch", "message": f"Compiled outputs are less accurate than eager: {entry['correctness']['message']}",
                                  "fix": "Check for ops with undefined order or randomness; try another mode or backend, or report it to PyTorch.",
                                  "traceback": None}
        except Exception as exc:
            err = classify(exc, f"{stage} mode {mode}")
            if stage == "compiling" and err.kind == "user-code":
                err.kind = "compile"
            entry.update(status="error", error=err.to_json())
        finally:
            tt.mark(mode, "done")
            try:
                entry["compiler"] = compiler_insight(self.records(mode), self.trigger_text, self.device == "cuda" and mode in CUDAGRAPH_MODES)
                entry["compiler"]["torchTraceLog"] = self.trace_log_relpath()
                compiler_artifacts.attach(entry["compiler"], self.records(mode), self.workdir, mode, entry["trace"], PROFILED_STEPS)
            except Exception as exc:  # insight is best effort; the measurement stands without it
                entry["compilerError"] = classify(exc, f"reading the compiler log of mode {mode}").to_json()
            if entry.get("fallback"):
                self.explain_fallback(entry)
            torch._dynamo.reset()
        return entry

    def trace_log_relpath(self) -> str | None:
        path = self.log.path()
        return os.path.relpath(path, self.workdir) if path else None

    def measure(self, mode: str, entry: dict[str, Any], eager: Variant, compiled: Variant) -> None:
        target = self.target
        method = timing.method_text(self.device, self.cfg, paired=True)
        discarded = []
        for attempt, phase in enumerate(("timed", "retimed")):
            tt.mark(mode, phase, inputs=describe_inputs(target.inputs))
            before, runs_before = self.watcher.compiles, self.runs.snapshot()
            paired = timing.measure_paired(self.block(eager, target.inputs, target.grad_mode),
                                           self.block(compiled, target.inputs, target.grad_mode), self.cfg, method)
            counts = self.runs.snapshot() - runs_before
            compiles = self.watcher.compiles - before
            entry.update(timing.paired_fields(paired))
            if compiles == 0:
                break
            reasons = [str((r.payload_json() or [r.payload])[0]) for r in self.records(mode)
                       if r.phase == phase and r.artifact == "recompile_reasons"]
            why = "; ".join(r.split("\n", 1)[0] for r in reasons)
            timed, warm = f"{describe_inputs(target.inputs)} ({target.grad_mode})", f"{describe_inputs(self.warm_inputs)} ({self.warm_grad})"
            cause = (f"the timed calls ({timed}) did not match warmup ({warm})" if timed != warm
                     else "a timed call took a path warmup had not compiled")
            explained = explain.explain(reasons[0].split("\n", 1)[0], reasons[0]) if reasons else None
            if explained:
                cause += f". {explained['what']} {explained['fix']}"
            reason = f"{compiles} compile(s) ran inside the timed region" + (f" (guard failure: {why})" if why else "") + f": {cause}"
            reason = reason if reason.endswith(".") else reason + "."
            entry["timing"] = dict(paired.compiled, valid=False, invalidReason=reason)
            if attempt == 0:  # a second invalid measurement stays as the mode's timing, marked invalid
                discarded.append(dict(entry["timing"], speedup=round(paired.speedup, 4)))
                tt.mark(mode, "rewarm")
                self.progress("timing", 0.0, f"{mode}: a recompile hit the timed region; re-warming and re-measuring")
                self.warm(compiled, target.inputs, target.grad_mode)
        if discarded:
            entry["discardedTimings"] = discarded
        entry["ranCompiled"] = counts.ran_compiled() if self.runs.available else None
        if self.runs.available and entry["ranCompiled"] is not True:
            self.mark_fallback(entry, counts)
            return
        compiled_ms, eager_ms = entry["timing"]["estimateMs"], entry["eagerTiming"]["estimateMs"]
        entry["breakEvenCalls"] = advice.break_even_calls(entry["compileSeconds"], eager_ms, compiled_ms)

    @staticmethod
    def mark_fallback(entry: dict[str, Any], counts: compiled_runs.RunCounts) -> None:
        """Eager code timed as "compiled" is no measurement of compiled code: the timing becomes invalid and the
        speedup null (explain_fallback adds the cause once the mode's compiler log is read)."""
        entry["ranCompiled"] = counts.ran_compiled()
        entry["fallback"] = {"eagerFrames": counts.eager_frames, "frameEntries": counts.hits + counts.misses, "cause": None, "fix": None}
        entry["timing"] = dict(entry["timing"], valid=False, invalidReason="Dynamo ran the compiled calls eagerly.")
        entry["speedup"] = entry["breakEvenCalls"] = None
        for key in ("speedupInterval", "speedupMedianRatio"):
            entry.pop(key, None)

    def explain_fallback(self, entry: dict[str, Any]) -> None:
        """Names why the timed compiled calls ran eagerly, from the mode's compiler log (read after the mode)."""
        fallback = entry["fallback"]
        fallback.update(explain.fallback_cause(entry.get("compiler"), entry.get("ranCompiled"), fallback["eagerFrames"]))
        entries = (f" ({fallback['eagerFrames']} of {fallback['frameEntries']} entries into compiled frames)"
                   if fallback["frameEntries"] else "")
        entry["timing"]["invalidReason"] = (f"Dynamo ran the compiled calls eagerly{entries}, so what was timed as compiled "
                                            f"is eager code: {fallback['cause']}.")

    def check(self, eager: Variant, compiled: Variant) -> dict[str, Any]:
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


def main(spec_path: str) -> int:
    channel.claim_stdout()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the supervisor decides what a Ctrl-C means
    with open(spec_path, encoding="utf-8") as f:
        spec = json.load(f)
    run = Run(spec)
    try:
        run.setup()
        if "script" in spec["target"]:
            from .script_mode import run_script

            run_script(run, spec["target"]["script"], spec["target"].get("args", []))
        else:
            run.execute_target()
    except RunnerError as err:
        report.fail(run.report, err.to_json())
    except Exception as exc:
        report.fail(run.report, classify(exc, "running the target").to_json())
    run.checkpoint()
    if run.report.get("error"):
        run.report["status"] = "error"
        report.write(run.report_path, run.report)
    channel.progress("done", 1.0, f"Finished: {run.report['status']}")
    return 1 if run.report["status"] == "error" else 0
