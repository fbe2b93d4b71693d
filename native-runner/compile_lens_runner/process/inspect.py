"""The `inspect` command: compiler logs read into a report directory (written to a temporary sibling, then placed, as
a profile's), and the result line. Bad input (no log found) is a report with its error, as a failed run's is."""

from __future__ import annotations

import os
import tempfile

from ..errors import RunnerError, classify
from ..logs.inspect import inspect
from ..progress import channel
from ..report import document
from .placement import place

EXIT_OK, EXIT_ERROR = 0, 1


def inspect_logs(paths: list[str], out_dir: str) -> int:
    parent = os.path.dirname(out_dir)
    os.makedirs(parent, exist_ok=True)
    workdir = tempfile.mkdtemp(prefix=f".{os.path.basename(out_dir)}.", suffix=".tmp", dir=parent)
    channel.progress("read", 0.0, f"Reading {', '.join(paths)}")
    try:
        data = inspect(paths, workdir)
    except Exception as exc:  # the report says what went wrong, as a failed run's does
        error = exc.to_json() if isinstance(exc, RunnerError) else classify(exc, "reading the compiler logs").to_json()
        data = document.fail(
            document.skeleton(
                {"kind": "logs", "name": os.path.basename(paths[0])}, {"logs": paths}, document.environment("cpu", None)
            ),
            error,
        )
    document.write(os.path.join(workdir, "report.json"), data)
    failed = data["status"] == "error"
    placed = place(workdir, out_dir, failed)
    channel.progress("done", 1.0, f"Finished: {data['status']}")
    channel.result(data["status"], os.path.join(placed, "report.json"))
    return EXIT_ERROR if failed else EXIT_OK
