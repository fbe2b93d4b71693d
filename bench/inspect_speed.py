"""How long `inspect` takes to read a large compiler log, against tlparse on the same file, in one run.

    python bench/inspect_speed.py [--size-mb 100] [--tlparse PATH] [LOG ...]

The log is made by concatenating real logs (default: the project's own test/fixtures/logs/*.log) until it reaches
--size-mb; both tools are timed end to end (process start to exit, report written), best of --repeat runs each."""
from __future__ import annotations

import argparse
import gzip
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def build_log(sources: list[Path], size_mb: float, path: Path) -> int:
    chunks = [gzip.decompress(p.read_bytes()) if p.name.endswith(".gz") else p.read_bytes() for p in sources]
    target = int(size_mb * 1024 * 1024)
    written = 0
    with open(path, "wb") as f:
        while written < target:
            for chunk in chunks:
                f.write(chunk if chunk.endswith(b"\n") else chunk + b"\n")
                written += len(chunk)
    return written


def best_of(command: list[str], repeat: int, env: dict[str, str] | None = None) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        proc = subprocess.run(command, capture_output=True, env=env)
        times.append(time.perf_counter() - start)
        if proc.returncode != 0:
            raise SystemExit(f"{command[0]} failed: {proc.stderr.decode()[-500:]}")
    return min(times)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("logs", nargs="*", type=Path)
    parser.add_argument("--size-mb", type=float, default=100.0)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--tlparse", default=shutil.which("tlparse"))
    args = parser.parse_args()
    sources = args.logs or sorted((REPO / "test" / "fixtures" / "logs").glob("*.log"))
    work = Path(tempfile.mkdtemp(prefix="inspect-speed-"))
    log = work / "big.log"
    size = build_log(sources, args.size_mb, log)
    env = dict(os.environ, PYTHONPATH=str(REPO / "native-runner"))
    ours = best_of([sys.executable, "-m", "compile_lens_runner", "inspect", str(log), "--out", str(work / "ours")], args.repeat, env)
    print(f"log: {size / 1e6:.1f} MB from {', '.join(p.name for p in sources)}")
    print(f"compile-lens inspect: {ours:.2f} s ({size / 1e6 / ours:.0f} MB/s)")
    if args.tlparse:
        theirs = best_of([args.tlparse, str(log), "-o", str(work / "tl"), "--overwrite", "--no-browser"], args.repeat)
        print(f"tlparse: {theirs:.2f} s ({size / 1e6 / theirs:.0f} MB/s); inspect / tlparse = {ours / theirs:.2f}")
    shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
