"""Does a compiled call's GPU time follow where its buffers lie? Times the default sample (gatedblock) compiled and
eager on several successive allocations of its input (a spacer of random size before each), at each row count given.

    python3 bench/gpu_placement.py 8192 65536      # on a CUDA machine; one line per row count

Each cell: the fastest / median round (CUDA events around back-to-back calls) in µs, compiled then eager. Numbers:
docs/BENCHMARKS.md, "The default sample on CUDA, session 29"."""

import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "native-runner"))
from compile_lens_runner.target.samples.gatedblock import GatedResidual

ALLOCATIONS = 4
ROUNDS = 15


def rounds_us(fn, x: torch.Tensor, calls: int) -> tuple[float, float]:
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    times = []
    for _ in range(ROUNDS):
        for _ in range(calls // 8):
            fn(x)
        start.record()
        for _ in range(calls):
            fn(x)
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) / calls * 1000)
    times.sort()
    return times[0], times[len(times) // 2]


def main(rows_list: list[int]) -> None:
    torch.manual_seed(0)
    model = GatedResidual().cuda().eval()
    compiled = torch.compile(model)
    spacers = []  # kept to the end, so each input lands somewhere new
    with torch.no_grad():
        for rows in rows_list:
            cells = []
            for _ in range(ALLOCATIONS):
                spacers.append(torch.empty(int(torch.randint(1, 64, ())) * 1_000_003, dtype=torch.uint8, device="cuda"))
                x = torch.randn(rows, 1024, device="cuda")
                for _ in range(5):
                    compiled(x)
                c = rounds_us(compiled, x, max(8, 128 * 8192 // rows))
                e = rounds_us(model, x, max(2, 16 * 8192 // rows))
                cells.append(f"c{c[0]:.1f}/{c[1]:.1f} e{e[0]:.1f}/{e[1]:.1f}")
            print(rows, " | ".join(cells), flush=True)


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [8192, 65536])
