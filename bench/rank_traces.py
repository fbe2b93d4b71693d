"""Per-rank torch.profiler traces of a small DDP job, for the rank timeline: its test fixtures (CPU, gloo) and the
record of what it shows on GPUs (NCCL). Rank 1 sleeps STRAGGLE_MS before each forward: a straggler the others wait
for in the gradient all-reduce. One trace per rank: OUT/rank<N>.trace.json, ProfilerStep#2-4.

    OUT=/tmp/ranks python3 -m torch.distributed.run --nproc-per-node 2 --standalone bench/rank_traces.py
    (GPUs, one per rank, NCCL: the same command on a machine with 2 GPUs; STRAGGLE_MS=0 for no straggler)

then `node --import tsx bench/rankSteps.ts /tmp/ranks` prints the per-step table the timeline shows.
"""

import os
import time

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.profiler import ProfilerActivity, profile, schedule

STRAGGLE_MS = float(os.environ.get("STRAGGLE_MS", "40"))
out = os.environ.get("OUT", "/tmp/ranks")
os.makedirs(out, exist_ok=True)
local_rank = int(os.environ.get("LOCAL_RANK", "0"))
on_gpu = torch.cuda.is_available() and local_rank < torch.cuda.device_count()
if on_gpu:
    torch.cuda.set_device(local_rank)
dist.init_process_group("nccl" if on_gpu else "gloo")
rank = dist.get_rank()
device = torch.device("cuda", local_rank) if on_gpu else torch.device("cpu")
torch.manual_seed(0)
# GPU: 134 M parameters, so the gradient all-reduce runs in several DDP buckets, overlapping the backward
width, hidden = (4096, 16384) if on_gpu else (256, 512)
layers = torch.nn.Sequential(torch.nn.Linear(width, hidden), torch.nn.ReLU(), torch.nn.Linear(hidden, width))
model = DDP(layers.to(device), device_ids=[local_rank] if on_gpu else None)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if on_gpu else [])


def write(prof: profile) -> None:
    prof.export_chrome_trace(os.path.join(out, f"rank{rank}.trace.json"))


with profile(activities=activities, schedule=schedule(wait=1, warmup=1, active=3), on_trace_ready=write) as prof:
    for _ in range(5):
        if rank == 1 and STRAGGLE_MS > 0:
            time.sleep(STRAGGLE_MS / 1000)
        loss = model(torch.randn(64, width, device=device)).sum()
        loss.backward()
        opt.step()
        opt.zero_grad()
        prof.step()
dist.destroy_process_group()
