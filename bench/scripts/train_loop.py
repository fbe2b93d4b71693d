"""A training loop as users write it: a compiled transformer-style model, forward, loss, backward, AdamW, with a
short last batch each epoch. In situ, a step is a training step (backward and optimizer included).

    python3 bench/scripts/train_loop.py
    PYTHONPATH=native-runner python3 -m compile_lens_runner profile --script bench/scripts/train_loop.py

Without CUDA (or with IN_SITU_SMALL=1) it runs small sizes on the CPU.
"""

import os
import time

import torch
from torch import nn

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
SMALL = os.environ.get("IN_SITU_SMALL") == "1" or DEVICE == "cpu"
DIM, DEPTH, TOKENS, BATCH, SAMPLES, EPOCHS = (64, 2, 32, 16, 200, 2) if SMALL else (768, 6, 256, 32, 32 * 40 + 8, 2)


class Block(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.norm1 = nn.LayerNorm(DIM)
        self.attn = nn.MultiheadAttention(DIM, 8 if not SMALL else 4, batch_first=True)
        self.norm2 = nn.LayerNorm(DIM)
        self.mlp = nn.Sequential(nn.Linear(DIM, 4 * DIM), nn.GELU(), nn.Linear(4 * DIM, DIM))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = self.norm1(x)
        x = x + self.attn(h, h, h, need_weights=False)[0]
        return x + self.mlp(self.norm2(x))


class Model(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.blocks = nn.Sequential(*[Block() for _ in range(DEPTH)])
        self.head = nn.Linear(DIM, 10)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.blocks(x).mean(1))


if __name__ == "__main__":
    torch.manual_seed(0)
    model = Model().to(DEVICE)
    compiled = torch.compile(model)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    data = torch.randn(SAMPLES, TOKENS, DIM, device=DEVICE)
    labels = torch.randint(0, 10, (SAMPLES,), device=DEVICE)
    for epoch in range(EPOCHS):
        t0 = time.perf_counter()
        for i in range(0, SAMPLES, BATCH):  # the last batch is short
            with torch.autocast(DEVICE, dtype=torch.bfloat16, enabled=DEVICE == "cuda"):
                loss = nn.functional.cross_entropy(compiled(data[i : i + BATCH]), labels[i : i + BATCH])
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
        if DEVICE == "cuda":
            torch.cuda.synchronize()
        print(f"epoch {epoch}: {time.perf_counter() - t0:.2f} s, loss {loss.item():.3f}", flush=True)
