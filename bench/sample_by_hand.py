"""Times a built-in sample eager against torch.compile by hand, without the runner: rounds of back-to-back calls,
eager and compiled alternated, the fastest round of each side (host noise only adds time).

    python3 bench/sample_by_hand.py [SAMPLE] [--threads N] [--alternations A] [--gelu]

SAMPLE: a name in target/samples (default: the default sample). --gelu: gatedblock with F.gelu for its squared ReLU.
Only for docs/BENCHMARKS.md ("The default sample"): it times this host, it asserts nothing.
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "native-runner"))

import torch
import torch.nn.functional as F
from compile_lens_runner.target.samples import DEFAULT


def gelu_forward(self: Any, x: torch.Tensor) -> torch.Tensor:
    h = self.norm(x) * (1 + self.scale) + self.shift
    gate = F.hardsigmoid(h * self.gate_weight + self.gate_bias)
    return x + self.layer_scale * F.gelu(h) * gate


def main() -> None:
    args = argparse.ArgumentParser()
    args.add_argument("sample", nargs="?", default=DEFAULT)
    args.add_argument("--threads", type=int, default=torch.get_num_threads())
    args.add_argument("--alternations", type=int, default=60)
    args.add_argument("--gelu", action="store_true")
    opts = args.parse_args()
    torch.set_num_threads(opts.threads)
    module = importlib.import_module(f"compile_lens_runner.target.samples.{opts.sample}")
    if opts.gelu:
        module.GatedResidualBlock.forward = gelu_forward
    built = module.build("cpu")
    model, inputs = built["model"], built["inputs"]
    compiled = torch.compile(model)

    def round_ms(fn: Any, calls: int) -> float:
        start = time.perf_counter()
        for _ in range(calls):
            fn(*inputs)
        return (time.perf_counter() - start) / calls * 1e3

    with torch.inference_mode():
        for _ in range(3):
            model(*inputs), compiled(*inputs)
        calls = max(1, int(2.0 / min(round_ms(model, 1) for _ in range(20))))  # a round of about 2 ms of eager
        eager, fused = [], []
        for _ in range(opts.alternations):
            eager.append(round_ms(model, calls))
            fused.append(round_ms(compiled, calls))
    print(
        f"{opts.sample}{' (gelu)' if opts.gelu else ''}, {opts.threads} threads, {opts.alternations} alternations of "
        f"{calls} calls: eager fastest {min(eager):.3f} ms (median {statistics.median(eager):.3f}), compiled fastest "
        f"{min(fused):.3f} ms (median {statistics.median(fused):.3f}): {min(eager) / min(fused):.2f}×"
    )


if __name__ == "__main__":
    main()
