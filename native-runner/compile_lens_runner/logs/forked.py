"""Work on one log, or a folder of them, spread over forked processes: a forked worker sees this process's memory as
it is (the records read, the closures to run), so nothing is copied to it or sent but its result."""

from __future__ import annotations

import concurrent.futures
import multiprocessing
import os
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from ..measure import host

_Result = TypeVar("_Result")
_Here = TypeVar("_Here")
_Before = TypeVar("_Before")
_WORK: list[Callable[[], Any]] = []  # what the forked workers run, by index


def _run(index: int) -> Any:
    return _WORK[index]()


def cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def others_running() -> float:
    """Runnable threads of other processes now (/proc/stat, measure/host.py); where the host does not say, the load
    average over the last minute (0 where unknown). Now, not the minute's average: the average still counts this
    process's own last minute (a bench's previous round, the extension's last read) and would keep a free core busy."""
    now = host.sample_host().others_running
    if now is not None:
        return float(now)
    return os.getloadavg()[0] if hasattr(os, "getloadavg") else 0.0


def can_fork() -> bool:
    """Whether work can go to forked workers: two cores, fork (a spawned worker would run the command again), and not
    in a worker already (one forked here splits no further)."""
    return (
        cores() >= 2 and "fork" in multiprocessing.get_all_start_methods() and multiprocessing.parent_process() is None
    )


def sharing() -> bool:
    """Whether work on one log's records is worth forked workers now: they can be forked and a core is idle. Where all
    are busy a worker wins no time and costs a fifth more CPU (the pages of records touched on both sides are copied,
    records are sent back: docs/BENCHMARKS.md)."""
    return can_fork() and others_running() <= cores() - 2


def alongside(forked: list[Callable[[], _Result]], here: Callable[[], _Here]) -> tuple[list[_Result], _Here]:
    """Each of `forked` in a forked process (their results come back pickled, in order) while `here` runs in this one;
    one after the other when forking is not worth it (`sharing`)."""
    if not forked or not sharing():
        return [work() for work in forked], here()
    _WORK[:] = forked
    try:
        with concurrent.futures.ProcessPoolExecutor(
            len(forked), mp_context=multiprocessing.get_context("fork")
        ) as pool:
            futures = [pool.submit(_run, index) for index in range(len(forked))]
            done = here()
            return [future.result() for future in futures], done
    finally:
        _WORK.clear()


def shared(
    tasks: Sequence[Callable[[], _Result]],
    before: Callable[[], _Before],
    after: Callable[[_Before], _Here],
    worth_it: bool,
) -> tuple[list[_Result], _Here]:
    """Every task's result (in order) and after(before()). A forked worker takes the tasks in order, one at a time,
    while this process runs before(), then takes the ones left, then runs after(): a shared count says which is next,
    so the two finish about together whatever each task costs. All here, one after the other, when not worth_it."""
    if not worth_it or not sharing():
        first = before()
        return [task() for task in tasks], after(first)
    taken = multiprocessing.get_context("fork").Value("i", 0)

    def take() -> dict[int, _Result]:
        done: dict[int, _Result] = {}
        while True:
            with taken.get_lock():
                index = taken.value
                taken.value += 1
            if index >= len(tasks):
                return done
            done[index] = tasks[index]()

    def here() -> tuple[dict[int, _Result], _Here]:
        first = before()
        return take(), after(first)

    (theirs,), (ours, last) = alongside([take], here)
    return [ours[i] if i in ours else theirs[i] for i in range(len(tasks))], last


def each(work: Callable[..., _Result], jobs: list[tuple[Any, ...]]) -> list[_Result]:
    """work(*job) for each job, in order, in one forked process per core."""
    if not can_fork():
        return [work(*job) for job in jobs]
    with concurrent.futures.ProcessPoolExecutor(
        min(cores(), len(jobs)), mp_context=multiprocessing.get_context("fork")
    ) as pool:
        return list(pool.map(work, *zip(*jobs, strict=True)))
