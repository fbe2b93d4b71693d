"""A decode loop with a static KV cache: a hand-written decoder whose one-token step (decode_one) is compiled with
mode="reduce-overhead", fullgraph=True (CUDA graphs); the cache is preallocated and written in place at `pos`."""

import torch
from _plain import DEVICE, SMALL, Steps
from torch import nn

torch.manual_seed(0)
D, LAYERS, HEADS, MAX, BATCH, VOCAB, TOKENS, PASSES = (
    (64, 2, 4, 64, 2, 128, 48, 2) if SMALL else (768, 8, 12, 512, 4, 16384, 200, 3)
)
HD = D // HEADS


class Layer(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.ln, self.qkv, self.out = nn.LayerNorm(D), nn.Linear(D, 3 * D), nn.Linear(D, D)
        self.mlp = nn.Sequential(nn.LayerNorm(D), nn.Linear(D, 4 * D), nn.GELU(), nn.Linear(4 * D, D))

    def forward(self, x, k_cache, v_cache, pos, mask):
        q, k, v = self.qkv(self.ln(x)).view(BATCH, 1, 3, HEADS, HD).unbind(2)
        k_cache.index_copy_(2, pos, k.transpose(1, 2))
        v_cache.index_copy_(2, pos, v.transpose(1, 2))
        att = nn.functional.scaled_dot_product_attention(q.transpose(1, 2), k_cache, v_cache, attn_mask=mask)
        x = x + self.out(att.transpose(1, 2).reshape(BATCH, 1, D))
        return x + self.mlp(x)


class Decoder(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.embed, self.layers, self.head = (
            nn.Embedding(VOCAB, D),
            nn.ModuleList(Layer() for _ in range(LAYERS)),
            nn.Linear(D, VOCAB),
        )


model = Decoder().to(DEVICE).eval()
dtype = torch.bfloat16 if DEVICE == "cuda" else torch.float32
model.to(dtype)
caches = [
    (
        torch.zeros(BATCH, HEADS, MAX, HD, device=DEVICE, dtype=dtype),
        torch.zeros(BATCH, HEADS, MAX, HD, device=DEVICE, dtype=dtype),
    )
    for _ in range(LAYERS)
]
positions = torch.arange(MAX, device=DEVICE)


@torch.compile(mode="reduce-overhead", fullgraph=True)
def decode_one(token, pos):
    x = model.embed(token)
    mask = (positions <= pos).view(1, 1, 1, MAX)
    for layer, (k, v) in zip(model.layers, caches, strict=True):
        x = layer(x, k, v, pos, mask)
    return model.head(x).argmax(-1)


with torch.inference_mode():
    for p in range(PASSES):
        clock = Steps(f"decode pass {p}", skip=5)
        for k, v in caches:
            k.zero_()
            v.zero_()
        token = torch.zeros(BATCH, 1, dtype=torch.long, device=DEVICE)
        pos = torch.zeros(1, dtype=torch.long, device=DEVICE)
        for _ in range(TOKENS):
            clock.tick()
            token = decode_one(token, pos).clone()
            pos += 1
        clock.tick()
        clock.report()
