"""What Inductor's per-kernel profiling (`torch._inductor.config.cpp.enable_kernel_profile`: each C++ kernel names
itself in a profiler trace) costs a compiled call when no profiler is running. The runner compiles the timed code
without it and profiles a copy compiled with it (measure/profiling.kernel_profiled); this bench is why. Each model is
compiled twice, with it on and off, and the two are timed in interleaved rounds (the fastest round of each side; the
median of per-round ratios); a one-kernel function gives the cost of one kernel call in nanoseconds.

    python3 bench/kernel_profile_cost.py                 # one kernel, an MLP, a launch-bound chain, a transformer block

Prints per model: ms per call with it off and on, and on/off as a ratio of fastest rounds and median per-round ratio.
"""

from __future__ import annotations

import argparse
import copy
import statistics
import time
from collections.abc import Callable
from typing import Any

import torch


def models() -> dict[str, tuple[torch.nn.Module, torch.Tensor]]:
    small_ops = torch.nn.Sequential(
        *[torch.nn.Sequential(torch.nn.Linear(16, 16), torch.nn.ReLU(), torch.nn.LayerNorm(16)) for _ in range(24)]
    )
    block = torch.nn.TransformerEncoderLayer(256, 4, 1024, batch_first=True)
    mlp = torch.nn.Sequential(torch.nn.Linear(512, 2048), torch.nn.GELU(), torch.nn.Linear(2048, 512))
    return {
        "mlp B64": (mlp, torch.randn(64, 512)),
        "small ops B4 (launch-bound)": (small_ops, torch.randn(4, 16)),
        "transformer layer B8x64": (block, torch.randn(8, 64, 256)),
    }


def compiled(model: torch.nn.Module, x: torch.Tensor, profile: bool) -> Callable[..., Any]:
    """A copy of the model compiled (at its first call) with kernel profiling on or off; no cache shared."""
    with torch._inductor.config.patch({"cpp.enable_kernel_profile": profile, "fx_graph_cache": False}):
        fn = torch.compile(copy.deepcopy(model))
        fn(x)
    return fn


def per_call_ms(fn: Callable[..., Any], x: torch.Tensor, calls: int) -> float:
    started = time.perf_counter()
    for _ in range(calls):
        fn(x)
    return (time.perf_counter() - started) * 1000.0 / calls


def one_kernel_ns(rounds: int) -> tuple[float, float]:
    """ns per call of a one-kernel function compiled with kernel profiling off and on (fastest rounds)."""
    x = torch.zeros(1)
    fns = []
    for profile in (False, True):
        scope: dict[str, Any] = {}
        exec("def one_kernel(x):\n    return x + 1\n", scope)  # a code object of its own: no shared Dynamo cache
        with torch._inductor.config.patch({"cpp.enable_kernel_profile": profile, "fx_graph_cache": False}):
            fn = torch.compile(scope["one_kernel"])
            fn(x)
        fns.append(fn)
    times: list[list[float]] = [[], []]
    for _ in range(rounds):
        for side, fn in enumerate(fns):
            times[side].append(per_call_ms(fn, x, 20000) * 1e6)
    return min(times[0]), min(times[1])


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--round-ms", type=float, default=100.0)
    args = parser.parse_args()
    torch.manual_seed(0)
    print(f"torch {torch.__version__}, {torch.get_num_threads()} threads")
    with torch.no_grad():
        off_ns, on_ns = one_kernel_ns(args.rounds)
        print(f"one kernel: off {off_ns:.0f} ns, on {on_ns:.0f} ns per call: {on_ns - off_ns:.0f} ns per kernel call")
        for name, (model, example) in models().items():
            model.eval()
            off, on = compiled(model, example, False), compiled(model, example, True)
            for fn in (off, on):
                for _ in range(20):
                    fn(example)
            calls = max(1, int(args.round_ms / per_call_ms(off, example, 20)))
            offs, ons = [], []
            for _ in range(args.rounds):
                offs.append(per_call_ms(off, example, calls))
                ons.append(per_call_ms(on, example, calls))
            ratio = statistics.median(b / a for a, b in zip(offs, ons, strict=True))
            print(
                f"{name}: off {min(offs):.4f} ms, on {min(ons):.4f} ms; on/off fastest {min(ons) / min(offs):.3f}, "
                f"median per-round {ratio:.3f}"
            )
