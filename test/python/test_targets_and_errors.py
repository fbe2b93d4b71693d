"""User targets and every way a run can go wrong: each ends in a schema-valid report, a structured error and the
documented exit code, with stdout holding nothing but protocol lines."""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

import pytest
from conftest import Run, marker_line, run_runner

TARGETS = textwrap.dedent('''
    import os
    import torch
    from torch import nn

    print("import-time print")  # stdout noise that must not reach the protocol stream


    class Noisy(nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = nn.Linear(16, 16)

        def forward(self, x):
            print("forward print")
            os.write(1, b"raw fd write\\n")
            return torch.relu(self.lin(x))


    def noisy():
        print("builder print")
        return Noisy(), (torch.randn(4, 16),)


    def perturb_backend(gm, example_inputs):
        def run(*args):
            out = gm(*args)
            return [o + 0.5 for o in out] if isinstance(out, (list, tuple)) else out + 0.5
        return run


    def wrong_numbers():
        return {"model": lambda x: torch.tanh(x) * 2, "inputs": (torch.randn(8, 8),), "backend": perturb_backend}


    def plain_function():
        # an ATen matmul: Inductor compiles it (the mode's compile is what can fail) without building a C++ kernel
        return (lambda x, y: x @ y), (torch.randn(64, 64), torch.randn(64, 64))


    def numpy_function():
        import numpy as np

        def fn(a, b):
            return np.sum(np.sin(a) * np.cos(b), axis=1)
        return fn, (np.random.rand(64, 64), np.random.rand(64, 64))


    class Pipe:
        """A larger object whose submodule is compiled in place (seed 000's pipe.transformer)."""
        def __init__(self):
            self.transformer = nn.Sequential(nn.Linear(16, 32), nn.GELU(), nn.Linear(32, 16))

        def __call__(self, x):
            return self.transformer(x).sum(dim=-1)


    def pipe_with_warmup():
        return {"model": Pipe(), "compile_attr": "transformer", "inputs": (torch.randn(4, 16),),
                "warmup_inputs": (torch.randn(4, 16),), "grad_mode": "no_grad", "warmup_grad_mode": "inference"}


    def train_step():
        return {"model": nn.Sequential(nn.Linear(16, 16), nn.ReLU(), nn.Linear(16, 1)), "inputs": (torch.randn(8, 16),),
                "train": True}


    def raises():
        model = nn.Linear(4, 4)
        return model, (torch.randn(2, 5),)  # shape error when called: user code raising


    def runs_out_of_memory():
        def allocate(x):
            # what torch raises when an allocation fails; a real multi-GB allocation would endanger the test machine
            raise torch.OutOfMemoryError("CUDA out of memory. Tried to allocate 80.00 GiB")
        return allocate, (torch.randn(2),)


    def hangs():
        import time

        def slow(x):
            time.sleep(600)
            return x
        return slow, (torch.randn(2),)


    def not_a_target():
        return 42


    def killed():
        import signal
        os.kill(os.getpid(), signal.SIGKILL)  # what the kernel's OOM killer does
''')


