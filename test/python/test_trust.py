"""Numbers a user can bet on, planted on CPU end to end: eager code timed as "compiled" is caught with its cause,
wrong numbers are told from floating-point noise against a higher-precision reference, and guard failures are
explained in the user's terms."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from conftest import Run, marker_line, run_runner

TARGETS = textwrap.dedent('''
    import torch
    from torch import nn


    class Counter(nn.Module):
        def __init__(self):
            super().__init__()
            self.calls = 0
            self.linear = nn.Linear(64, 64)

        def forward(self, x):
            self.calls += 1  # counter site
            return torch.relu(self.linear(x))


    def counter():
        return Counter().eval(), (torch.randn(8, 64),)


    class Offset(nn.Module):
        """Sums around a large offset: fp32 rounding in eager moves the result by whole units."""
        def forward(self, x):
            return (x + 1e4).sum(-1) - 1e4 * x.shape[-1]


    def perturb_one_op(gm, example_inputs):
        """A broken backend: scales the output of the graph's first op by 1.01."""
        for node in gm.graph.nodes:
            if node.op == "call_function":
                with gm.graph.inserting_after(node):
                    bumped = gm.graph.call_function(torch.mul, (node, 1.01))
                node.replace_all_uses_with(bumped, delete_user_cb=lambda user: user is not bumped)
                break
        gm.recompile()
        return gm


    def wider_accumulation(gm, example_inputs):
        """A sound backend that accumulates in float64: far from eager's fp32 rounding, closer to the exact result."""
        def run(*args):
            out = gm(*[a.double() if a.is_floating_point() else a for a in args])
            return [o.float() for o in out] if isinstance(out, (list, tuple)) else out.float()
        return run


    def perturbed():
        return {"model": Offset(), "inputs": (torch.randn(16, 4096),), "backend": perturb_one_op}


    def benign():
        return {"model": Offset(), "inputs": (torch.randn(16, 4096),), "backend": wider_accumulation}


    def failing_backend(gm, example_inputs):
        raise RuntimeError("this backend cannot compile anything")


    def suppressed():
        torch._dynamo.config.suppress_errors = True  # Dynamo falls back to eager instead of raising
        return {"model": nn.Sequential(nn.Linear(64, 64), nn.ReLU()).eval(), "inputs": (torch.randn(8, 64),),
                "backend": failing_backend}


    def grad_mode_mismatch():
        model = nn.Sequential(nn.Linear(64, 64), nn.ReLU()).eval()
        return {"model": model, "inputs": (torch.randn(8, 64),), "warmup_grad_mode": "no_grad", "grad_mode": "inference"}
