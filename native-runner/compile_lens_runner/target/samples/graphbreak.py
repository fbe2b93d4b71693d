"""Branchy: the graph breaks of seed 003 (print, data-dependent .item() branch, numpy random head choice)."""
import numpy as np
import torch
from torch import nn


class Branchy(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(32, 64, 3, padding=1), nn.BatchNorm2d(64), nn.ReLU(), nn.AdaptiveAvgPool2d(4),
        )
        self.heads = nn.ModuleList(
            [nn.Sequential(nn.Linear(64 * 16, 256), nn.GELU(), nn.Linear(256, 10)) for _ in range(3)]
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.features(x)
        print("feature norm computed")  # graph break: print
        x = torch.flatten(x, 1)
        if x.sum().item() > 0:  # graph break: data-dependent .item()
            x = x * 2
        head = self.heads[np.random.randint(0, len(self.heads))]  # graph break: numpy random head choice
        return head(x)


def build(device: str) -> dict[str, object]:
    torch.manual_seed(0)
    batch, size = (32, 64) if device == "cuda" else (4, 32)
    return {"model": Branchy().to(device).eval(), "inputs": (torch.randn(batch, 3, size, size, device=device),)}
