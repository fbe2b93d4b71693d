"""An AMP training loop: a small GPT-style LM, bf16 autocast, AdamW, gradient clipping, a cosine LR schedule; the
model is compiled (torch.compile(model)). AMP_BATCH and AMP_STEPS change its batch and step count."""

import os

import torch
from _plain import DEVICE, SMALL, Steps
from torch import nn

torch.manual_seed(0)
D, LAYERS, HEADS, SEQ, BATCH, VOCAB, STEPS = (64, 2, 4, 32, 4, 256, 40) if SMALL else (512, 6, 8, 256, 16, 8192, 160)
# batch 16 leaves an H100 idle half the step (launch-bound); AMP_BATCH=64 is the same loop with the GPU kept busy
BATCH, STEPS = int(os.environ.get("AMP_BATCH", BATCH)), int(os.environ.get("AMP_STEPS", STEPS))


class Block(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(D), nn.LayerNorm(D)
        self.qkv, self.proj = nn.Linear(D, 3 * D), nn.Linear(D, D)
        self.mlp = nn.Sequential(nn.Linear(D, 4 * D), nn.GELU(), nn.Linear(4 * D, D))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        b, t, _ = x.shape
        q, k, v = self.qkv(self.ln1(x)).view(b, t, 3, HEADS, D // HEADS).unbind(2)
        att = nn.functional.scaled_dot_product_attention(
            q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), is_causal=True
        )
        x = x + self.proj(att.transpose(1, 2).reshape(b, t, D))
        return x + self.mlp(self.ln2(x))


class LM(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.embed, self.pos = nn.Embedding(VOCAB, D), nn.Parameter(torch.zeros(SEQ, D))
        self.blocks = nn.Sequential(*[Block() for _ in range(LAYERS)])
        self.head = nn.Linear(D, VOCAB)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        return self.head(self.blocks(self.embed(tokens) + self.pos))


model = LM().to(DEVICE)
compiled = torch.compile(model)
opt = torch.optim.AdamW(model.parameters(), lr=3e-4, weight_decay=0.1)
sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, STEPS)
data = torch.randint(0, VOCAB, (BATCH, SEQ + 1), device=DEVICE)
clock = Steps("amp_train", skip=10)
for _ in range(STEPS):
    clock.tick()
    with torch.autocast(DEVICE, dtype=torch.bfloat16):
        logits = compiled(data[:, :-1])
        loss = nn.functional.cross_entropy(logits.float().view(-1, VOCAB), data[:, 1:].reshape(-1))
    opt.zero_grad(set_to_none=True)
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    opt.step()
    sched.step()
clock.tick()
clock.report()