''')


@pytest.fixture(scope="module")
def targets(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("trust") / "trust_targets.py"
    path.write_text(TARGETS)
    return path


def run_target(targets: Path, fn: str, outdir: Path, *extra: str) -> Run:
    out = str(outdir / f"trust-{fn}")
    run = run_runner("--target", f"{targets}:{fn}", "--quick", "--device", "cpu", "--out", out, *extra)
    assert run.code == 0, run.stderr[-3000:]
    return run


def test_counter_model_fell_back_to_eager_and_says_why(targets: Path, outdir: Path) -> None:
    run = run_target(targets, "counter", outdir, "--backend", "eager")  # the recompiles and the fallback are Dynamo's
    [mode] = run.report["modes"]
    assert mode["ranCompiled"] is False and mode["speedup"] is None and "speedupInterval" not in mode
    assert mode["timing"]["valid"] is False and mode["breakEvenCalls"] is None
    cause = mode["fallback"]["cause"]
    assert cause == "forward hit the recompile limit (8) after recompiling on every call: guard self.calls == N"
    assert (
        cause in mode["timing"]["invalidReason"]
        and "what was timed as compiled is eager code" in mode["timing"]["invalidReason"]
    )
    assert "allow_unspec_int_on_nn_module" in mode["fallback"]["fix"]
    recommendation = run.report["recommendation"]
    assert recommendation["verdict"] == "none" and recommendation["mode"] is None
    assert (
        "allow_unspec_int_on_nn_module" in recommendation["reason"]
        and "don't compile" not in recommendation["reason"].lower()
    )
    # eight recompiles at one line are one site with a count, PyTorch's hint and an explanation
    [site] = mode["compiler"]["recompileSites"]
    assert site["count"] == 8 and len(mode["compiler"]["recompiles"]) == 8
    assert site["pattern"].startswith("self.calls == N") and len(site["values"]) == 8
    assert site["location"]["line"] == marker_line(targets, "# counter site")
    assert "integer attributes of the nn.Module" in site["hint"]
    assert site["explanation"]["what"].startswith(
        "The integer attribute self.calls of the module changes between calls"
    )


def test_perturbed_op_is_a_mismatch_against_the_fp64_reference(targets: Path, outdir: Path) -> None:
    run = run_target(targets, "perturbed", outdir)
    [mode] = run.report["modes"]
    correctness = mode["correctness"]
    assert correctness["ok"] is False and correctness["reference"] == "fp64"
    assert correctness["compiledRmse"] > 100 * correctness["eagerRmse"]
    assert (
        mode["error"]["kind"] == "mismatch" and "further from the fp64 reference than eager" in mode["error"]["message"]
    )
    assert run.report["recommendation"]["verdict"] == "stay-eager"


def test_benign_difference_from_eager_is_not_a_mismatch(targets: Path, outdir: Path) -> None:
    run = run_target(targets, "benign", outdir)
    [mode] = run.report["modes"]
    correctness = mode["correctness"]
    # the old rule flagged this: far beyond atol + rtol*|eager| of eager ...
    assert correctness["maxAbsError"] > 10 * (correctness["atol"] + correctness["rtol"] * 1e2)
    # ... but eager is the one far from the exact result
    assert correctness["ok"] is True and correctness["reference"] == "fp64" and mode["error"] is None
    assert correctness["compiledRmse"] < correctness["eagerRmse"]
    assert set(correctness["precision"]) == {"cudaMatmulAllowTf32", "cudnnAllowTf32", "float32MatmulPrecision"}


def test_suppressed_compile_error_is_no_measurement(targets: Path, outdir: Path) -> None:
    run = run_target(targets, "suppressed", outdir)
    [mode] = run.report["modes"]
    assert mode["ranCompiled"] is None and mode["speedup"] is None and mode["timing"]["valid"] is False
    assert "could not compile" in mode["fallback"]["cause"] and "cannot compile anything" in mode["fallback"]["cause"]
    assert "suppress_errors = False" in mode["fallback"]["fix"]
    assert run.report["recommendation"]["verdict"] == "none"


def test_grad_mode_mismatch_between_warmup_and_timed_calls_is_explained(targets: Path, outdir: Path) -> None:
    run = run_target(targets, "grad_mode_mismatch", outdir, "--backend", "eager")  # the recompile is Dynamo's
    [mode] = run.report["modes"]
    [site] = mode["compiler"]["recompileSites"]
    assert "dispatch key set mismatch" in site["reason"] and site["inTimedRegion"]
    assert "differ in grad mode" in site["explanation"]["what"] and "inference_mode" in site["explanation"]["what"]
    assert site["explanation"]["fix"].startswith("warm up under the same grad mode you serve with")
    [discarded] = mode["discardedTimings"]
    assert "Fix: warm up under the same grad mode you serve with" in discarded["invalidReason"]
    assert mode["ranCompiled"] is True and mode["timing"]["valid"] is True  # re-measured after re-warming


def test_reference_falls_back_to_eager_with_tf32_off_and_says_why() -> None:
    """A model that fixes its own dtype cannot give an fp64 reference: eager with TF32 off is used, and the report
    says why; a plain function that runs in fp64 gives one without a module copy."""
    import torch
    from compile_lens_runner.measure.correctness import judge

    class FixedDtype(torch.nn.Module):
        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return (x.float() + 1e4).sum(-1) - 1e4 * x.shape[-1]

    x = torch.randn(4, 4096)
    eager = FixedDtype()(x)
    verdict = judge(FixedDtype(), (x,), "inference", eager, eager + 1.0, "cpu")
    assert verdict["reference"] == "eager-tf32-off" and "lower-precision outputs" in verdict["referenceNote"]
    assert verdict["ok"] is False  # on CPU that reference is eager itself: any real difference is compiled's
    function = judge(lambda t: t * 3, (x,), "no_grad", x * 3, x * 3 + 1e-3, "cpu")
    assert function["reference"] == "fp64" and function["ok"] is False
    ids = torch.randint(0, 100, (2, 8))
    embed = torch.nn.Embedding(100, 16)
    out = embed(ids)
    assert judge(embed, (ids,), "inference", out, out + 1e-2, "cpu")["reference"] == "fp64"  # integer ids stay integers
