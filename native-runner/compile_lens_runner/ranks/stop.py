"""A rank that is told to stop (SIGTERM: torchrun stops every rank once one fails; the supervisor does on cancel and
timeout) writes what it has before it goes — also when its main thread is blocked in a collective, where no Python
signal handler can run.

The signal's number reaches a pipe (`signal.set_wakeup_fd`, written by the C-level handler) that a thread reads.
The worker gets WAIT_S to finish its own report; a rank still running then writes a snapshot (script mode's: the
compiler's log so far and the calls recorded so far). Either way the rank then exits with 143, as SIGTERM would.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Callable

from ..report import document as report
from ..shapes.report import Report

WAIT_S = 1.0
EXIT_CODE = 128 + signal.SIGTERM

_snapshot: Callable[[], Report] | None = None
_finished = threading.Event()
_requested = threading.Event()


def set_snapshot(make: Callable[[], Report]) -> None:
    """What the rank's report would be if it stopped now (set once the script starts)."""
    global _snapshot  # noqa: PLW0603 -- the SIGTERM handler reads it: module state, set once
    _snapshot = make


def finished() -> None:
    """The worker has written its own report: a SIGTERM from now on needs no snapshot."""
    _finished.set()


def stopped_before_finishing() -> bool:
    """SIGTERM came while the worker still ran: a failure the worker then reports (a collective whose peer the same
    stop ended) is the stop's consequence, not the rank's own."""
    return _requested.is_set()


def _write_snapshot(path: str) -> None:
    for _ in range(3):  # the main thread may be appending to what the snapshot reads
        try:
            if _snapshot is not None:
                report.write(path, _snapshot())
            return
        except RuntimeError:
            continue
        except Exception:  # a snapshot is best effort: the rank is going away either way
            return


def install(snapshot_path: str) -> None:
    """Call from the main thread, before the worker starts."""
    read_end, write_end = os.pipe()
    os.set_blocking(write_end, False)
    signal.set_wakeup_fd(write_end, warn_on_full_buffer=False)
    # a Python-level handler makes the C handler write the wakeup byte; the main thread itself carries on
    signal.signal(signal.SIGTERM, lambda signum, frame: None)

    def watch() -> None:
        while True:
            try:
                data = os.read(read_end, 64)
            except OSError:
                return
            if signal.SIGTERM in data:
                break
        if not _finished.is_set():
            _requested.set()
        if _finished.wait(WAIT_S):
            time.sleep(0.5)  # the main thread records its exit; an interpreter shutdown that hangs is cut short
        else:
            _write_snapshot(snapshot_path)
        os._exit(EXIT_CODE)

    threading.Thread(target=watch, name="compile-lens-rank-stop", daemon=True).start()
