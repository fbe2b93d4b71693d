"""A small service as users write it: a pointwise-heavy residual block compiled once and called at one batch size.

Inductor fuses each block's norm, squared ReLU, gate and residual into one loop, so compiling pays on a CPU too.
"""
import torch
import torch.nn.functional as F
from torch import nn


class GatedBlock(nn.Module):
    def __init__(self, width: int) -> None:
        super().__init__()
        self.norm = nn.LayerNorm(width, elementwise_affine=False)
        self.scale = nn.Parameter(torch.randn(width) * 0.1)
        self.gate = nn.Parameter(torch.randn(width))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = self.norm(x) * (1 + self.scale)
        return x + 0.1 * torch.relu(h) ** 2 * F.hardsigmoid(h * self.gate)


model = torch.compile(nn.Sequential(GatedBlock(1024), GatedBlock(1024)))
with torch.inference_mode():
    for _ in range(200):  # enough calls for blocks of eager and compiled steps in situ
        model(torch.randn(128, 1024))
