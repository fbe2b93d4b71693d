"""The `profile` command's parent process: starts the worker (or, for `--nproc-per-node N`, torchrun with N ranks),
relays its progress, enforces --timeout, handles cancellation, finishes the report when the worker cannot (and
merges the ranks' reports into one), and moves the report directory into place."""
from __future__ import annotations

import datetime as dt
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from typing import Any

from . import rank_launch, rank_merge, report
from .progress import channel

PACKAGE_PARENT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SPEC_FILE = ".runner-spec.json"
EXIT_OK, EXIT_ERROR, EXIT_CANCELLED = 0, 1, 130


def default_out_dir(name: str) -> str:
    stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    return os.path.abspath(os.path.join(".compile-lens", "runs", f"{name}-{stamp}"))


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
            try:
                os.kill(member, signal.SIGKILL)
            except ProcessLookupError:
                pass
        time.sleep(0.05)


class Relay(threading.Thread):
    """Forwards the worker's progress lines, keeping the fraction monotonic."""

    def __init__(self, stream: Any) -> None:
        super().__init__(daemon=True)
        self.stream = stream
        self.fraction = 0.0

    def run(self) -> None:
        for raw in self.stream:
            try:
                record = json.loads(raw)
            except ValueError:
                continue
            if isinstance(record, dict) and record.get("type") == "progress":
                self.fraction = max(self.fraction, float(record.get("fraction") or 0.0))
                channel.progress(str(record.get("phase")), min(self.fraction, 0.99), str(record.get("message")))


def _place(workdir: str, out_dir: str, failed: bool) -> str:
    """A successful run replaces out_dir; a failed one never overwrites an existing report, it gets a new dir."""
    target = out_dir
    if os.path.exists(out_dir):
        if failed:
            stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
            target = f"{out_dir}-failed-{stamp}"
            n = 1
            while os.path.exists(target):
                n += 1
                target = f"{out_dir}-failed-{stamp}-{n}"
        else:
            old = tempfile.mkdtemp(prefix=f".{os.path.basename(out_dir)}.", suffix=".old", dir=os.path.dirname(out_dir))
            os.rename(out_dir, os.path.join(old, "previous"))
            os.rename(workdir, out_dir)
            shutil.rmtree(old, ignore_errors=True)
            return out_dir
    os.rename(workdir, target)
    return target


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


def worker_env(workdir: str) -> dict[str, str]:
    """The worker's environment: the compiler's structured log into the report, and CUPTI torn down after each
    profile. Kineto otherwise leaves CUPTI attached once torch.profiler has run (torch 2.11, CUDA 13), and every
    later kernel launch pays for it: GPT-2 (4, 128) eager 5.54 -> 5.79 ms after one profile and 5.97 ms after two
    against compiled 4.16 -> 4.23 ms (H100, 2026-11-23), so modes timed after a profile read eager slower and the
    speedup larger (1.53x and 1.42x in two runs, 1.34x unprofiled). With TEARDOWN_CUPTI=1 eager stayed at 5.59 ms.
    (torch sets TEARDOWN_CUPTI=0 itself for CUDA graphs on CUDA < 12.6, where teardown crashed; a user's own setting
    is kept.)"""
    env = dict(os.environ, TORCH_TRACE=os.path.join(workdir, "torch_trace"), INDUCTOR_PROVENANCE="1", PYTHONUNBUFFERED="1")
    env.setdefault("TEARDOWN_CUPTI", "1")
    env["PYTHONPATH"] = os.pathsep.join(p for p in (PACKAGE_PARENT, env.get("PYTHONPATH")) if p)
    return env


