"""A new user's fine-tuning loop: a small GPT-2 from transformers (random weights, built from its config), compiled,
AdamW, batches of token sequences whose length varies with the data (no padding to a fixed size)."""

import random

import torch
from transformers import GPT2Config, GPT2LMHeadModel

torch.manual_seed(0)
config = GPT2Config(n_layer=4, n_embd=512, n_head=8, vocab_size=8000, n_positions=512)
model = GPT2LMHeadModel(config).cuda()
model.train()
opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
step = torch.compile(model)
rng = random.Random(0)

for i in range(120):
    length = rng.choice([128, 192, 256])
    ids = torch.randint(0, 8000, (8, length), device="cuda")
    with torch.autocast("cuda", dtype=torch.bfloat16):
        out = step(input_ids=ids, labels=ids)
    out.loss.backward()
    opt.step()
    opt.zero_grad(set_to_none=True)
    if i % 40 == 0:
        print(f"step {i} loss {out.loss.item():.3f}")
