"""A torchrun rank still running long after the others finished is named (ranks/launch.Stragglers), on a job folder
with exit files and a fake clock: no process, no timing of this host."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from compile_lens_runner.ranks import launch
from compile_lens_runner.ranks.paths import EXIT_FILE, rank_dir


def test_a_rank_running_long_after_the_others_is_a_straggler(tmp_path: Path, monkeypatch: Any) -> None:
    now = [100.0]
    monkeypatch.setattr(launch.time, "monotonic", lambda: now[0])
    watch = launch.Stragglers(str(tmp_path), 2)
    now[0] = 136.0  # rank 1 finished after 36 s
    assert watch.check() == []
    os.makedirs(rank_dir(str(tmp_path), 1))
    Path(rank_dir(str(tmp_path), 1), EXIT_FILE).write_text("{}")
    assert watch.check() == []  # first seen done at 136 s: rank 0 gets (3 - 1) x 36 s more
    now[0] = 136.0 + 2 * 36 - 1
    assert watch.check() == []
    now[0] = 136.0 + 2 * 36 + 1
    assert watch.check() == [0]
    assert watch.text([0]).startswith("rank 0 still ran 73 s after rank(s) that finished in 36 s")
    os.makedirs(rank_dir(str(tmp_path), 0))
    Path(rank_dir(str(tmp_path), 0), EXIT_FILE).write_text("{}")
    assert watch.check() == []  # all done: nobody to stop


def test_a_quick_job_waits_at_least_the_minimum(tmp_path: Path, monkeypatch: Any) -> None:
    now = [0.0]
    monkeypatch.setattr(launch.time, "monotonic", lambda: now[0])
    watch = launch.Stragglers(str(tmp_path), 2)
    os.makedirs(rank_dir(str(tmp_path), 0))
    Path(rank_dir(str(tmp_path), 0), EXIT_FILE).write_text("{}")
    now[0] = 2.0
    assert watch.check() == []
    now[0] = 2.0 + launch.STRAGGLER_MIN_S - 1
    assert watch.check() == []
    now[0] = 2.0 + launch.STRAGGLER_MIN_S + 1
    assert watch.check() == [1]
