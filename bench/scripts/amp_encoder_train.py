"""An AMP training loop (not written for Compile Lens): bf16 autocast, AdamW, a small transformer encoder."""

import os
import time

import torch
from torch import nn

torch.manual_seed(0)
dev = "cuda" if torch.cuda.is_available() else "cpu"
layer = nn.TransformerEncoderLayer(d_model=512, nhead=8, dim_feedforward=2048, batch_first=True, norm_first=True)
model = nn.Sequential(nn.TransformerEncoder(layer, num_layers=4), nn.Linear(512, 512)).to(dev)
opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
step_fn = torch.compile(model) if os.environ.get("COMPILE", "1") == "1" else model
x = torch.randn(32, 128, 512, device=dev)
y = torch.randn(32, 128, 512, device=dev)
steps = int(os.environ.get("STEPS", "300"))
times = []
for _ in range(steps):
    t = time.perf_counter()
    with torch.autocast(dev, dtype=torch.bfloat16):
        loss = nn.functional.mse_loss(step_fn(x), y)
    loss.backward()
    opt.step()
    opt.zero_grad(set_to_none=True)
    if dev == "cuda":
        torch.cuda.synchronize()
    times.append(time.perf_counter() - t)
steady = sorted(times[steps // 3 :])
print(
    f"PLAIN compile={os.environ.get('COMPILE', '1')} median_ms={steady[len(steady) // 2] * 1e3:.3f} first_s={times[0]:.2f}"
)
