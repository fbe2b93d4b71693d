"""The host CPU as a measurement sees it: a probe of pure-Python work, the run's fastest state, moving the timing
thread to the CPU that probes fastest (on a VM one vCPU can run at half speed while another runs at full), and, on a
CPU run, whether other processes held the cores torch's threads need (docs/BENCHMARKS.md § "Eager on a contended CPU
host": eager's multi-threaded ops waited on descheduled threads and a replay printed 704x)."""

from __future__ import annotations

import contextlib
import math
import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from .. import formats
from ..shapes.common import HostLoad, LoadAverage
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
    watch_load: bool = False  # a CPU run: each measurement samples the host's load (LoadWatch)

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
        return (
            self.measure()
        )  # not the sweep's reading: the fastest of many noisy readings reads faster than the CPU runs

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

    def load_watch(self) -> LoadWatch | None:
        """A fresh LoadWatch for one measurement of a CPU run, reading torch's thread count at each sample (the
        observed script may set it); None on CUDA, where the host's CPUs only launch work."""
        if not self.watch_load:
            return None
        import torch

        cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
        return LoadWatch(threads=torch.get_num_threads(), cpus=cpus, read_threads=torch.get_num_threads)


# -- load on a CPU run -----------------------------------------------------------------------------------------
# A measurement is contended when at least this share of its samples found fewer free CPUs than torch's threads.
CONTENDED_SHARE = 0.5


def _own_running_threads() -> int:
    """This process's threads in state R now (the sampling thread, OpenMP workers still spinning): /proc/stat's
    procs_running counts them too."""
    running = 0
    try:
        tasks = os.listdir("/proc/self/task")
    except OSError:
        return 1
    for task in tasks:
        try:
            with open(f"/proc/self/task/{task}/stat") as f:
                running += f.read().rpartition(")")[2].split()[0] == "R"
        except (OSError, IndexError):
            continue
    return max(1, running)


def _proc_stat() -> tuple[int, int, int] | None:
    """(runnable tasks on the host, steal jiffies, all jiffies) from /proc/stat; None where there is none."""
    try:
        with open("/proc/stat") as f:
            lines = f.read().splitlines()
    except OSError:
        return None
    cpu = [int(v) for v in lines[0].split()[1:]]
    running = next((int(line.split()[1]) for line in lines if line.startswith("procs_running ")), 0)
    return running, cpu[7] if len(cpu) > 7 else 0, sum(cpu[:8])


@dataclass(frozen=True)
class LoadSample:
    others_running: int | None  # runnable tasks of other processes; None where the host does not say
    load_average: float | None  # 1-minute load average
    steal: int = 0  # /proc/stat jiffies, cumulative: steal and all
    jiffies: int = 0


def sample_host() -> LoadSample:
    stat = _proc_stat()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    if stat is None:
        return LoadSample(None, load)
    running, steal, jiffies = stat
    return LoadSample(max(0, running - _own_running_threads()), load, steal, jiffies)


def free_cpus(others_running: int, cpus: int) -> int:
    return max(0, cpus - others_running)


