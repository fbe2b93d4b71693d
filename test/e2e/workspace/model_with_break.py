import torch
import torch.nn as nn


class TwoLayer(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.hidden = nn.Linear(64, 64)
        self.out = nn.Linear(64, 10)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = torch.relu(self.hidden(x))
        print("hidden layer done")  # graph break: print
        return self.out(x)


def compile_target():
    return TwoLayer(), (torch.randn(8, 64),)
