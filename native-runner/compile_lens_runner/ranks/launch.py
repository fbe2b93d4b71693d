"""The supervisor's side of a torchrun job: the launch command, and stopping its ranks so that each writes what it
has (SIGTERM, rank_stop.py) and, on a timeout, says where it was (SIGUSR1: faulthandler dumps its Python stacks)."""

from __future__ import annotations

import os
import signal
import sys
import time

from .. import formats
from .paths import EXIT_FILE, PID_FILE, STACKS_FILE, rank_dir

STACKS_WAIT_S = 3.0
STOP_GRACE_S = 5.0  # under the extension's 10 s between its SIGTERM and SIGKILL
# A rank still running this many times as long as the first rank to finish took (and at least STRAGGLER_MIN_S after
# it) is a straggler: stopped with its stack, and the job's report made from what the ranks wrote (issue 29: a DDP
# job's profile once waited 14 minutes on a rank that never wrote its file).
STRAGGLER_FACTOR = 3.0
STRAGGLER_MIN_S = 30.0


class Stragglers:
    """Watches a torchrun job's ranks: `check()` returns the ranks still running long after the first one finished
    (its worker wrote exit.json), else []."""

    def __init__(self, job_dir: str, world: int) -> None:
        self.job_dir, self.world = job_dir, world
        self.started = time.monotonic()
        self.first_done: float | None = None

    def check(self) -> list[int]:
        done = [r for r in range(self.world) if os.path.exists(os.path.join(rank_dir(self.job_dir, r), EXIT_FILE))]
        if not done or len(done) == self.world:
            return []
        now = time.monotonic()
        if self.first_done is None:
            self.first_done = now
        took = self.first_done - self.started
        if now < self.first_done + max(STRAGGLER_MIN_S, (STRAGGLER_FACTOR - 1) * took):
            return []
        return [r for r in range(self.world) if r not in done]

    def text(self, ranks: list[int]) -> str:
        assert self.first_done is not None
        return (
            f"rank {', '.join(map(str, ranks))} still ran {formats.seconds(time.monotonic() - self.first_done)} after rank(s) "
            f"that finished in {formats.seconds(self.first_done - self.started)}, and was stopped"
        )


def command(spec_path: str, nproc: int) -> list[str]:
    """torchrun itself (torch.distributed.run): one rendezvous on this host, no restarts (a failure is a finding,
    not something to retry), each rank running the runner's rank entry."""
    return [
        sys.executable,
        "-m",
        "torch.distributed.run",
        "--nproc-per-node",
        str(nproc),
        "--standalone",
        "--max-restarts",
        "0",
        "-m",
        "compile_lens_runner",
        "_rank",
        spec_path,
    ]


def _pids(job_dir: str, world: int) -> dict[int, int]:
    pids = {}
    for rank in range(world):
        try:
            with open(os.path.join(rank_dir(job_dir, rank), PID_FILE), encoding="utf-8") as f:
                pids[rank] = int(f.read().strip())
        except (OSError, ValueError):
            continue
    return pids


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        try:
            os.kill(pid, 0)
        except OSError:
            return False
        return True


def _signal(pids: dict[int, int], signum: int) -> dict[int, int]:
    sent = {}
    for rank, pid in pids.items():
        try:
            os.kill(pid, signum)
            sent[rank] = pid
        except OSError:
            continue
    return sent


def request_stacks(job_dir: str, world: int) -> None:
    """Asks every live rank for its Python stacks and waits until each dump has been written (or STACKS_WAIT_S)."""
    sent = _signal({r: p for r, p in _pids(job_dir, world).items() if _alive(p)}, signal.SIGUSR1)
    paths = [os.path.join(rank_dir(job_dir, rank), STACKS_FILE) for rank in sent]
    deadline = time.monotonic() + STACKS_WAIT_S
    sizes: list[int] = []
    while time.monotonic() < deadline:
        time.sleep(0.2)
        now = [os.path.getsize(p) if os.path.exists(p) else 0 for p in paths]
        if all(now) and now == sizes:  # every dump is there and stopped growing
            return
        sizes = now


def stop_ranks(job_dir: str, world: int) -> None:
    """SIGTERM to every rank (each writes its report or a snapshot, then exits); waits up to STOP_GRACE_S."""
    sent = _signal({r: p for r, p in _pids(job_dir, world).items() if _alive(p)}, signal.SIGTERM)
    deadline = time.monotonic() + STOP_GRACE_S
    while time.monotonic() < deadline and any(_alive(pid) for pid in sent.values()):
        time.sleep(0.1)