def judge(others_running: list[int], cpus: int, threads: int) -> tuple[int, int]:
    """(contended samples, the median sample's other runnable tasks). A sample is contended when fewer CPUs are free
    than torch has threads: each multi-threaded op then waits for a thread the OS descheduled (an eager op on 8x32
    took 10 ms instead of 0.018 ms, BENCHMARKS.md) while a one-thread compiled kernel does not, so the ratio measures
    the host; one thread with no CPU free is time-sliced through every round (a replay read 4.04x where the same
    process's interleaved steps read 1.16x)."""
    contended = sum(free_cpus(n, cpus) < threads for n in others_running)
    return contended, sorted(others_running)[len(others_running) // 2] if others_running else 0


@dataclass
class LoadWatch:
    """The host's load over one measurement of a CPU run: sampled before the first round, between pairs and after
    the last, and said as the measurement's evidence (`hostLoad`)."""

    threads: int  # torch's threads at the last sample
    cpus: int
    read: Callable[[], LoadSample] = sample_host
    samples: list[LoadSample] = field(default_factory=list)
    read_threads: Callable[[], int] | None = None

    def sample(self) -> None:
        if self.read_threads is not None:
            self.threads = self.read_threads()
        self.samples.append(self.read())

    def evidence(self) -> HostLoad:
        return load_evidence(self.samples, self.cpus, self.threads)


def short_of_cpus(threads: int, contended: int, samples: int) -> str:
    """How often torch's threads found too few CPUs free: "no CPU was free in 10 of 10 samples" (one thread), "fewer
    CPUs were free than torch's 4 threads in 9 of 10 samples"."""
    short = "no CPU was free" if threads == 1 else f"fewer CPUs were free than torch's {threads} threads"
    return f"{short} in {contended} of {samples} samples"


def load_words(load: LoadAverage | None) -> str:
    """ ", load average about 12.2 then" where it held within LOAD_STEADY of itself; else which way it went,
    ", load average rose from 3.5 to 4.3" (review 3C R1 "9.72 to 9.72", D14 "9.75 to 9.37": two readings that
    differ by less than the host's own noise read as a range to be decoded); steady too where its two ends read alike
    (formats.load_average: "0.04" is no "0.0")."""
    if not load:
        return ""
    start, end = load["start"], load["end"]
    said = formats.load_average(start), formats.load_average(end)
    if said[0] == said[1] or abs(end - start) <= LOAD_STEADY * max(start, end):  # never "rose from 0.0 to 0.0"
        # "then": while this timing ran, each measurement its own (review 22Y Y2: "about 9.5 over the run" and "9.6 over
        # the run" on two cards of one page read as one run's load said twice)
        return f", load average about {formats.load_average((start + end) / 2)} then"
    return f", load average {'rose' if end > start else 'fell'} from {said[0]} to {said[1]}"


# a load average that moved less than this share of itself over a run held steady: one level, said once
LOAD_STEADY = 0.1


# one thread with no CPU free: said in the legend's word for a timed run ("fastest of 9 runs", mode_line.speedup_note)
SHARED_EVERY_RUN = "every run shared the CPU with them"

# the fix where no thread count fits the CPUs left free (one clause: "Fix: profile …: other …" stacked two colons)
QUIETER = "profile when the host is quieter (other processes kept every CPU busy)"


def load_evidence(samples: list[LoadSample], cpus: int, threads: int) -> HostLoad:
    """The report's `hostLoad` from a measurement's samples: the numbers, whether contention made the measurement
    unreliable (at least CONTENDED_SHARE of its samples contended), and if so why and the fix (runner-owned text)."""
    others = [s.others_running for s in samples if s.others_running is not None]
    contended, typical = judge(others, cpus, threads)
    loads = [s.load_average for s in samples if s.load_average is not None]
    jiffies = samples[-1].jiffies - samples[0].jiffies if samples else 0
    load: LoadAverage | None = {"start": round(loads[0], 2), "end": round(loads[-1], 2)} if loads else None
    evidence: HostLoad = {
        "cpus": cpus,
        "threads": threads,
        "samples": len(others),
        "contendedSamples": contended,
        "othersRunning": [min(others), max(others)] if others else None,
        "loadAverage": load,
        "stealPct": round((samples[-1].steal - samples[0].steal) / jiffies * 100.0, 1) if jiffies > 0 else None,
        "contended": bool(others) and contended >= CONTENDED_SHARE * len(others),
        "reason": None,
        "fix": None,
    }
    if evidence["contended"]:
        free = free_cpus(typical, cpus)
        evidence["reason"] = (
            f"the host was contended while timing: other processes had {typical} threads ready to run on its {cpus} "
            f"CPUs ({short_of_cpus(threads, contended, len(others))}{load_words(load)}), so "
            + ("multi-threaded ops waited on descheduled threads" if threads > 1 else SHARED_EVERY_RUN)
            + " and the ratio measures the host, not the compiler"
        )
        evidence["fix"] = (
            f"run with OMP_NUM_THREADS={free} (or torch.set_num_threads({free}) in the script) so torch's "
            "threads fit the CPUs other processes leave free, or profile when the host is quieter"
            if 0 < free < threads
            else QUIETER
        )
    return evidence
