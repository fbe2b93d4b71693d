"""How long `inspect` takes to read a large compiler log, against tlparse on the same file, in one run.

    python bench/inspect_speed.py [--size-mb 100] [--ranks N] [--tlparse PATH] [--repeat 3] [--baseline CHECKOUT] [LOG ...]

The log is made by concatenating real logs (default: the project's own test/fixtures/logs/*.log; .log.gz are
decompressed) until it reaches --size-mb; with --ranks N, a folder of N rank logs (dedicated_log_torch_trace_rank_K.log)
of --size-mb in all is made instead. The tools run in turn, --repeat rounds (baseline, inspect, tlparse in each: a
host whose load changes slows all of them alike), each end to end (process start to exit, report written), with its CPU
time and peak memory (the largest resident set of the process or of any worker it waited for); the best and the
median round are printed. --baseline: another checkout's `inspect` (e.g. main's, before a change) timed in the same
rounds. tlparse reads one log: for a folder it is given each rank's log in turn (the sum is printed)."""

from __future__ import annotations

import argparse
import gzip
import itertools
import os
import shutil
import statistics
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


def run_all(commands: list[list[str]], env: dict[str, str] | None = None) -> tuple[float, float, int]:
    """The total time and CPU time of running `commands` one after another, and their largest peak memory."""
    total = cpu = 0.0
    peak = 0
    for command in commands:
        seconds, used, rss = timed(command, env)
        total, cpu, peak = total + seconds, cpu + used, max(peak, rss)
    return total, cpu, peak


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("logs", nargs="*", type=Path)
    parser.add_argument("--size-mb", type=float, default=100.0)
    parser.add_argument("--ranks", type=int, default=0, help="a folder of this many rank logs instead of one log")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--tlparse", default=shutil.which("tlparse"))
    parser.add_argument("--baseline", type=Path, help="another checkout of this repository whose inspect is timed too")
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
        tools: dict[str, tuple[list[list[str]], dict[str, str] | None]] = {}
        for name, checkout in (("baseline inspect", args.baseline), ("compile-lens inspect", REPO)):
            if checkout is not None:
                tools[name] = (
                    [[sys.executable, "-m", "compile_lens_runner", "inspect", str(target), "--out", str(work / "out")]],
                    dict(os.environ, PYTHONPATH=str(checkout.resolve() / "native-runner")),
                )
        if args.tlparse:
            tools["tlparse"] = (
                [[args.tlparse, str(log), "-o", str(work / "tl"), "--overwrite", "--no-browser"] for log in logs],
                None,
            )
        print(
            f"{'folder of ' + str(args.ranks) + ' rank logs' if args.ranks else 'log'}: {size / 1e6:.1f} MB from "
            f"{', '.join(p.name for p in sources)}; {os.cpu_count()} cores; load average {os.getloadavg()[0]:.1f}"
        )
        rounds: dict[str, list[tuple[float, float, int]]] = {name: [] for name in tools}
        for _ in range(args.repeat):
            for name, (commands, env) in tools.items():
                rounds[name].append(run_all(commands, env))
        walls = {name: sorted(wall for wall, _, _ in runs) for name, runs in rounds.items()}
        for name, runs in rounds.items():
            best = min(runs)
            print(
                f"{name}: best {best[0]:.2f} s ({size / 1e6 / best[0]:.0f} MB/s; CPU {best[1]:.2f} s), median "
                f"{statistics.median(walls[name]):.2f} s, peak RSS {max(r[2] for r in runs) / 1e6:.0f} MB "
                f"({max(r[2] for r in runs) / size:.2f}x the logs)"
            )
        for name in ("baseline inspect", "compile-lens inspect"):
            if name in rounds and "tlparse" in rounds:
                ours, theirs = min(rounds[name]), min(rounds["tlparse"])
                print(
                    f"tlparse / {name} = {theirs[0] / ours[0]:.2f} best, "
                    f"{statistics.median(walls['tlparse']) / statistics.median(walls[name]):.2f} median "
                    f"(CPU {theirs[1] / ours[1]:.2f})"
                )
        print(f"load average after: {os.getloadavg()[0]:.1f}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