@pytest.fixture(scope="module")
def targets(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("user") / "user_targets.py"
    path.write_text(TARGETS)
    return path


def target(targets: Path, fn: str, outdir: Path, *extra: str) -> Run:
    return run_runner("--target", f"{targets}:{fn}", "--quick", "--device", "cpu", "--out", str(outdir / fn), *extra)


def test_user_prints_never_reach_stdout(targets: Path, outdir: Path) -> None:
    # conftest fails on any non-protocol stdout line; Dynamo's eager backend: no Inductor compile is needed for that
    run = target(targets, "noisy", outdir, "--backend", "eager")
    assert run.code == 0 and run.report["status"] == "ok"
    assert "forward print" in run.stderr and "raw fd write" in run.stderr and "import-time print" in run.stderr
    assert run.report["target"] == {
        "kind": "function",
        "name": "user_targets-noisy",
        "file": str(targets),
        "function": "noisy",
        "line": marker_line(targets, "def noisy():"),
    }


def test_numeric_mismatch_is_a_finding(targets: Path, outdir: Path) -> None:
    run = target(targets, "wrong_numbers", outdir)
    assert run.code == 0
    [mode] = run.report["modes"]
    assert mode["status"] == "ok" and mode["error"]["kind"] == "mismatch"
    assert mode["correctness"]["ok"] is False and mode["correctness"]["maxAbsError"] == pytest.approx(0.5, abs=1e-5)
    assert run.report["recommendation"]["mode"] is None and "wrong results" in run.report["recommendation"]["reason"]


@pytest.fixture(scope="module")
def one_mode_failed(targets: Path, outdir: Path) -> Run:
    return target(targets, "plain_function", outdir, "--modes", "no-such-mode,default")


def test_failing_mode_is_isolated(one_mode_failed: Run) -> None:
    run = one_mode_failed
    assert run.code == 0 and run.report["status"] == "partial"
    bad, good = run.report["modes"]
    assert bad["status"] == "error" and bad["error"]["kind"] == "compile" and "no-such-mode" in bad["error"]["message"]
    assert bad["error"]["traceback"] and bad["timing"] is None
    assert good["status"] == "ok" and good["speedup"] > 0 and good["correctness"]["ok"]


def test_numpy_function_compiles(targets: Path, outdir: Path) -> None:
    # Dynamo's tracing of numpy (float64 kept, one graph); the eager backend runs that graph without C++ kernels
    run = target(targets, "numpy_function", outdir, "--backend", "eager")
    assert run.code == 0, run.stderr[-2000:]
    [mode] = run.report["modes"]
    assert mode["status"] == "ok" and mode["correctness"]["ok"] and mode["correctness"]["dtype"] == "float64"
    assert (
        mode["compiler"]["graphCount"] == 1
        and run.report["settings"]["inputs"] == "ndarray float64[64, 64], ndarray float64[64, 64]"
    )


def test_submodule_compiled_in_place_with_different_warmup(targets: Path, outdir: Path) -> None:
    run = target(targets, "pipe_with_warmup", outdir, "--backend", "eager")  # the recompile is Dynamo's
    assert run.code == 0, run.stderr[-2000:]
    [mode] = run.report["modes"]
    settings = run.report["settings"]
    assert settings["compileAttr"] == "transformer" and settings["warmupGradMode"] == "inference"
    assert mode["status"] == "ok" and mode["correctness"]["ok"]
    # warmup ran under inference_mode, the timed calls under no_grad: a recompile the runner must catch
    assert mode["discardedTimings"] and mode["discardedTimings"][0]["valid"] is False
    assert any(r["inTimedRegion"] for r in mode["compiler"]["recompiles"])


def test_training_step_is_timed(targets: Path, outdir: Path) -> None:
    # the training step's forward, backward and optimizer timed; AOT autograd's backward graph, no C++ kernels (the
    # training loop of test_in_situ.py compiles them with Inductor)
    run = target(targets, "train_step", outdir, "--backend", "aot_eager")
    assert run.code == 0, run.stderr[-2000:]
    [mode] = run.report["modes"]
    assert run.report["settings"]["train"] is True and run.report["settings"]["gradMode"] == "grad"
    assert mode["status"] == "ok" and mode["speedup"] > 0
    assert mode["compiler"]["graphCount"] >= 1


@pytest.mark.parametrize(
    "fn, kind",
    [
        ("raises", "user-code"),
        ("not_a_target", "bad-target"),
        ("missing_fn", "bad-target"),
        ("runs_out_of_memory", "out-of-memory"),
    ],
)
def test_structured_errors(targets: Path, outdir: Path, fn: str, kind: str) -> None:
    run = target(targets, fn, outdir)
    assert run.code == 1 and run.report["status"] == "error"
    error = run.report["error"]
    assert error["kind"] == kind and error["message"] and error["fix"]
    if kind == "user-code":
        assert "mat1 and mat2" in error["message"] and "Traceback" in error["traceback"]


def test_target_module_that_fails_to_import(tmp_path: Path, outdir: Path) -> None:
    broken = tmp_path / "broken_model.py"
    broken.write_text("import torch\nimport package_that_is_not_installed\n\ndef build():\n    return None\n")
    run = run_runner("--target", f"{broken}:build", "--quick", "--device", "cpu", "--out", str(outdir / "broken"))
    assert run.code == 1 and run.report["status"] == "error"
    error = run.report["error"]
    assert "package_that_is_not_installed" in error["message"] and "Traceback" in error["traceback"]
    assert "-m pip install package_that_is_not_installed" in error["fix"]


def test_missing_target_file(outdir: Path) -> None:
    run = run_runner("--target", "/nonexistent/model.py:build", "--quick", "--out", str(outdir / "missing"))
    assert (
        run.code == 1
        and run.report["error"]["kind"] == "bad-target"
        and "/nonexistent/model.py" in run.report["error"]["message"]
    )


@pytest.mark.parametrize(
    "init, kind",
    [
        ("__version__ = '2.3.1'\n", "torch-too-old"),
        ("raise ModuleNotFoundError(\"No module named 'torch'\", name='torch')\n", "torch-missing"),
    ],
)
def test_torch_missing_or_too_old(tmp_path: Path, outdir: Path, init: str, kind: str) -> None:
    fake = tmp_path / "fake"
    (fake / "torch").mkdir(parents=True)
    (fake / "torch" / "__init__.py").write_text(init)
    run = run_runner("--sample", "mlp", "--quick", "--out", str(outdir / kind), extra_path=str(fake))
    assert run.code == 1 and run.report["error"]["kind"] == kind and "pip install" in run.report["error"]["fix"]
    assert run.report["environment"]["torch"] is None


def test_timeout_is_enforced(targets: Path, outdir: Path) -> None:
    run = target(targets, "hangs", outdir, "--timeout", "10")
    assert run.code == 1 and run.report["error"]["kind"] == "timeout" and "10 s" in run.report["error"]["message"]


def test_worker_killed_by_a_signal(targets: Path, outdir: Path) -> None:
    run = target(targets, "killed", outdir)
    assert run.code == 1 and run.report["status"] == "error"
    assert run.report["error"]["kind"] == "out-of-memory" and "SIGKILL" in run.report["error"]["message"]


def test_usage_error_exits_2(outdir: Path) -> None:
    run = run_runner("--sample", "nope", "--out", str(outdir / "usage"))
    assert run.code == 2 and run.report is None


@pytest.mark.parametrize("flags", [["--backend", "inductor"], ["--dynamic", "auto"], ["--fullgraph"], ["--train"]])
def test_options_that_do_not_apply_to_a_script_are_refused_by_name(flags: list[str], tmp_path: Path) -> None:
    script = tmp_path / "train.py"
    script.write_text("print('ran')\n")
    run = run_runner("--script", str(script), *flags, "--out", str(tmp_path / "out"))
    assert run.code == 2 and run.report is None and not (tmp_path / "out").exists()
    assert f"{flags[0]} does not apply to --script" in run.stderr


def test_failed_run_never_overwrites_a_report(targets: Path, one_mode_failed: Run, tmp_path: Path) -> None:
    out = tmp_path / "report-dir"
    shutil.copytree(one_mode_failed.report_dir, out)  # a report folder the runner wrote
    before = (out / "report.json").read_text()
    failed = run_runner("--target", f"{targets}:raises", "--quick", "--out", str(out))
    assert failed.code == 1 and failed.report_dir != out and failed.report_dir.name.startswith("report-dir-failed-")
    assert (out / "report.json").read_text() == before
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no temp dirs left behind
