"""Runs a command and prints its wall time and the CPU time of its whole process tree (user + system), on stderr.

    python3 bench/tree_cpu.py python3 -m pytest -q -n 2 --dist loadfile test/python

On a host shared with other jobs the wall time swings with their load; the CPU time of what the command started
swings far less (docs/BENCHMARKS.md#test-time). This process becomes the tree's subreaper (Linux), so the workers a
runner or a browser leaves behind are reaped here and their CPU time counted too.
"""

from __future__ import annotations

import ctypes
import os
import resource
import subprocess
import sys
import time

PR_SET_CHILD_SUBREAPER = 36


def main() -> int:
    ctypes.CDLL(None).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    started = time.monotonic()
    code = subprocess.call(sys.argv[1:])
    wall = time.monotonic() - started
    while True:  # the orphans the subreaper inherited
        try:
            os.wait()
        except ChildProcessError:
            break
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = usage.ru_utime + usage.ru_stime
    print(
        f"wall {wall:.1f} s, cpu {cpu:.1f} s (user {usage.ru_utime:.1f}, system {usage.ru_stime:.1f}), exit {code}",
        file=sys.stderr,
    )
    return code


if __name__ == "__main__":
    sys.exit(main())
