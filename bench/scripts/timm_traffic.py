"""A new user's image server: a timm ResNet-50, compiled as the docs say, warmed up on one image, then serving
batches whose size follows traffic (seeded)."""

import random
import time

import timm
import torch

model = timm.create_model("resnet50", pretrained=False).cuda().eval().to(memory_format=torch.channels_last)
model = model.to(torch.bfloat16)
fast = torch.compile(model)

with torch.inference_mode():
    fast(torch.randn(1, 3, 224, 224, device="cuda", dtype=torch.bfloat16).to(memory_format=torch.channels_last))
    rng = random.Random(0)
    t0 = time.perf_counter()
    for _ in range(300):
        b = rng.choice([4, 8, 8, 16, 16, 16, 32])
        x = torch.randn(b, 3, 224, 224, device="cuda", dtype=torch.bfloat16).to(memory_format=torch.channels_last)
        logits = fast(x)
        top = logits.argmax(-1).tolist()
    torch.cuda.synchronize()
    print(f"served 300 batches in {time.perf_counter() - t0:.1f} s, last top-1 {top[:4]}")
