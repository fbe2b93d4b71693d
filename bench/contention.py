"""Profiles a tiny region (b_item.py of the editorExperience e2e: gelu on 8x32, then .item()) on the CPU while N
busy-looping processes share the host, and prints what the replay measured and how the report judged it.

    python3 bench/contention.py SCRIPT.py [BUSY_PROCESSES] [--no-quick] [--in-situ] [--runner DIR]

--runner: another checkout's native-runner folder (the code before a change), default this checkout's.

Only for docs/BENCHMARKS.md ("Eager on a contended CPU host"): it times this host, it asserts nothing.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SPIN = "while True: pass"


def main() -> None:
    script = sys.argv[1]
    busy = int(sys.argv[2]) if len(sys.argv) > 2 and not sys.argv[2].startswith("--") else 0
    quick = "--no-quick" not in sys.argv
    runner = sys.argv[sys.argv.index("--runner") + 1] if "--runner" in sys.argv else str(REPO / "native-runner")
    spinners = [subprocess.Popen([sys.executable, "-c", SPIN]) for _ in range(busy)]
    try:
        out = tempfile.mkdtemp(prefix="contention-")
        env = dict(os.environ, PYTHONPATH=runner)
        cmd = (
            [
                sys.executable,
                "-m",
                "compile_lens_runner",
                "profile",
                "--script",
                script,
                "--device",
                "cpu",
                "--out",
                out,
            ]
            + ([] if "--in-situ" in sys.argv else ["--no-in-situ"])
            + (["--quick"] if quick else [])
        )
        load_before = os.getloadavg()
        subprocess.run(cmd, env=env, check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        load_after = os.getloadavg()
    finally:
        for p in spinners:
            p.kill()
            p.wait()
    report = json.loads((Path(out) / "report.json").read_text())
    print(
        f"busy processes {busy}; OMP_NUM_THREADS {os.environ.get('OMP_NUM_THREADS', 'unset')}; runner {runner}; "
        f"load average before {load_before[0]:.2f}, after {load_after[0]:.2f}"
    )
    for region in report.get("regions") or []:
        for m in region["measurements"]:
            t, e = m.get("timing") or {}, m.get("eagerTiming") or {}
            print(
                f"  {region['name']} {m['mode']}: speedup {m.get('speedup')} eager {e.get('estimateMs')} ms x{e.get('callsPerRound')} "
                f"compiled {t.get('estimateMs')} ms x{t.get('callsPerRound')}; valid {t.get('valid')}; "
                f"hostLoad {json.dumps(t.get('hostLoad'))}"
            )
        situ = region.get("inSitu") or {}
        if situ.get("step"):
            print(
                f"  in situ per step {situ['step']['speedup']} [{situ['step']['low']}-{situ['step']['high']}]; "
                f"hostLoad {json.dumps(situ.get('hostLoad'))}"
            )
        print(f"  verdict: {region['recommendation']['verdict']}: {region['recommendation']['reason']}")


if __name__ == "__main__":
    main()
