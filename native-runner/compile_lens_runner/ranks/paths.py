"""Where each rank of a torchrun job (`--nproc-per-node N`) keeps its files inside the job's report directory.

Rank 0's report is the job's headline: its worker writes into the job directory itself (report.json, torch_trace/,
compiler/), so the merged report keeps rank 0's relative paths. Every rank, rank 0 included, also has
`ranks/rank<k>/`: the worker directory of ranks > 0, and for all ranks their profiler trace, the Python stacks
dumped on request, and the bookkeeping the supervisor reads when the job ends.

A job run under the user's own launcher (`attach`, attach.py) is "attached": there is no supervisor and no headline
report in the job directory, so every rank, rank 0 included, works in its own `ranks/rank<k>/` (each node writes only
its ranks' folders, which may be copied back from several hosts), with ATTACH_FILE saying who it was and where.
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
# an attached rank: {rank, localRank, worldSize, nodeRank, host, pid, started, attempt, launcher} (attempts.py)
ATTACH_FILE = "attach.json"


def rank_dir(job_dir: str, rank: int) -> str:
    return os.path.join(job_dir, "ranks", f"rank{rank}")


def worker_dir(job_dir: str, rank: int, attached: bool = False) -> str:
    return job_dir if rank == 0 and not attached else rank_dir(job_dir, rank)


def trace_name(rank: int) -> str:
    return f"rank{rank}.trace.json"


@dataclass(frozen=True)
class RankInfo:
    rank: int
    local_rank: int
    world_size: int
    job_dir: str
    attached: bool = False
    node_rank: int | None = None
    host: str | None = None

    @property
    def dir(self) -> str:
        return rank_dir(self.job_dir, self.rank)

    @property
    def worker_dir(self) -> str:
        return worker_dir(self.job_dir, self.rank, self.attached)

    def to_json(self) -> dict[str, Any]:
        """The run spec's `rank` (the supervisor's word to a rank's worker), not the report's."""
        return {
            "rank": self.rank,
            "localRank": self.local_rank,
            "worldSize": self.world_size,
            "jobDir": self.job_dir,
            "attached": self.attached,
            "nodeRank": self.node_rank,
            "host": self.host,
        }

    @staticmethod
    def from_spec(spec: dict[str, Any]) -> RankInfo | None:
        info = spec.get("rank")
        if not isinstance(info, dict):
            return None
        node = info.get("nodeRank")
        return RankInfo(
            int(info["rank"]),
            int(info["localRank"]),
            int(info["worldSize"]),
            str(info["jobDir"]),
            bool(info.get("attached")),
            int(node) if node is not None else None,
            info.get("host"),
        )