def supervise(spec: dict[str, Any], out_dir: str, timeout: float | None, stop_on_stdin_eof: bool = False) -> int:
    channel.claim_stdout()
    parent = os.path.dirname(out_dir)
    os.makedirs(parent, exist_ok=True)
    workdir = tempfile.mkdtemp(prefix=f".{os.path.basename(out_dir)}.", suffix=".tmp", dir=parent)
    spec = dict(spec, workdir=workdir)
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
    if nproc > 1:
        channel.progress("start", 0.0, f"Starting torchrun with {nproc} processes")
        command = rank_launch.command(spec_path, nproc)
    else:
        channel.progress("start", 0.0, "Starting the runner")
        command = [sys.executable, "-m", "compile_lens_runner", "_worker", spec_path]
    worker = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, env=env, text=True)
    relay = Relay(worker.stdout)
    relay.start()
    deadline = time.monotonic() + timeout if timeout else None
    while worker.poll() is None:
        if deadline is not None and time.monotonic() > deadline:
            why.append("timeout")
            stop.set()
        if stop.wait(0.1):
            if nproc > 1:  # each rank says where it is (a timeout), then writes what it has
                if why[0] == "timeout":
                    rank_launch.request_stacks(workdir, nproc)
                rank_launch.stop_ranks(workdir, nproc)
            kill_tree(worker.pid)
            break
    code = worker.wait()
    relay.join(timeout=2)
    stopped = why[0] if why else None
    hang = None
    if nproc > 1:
        hang = rank_merge.merge(workdir, nproc, lambda: fallback_report(spec), stacks_requested=stopped == "timeout")
    return finish(spec, workdir, out_dir, stopped, code, timeout, hang)


def fallback_report(spec: dict[str, Any]) -> dict[str, Any]:
    """The report of a run whose worker wrote none."""
    device = spec["device"] if spec["device"] in ("cpu", "cuda") else "cpu"
    name = next(iter(spec["target"].values()))
    return report.skeleton({"kind": "sample" if "sample" in spec["target"] else "script" if "script" in spec["target"] else "function",
                            "name": str(name)}, {k: spec[k] for k in ("modes", "dynamic", "fullgraph", "backend", "device", "quick")},
                           report.environment(device, None))


def finish(spec: dict[str, Any], workdir: str, out_dir: str, stopped: str | None, code: int, timeout: float | None,
           hang: str | None = None) -> int:
    """hang: for a torchrun job stopped by --timeout, where its ranks were (rank_stacks.hang_sentence)."""
    path = os.path.join(workdir, "report.json")
    data = report.read(path)
    if data is None:
        data = fallback_report(spec)
    finished = ", ".join(m["mode"] for m in data["modes"] if m["status"] == "ok") or "none"
    if stopped == "cancelled":
        data["error"] = {"kind": "cancelled", "message": f"The run was cancelled; finished modes: {finished}.",
                         "fix": "Run again to measure the remaining modes.", "traceback": None}
        data["status"] = "partial"
        exit_code = EXIT_CANCELLED
    elif stopped == "timeout":
        fix = "Raise --timeout, choose fewer modes, use --quick, or profile a smaller input."
        if hang:  # a torchrun job: where its ranks were
            fix = ("Every rank must run the same collectives in the same order: look for a rank-dependent branch, early "
                   "exit or exception before the line named; if the job was only slow, raise --timeout.")
        where = f" Where the ranks were: {hang}" if hang else ""
        data["error"] = {"kind": "timeout", "message": f"The run exceeded --timeout {timeout:g} s; finished modes: {finished}.{where}",
                         "fix": fix, "traceback": None}
        data["status"] = "error"
        exit_code = EXIT_ERROR
    elif code not in (EXIT_OK, EXIT_ERROR) or report.read(path) is None:
        oom = code == -signal.SIGKILL
        what = ("was killed (SIGKILL), most likely by the system running out of memory," if oom
                else f"was killed by signal {-code}" if code < 0 else f"exited with code {code}")
        data["error"] = {"kind": "out-of-memory" if oom else "internal",
                         "message": f"The runner's worker process {what} before finishing the report.",
                         "fix": "If the machine ran out of memory, use a smaller input; otherwise run again and report the stderr log.",
                         "traceback": None}
        data["status"] = "error"
        exit_code = EXIT_ERROR
    else:
        exit_code = EXIT_ERROR if data["status"] == "error" else EXIT_OK
    report.write(path, data)
    # the spec, and a checkpoint the worker was killed while writing, are not part of the report
    for leftover in [SPEC_FILE, *(n for n in os.listdir(workdir) if n.startswith("report.json.tmp-"))]:
        try:
            os.remove(os.path.join(workdir, leftover))
        except OSError:
            pass
    placed = _place(workdir, out_dir, failed=data["status"] == "error" or stopped is not None)
    channel.progress("done", 1.0, f"Report: {placed}")
    channel.result(data["status"], os.path.join(placed, "report.json"))
    return exit_code
