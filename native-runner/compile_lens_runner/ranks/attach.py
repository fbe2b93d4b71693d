"""`python -m compile_lens_runner attach --out DIR SCRIPT [ARGS]`: one rank of a job started by the user's own launcher
(`torchrun --nnodes N ... -m compile_lens_runner attach ...`, `srun python -m compile_lens_runner attach ...`), on any
host. The rank reads who it is from the launcher's environment, works in DIR/ranks/rank<k>/ (its report, compiler log
and profiler window, as a rank of `--nproc-per-node` does) and leaves stdout, the exit status and SIGUSR1 to the
program. Nothing merges the ranks here: `inspect DIR` does, once the folders are in one place.

torchrun --max-restarts N restarts every worker of the job when one fails (and when a node joins again): a restarted
worker finds its rank's folder written by the earlier attempt. It is the same job when the folder's attach.json names
the same launcher (torchrun's agent, this process's parent, on this host): the attempt then works in
DIR/attempt<n>/ranks/rank<k>/ (attempts.py), and the earlier attempt's files stay as they are. Anything else in the
folder is another run: refused, nothing deleted."""

from __future__ import annotations

import dataclasses
import json
import os
import socket
import time
from collections.abc import Callable
from typing import Any

from ..errors import RunnerError
from ..progress import channel
from ..report import document
from .attempts import attempt_dir, earlier_attempts
from .entry import run_rank
from .paths import ATTACH_FILE, RankInfo, rank_dir

SCRIPT = "script"


def _int_env(*names: str) -> int | None:
    for name in names:
        value = os.environ.get(name)
        if value is not None and value.strip().lstrip("-").isdigit():
            return int(value)
    return None


def launcher() -> dict[str, Any] | None:
    """Who started this process, when it is a torchrun agent's worker (the only launcher that restarts ranks into the
    same folder): the agent's pid and host, and the job's rendezvous id."""
    if "TORCHELASTIC_RUN_ID" not in os.environ:
        return None
    return {"host": socket.gethostname(), "pid": os.getppid(), "runId": os.environ["TORCHELASTIC_RUN_ID"]}


def rank_from_env(job_dir: str) -> RankInfo:
    """torchrun (RANK, LOCAL_RANK, WORLD_SIZE, GROUP_RANK), Slurm's srun (SLURM_PROCID, SLURM_LOCALID, SLURM_NTASKS,
    SLURM_NODEID), or one plain process (rank 0 of 1)."""
    rank = _int_env("RANK", "SLURM_PROCID")
    world = _int_env("WORLD_SIZE", "SLURM_NTASKS")
    if rank is None or world is None:
        rank, world = 0, 1
    local = _int_env("LOCAL_RANK", "SLURM_LOCALID")
    node = _int_env("GROUP_RANK", "SLURM_NODEID")
    return RankInfo(
        rank,
        local if local is not None else rank,
        world,
        job_dir,
        attached=True,
        node_rank=node,
        host=socket.gethostname(),
    )


def spec_for(script: str, args: list[str], device: str, calls: int | None) -> dict[str, Any]:
    local_world = _int_env("LOCAL_WORLD_SIZE", "SLURM_NTASKS_PER_NODE") or 1
    return {
        "target": {"script": os.path.abspath(script), "args": args},
        "device": device,
        "modes": ["default"],
        "dynamic": "auto",
        "fullgraph": False,
        "backend": "inductor",
        "timeout": None,
        "rounds": None,
        "quick": False,
        "train": False,
        "cwd": os.getcwd(),
        "calls": calls,
        "whatIfModes": None,
        "nprocPerNode": local_world,
    }


def _fresh(folder: str) -> None:
    """A rank's folder from an earlier run would mix two runs' logs and reports: refuse it, delete nothing."""
    if os.path.isdir(folder) and os.listdir(folder):
        raise RunnerError(
            "bad-target",
            f"{folder} already holds a run (attach never overwrites one).",
            "Give each run its own --out directory (e.g. with the job id in its name).",
        )


def main(
    out_dir: str, script: str, args: list[str], device: str, calls: int | None, run_worker: Callable[[str], int]
) -> int:
    """Runs the script as this rank; returns the script's own exit status (the launcher's view of the rank), else the
    worker's."""
    channel.leave_stdout()
    started_by = launcher()
    info = rank_from_env(os.path.abspath(out_dir))
    # a worker restarted by the launcher that started the earlier attempts: the next attempt's folder
    attempt = earlier_attempts(info.job_dir, info.local_rank, started_by) if started_by else 0
    info = dataclasses.replace(info, job_dir=attempt_dir(info.job_dir, attempt))
    _fresh(rank_dir(info.job_dir, info.rank))
    os.makedirs(info.dir, exist_ok=True)
    with open(os.path.join(info.dir, ATTACH_FILE), "w", encoding="utf-8") as f:
        json.dump(dict(info.to_json(), pid=os.getpid(), started=time.time(), attempt=attempt, launcher=started_by), f)
    # read when torch is imported (by the worker, after this): kernels name the user lines they came from
    os.environ.setdefault("INDUCTOR_PROVENANCE", "1")
    os.environ.setdefault("TEARDOWN_CUPTI", "1")  # see process/supervisor.worker_env
    code = run_rank(spec_for(script, args, device, calls), info, run_worker, stacks_on_signal=False)
    report = document.read_report(os.path.join(info.worker_dir, "report.json"))
    script_mode = next((m for m in report["modes"] if m["mode"] == SCRIPT), None) if report else None
    exit_code = script_mode.get("scriptExitCode") if script_mode else None
    return exit_code if isinstance(exit_code, int) else code
