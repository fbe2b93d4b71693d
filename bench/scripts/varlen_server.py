"""A dynamic-shape server: a hand-written transformer encoder compiled with dynamic=True, serving requests of
lengths drawn (seeded) from a few buckets between 37 and 512 tokens, one request at a time."""

import random

import torch
from _plain import DEVICE, SMALL, Steps
from torch import nn

torch.manual_seed(0)
D, LAYERS, HEADS, REQUESTS = (64, 2, 4, 60) if SMALL else (512, 4, 8, 240)
LENGTHS = (37, 64, 128) if SMALL else (37, 64, 128, 200, 256, 512)


class Layer(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.ln1, self.ln2, self.qkv, self.out = nn.LayerNorm(D), nn.LayerNorm(D), nn.Linear(D, 3 * D), nn.Linear(D, D)
        self.mlp = nn.Sequential(nn.Linear(D, 4 * D), nn.GELU(), nn.Linear(4 * D, D))

    def forward(self, x):
        b, t, _ = x.shape
        q, k, v = self.qkv(self.ln1(x)).view(b, t, 3, HEADS, D // HEADS).unbind(2)
        att = nn.functional.scaled_dot_product_attention(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2))
        x = x + self.out(att.transpose(1, 2).reshape(b, t, D))
        return x + self.mlp(self.ln2(x))


encoder = nn.Sequential(*[Layer() for _ in range(LAYERS)]).to(DEVICE).eval()
dtype = torch.float16 if DEVICE == "cuda" else torch.float32
encoder.to(dtype)
serve = torch.compile(encoder, dynamic=True)
rng = random.Random(0)
requests = [torch.randn(1, rng.choice(LENGTHS), D, device=DEVICE, dtype=dtype) for _ in range(REQUESTS)]
clock = Steps("varlen_server", skip=len(LENGTHS) * 2)
with torch.inference_mode():
    for x in requests:
        clock.tick()
        serve(x).mean(1)
    clock.tick()
clock.report()
