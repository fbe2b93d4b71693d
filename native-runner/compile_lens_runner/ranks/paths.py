"""Where each rank of a torchrun job (`--nproc-per-node N`) keeps its files inside the job's report directory.

Rank 0's report is the job's headline: its worker writes into the job directory itself (report.json, torch_trace/,
compiler/), so the merged report keeps rank 0's relative paths. Every rank, rank 0 included, also has
`ranks/rank<k>/`: the worker directory of ranks > 0, and for all ranks their profiler trace, the Python stacks
dumped on request, and the bookkeeping the supervisor reads when the job ends.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

PID_FILE = "pid"
EXIT_FILE = "exit.json"  # written when the rank's worker returned: the report next to it is final
SPEC_FILE = "spec.json"
SNAPSHOT_FILE = "report.snapshot.json"  # written when the rank was stopped (SIGTERM) before finishing
STACKS_FILE = "stacks.txt"


def rank_dir(job_dir: str, rank: int) -> str:
    return os.path.join(job_dir, "ranks", f"rank{rank}")


def worker_dir(job_dir: str, rank: int) -> str:
    return job_dir if rank == 0 else rank_dir(job_dir, rank)


def trace_name(rank: int) -> str:
    return f"rank{rank}.trace.json"


@dataclass(frozen=True)
class RankInfo:
    rank: int
    local_rank: int
    world_size: int
    job_dir: str

    @property
    def dir(self) -> str:
        return rank_dir(self.job_dir, self.rank)

    @property
    def worker_dir(self) -> str:
        return worker_dir(self.job_dir, self.rank)

    def to_json(self) -> dict[str, Any]:
        return {"rank": self.rank, "localRank": self.local_rank, "worldSize": self.world_size, "jobDir": self.job_dir}

    @staticmethod
    def from_spec(spec: dict[str, Any]) -> "RankInfo | None":
        info = spec.get("rank")
        if not isinstance(info, dict):
            return None
        return RankInfo(int(info["rank"]), int(info["localRank"]), int(info["worldSize"]), str(info["jobDir"]))
