"""A pointwise-heavy training loop for the CPU bench: an MLP whose activations are chains of pointwise ops (what
Inductor fuses), AdamW, 160 steps; the model is compiled."""

import torch
from _plain import DEVICE, Steps
from torch import nn

torch.manual_seed(0)
STEPS = 160


class Pointwise(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.l1, self.l2 = nn.Linear(128, 128), nn.Linear(128, 128)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.l1(x)
        for _ in range(6):
            y = torch.nn.functional.gelu(y) * torch.sigmoid(y) + 0.1 * torch.sin(y)
        return self.l2(y)


model = Pointwise().to(DEVICE)
compiled = torch.compile(model)
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
x = torch.randn(512, 128, device=DEVICE)
clock = Steps("pointwise_train", skip=10)
for _ in range(STEPS):
    clock.tick()
    loss = compiled(x).square().mean()
    opt.zero_grad(set_to_none=True)
    loss.backward()
    opt.step()
clock.tick()
clock.report()
