"""The stdout protocol: JSON lines only. User code and compilers must never write into it."""

from __future__ import annotations

import contextlib
import json
import os
import sys
import threading
from typing import Any


class Channel:
    """Writes protocol lines to a private duplicate of the original stdout.

    After `claim_stdout()` fd 1 points at stderr, so a `print()` in user code or a C++ compiler's chatter
    lands in the log, not in the protocol stream.
    """

    def __init__(self) -> None:
        self._fd: int | None = None
        self._lock = threading.Lock()
        self._muted = False
        self._stdout_is_users = False

    def mute(self) -> None:
        """Drops every protocol line: ranks other than 0 of a torchrun job share rank 0's stdout."""
        self._muted = True

    def leave_stdout(self) -> None:
        """No protocol at all, and stdout stays the program's: a rank run under the user's own launcher (attach),
        whose output the user reads as always."""
        self._muted = self._stdout_is_users = True

    def claim_stdout(self) -> None:
        if self._stdout_is_users:
            return
        sys.stdout.flush()
        self._fd = os.dup(1)
        os.set_inheritable(self._fd, False)
        os.dup2(2, 1)

    def send(self, record: dict[str, Any]) -> None:
        if self._muted:
            return
        data = (json.dumps(record) + "\n").encode()
        with self._lock:
            fd = self._fd if self._fd is not None else 1
            with contextlib.suppress(BrokenPipeError):  # the reader went away; the report on disk is still written
                os.write(fd, data)

    def progress(self, phase: str, fraction: float, message: str) -> None:
        self.send(
            {"type": "progress", "phase": phase, "fraction": round(min(max(fraction, 0.0), 1.0), 4), "message": message}
        )

    def result(self, status: str, report: str | None) -> None:
        self.send({"type": "result", "status": status, "report": report})


channel = Channel()
