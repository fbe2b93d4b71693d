"""A small service as users write it: a model compiled once and called at one batch size. No compile target."""
import torch
import torch.nn as nn


class TinyTransformer(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.norm = nn.LayerNorm(64)
        self.up = nn.Linear(64, 256)
        self.down = nn.Linear(256, 64)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x + self.down(torch.nn.functional.gelu(self.up(self.norm(x))))


model = torch.compile(TinyTransformer())
with torch.inference_mode():
    for _ in range(64):  # enough calls for blocks of eager and compiled steps in situ
        model(torch.randn(8, 32, 64))
