"""transformers generate() with its default DynamicCache: a GPT-2 made from a config (random weights, no download),
model.forward compiled with the defaults, 4 generations of 48 new tokens."""

import torch
from _common import DEVICE, QUICK, Clock, dynamic
from transformers import GPT2Config, GPT2LMHeadModel

torch.manual_seed(0)
config = (
    GPT2Config(n_layer=2, n_head=2, n_embd=64, vocab_size=256, n_positions=128)
    if QUICK
    else GPT2Config(n_layer=12, n_head=12, n_embd=768, n_positions=256)
)
GENERATIONS, NEW_TOKENS = (2, 16) if QUICK else (4, 48)
model = GPT2LMHeadModel(config).to(DEVICE).eval()
model.forward = torch.compile(model.forward, dynamic=dynamic(None))
ids = torch.randint(0, config.vocab_size, (1, 8), device=DEVICE)
clock = Clock()
with torch.no_grad():
    for _ in range(GENERATIONS):
        clock.tick()
        model.generate(ids, max_new_tokens=NEW_TOKENS, do_sample=False, pad_token_id=0)
clock.tick()
clock.report(skip=1)  # per generate(): the first holds the compiles
