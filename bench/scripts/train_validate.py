"""A new user's training loop that validates as it goes: a small CNN compiled once, trained with SGD, and every 20
steps the same compiled model evaluated under model.eval() and torch.no_grad() on three validation batches (the
last one smaller, as a data loader's remainder). Runs on CUDA where there is one, else the CPU."""

import torch
import torch.nn as nn
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"
torch.manual_seed(0)


class Net(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.conv = nn.Conv2d(3, 32, 3, padding=1)
        self.bn = nn.BatchNorm2d(32)
        self.drop = nn.Dropout(0.1)
        self.fc = nn.Linear(32 * 16 * 16, 10)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = F.max_pool2d(F.relu(self.bn(self.conv(x))), 2)
        return self.fc(self.drop(x.flatten(1)))


model = Net().to(device)
compiled = torch.compile(model)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
val = [(torch.randn(n, 3, 32, 32, device=device), torch.randint(0, 10, (n,), device=device)) for n in (64, 64, 40)]

for i in range(60):
    x = torch.randn(64, 3, 32, 32, device=device)
    y = torch.randint(0, 10, (64,), device=device)
    loss = F.cross_entropy(compiled(x), y)
    loss.backward()
    opt.step()
    opt.zero_grad()
    if i % 20 == 19:
        model.eval()
        with torch.no_grad():
            right = sum((compiled(v).argmax(1) == t).sum().item() for v, t in val)
        model.train()
        print(f"step {i} loss {loss.item():.3f} accuracy {right / sum(len(t) for _, t in val):.3f}")
