"""How far a launch-bound eager's fastest round moves between processes and over time on this host: several
long-lived processes (each a real model's eager forward on CUDA, the timing thread moving to the fastest CPU as in
the runner) take turns of a few seconds in rotation, and the fastest round of every window of turns is compared
with every other process's and time's.

    python3 bench/host_drift.py --out /tmp/drift.json                      # BERT (1, 8) and resnet18 B16, 3 processes each

Prints each turn's fastest round and probe per process, then per model the differences between windows of 2 and 4
turns (median, 80th, 90th percentile, largest). What a run's speedup interval must allow for, when eager is
launch-bound, is the 90th percentile of the two-turn windows (estimator.HOST_MOVE_PCT).
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import subprocess
import sys
import time
from typing import Any

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [os.path.join(REPO, "native-runner"), os.path.join(REPO, "bench", "real_models")]

Row = list[float]  # [seconds into the turn, probe ms before the round, fastest-CPU id or -1, ms per call]
Turn = list[Row]


def child(model_name: str) -> None:
    """Builds the model, then for each turn length read from stdin times rounds for that long; one JSON line each."""
    import targets
    import torch
    from compile_lens_runner.measure import host as host_speed
    from compile_lens_runner.measure import timing

    model, inputs = getattr(targets, model_name)("cuda")
    host = host_speed.HostSpeed(cpus=host_speed.movable_cpus("cuda"))
    clock = timing.make_clock("cuda")

    def calls(k: int) -> None:
        for _ in range(k):
            model(*inputs)

    with torch.inference_mode():
        calls(30)
        n = timing.calibrate(lambda k, warm: clock(calls, k, warm), timing.TimingConfig(rounds=1, min_round_ms=5.0))
        print(json.dumps({"model": model_name, "callsPerRound": n, "pid": os.getpid()}), flush=True)
        for line in sys.stdin:
            rows: list[Row] = []
            started = time.monotonic()
            with host.measuring():
                while time.monotonic() - started < float(line):
                    probe = host.probe()
                    cpus = os.sched_getaffinity(0)
                    ms = clock(calls, n, 1)
                    rows.append(
                        [
                            round(time.monotonic() - started, 3),
                            round(probe, 4),
                            min(cpus) if len(cpus) == 1 else -1,
                            round(ms, 4),
                        ]
                    )
            print(json.dumps(rows), flush=True)


def differences(turns: list[list[Turn]], window: int, procs: list[int]) -> list[float]:
    """% differences (over the smaller) between the fastest rounds of every two windows of `window` turns of the
    given processes."""
    fastest = [
        min(r[3] for turn in turns[p][start : start + window] for r in turn)
        for p in procs
        for start in range(0, len(turns[p]) - window + 1, window)
    ]
    return sorted(abs(a - b) / min(a, b) * 100 for a, b in itertools.combinations(fastest, 2))


def percentile(values: list[float], q: float) -> float:
    return values[int(q * (len(values) - 1))]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", required=True, help="JSON file for every round of every turn")
    p.add_argument("--models", default="bert,resnet18", help="builders in bench/real_models/targets.py")
    p.add_argument("--procs", type=int, default=3, help="processes per model")
    p.add_argument("--turn-seconds", type=float, default=2.5)
    p.add_argument("--turns", type=int, default=12, help="turns per process")
    args = p.parse_args(argv)
    names = [m.strip() for m in args.models.split(",") if m.strip()]
    models = [m for m in names for _ in range(args.procs)]
    procs = [
        subprocess.Popen(
            [sys.executable, __file__, "--child", m], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        for m in models
    ]
    ready: list[dict[str, Any]] = []
    for proc in procs:
        assert proc.stdin and proc.stdout
        ready.append(json.loads(proc.stdout.readline()))
    turns: list[list[Turn]] = [[] for _ in procs]
    for turn in range(args.turns):
        for i, proc in enumerate(procs):
            assert proc.stdin and proc.stdout
            proc.stdin.write(f"{args.turn_seconds}\n")
            proc.stdin.flush()
            turns[i].append(json.loads(proc.stdout.readline()))
        print(
            f"turn {turn + 1:2}: "
            + " | ".join(
                f"{models[i][:6]}{i} {min(r[3] for r in t[-1]):.3f} ms (probe {min(r[1] for r in t[-1]):.3f})"
                for i, t in enumerate(turns)
            ),
            flush=True,
        )
    for proc in procs:
        assert proc.stdin
        proc.stdin.close()
        proc.wait()
    for name in names:
        mine = [i for i, m in enumerate(models) if m == name]
        for window in (2, 4):
            diffs = differences(turns, window, mine)
            print(
                f"{name}: windows of {window} turns ({window * args.turn_seconds:g} s of rounds), {len(diffs)} comparisons: "
                f"median {percentile(diffs, 0.5):.1f} %, p80 {percentile(diffs, 0.8):.1f} %, p90 {percentile(diffs, 0.9):.1f} %, "
                f"largest {diffs[-1]:.1f} %"
            )
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump({"models": models, "ready": ready, "turnSeconds": args.turn_seconds, "turns": turns}, f)
    return 0


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--child":
        child(sys.argv[2])
    else:
        sys.exit(main())
