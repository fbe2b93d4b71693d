"""One rank of a torchrun job (`profile --script FILE --nproc-per-node N`): what torchrun starts N times, as
`python -m compile_lens_runner _rank SPEC`. It gives the rank its own directory and compiler log, lets only rank 0
speak the progress protocol, arms the stack dump (SIGUSR1) and the stop snapshot (SIGTERM), then runs the worker
on the script like a single process would (script_mode reads the rank from the spec)."""

from __future__ import annotations

import ctypes
import faulthandler
import json
import os
import signal
import time
from collections.abc import Callable
from typing import Any

from ..progress import channel
from . import stop as rank_stop
from .paths import EXIT_FILE, PID_FILE, SNAPSHOT_FILE, SPEC_FILE, STACKS_FILE, RankInfo


def _rank_from_env(job_dir: str) -> RankInfo:
    rank = int(os.environ["RANK"])
    return RankInfo(rank, int(os.environ.get("LOCAL_RANK", rank)), int(os.environ["WORLD_SIZE"]), job_dir)


def _select_gpu(local_rank: int) -> None:
    """One GPU per local rank, as torchrun scripts do: the report then names this rank's GPU, and nothing the
    runner does creates a CUDA context on another rank's GPU."""
    try:
        import torch
    except ImportError:
        return  # the worker reports the missing torch
    if torch.cuda.is_available() and local_rank < torch.cuda.device_count():
        torch.cuda.set_device(local_rank)


def _stop_with_parent() -> None:
    """torchrun starts each rank in its own session: should torchrun itself be killed, the rank is told to stop
    (SIGTERM, then rank_stop writes its snapshot) instead of running on as an orphan. Linux only."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGTERM, 0, 0, 0)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def main(spec_path: str, run_worker: Callable[[str], int]) -> int:
    """run_worker: the worker's main (the CLI passes it, so that ranks/ never imports the worker above it)."""
    with open(spec_path, encoding="utf-8") as f:
        spec = json.load(f)
    return run_rank(spec, _rank_from_env(spec["workdir"]), run_worker, stacks_on_signal=True)


def run_rank(spec: dict[str, Any], info: RankInfo, run_worker: Callable[[str], int], stacks_on_signal: bool) -> int:
    """Runs the worker as this rank. stacks_on_signal: SIGUSR1 dumps the Python stacks (the supervisor asks on a
    timeout); an attached rank leaves SIGUSR1 to the user's program (Slurm sends it before preempting a job)."""
    os.makedirs(info.dir, exist_ok=True)
    os.makedirs(info.worker_dir, exist_ok=True)
    # read by torch when it is imported: each rank follows its own log (torch names a rank's log after the rank
    # only once the process group exists, after the runner's first records)
    os.environ["TORCH_TRACE"] = os.path.join(info.worker_dir, "torch_trace")
    with open(os.path.join(info.dir, PID_FILE), "w", encoding="utf-8") as f:
        f.write(str(os.getpid()))
    if stacks_on_signal and hasattr(signal, "SIGUSR1"):  # POSIX
        # stays open for the process's life: faulthandler writes to it on SIGUSR1
        stacks = open(os.path.join(info.dir, STACKS_FILE), "w", encoding="utf-8")  # noqa: SIM115
        faulthandler.register(signal.SIGUSR1, file=stacks, all_threads=True)
    if info.rank != 0:
        channel.mute()
    rank_stop.install(os.path.join(info.dir, SNAPSHOT_FILE))
    _stop_with_parent()
    rank_spec_path = os.path.join(info.dir, SPEC_FILE)
    with open(rank_spec_path, "w", encoding="utf-8") as f:
        json.dump(dict(spec, workdir=info.worker_dir, rank=info.to_json()), f)
    _select_gpu(info.local_rank)
    code = run_worker(rank_spec_path)
    stopped = rank_stop.stopped_before_finishing()
    rank_stop.finished()
    with open(os.path.join(info.dir, EXIT_FILE), "w", encoding="utf-8") as f:
        json.dump({"code": code, "time": time.time(), "stopped": stopped}, f)
    return code
