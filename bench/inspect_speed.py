"""How long `inspect` takes to read a large compiler log, against tlparse on the same file, in one run.

    python bench/inspect_speed.py [--size-mb 100] [--ranks N] [--tlparse PATH] [--repeat 3] [LOG ...]

The log is made by concatenating real logs (default: the project's own test/fixtures/logs/*.log; .log.gz are
decompressed) until it reaches --size-mb; with --ranks N, a folder of N rank logs (dedicated_log_torch_trace_rank_K.log)
of --size-mb in all is made instead. Both tools are timed end to end (process start to exit, report written), best of
--repeat runs each, with their peak memory (the largest resident set of the process or of any worker it waited for).
tlparse reads one log: for a folder it is given each rank's log in turn (the sum is printed)."""
from __future__ import annotations

import argparse
import gzip
import itertools
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
        for chunk in itertools.cycle(chunks):  # whole logs, while they fit (at least one)
            if written and written + len(chunk) > target:
                break
            f.write(chunk if chunk.endswith(b"\n") else chunk + b"\n")
            written += len(chunk)
    return written


def timed(command: list[str], env: dict[str, str] | None = None) -> tuple[float, float, int]:
    """Seconds, CPU seconds (user + system, with the workers it waited for) and peak RSS in bytes of one run (ru_maxrss:
    Linux reports the largest of the process and the children it waited for)."""
    start = time.perf_counter()
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"{command[0]} failed: {proc.stderr.read().decode()[-500:] if proc.stderr else ''}")
    return seconds, usage.ru_utime + usage.ru_stime, usage.ru_maxrss * 1024


def best_of(commands: list[list[str]], repeat: int, env: dict[str, str] | None = None) -> tuple[float, float, int]:
    """The best total time (and its CPU time) of running `commands` one after another, and the largest peak memory."""
    runs, peak = [], 0
    for _ in range(repeat):
        total = cpu = 0.0
        for command in commands:
            seconds, used, rss = timed(command, env)
            total, cpu, peak = total + seconds, cpu + used, max(peak, rss)
        runs.append((total, cpu))
    best, cpu = min(runs)
    return best, cpu, peak


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("logs", nargs="*", type=Path)
    parser.add_argument("--size-mb", type=float, default=100.0)
    parser.add_argument("--ranks", type=int, default=0, help="a folder of this many rank logs instead of one log")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--tlparse", default=shutil.which("tlparse"))
    args = parser.parse_args()
    sources = args.logs or sorted((REPO / "test" / "fixtures" / "logs").glob("*.log"))
    work = Path(tempfile.mkdtemp(prefix="inspect-speed-"))
    try:
        if args.ranks:
            target = work / "ranks"
            target.mkdir()
            logs = [target / f"dedicated_log_torch_trace_rank_{k}.log" for k in range(args.ranks)]
            size = sum(build_log(sources, args.size_mb / args.ranks, log) for log in logs)
        else:
            target = work / "big.log"
            logs = [target]
            size = build_log(sources, args.size_mb, target)
        env = dict(os.environ, PYTHONPATH=str(REPO / "native-runner"))
        ours, our_cpu, our_rss = best_of([[sys.executable, "-m", "compile_lens_runner", "inspect", str(target), "--out", str(work / "ours")]],
                                args.repeat, env)
        print(f"{'folder of ' + str(args.ranks) + ' rank logs' if args.ranks else 'log'}: {size / 1e6:.1f} MB from "
              f"{', '.join(p.name for p in sources)}; {os.cpu_count()} cores")
        print(f"compile-lens inspect: {ours:.2f} s ({size / 1e6 / ours:.0f} MB/s; CPU {our_cpu:.2f} s), peak RSS "
              f"{our_rss / 1e6:.0f} MB ({our_rss / size:.2f}x the logs)")
        if args.tlparse:
            theirs, their_cpu, their_rss = best_of([[args.tlparse, str(log), "-o", str(work / "tl"), "--overwrite", "--no-browser"]
                                         for log in logs], args.repeat)
            print(f"tlparse: {theirs:.2f} s ({size / 1e6 / theirs:.0f} MB/s; CPU {their_cpu:.2f} s), peak RSS "
                  f"{their_rss / 1e6:.0f} MB; tlparse / inspect = {theirs / ours:.2f} (CPU {their_cpu / our_cpu:.2f})")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
