"""GatedResidual: two blocks of LayerNorm + squared-ReLU + gating + residual, all pointwise work after the norm.

Eager runs each op as its own kernel over the whole activation (about a dozen per block); Inductor fuses a block into
one C++ loop (one kernel per block on a GPU), so compiling pays on a CPU too: docs/BENCHMARKS.md, "The default
sample". Squared ReLU rather than GELU: on a 2-core AMD EPYC (AVX2) Inductor's erf ran slower than eager's, and GELU
took most of the gain away (same page).
"""

from typing import Any

import torch
import torch.nn.functional as F
from torch import nn


class GatedResidualBlock(nn.Module):
    def __init__(self, width: int) -> None:
        super().__init__()
        self.norm = nn.LayerNorm(width, elementwise_affine=False)
        self.scale = nn.Parameter(torch.randn(width) * 0.1)
        self.shift = nn.Parameter(torch.randn(width) * 0.1)
        self.gate_weight = nn.Parameter(torch.randn(width))
        self.gate_bias = nn.Parameter(torch.zeros(width))
        self.layer_scale = nn.Parameter(torch.full((width,), 0.1))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = self.norm(x) * (1 + self.scale) + self.shift
        activation = torch.relu(h) ** 2
        gate = F.hardsigmoid(h * self.gate_weight + self.gate_bias)
        return x + self.layer_scale * activation * gate


class GatedResidual(nn.Module):
    def __init__(self, width: int = 1024, depth: int = 2) -> None:
        super().__init__()
        self.blocks = nn.Sequential(*(GatedResidualBlock(width) for _ in range(depth)))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.blocks(x)


def build(device: str) -> dict[str, Any]:
    torch.manual_seed(0)
    # A CPU gets a 512 KB activation (128 x 1024 float32), so the pointwise work outweighs the call. A GPU gets 256 MB,
    # well past an H100/H200's 50 MB L2: at 32 MB the compiled call's time followed where its buffers lay (47.6-72.8 us
    # over six allocations in one process, 9 % between processes) and two profiles could not agree within 5 %; at
    # 256 MB three processes read 23.95-23.96x (docs/BENCHMARKS.md, "The default sample on CUDA, session 29").
    rows = 65536 if device == "cuda" else 128
    return {"model": GatedResidual().to(device).eval(), "inputs": (torch.randn(rows, 1024, device=device),)}
