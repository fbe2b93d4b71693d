"""DDP training, compiled after wrapping (torch.compile(DDP(model))), for Compile Lens's torchrun mode: a small
transformer on GPUs (NCCL, one GPU per rank), a small MLP on CPU (gloo). With --diverge-step S the last rank (or
the ranks of --diverge-ranks) trains step S on a smaller batch: those ranks alone recompile — the divergence Compile
Lens names at the line.

    torchrun --nproc-per-node 2 bench/scripts/ddp_train.py [--steps 8] [--diverge-step 3]
    node dist/cli.js profile --script bench/scripts/ddp_train.py --nproc-per-node 2 --device cuda -- --diverge-step 3

Options: --model mlp|transformer (default: transformer on CUDA, mlp on CPU), --compile outer|inner (inner:
DDP(torch.compile(model)), the other way to combine them).
"""

import argparse
import os
import time

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

parser = argparse.ArgumentParser()
parser.add_argument("--steps", type=int, default=8)
parser.add_argument("--diverge-step", type=int, default=-1, help="the last rank trains this step on a smaller batch")
parser.add_argument("--diverge-ranks", help="comma-separated ranks that diverge (default: the last rank)")
parser.add_argument("--model", choices=("mlp", "transformer"))
parser.add_argument("--compile", choices=("outer", "inner"), default="outer")
parser.add_argument(
    "--backend",
    default="inductor",
    help="torch.compile's backend (aot_eager: no C++ compile, for many ranks on one host)",
)
args = parser.parse_args()

local_rank = int(os.environ.get("LOCAL_RANK", "0"))
on_gpu = torch.cuda.is_available() and local_rank < torch.cuda.device_count()
if on_gpu:
    torch.cuda.set_device(local_rank)
dist.init_process_group("nccl" if on_gpu else "gloo")
rank, world = dist.get_rank(), dist.get_world_size()
device = torch.device("cuda", local_rank) if on_gpu else torch.device("cpu")
torch.manual_seed(0)
diverging = {int(r) for r in args.diverge_ranks.split(",")} if args.diverge_ranks else {world - 1}


class MLP(torch.nn.Module):
    def __init__(self, width: int) -> None:
        super().__init__()
        self.up, self.down = torch.nn.Linear(width, 4 * width), torch.nn.Linear(4 * width, width)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.down(torch.relu(self.up(x)))


class Transformer(torch.nn.Module):
    def __init__(self, width: int, depth: int) -> None:
        super().__init__()
        self.blocks = torch.nn.ModuleList(
            torch.nn.TransformerEncoderLayer(width, 8, 4 * width, batch_first=True, dropout=0.0) for _ in range(depth)
        )
        self.head = torch.nn.Linear(width, width)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        for block in self.blocks:
            x = block(x)
        return self.head(x)


# the model is the script's own class: Dynamo compiles its forward (torch's own modules, called from DDP's
# forward after its graph breaks, would be skipped as torch-internal frames)
kind = args.model or ("transformer" if on_gpu else "mlp")
width, seq, batch = (512, 256, 16) if kind == "transformer" else (64, 0, 16)
model: torch.nn.Module = Transformer(width, 4) if kind == "transformer" else MLP(width)
model = model.to(device)
if args.compile == "inner":
    train_model = DDP(torch.compile(model, backend=args.backend), device_ids=[local_rank] if on_gpu else None)
else:
    train_model = torch.compile(DDP(model, device_ids=[local_rank] if on_gpu else None), backend=args.backend)
opt = torch.optim.AdamW(model.parameters(), lr=1e-4)

for step in range(args.steps):
    rows = batch // 2 if rank in diverging and step == args.diverge_step else batch
    x = torch.randn(rows, seq, width, device=device) if seq else torch.randn(rows, width, device=device)
    t0 = time.perf_counter()
    loss = train_model(x).square().mean()
    loss.backward()
    opt.step()
    opt.zero_grad(set_to_none=True)
    if on_gpu:
        torch.cuda.synchronize()
    if rank == 0:
        print(f"step {step}: {time.perf_counter() - t0:.3f} s", flush=True)
dist.destroy_process_group()
