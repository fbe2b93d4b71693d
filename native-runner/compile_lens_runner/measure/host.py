"""The host CPU's speed as a measurement sees it: a probe of pure-Python work, the run's fastest state, and moving the
timing thread to the CPU that probes fastest (on a VM one vCPU can run at half speed while another runs at full)."""
from __future__ import annotations

import contextlib
import math
import os
import time
from dataclasses import dataclass
from typing import Callable, Iterator

from . import estimator


def cpu_probe() -> float:
    """ms of a fixed piece of pure-Python work: how fast the host CPU runs this process right now. Its fastest value
    stays within a few % in a process while its median moves by up to 2x, and a launch-bound eager round slows with
    it (docs/BENCHMARKS.md §constants: probe)."""
    started = time.perf_counter()
    total = 0
    for i in range(20000):
        total += i * i
    return (time.perf_counter() - started) * 1000.0


def movable_cpus(device: str) -> tuple[int, ...]:
    """The CPUs the timing thread may move between: those it may run on, for a CUDA run that is the only process of
    its job on this host. (A CPU run's own threads inherit the mask and would share one CPU; ranks of a torchrun
    job would crowd onto the same fast CPU.)"""
    if device != "cuda" or not hasattr(os, "sched_setaffinity") or int(os.environ.get("LOCAL_WORLD_SIZE", "1")) > 1:
        return ()
    cpus = tuple(sorted(os.sched_getaffinity(0)))
    return cpus if len(cpus) > 1 else ()


def _pin_thread(cpus: set[int]) -> None:
    os.sched_setaffinity(0, cpus)  # 0: the calling thread only


@dataclass
class HostSpeed:
    """The fastest CPU probe of the run so far: the host's fastest state, which every measurement of the run waits
    to have seen. On a VM a CPU may run at half speed for seconds to minutes while another runs at full speed
    (docs/BENCHMARKS.md §constants: vCPUs), so when the probe
    reads slow and there are CPUs to choose from, the timing thread moves to the one that probes fastest."""
    fastest_ms: float = math.inf
    measure: Callable[[], float] = cpu_probe
    cpus: tuple[int, ...] = ()  # movable_cpus(); () keeps the thread where the OS puts it
    pin: Callable[[set[int]], None] = _pin_thread

    def probe(self) -> float:
        ms = self.measure()
        if self.cpus and (self.fastest_ms == math.inf or not estimator.at_fast_state(ms, self.fastest_ms)):
            ms = self._move_to_fastest_cpu(ms)
        self.fastest_ms = min(self.fastest_ms, ms)
        return ms

    def _move_to_fastest_cpu(self, here_ms: float) -> float:
        readings = {}
        for cpu in self.cpus:
            try:
                self.pin({cpu})
            except OSError:  # the CPU left this process's cpuset since the run began
                continue
            readings[cpu] = self.measure()
        if not readings:
            return here_ms
        self.pin({min(readings, key=readings.__getitem__)})
        return self.measure()  # not the sweep's reading: the fastest of many noisy readings reads faster than the CPU runs

    @contextlib.contextmanager
    def measuring(self) -> Iterator[None]:
        """Around one measurement: the thread gets back every CPU it had, so nothing the user's code starts later
        inherits a single-CPU mask."""
        try:
            yield
        finally:
            if self.cpus:
                self.pin(set(self.cpus))

    def fast_rounds(self, probes_ms: list[float]) -> int:
        return sum(estimator.at_fast_state(p, self.fastest_ms) for p in probes_ms)
