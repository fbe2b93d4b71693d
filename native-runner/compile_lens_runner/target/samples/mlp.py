"""SimpleNet from seed 003: a small MLP, launch-bound on a GPU (compiling it often does not pay)."""
import torch
from torch import nn


class SimpleNet(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.linear = nn.Linear(512, 512)
        self.relu = nn.ReLU()
        self.output = nn.Linear(512, 10)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.output(self.relu(self.linear(x)))


def build(device: str) -> dict[str, object]:
    torch.manual_seed(0)
    return {"model": SimpleNet().to(device).eval(), "inputs": (torch.randn(32, 512, device=device),)}
