"""A request server under reduce-overhead: torch.compile(model, mode="reduce-overhead", dynamic=False), 6 batch sizes
over 240 requests. CUDA graph trees warm each size up, record its graph at its second call and keep the graphs' memory
in a pool of their own (issue 43: how many CUDA graphs, and the memory they hold). On CPU the CUDA graphs do nothing."""

import torch
from _common import DEVICE, QUICK, Clock, dynamic, mark

torch.manual_seed(0)
D = 64 if QUICK else 4096
REQUESTS = 36 if QUICK else 240
SIZES = [8, 16, 32, 64, 128, 256]
model = (
    torch.nn.Sequential(torch.nn.Linear(D, 4 * D), torch.nn.GELU(), torch.nn.Linear(4 * D, D), torch.nn.LayerNorm(D))
    .to(DEVICE)
    .eval()
)
served = torch.compile(model, mode="reduce-overhead", dynamic=dynamic(False))
clock = Clock()
with torch.no_grad():
    for i in range(REQUESTS):
        clock.tick()
        served(mark(torch.randn(SIZES[(i * 5) % len(SIZES)], D, device=DEVICE), 0))
clock.tick()
clock.report(skip=2 * len(SIZES))  # each size's warm-up and recording
