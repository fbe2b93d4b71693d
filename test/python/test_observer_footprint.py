"""Observing a script costs it neither memory nor speed: a sweep that builds models one after another and drops each
ends near the plain run's memory, and the call durations the report shows are the script's own (held.py,
capture.py, regions.py)."""
from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import textwrap
from pathlib import Path

from conftest import run_runner, runner_env

SWEEP = textwrap.dedent('''
    import json, os, sys
    import torch

    def rss_mb():
        with open("/proc/self/status") as f:
            fields = dict(line.split(":", 1) for line in f)
        return int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024

    x = torch.randn(8, 2048)
    for size in range(4):  # four 64 MB models, each dropped before the next is built
        model = torch.nn.Sequential(*[torch.nn.Linear(2048, 2048) for _ in range(4)])
        fast = torch.compile(model, backend="eager")
        with torch.no_grad():
            for _ in range(3):
                fast(x)
        del model, fast
    end, peak = rss_mb()
    with open(sys.argv[1], "w") as f:
        json.dump({"endMb": end, "peakMb": peak}, f)
''')


def test_a_sweep_of_dropped_models_ends_near_the_plain_runs_memory(tmp_path: Path) -> None:
    script = tmp_path / "sweep.py"
    script.write_text(SWEEP)
    plain_out, observed_out = tmp_path / "plain.json", tmp_path / "observed.json"
    subprocess.run([sys.executable, str(script), str(plain_out)], check=True, env=runner_env(), timeout=300)
    run = run_runner("--script", str(script), "--quick", "--out", str(tmp_path / "out"), "--", str(observed_out))
    assert run.code == 0, run.stderr[-2000:]
    plain, observed = json.loads(plain_out.read_text()), json.loads(observed_out.read_text())
    print(f"plain {plain}, observed {observed}")
    assert observed["endMb"] <= 1.5 * plain["endMb"] and observed["peakMb"] <= 1.5 * plain["peakMb"], (plain, observed)
    regions = run.report["regions"]
    assert len(regions) == 4
    for region in regions[:3]:  # dropped by the script, freed at the next torch.compile: not replayed, and said why
        assert region["measurements"] == [] and region["replay"]["reason"].startswith("the script let go of it")


TIMED = textwrap.dedent('''
    import json, sys, time
    import torch

    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(256, 1024), torch.nn.GELU(), torch.nn.Linear(1024, 256)).eval()
    fast = torch.compile(model, backend="eager")
    x = torch.randn(32, 256)
    own = []
    with torch.no_grad():
        for _ in range(40):
            started = time.perf_counter()
            fast(x)
            own.append((time.perf_counter() - started) * 1000)
    with open(sys.argv[1], "w") as f:
        json.dump(own, f)
''')


def test_the_durations_shown_are_the_scripts_own(tmp_path: Path) -> None:
    script = tmp_path / "timed.py"
    script.write_text(TIMED)
    own_out = tmp_path / "own.json"
    run = run_runner("--script", str(script), "--quick", "--out", str(tmp_path / "out"), "--", str(own_out))
    assert run.code == 0, run.stderr[-2000:]
    own = json.loads(own_out.read_text())
    [region] = run.report["regions"]
    calls = region["calls"]
    assert [c["index"] for c in calls] == list(range(40))
    # the observer's state checks and captures ran on few calls, marked; every other call was left plain
    marked = [c["index"] for c in calls if c.get("observer")]
    assert marked == [0, 1, 2, 3, 7, 15, 31]
    plain = [c for c in calls if not c.get("observer") and c["index"] >= 4]
    # each shown duration lies inside the script's own timing of the same call, and the observer's wrapper around
    # a plain call adds little to what the script itself sees
    assert all(c["ms"] <= own[c["index"]] for c in plain)
    overhead = statistics.median(own[c["index"]] - c["ms"] for c in plain)
    assert overhead < 0.2, overhead
    # the steady state is the median of plain calls only, and the script's own median is no slower than it by more
    # than the wrapper's overhead
    steady = region["steadyState"]["medianMs"]
    assert abs(steady - statistics.median(c["ms"] for c in plain if c["index"] >= region["steadyState"]["fromCall"])) < 1e-3
    assert statistics.median(own[c["index"]] for c in plain) - steady < 0.2
