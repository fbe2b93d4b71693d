"""What the script-mode observer adds to a plain call of a region, as the script's own clock sees it.

    python3 bench/observer_overhead.py [--profiles 3]

Profiles bench/scripts/timed_calls.py (`--quick`) and prints, per profile, the median over the calls the observer left
plain of (the script's own time of the call - the duration the report shows), and the same for the steady state.
A speed, so a bench: the test (test_observer_footprint.py) asserts only that a shown duration lies inside the
script's own time of the call.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SCRIPT = REPO / "bench" / "scripts" / "timed_calls.py"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--profiles", type=int, default=3)
    args = parser.parse_args()
    env = dict(os.environ, PYTHONPATH=str(REPO / "native-runner"))
    for k in range(args.profiles):
        with tempfile.TemporaryDirectory() as tmp:
            own_path = Path(tmp) / "own.json"
            cmd = [
                sys.executable,
                "-m",
                "compile_lens_runner",
                "profile",
                "--script",
                str(SCRIPT),
                "--quick",
                "--out",
                str(Path(tmp) / "out"),
                "--",
                str(own_path),
            ]
            subprocess.run(cmd, env=env, check=True, capture_output=True)
            own = json.loads(own_path.read_text())
            [region] = json.loads((Path(tmp) / "out" / "report.json").read_text())["regions"]
        plain = [c for c in region["calls"] if not c.get("observer") and c["index"] >= 4]
        overhead = statistics.median(own[c["index"]] - c["ms"] for c in plain)
        compiled = [c for c in plain if c.get("side") != "eager" and c["index"] >= region["steadyState"]["fromCall"]]
        steady_gap = statistics.median(own[c["index"]] for c in compiled) - region["steadyState"]["medianMs"]
        print(
            f"profile {k + 1}: wrapper adds {overhead * 1000:.1f} us per plain call (median of {len(plain)}); "
            f"script's own steady median - shown steady median: {steady_gap * 1000:.1f} us"
        )


if __name__ == "__main__":
    main()
