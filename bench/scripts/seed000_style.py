"""A seed-000-style service: a pipeline object whose `transformer` submodule is compiled with
torch.compile(mode="reduce-overhead"), warmed up at batch 1, then served at batch 5 (seed 000: Flux's
`pipe.transformer`, a warmup prompt, then a batch of five prompts).

    python3 bench/scripts/seed000_style.py                        # runs as any script does
    PYTHONPATH=native-runner python3 -m compile_lens_runner profile --script bench/scripts/seed000_style.py --device cuda

Without CUDA (or with SEED000_SMALL=1) it runs small sizes on the CPU, for checking the script itself.
"""

import os
import time

import torch
from torch import nn

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
SMALL = os.environ.get("SEED000_SMALL") == "1" or DEVICE == "cpu"
DIM, HEADS, DEPTH, TOKENS, STEPS = (64, 4, 2, 16, 3) if SMALL else (1024, 16, 8, 1024, 10)
DTYPE = torch.float16 if DEVICE == "cuda" else torch.float32


class Block(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.norm1 = nn.LayerNorm(DIM)
        self.attn = nn.MultiheadAttention(DIM, HEADS, batch_first=True)
        self.norm2 = nn.LayerNorm(DIM)
        self.mlp = nn.Sequential(nn.Linear(DIM, 4 * DIM), nn.GELU(approximate="tanh"), nn.Linear(4 * DIM, DIM))
        self.modulation = nn.Linear(DIM, 2 * DIM)

    def forward(self, x: torch.Tensor, t: torch.Tensor) -> torch.Tensor:
        shift, scale = self.modulation(t).unsqueeze(1).chunk(2, dim=-1)
        y = self.norm1(x) * (1 + scale) + shift
        x = x + self.attn(y, y, y, need_weights=False)[0]
        return x + self.mlp(self.norm2(x))


class Transformer(nn.Module):
    """The denoiser: a stack of blocks conditioned on the timestep."""

    def __init__(self) -> None:
        super().__init__()
        self.time_embed = nn.Sequential(nn.Linear(1, DIM), nn.SiLU(), nn.Linear(DIM, DIM))
        self.blocks = nn.ModuleList(Block() for _ in range(DEPTH))
        self.out = nn.Linear(DIM, DIM)

    def forward(self, latents: torch.Tensor, timestep: torch.Tensor) -> torch.Tensor:
        t = self.time_embed(timestep.unsqueeze(-1))
        x = latents
        for block in self.blocks:
            x = block(x, t)
        return self.out(x)


class Pipeline:
    """Prompts in, images out; only `transformer` is compiled, as seed 000 did."""

    def __init__(self) -> None:
        torch.manual_seed(0)
        self.transformer = Transformer().to(DEVICE, DTYPE).eval()
        self.decoder = nn.Linear(DIM, 3).to(DEVICE, DTYPE).eval()

    def __call__(self, prompts: list[str]) -> torch.Tensor:
        batch = len(prompts)
        latents = torch.randn(batch, TOKENS, DIM, device=DEVICE, dtype=DTYPE)
        for step in range(STEPS):
            timestep = torch.full((batch,), 1.0 - step / STEPS, device=DEVICE, dtype=DTYPE)
            latents = latents - self.transformer(latents, timestep) / STEPS
        return self.decoder(latents)


def timed(what: str, fn, *args):  # type: ignore[no-untyped-def]
    t0 = time.perf_counter()
    out = fn(*args)
    if DEVICE == "cuda":
        torch.cuda.synchronize()
    print(f"{what}: {time.perf_counter() - t0:.3f} s", flush=True)
    return out


if __name__ == "__main__":
    pipe = Pipeline()
    pipe.transformer = torch.compile(pipe.transformer, mode="reduce-overhead")
    prompts = [
        "A beautiful sunset over a calm ocean",
        "A cat sitting on a windowsill",
        "A sunset in the mountains",
        "A city skyline at night",
        "A group of people at a conference",
    ]
    with torch.inference_mode():
        timed("warmup (batch 1)", pipe, ["warmup"])
        for request in range(3):
            timed(f"request {request} (batch 5)", pipe, prompts)
