"""One worker run's context, shared by target mode and script mode: the spec, the report being written, the device,
the run's timing configuration and the compiler watchers (structured log, compiled-frame counts)."""

from __future__ import annotations

import dataclasses
import os
import time
from typing import Any

from .compiler import compiled_runs, perf_hints
from .compiler import torch_trace as tt
from .errors import RunnerError
from .measure import host, timing
from .measure.profiling import PROFILED_STEPS
from .progress import channel
from .report import document
from .shapes.report import Report, Target

MIN_TORCH = (2, 4)


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
        raise RunnerError(
            "torch-missing",
            f"PyTorch is not importable from this Python: {exc}",
            "Install it into the interpreter Compile Lens uses: pip install torch (or set compileLens.pythonPath).",
        ) from None
    version = str(getattr(torch, "__version__", "0.0"))
    if _version_tuple(version) < MIN_TORCH:
        raise RunnerError(
            "torch-too-old",
            f"PyTorch {version} is too old: torch.compile profiling needs 2.4 or newer.",
            "Upgrade: pip install -U 'torch>=2.4'",
        )
    return torch


class Run:
    """What every part of one worker run reads and writes: its spec, report, device and compiler watchers."""

    def __init__(self, spec: dict[str, Any]) -> None:
        self.spec = spec
        self.started = time.monotonic()  # before torch's import: a plain run of a script pays it too
        self.workdir: str = spec["workdir"]
        self.report_path = os.path.join(self.workdir, "report.json")
        self.trace_dir = os.path.join(self.workdir, "torch_trace")
        self.cfg = timing.TimingConfig.for_run(spec["quick"], spec.get("rounds"))
        self.report: Report = document.skeleton(
            self._target_stub(), self._settings(), document.environment("cpu", None)
        )

    def _target_stub(self) -> Target:
        t = self.spec["target"]
        if "sample" in t:
            return {"kind": "sample", "name": t["sample"], "file": None, "function": None, "line": None}
        if "script" in t:
            path = os.path.abspath(t["script"])
            return {
                "kind": "script",
                "name": os.path.splitext(os.path.basename(path))[0],
                "file": path,
                "function": None,
                "line": None,
            }
        return {"kind": "function", "name": t["target"], "file": None, "function": None, "line": None}

    def _settings(self) -> dict[str, Any]:
        s = self.spec
        return {
            "modes": s["modes"],
            "dynamic": s["dynamic"],
            "fullgraph": s["fullgraph"],
            "backend": s["backend"],
            "device": s["device"],
            "quick": s["quick"],
            "rounds": self.cfg.rounds,
            "minRoundMs": self.cfg.min_round_ms,
            "train": s["train"],
            "timeoutSeconds": s.get("timeout"),
            "profiledSteps": PROFILED_STEPS,
        }

    def checkpoint(self) -> None:
        self.report["status"] = document.overall_status(self.report)
        document.write(self.report_path, self.report)

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
            raise RunnerError(
                "bad-target",
                "--device cuda was requested but torch.cuda.is_available() is False.",
                "Use --device cpu (or auto), or install a CUDA build of PyTorch.",
            )
        self.device = device
        self.cfg = dataclasses.replace(
            self.cfg, host=host.HostSpeed(cpus=host.movable_cpus(device), watch_load=device == "cpu")
        )
        self.report["environment"] = document.environment(device, torch.__version__)
        self.report["settings"]["device"] = device
        if device == "cuda":
            from torch.utils._triton import has_triton

            if not has_triton():
                raise RunnerError(
                    "triton-missing",
                    "Cannot find a working triton installation: torch.compile on CUDA needs Triton.",
                    "pip install triton (the version matching your PyTorch build)",
                )
        self.watcher = tt.install_watcher()
        perf_hints.install()  # PyTorch's performance hints into the log, the user's console unchanged
        self.runs = compiled_runs.install(self.watcher)
        self.log = tt.LogFollower(self.trace_dir)
        tt.mark(None, "start")

    def sync(self) -> None:
        if self.device == "cuda":
            import torch

            torch.cuda.synchronize()

    def records(self, mode: str | None) -> list[tt.Record]:
        return [r for r in self.log.read() if r.mode == mode]

    def trace_log_relpath(self) -> str | None:
        path = self.log.path()
        return os.path.relpath(path, self.workdir) if path else None
