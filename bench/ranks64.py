"""A real 64-rank job under `attach`, then how long Compile Lens takes to open it and what it says.

    python bench/ranks64.py generate --out DIR [--launchers 8] [--per-launcher 8] [--diverging 3,17,41]
    python bench/ranks64.py open DIR [--repeat 3]       (needs the build: node scripts/build.mjs)

generate: LAUNCHERS torchrun launchers on this host, as LAUNCHERS nodes (--nnodes, c10d rendezvous on localhost), each
starting PER-LAUNCHER gloo ranks of bench/scripts/ddp_train.py (a 64-wide MLP, compiled with --backend, on CPU) under
`python -m compile_lens_runner attach --out DIR`; the ranks of --diverging train step 3 on half the batch, so they
alone recompile at the training line. Prints the wall time and the peak memory of all ranks together (sampled).
With inductor one rank needs about 0.4 GB and 18 s of CPU for its compiles; `--backend aot_eager` (no C++ compiles,
the same Dynamo recompile at the divergence) runs 64 ranks on 2 cores and 23 GB in about 3 minutes.

open: `compile-lens inspect DIR` timed end to end (node dist/cli.js: the runner merging the 64 rank folders read-only,
then the report mapped and printed; best of --repeat), asserting that the divergence is grouped on the diverging
ranks at the training line; then bench/ranksOpen.ts on the report (its 64 rank traces and rank table in the panel).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DDP_TRAIN = REPO / "bench" / "scripts" / "ddp_train.py"
TRAIN_LINE = "loss = train_model(x).square().mean()"
DIVERGE_STEP = 3


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _ranks_rss(stop: threading.Event, peak: list[int]) -> None:
    """The resident memory of every attach process together, every half second (Linux /proc)."""
    while not stop.wait(0.5):
        total = 0
        for pid in filter(str.isdigit, os.listdir("/proc")):
            try:
                if b"compile_lens_runner\0attach" not in Path(f"/proc/{pid}/cmdline").read_bytes():
                    continue
                status = Path(f"/proc/{pid}/status").read_text()
            except OSError:
                continue
            match = re.search(r"VmRSS:\s+(\d+) kB", status)
            total += int(match[1]) * 1024 if match else 0
        peak[0] = max(peak[0], total)


def generate(out: Path, launchers: int, per_launcher: int, diverging: str, backend: str) -> None:
    if out.exists():
        raise SystemExit(f"{out} exists: give a new folder (attach never writes over a run)")
    env = dict(
        os.environ,
        PYTHONPATH=str(REPO / "native-runner"),
        CUDA_VISIBLE_DEVICES="",
        OMP_NUM_THREADS="1",
        TORCHINDUCTOR_COMPILE_THREADS="1",
        PYTHONUNBUFFERED="1",
    )
    port, logs = _free_port(), Path(tempfile.mkdtemp(prefix="ranks64-launchers-"))
    launcher = [
        sys.executable,
        "-m",
        "torch.distributed.run",
        "--nnodes",
        str(launchers),
        "--nproc-per-node",
        str(per_launcher),
        "--rdzv-backend",
        "c10d",
        "--rdzv-endpoint",
        f"127.0.0.1:{port}",
        "--max-restarts",
        "0",
    ]
    program = [
        "-m",
        "compile_lens_runner",
        "attach",
        "--out",
        str(out),
        "--device",
        "cpu",
        str(DDP_TRAIN),
        "--steps",
        "6",
        "--diverge-step",
        str(DIVERGE_STEP),
        "--diverge-ranks",
        diverging,
        "--backend",
        backend,
    ]
    stop, peak = threading.Event(), [0]
    sampler = threading.Thread(target=_ranks_rss, args=(stop, peak), daemon=True)
    sampler.start()
    started = time.perf_counter()
    procs = []
    for node in range(launchers):
        with open(logs / f"node{node}.log", "w") as log:
            procs.append(
                subprocess.Popen(
                    [*launcher, "--node-rank", str(node), *program], env=env, stdout=log, stderr=subprocess.STDOUT
                )
            )
    codes = [p.wait() for p in procs]
    wall = time.perf_counter() - started
    stop.set()
    sampler.join()
    if any(codes):
        failed = codes.index(next(c for c in codes if c))
        raise SystemExit(
            f"launcher {failed} exited {codes[failed]}:\n" + (logs / f"node{failed}.log").read_text()[-4000:]
        )
    ranks = len(list((out / "ranks").iterdir()))
    size = sum(f.stat().st_size for f in out.rglob("*") if f.is_file()) / 1e6
    print(
        f"{launchers} launchers x {per_launcher} ranks under attach: {ranks} rank folders, {size:.0f} MB, {wall:.0f} s "
        f"wall, all ranks' resident memory at most {peak[0] / 1e9:.1f} GB together"
    )
    shutil.rmtree(logs, ignore_errors=True)


def open_job(folder: Path, repeat: int, diverging: str) -> None:
    work = Path(tempfile.mkdtemp(prefix="ranks64-open-"))
    shutil.copy(DDP_TRAIN, work / DDP_TRAIN.name)  # the CLI's workspace (its cwd) holds the script the ranks ran
    best, out = float("inf"), ""
    for i in range(repeat):
        start = time.perf_counter()
        proc = subprocess.run(
            ["node", str(REPO / "dist" / "cli.js"), "inspect", str(folder), "--out", str(work / f"r{i}")],
            check=False,
            capture_output=True,
            text=True,
            cwd=work,
        )
        best = min(best, time.perf_counter() - start)
        out = proc.stdout
        if proc.returncode != 0:
            raise SystemExit(proc.stdout[-2000:] + proc.stderr[-2000:])
    ranks = len(list((folder / "ranks").iterdir()))
    print(f"{ranks} attached ranks: compile-lens inspect {best:.2f} s (best of {repeat})")
    said = [
        line.strip() for line in out.splitlines() if " recompiled " in line and line.lstrip().startswith(DDP_TRAIN.name)
    ]
    print("\n".join(f"  {line}" for line in said))
    line = (
        DDP_TRAIN.read_text()
        .split("\n")
        .index(next(text for text in DDP_TRAIN.read_text().split("\n") if TRAIN_LINE in text))
        + 1
    )
    expected = f"{DDP_TRAIN.name}:{line}  ranks {', '.join(diverging.split(','))} recompiled"
    if not any(s.startswith(expected) for s in said):
        raise SystemExit(f"the divergence is not grouped as expected ({expected!r}):\n{out[-3000:]}")
    subprocess.run(
        [
            "node",
            "--import",
            "tsx",
            str(REPO / "bench" / "ranksOpen.ts"),
            "--report",
            str(work / f"r{repeat - 1}" / "report.json"),
            "--repeat",
            str(repeat),
        ],
        check=True,
        cwd=REPO,
    )
    shutil.rmtree(work, ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command", required=True)
    gen = sub.add_parser("generate")
    gen.add_argument("--out", type=Path, required=True)
    gen.add_argument("--launchers", type=int, default=8)
    gen.add_argument("--per-launcher", type=int, default=8)
    gen.add_argument(
        "--backend",
        default="inductor",
        help="aot_eager: Dynamo's graphs, breaks and recompiles without "
        "Inductor's C++ compiles (64 inductor ranks on 16 cores did not finish in 8 minutes)",
    )
    opened = sub.add_parser("open")
    opened.add_argument("folder", type=Path)
    opened.add_argument("--repeat", type=int, default=3)
    for p in (gen, opened):
        p.add_argument("--diverging", default="3,17,41")
    args = parser.parse_args()
    if args.command == "generate":
        generate(args.out.resolve(), args.launchers, args.per_launcher, args.diverging, args.backend)
    else:
        open_job(args.folder.resolve(), args.repeat, args.diverging)
    return 0


if __name__ == "__main__":
    sys.exit(main())
