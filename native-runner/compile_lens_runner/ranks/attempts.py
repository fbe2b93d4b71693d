"""The attempts of one attached job in its folder DIR (torchrun --max-restarts restarts every worker of the job): the
first attempt's ranks in DIR/ranks/, attempt n's in DIR/attempt<n>/ranks/. Each folder is written once, by its own
attempt; the newest attempt is the run, the earlier ones are kept as they are."""

from __future__ import annotations

import os
import re
from typing import Any

from ..report import document
from .paths import ATTACH_FILE

_ATTEMPT = re.compile(r"^attempt([1-9]\d*)$")


def attempt_dir(out_dir: str, attempt: int) -> str:
    return out_dir if attempt == 0 else os.path.join(out_dir, f"attempt{attempt}")


def attempts(out_dir: str) -> list[tuple[int, str]]:
    """(attempt, its job folder) for every attempt that wrote ranks under DIR, oldest first."""
    found = [(0, out_dir)] if os.path.isdir(os.path.join(out_dir, "ranks")) else []
    names = os.listdir(out_dir) if os.path.isdir(out_dir) else []
    numbered = sorted(int(m[1]) for m in map(_ATTEMPT.match, names) if m)
    found += [
        (n, attempt_dir(out_dir, n)) for n in numbered if os.path.isdir(os.path.join(attempt_dir(out_dir, n), "ranks"))
    ]
    return found


def attached_ranks(job_dir: str) -> list[dict[str, Any]]:
    """The attach.json of every rank folder of one attempt."""
    ranks_dir = os.path.join(job_dir, "ranks")
    names = sorted(os.listdir(ranks_dir)) if os.path.isdir(ranks_dir) else []
    return [document.read(os.path.join(ranks_dir, name, ATTACH_FILE)) or {} for name in names]


def earlier_attempts(out_dir: str, local_rank: int, launcher: dict[str, Any]) -> int:
    """How many attempts of this job the same launcher already ran: each attempt starts every local rank of every
    launcher once, so the earlier folders of this local rank written under this launcher count them. A folder of
    another launcher (another job, or a run by hand) counts nothing: attach refuses to write over it."""
    same = [
        n
        for n, folder in attempts(out_dir)
        for facts in attached_ranks(folder)
        if facts.get("launcher") == launcher and facts.get("localRank") == local_rank
    ]
    return max(same) + 1 if same else 0
