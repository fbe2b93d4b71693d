"""A sweep as notebooks and hyper-parameter scripts write it: four 256 MB models built one after another, each
compiled, called a few times and dropped. Writes the GPU memory still allocated at its end and its peak (MB), and
its resident memory, to the JSON file named by argv[1] (bench/sweep_memory.sh compares plain and observed)."""

import json
import sys

import torch

device = "cuda" if torch.cuda.is_available() else "cpu"
x = torch.randn(64, 4096, device=device)
for _sweep in range(4):
    model = torch.nn.Sequential(*[torch.nn.Linear(4096, 4096) for _ in range(4)]).to(device)
    fast = torch.compile(model)
    with torch.no_grad():
        for _ in range(4):
            fast(x)
    del model, fast
with open("/proc/self/status") as f:
    fields = dict(line.split(":", 1) for line in f)
result = {"rssMb": int(fields["VmRSS"].split()[0]) / 1024}
if device == "cuda":
    torch.cuda.synchronize()
    result.update(endMb=torch.cuda.memory_allocated() / 2**20, peakMb=torch.cuda.max_memory_allocated() / 2**20)
with open(sys.argv[1], "w") as f:
    json.dump(result, f)
