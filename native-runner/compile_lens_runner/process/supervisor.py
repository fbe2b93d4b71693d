"""The `profile` command's parent process: starts the worker (or, for `--nproc-per-node N`, torchrun with N ranks),
relays its progress, enforces --timeout and cancellation, merges the ranks' reports, then hands over to finish.py."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from typing import Any

from ..measure import interleaved
from ..progress import channel
from ..ranks import launch as rank_launch
from ..ranks import merge as rank_merge
from .finish import EXIT_OK, SPEC_FILE, fallback_report, finish

# a worker still alive this long after its last exit handler ran hangs in its teardown (on an H100, torch 2.11:
# CUPTI's, after a compiled fp16 TransformerEncoder, docs/BENCHMARKS.md); its report is written, so it is stopped
EXIT_GRACE_S = float(os.environ.get("COMPILE_LENS_EXIT_GRACE_S", "15"))
PACKAGE_PARENT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # native-runner/


def _children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc") if os.path.isdir("/proc") else []:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="utf-8") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(entry))
    return found


def kill_tree(pid: int) -> None:
    """SIGKILLs the worker and everything it started (Inductor compile workers, the user's subprocesses)."""
    for _ in range(3):
        stack, tree = [pid], []
        while stack:
            current = stack.pop()
            tree.append(current)
            stack.extend(_children(current))
        for member in tree:
            with contextlib.suppress(ProcessLookupError):
                os.kill(member, signal.SIGKILL)
        time.sleep(0.05)


class Relay(threading.Thread):
    """Forwards the worker's progress lines, keeping the fraction monotonic."""

    CAP = 0.99  # the most the worker may report: done is the supervisor's

    def __init__(self, stream: Any) -> None:
        super().__init__(daemon=True)
        self.stream = stream
        self.fraction = 0.0
        self.exiting_at: float | None = None  # when the worker's last exit handler ran (monotonic)
        self.stopped_at_exit = False

    def run(self) -> None:
        for raw in self.stream:
            try:
                record = json.loads(raw)
            except ValueError:
                continue
            if isinstance(record, dict) and record.get("type") == "exiting":
                self.exiting_at = time.monotonic()
            if isinstance(record, dict) and record.get("type") == "progress":
                self.fraction = max(self.fraction, float(record.get("fraction") or 0.0))
                channel.progress(str(record.get("phase")), min(self.fraction, self.CAP), str(record.get("message")))


def _cancel_at_stdin_eof(cancel: Any) -> None:
    """The extension holds our stdin open; EOF means VS Code (or its extension host) is gone."""

    def watch() -> None:
        # os.read, not sys.stdin: a daemon thread blocked in the buffered reader aborts interpreter shutdown
        try:
            while os.read(0, 4096):
                pass
        except OSError:
            pass
        cancel()

    threading.Thread(target=watch, daemon=True).start()


def _hung_at_exit(child: subprocess.Popen[str], relay: Relay) -> bool:
    """The child ran its last exit handler (after the script's own) EXIT_GRACE_S ago and has not exited: it hangs in
    the interpreter's or a library's teardown. It is stopped, and said so."""
    if relay.exiting_at is None or time.monotonic() - relay.exiting_at < EXIT_GRACE_S:
        return False
    kill_tree(child.pid)
    relay.stopped_at_exit = True
    print(
        f"compile-lens: the runner's worker had finished its report and its exit handlers but had not exited "
        f"{EXIT_GRACE_S:g} s later (it hung in its teardown); it was stopped, and nothing it measured is lost",
        file=sys.stderr,
        flush=True,
    )
    return True


def _wait(
    child: subprocess.Popen[str],
    deadline: float | None,
    stop: threading.Event,
    why: list[str],
    stragglers: rank_launch.Stragglers | None = None,
    relay: Relay | None = None,
) -> bool:
    """Waits for the child; True when the job was stopped (cancel, --timeout, a torchrun rank long after the others: straggler) first. A child that hangs
    in its teardown after its exit handlers is stopped, and that is not a stop of the job."""
    while child.poll() is None:
        if relay is not None and _hung_at_exit(child, relay):
            break
        if deadline is not None and time.monotonic() > deadline:
            why.append("timeout")
            stop.set()
        late = stragglers.check() if stragglers is not None and not stop.is_set() else []
        if late and stragglers is not None:
            why += ["straggler", stragglers.text(late)]
            stop.set()
        if stop.wait(0.1):
            return True
    return stop.is_set()


def worker_env(workdir: str) -> dict[str, str]:
    """The worker's environment: the compiler's structured log into the report, and CUPTI torn down after each
    profile. Kineto otherwise leaves CUPTI attached once torch.profiler has run (torch 2.11, CUDA 13), and every
    later kernel launch pays for it, so modes timed after a profile read eager slower and the speedup larger
    (docs/BENCHMARKS.md §constants: CUPTI). (torch sets TEARDOWN_CUPTI=0 itself for CUDA graphs on CUDA < 12.6, where teardown crashed; a user's own setting
    is kept.)"""
    env = dict(
        os.environ, TORCH_TRACE=os.path.join(workdir, "torch_trace"), INDUCTOR_PROVENANCE="1", PYTHONUNBUFFERED="1"
    )
    env.setdefault("TEARDOWN_CUPTI", "1")
    env["PYTHONPATH"] = os.pathsep.join(p for p in (PACKAGE_PARENT, env.get("PYTHONPATH")) if p)
    return env


def supervise(spec: dict[str, Any], out_dir: str, timeout: float | None, stop_on_stdin_eof: bool = False) -> int:
    channel.claim_stdout()
    parent = os.path.dirname(out_dir)
    os.makedirs(parent, exist_ok=True)
    workdir = tempfile.mkdtemp(prefix=f".{os.path.basename(out_dir)}.", suffix=".tmp", dir=parent)
    # in situ (a script): the observed run switches PyTorch's stance between blocks of its calls (measure/interleaved.py)
    in_situ = "script" in spec["target"] and spec.get("inSituRuns", True)
    spec = dict(spec, workdir=workdir, inSituMethod=interleaved.METHOD if in_situ else None)
    spec_path = os.path.join(workdir, SPEC_FILE)
    with open(spec_path, "w", encoding="utf-8") as f:
        json.dump(spec, f)
    env = worker_env(workdir)
    stop = threading.Event()
    why: list[str] = []

    def on_signal(signum: int, _frame: Any) -> None:
        why.append("cancelled")
        stop.set()

    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, on_signal)
    if stop_on_stdin_eof:
        _cancel_at_stdin_eof(lambda: on_signal(0, None))
    nproc = int(spec.get("nprocPerNode") or 1)
    deadline = time.monotonic() + timeout if timeout else None
    if nproc > 1:
        channel.progress("start", 0.0, f"Starting torchrun with {nproc} processes")
        command = rank_launch.command(spec_path, nproc)
    else:
        channel.progress("start", 0.0, "Starting the runner")
        command = [sys.executable, "-m", "compile_lens_runner", "_worker", spec_path]
    worker = None
    if not stop.is_set():
        worker = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, env=env, text=True)
        relay = Relay(worker.stdout)
        relay.start()
        if _wait(
            worker,
            deadline,
            stop,
            why,
            stragglers=rank_launch.Stragglers(workdir, nproc) if nproc > 1 else None,
            relay=relay if nproc == 1 else None,
        ):  # torchrun: one rank's exit is not the job's
            if nproc > 1:  # each rank says where it is (a timeout, a straggler), then writes what it has
                if why[0] in ("timeout", "straggler"):
                    rank_launch.request_stacks(workdir, nproc)
                rank_launch.stop_ranks(workdir, nproc)
            kill_tree(worker.pid)
    code = 1
    if worker is not None:
        code = worker.wait()
        relay.join(timeout=2)
        if relay.stopped_at_exit:
            code = EXIT_OK  # its report is whole: finish reads its status
    stopped = why[0] if why else None
    hang = None
    if nproc > 1:
        hang = rank_merge.merge(
            workdir, nproc, lambda: fallback_report(spec), stacks_requested=stopped in ("timeout", "straggler")
        )
    if stopped == "straggler":  # the profile goes on with what the ranks measured
        return finish(spec, workdir, out_dir, None, 0, timeout, hang, straggler=why[1])
    return finish(spec, workdir, out_dir, stopped, code, timeout, hang)
