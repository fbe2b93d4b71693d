"""A server with two compiled stages called in turn: an encoder, then a pooling head that mixes the batch's rows, each
wrapped in torch.compile on its own, serving batches whose size follows traffic (seeded, a few sizes). The in-situ
schedule must give both stages steps in every block (measure/schedule.py: a block holds its calls of each region)."""

import random

import torch
from _plain import DEVICE, SMALL, Steps
from torch import nn

torch.manual_seed(0)
D, REQUESTS = (64, 120) if SMALL else (1024, 400)
SIZES = (4, 8, 16) if SMALL else (8, 16, 32, 64)


class Encoder(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(D, 4 * D), nn.GELU(), nn.Linear(4 * D, D), nn.LayerNorm(D))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x + self.mlp(x)


class Head(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Linear(D, D)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.softmax(self.fc(x - x.mean(0)), dim=-1)  # mixes rows: a batch is not padded


encode = torch.compile(Encoder().to(DEVICE).eval())
head = torch.compile(Head().to(DEVICE).eval())
rng = random.Random(0)
batches = [torch.randn(rng.choice(SIZES), D, device=DEVICE) for _ in range(REQUESTS)]
clock = Steps("two_stage_server", skip=len(SIZES) * 3)
with torch.inference_mode():
    for x in batches:
        clock.tick()
        head(encode(x)).sum()
    clock.tick()
clock.report()
