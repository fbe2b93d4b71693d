"""A 64-rank TORCH_TRACE folder opened by `compile-lens inspect`: how long it takes, and what it says.

    python bench/ranks64.py [--ranks 64] [--diverging 3,17,41]

The folder is built from this project's recorded 2-rank DDP logs (test/fixtures/logs/ddp-diverge-rank*.log, markers
taken out: a log as any run writes it): the ranks named by --diverging get rank 1's log (it recompiled at
ddp_train.py:75), the others rank 0's. Timed end to end: the CLI (node dist/cli.js) running the runner's inspect and
printing; best of --repeat."""
from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
LOGS = REPO / "test" / "fixtures" / "logs"


def unmarked(path: Path) -> str:
    kept, skip = [], False
    for line in path.read_text().split("\n"):
        if not line.startswith("\t"):
            skip = "compile_lens_marker" in line
        if not skip:
            kept.append(line)
    return "\n".join(kept)


def build(folder: Path, ranks: int, diverging: set[int]) -> None:
    folder.mkdir(parents=True)
    same, odd = unmarked(LOGS / "ddp-diverge-rank0.log"), unmarked(LOGS / "ddp-diverge-rank1.log")
    for rank in range(ranks):
        (folder / f"dedicated_log_torch_trace_rank_{rank}_x{rank:04d}.log").write_text(odd if rank in diverging else same)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--ranks", type=int, default=64)
    parser.add_argument("--diverging", default="3,17,41")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="ranks64-"))
    folder = work / "torch_trace"
    build(folder, args.ranks, {int(r) for r in args.diverging.split(",")})
    best, out = float("inf"), ""
    for i in range(args.repeat):
        start = time.perf_counter()
        proc = subprocess.run(["node", str(REPO / "dist" / "cli.js"), "inspect", str(folder), "--out", str(work / f"r{i}")],
                              capture_output=True, text=True, cwd=work)
        best = min(best, time.perf_counter() - start)
        out = proc.stdout
        if proc.returncode != 0:
            raise SystemExit(proc.stderr[-2000:])
    size = sum(p.stat().st_size for p in folder.iterdir()) / 1e6
    print(f"{args.ranks} rank logs, {size:.1f} MB: compile-lens inspect {best:.2f} s (best of {args.repeat})")
    print("\n".join(line for line in out.splitlines() if "recompiled" in line or line.startswith("  divergence")))
    shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
