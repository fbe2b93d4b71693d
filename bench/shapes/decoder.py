"""A hand-written greedy decoder whose KV cache grows by torch.cat every token, compiled with the defaults
(dynamic=None: automatic dynamic makes the length symbolic at its second size): 3 sequences of 96 tokens."""

import torch
from _common import DEVICE, QUICK, Clock, dynamic, mark

torch.manual_seed(0)
D, LAYERS, VOCAB = (64, 2, 256) if QUICK else (512, 4, 32000)
SEQUENCES, TOKENS = (2, 24) if QUICK else (3, 96)


class Layer(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.qkv = torch.nn.Linear(D, 3 * D)
        self.proj = torch.nn.Linear(D, D)
        self.mlp = torch.nn.Sequential(torch.nn.Linear(D, 4 * D), torch.nn.GELU(), torch.nn.Linear(4 * D, D))
        self.n1, self.n2 = torch.nn.LayerNorm(D), torch.nn.LayerNorm(D)

    def forward(self, x, k_cache, v_cache):
        q, k, v = self.qkv(self.n1(x)).chunk(3, dim=-1)
        k_cache = torch.cat([k_cache, k], dim=1)
        v_cache = torch.cat([v_cache, v], dim=1)
        att = torch.softmax(q @ k_cache.transpose(1, 2) / D**0.5, dim=-1)
        x = x + self.proj(att @ v_cache)
        return x + self.mlp(self.n2(x)), k_cache, v_cache


class Decoder(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.emb = torch.nn.Embedding(VOCAB, D)
        self.layers = torch.nn.ModuleList(Layer() for _ in range(LAYERS))
        self.head = torch.nn.Linear(D, VOCAB)

    def forward(self, tok, caches):
        x = self.emb(tok)
        new = []
        for layer, (k_cache, v_cache) in zip(self.layers, caches, strict=True):
            x, k, v = layer(x, k_cache, v_cache)
            new.append((k, v))
        return self.head(x), new


model = torch.compile(Decoder().to(DEVICE).eval(), dynamic=dynamic(None))
clock = Clock()
with torch.no_grad():
    for _ in range(SEQUENCES):
        tok = torch.zeros(1, 1, dtype=torch.long, device=DEVICE)
        caches = [(torch.zeros(1, 0, D, device=DEVICE), torch.zeros(1, 0, D, device=DEVICE)) for _ in range(LAYERS)]
        for _ in range(TOKENS):
            clock.tick()
            logits, caches = model(tok, [(mark(k, 1), mark(v, 1)) for k, v in caches])
            tok = logits[:, -1:].argmax(-1)
clock.report(skip=TOKENS)  # the first sequence holds the compiles
