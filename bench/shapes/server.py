"""A request server: torch.compile(model, dynamic=False), 12 batch sizes over 2,000 requests; past the recompile
limit (8 graphs) Dynamo runs the other sizes eagerly. 2,000 requests are a few seconds of a real server's traffic: 200
left ~37 steady steps a side, too few for two profiles to land within 5 % (docs/BENCHMARKS.md)."""

import torch
from _common import DEVICE, QUICK, Clock, dynamic, mark

torch.manual_seed(0)
D = 64 if QUICK else 1024
REQUESTS = 60 if QUICK else 2000
SIZES = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]
model = (
    torch.nn.Sequential(torch.nn.Linear(D, 4 * D), torch.nn.GELU(), torch.nn.Linear(4 * D, D), torch.nn.LayerNorm(D))
    .to(DEVICE)
    .eval()
)
served = torch.compile(model, dynamic=dynamic(False))
clock = Clock()
with torch.no_grad():
    for i in range(REQUESTS):
        clock.tick()
        served(mark(torch.randn(SIZES[(i * 7) % len(SIZES)], D, device=DEVICE), 0))
clock.tick()
clock.report(skip=len(SIZES))  # the first round of sizes holds the compiles
