"""FSDP2 training (torch.distributed.fsdp.fully_shard, public since torch 2.6) of a small transformer: each block
compiled and sharded, then the whole model sharded (TorchTitan's recipe), for Compile Lens's torchrun mode. NCCL with one GPU per rank; on CPU
it runs with gloo where torch supports FSDP2 there (it says so and exits when it cannot).

    torchrun --nproc-per-node 2 bench/scripts/fsdp2_train.py [--steps 6]
    node dist/cli.js profile --script bench/scripts/fsdp2_train.py --nproc-per-node 2 --device cuda
"""

import argparse
import os
import sys
import time

import torch
import torch.distributed as dist

try:
    from torch.distributed.fsdp import fully_shard
except ImportError:
    sys.exit(f"FSDP2 (torch.distributed.fsdp.fully_shard) needs torch 2.6 or newer; this is {torch.__version__}")
from torch.distributed.device_mesh import init_device_mesh

parser = argparse.ArgumentParser()
parser.add_argument("--steps", type=int, default=6)
args = parser.parse_args()

local_rank = int(os.environ.get("LOCAL_RANK", "0"))
on_gpu = torch.cuda.is_available() and local_rank < torch.cuda.device_count()
if on_gpu:
    torch.cuda.set_device(local_rank)
dist.init_process_group("nccl" if on_gpu else "gloo")
rank, world = dist.get_rank(), dist.get_world_size()
device = torch.device("cuda", local_rank) if on_gpu else torch.device("cpu")
mesh = init_device_mesh(device.type, (world,))
torch.manual_seed(0)

width, seq, batch, depth = (512, 256, 8, 4) if on_gpu else (64, 16, 4, 2)
model = torch.nn.Sequential(
    *(torch.nn.TransformerEncoderLayer(width, 8, 4 * width, batch_first=True, dropout=0.0) for _ in range(depth))
).to(device)
# as TorchTitan does: each block compiled, then sharded (FSDP2's hooks run around the compiled blocks), then the model
for index, block in enumerate(model):
    compiled_block = torch.compile(block)
    fully_shard(compiled_block, mesh=mesh)
    model[index] = compiled_block
fully_shard(model, mesh=mesh)
opt = torch.optim.AdamW(model.parameters(), lr=1e-4)

for step in range(args.steps):
    x = torch.randn(batch, seq, width, device=device)
    t0 = time.perf_counter()
    loss = model(x).square().mean()
    loss.backward()
    opt.step()
    opt.zero_grad(set_to_none=True)
    if on_gpu:
        torch.cuda.synchronize()
    if rank == 0:
        print(f"step {step}: {time.perf_counter() - t0:.3f} s", flush=True)
dist.destroy_process_group()
