"""Observing a script costs it neither memory nor speed: a sweep that builds models one after another and drops each
ends near the plain run's memory with every model measured as the script dropped it, and the call durations the
report shows are the script's own (held.py, safe_point.py, capture.py, regions.py)."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO, run_python, run_runner, runner_env

SWEEP = textwrap.dedent("""
    import json, os, sys
    import torch

    def rss_mb():
        with open("/proc/self/status") as f:
            fields = dict(line.split(":", 1) for line in f)
        return int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024

    x = torch.randn(1, 4096)
    after_drop = []
    for size in range(4):  # four 256 MB models, each dropped before the next is built
        model = torch.nn.Sequential(*[torch.nn.Linear(4096, 4096) for _ in range(4)])
        fast = torch.compile(model, backend="eager")
        with torch.no_grad():
            for _ in range(3):
                fast(x)
        del model, fast
        after_drop.append(rss_mb()[0])
    end, peak = rss_mb()
    with open(sys.argv[1], "w") as f:
        json.dump({"endMb": end, "peakMb": peak, "afterDropMb": after_drop}, f)
""")


def test_a_sweep_of_dropped_models_ends_near_the_plain_runs_memory(tmp_path: Path) -> None:
    script = tmp_path / "sweep.py"
    script.write_text(SWEEP)
    plain_out, observed_out = tmp_path / "plain.json", tmp_path / "observed.json"
    subprocess.run([sys.executable, str(script), str(plain_out)], check=True, env=runner_env(), timeout=300)
    run = run_runner(
        "--script", str(script), "--quick", "--no-in-situ", "--out", str(tmp_path / "out"), "--", str(observed_out)
    )
    assert run.code == 0, run.stderr[-2000:]
    plain, observed = json.loads(plain_out.read_text()), json.loads(observed_out.read_text())
    print(f"plain {plain}, observed {observed}")
    assert observed["endMb"] <= 1.5 * plain["endMb"] and observed["peakMb"] <= 1.5 * plain["peakMb"], (plain, observed)
    # each model was freed by the script's `del`, as in the plain run: none is held until the next one is built
    assert all(o <= 1.5 * p for o, p in zip(observed["afterDropMb"], plain["afterDropMb"], strict=True)), (
        plain,
        observed,
    )
    regions = run.report["regions"]
    assert len(regions) == 4
    for region in regions:  # each replayed when the script dropped it, before it was freed
        assert region["replay"] == {"replayable": True, "reason": None}, region["replay"]
        [written] = region["measurements"]
        interval = written["speedupInterval"]
        assert written["status"] == "ok" and interval["low"] <= written["speedup"] <= interval["high"], written


def _plain_and_observed(tmp_path: Path, source: str) -> tuple[dict[str, Any], dict[str, Any], Any]:
    """The script's own output run plain, then under the runner (no in-situ runs), and the run."""
    script = tmp_path / "script.py"
    script.write_text(textwrap.dedent(source))
    plain_out, observed_out = tmp_path / "plain.json", tmp_path / "observed.json"
    plain = run_python(str(script), str(plain_out))
    assert plain.returncode == 0, plain.stderr[-2000:]
    run = run_runner(
        "--script", str(script), "--quick", "--no-in-situ", "--out", str(tmp_path / "out"), "--", str(observed_out)
    )
    assert run.code == 0, run.stderr[-2000:]
    return json.loads(plain_out.read_text()), json.loads(observed_out.read_text()), run


def _measured(region: dict[str, Any]) -> dict[str, Any]:
    assert region["replay"] == {"replayable": True, "reason": None}, region["replay"]
    written = region["measurements"][0]
    interval = written["speedupInterval"]
    assert written["status"] == "ok" and interval["low"] <= written["speedup"] <= interval["high"], written
    return written


def test_a_model_in_mains_locals_is_measured_when_main_returns(tmp_path: Path) -> None:
    plain, observed, run = _plain_and_observed(
        tmp_path,
        """
        import json, sys, weakref
        import torch

        def main():
            model = torch.nn.Sequential(torch.nn.Linear(256, 256), torch.nn.ReLU(), torch.nn.Linear(256, 256))
            fast = torch.compile(model, backend="eager")
            with torch.no_grad():
                for _ in range(5):
                    fast(torch.randn(16, 256))
            return weakref.ref(model)

        model = main()
        with open(sys.argv[1], "w") as f:
            json.dump({"freed": model() is None}, f)
    """,
    )
    assert plain == observed == {"freed": True}  # freed as main() returned, after it was measured
    [region] = run.report["regions"]
    _measured(region)


def test_a_script_that_keeps_its_model_and_drops_the_compiled_handle(tmp_path: Path) -> None:
    plain, observed, run = _plain_and_observed(
        tmp_path,
        """
        import json, random, sys, weakref
        import torch

        torch.manual_seed(3)
        random.seed(3)
        model = torch.nn.Sequential(torch.nn.Linear(64, 64), torch.nn.Dropout(0.5), torch.nn.Linear(64, 64))
        fast = torch.compile(model, backend="eager")
        for _ in range(5):
            fast(torch.randn(8, 64))
        del fast  # measured here: the model stays the script's, as it was
        state = {"training": model.training, "grad": torch.is_grad_enabled(), "eager": model(torch.ones(2, 64)).sum().item(),
                 "draws": torch.rand(3).tolist() + [random.random()]}
        ref = weakref.ref(model)
        del model
        state["freed"] = ref() is None  # nothing of the observer's holds it once the script lets go
        with open(sys.argv[1], "w") as f:
            json.dump(state, f)
    """,
    )
    # the replay ran between the script's lines: its random state, grad mode and train mode are the plain run's
    assert observed == plain and observed["freed"] and observed["training"], (plain, observed)
    [region] = run.report["regions"]
    _measured(region)


def test_a_replay_that_fails_when_the_script_drops_the_region_leaves_the_script_running(tmp_path: Path) -> None:
    plain, observed, run = _plain_and_observed(
        tmp_path,
        """
        import json, sys
        import torch

        BROKEN = False

        class Fragile(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.lin = torch.nn.Linear(8, 8)

            def forward(self, x):
                if BROKEN:
                    raise RuntimeError("replayed after the script broke it")
                return self.lin(x)

        fast = torch.compile(Fragile(), backend="eager")
        for _ in range(4):
            fast(torch.randn(2, 8))
        BROKEN = True
        del fast
        with open(sys.argv[1], "w") as f:
            json.dump({"wentOn": True}, f)
    """,
    )
    assert plain == observed == {"wentOn": True}
    [region] = run.report["regions"]
    [written] = region["measurements"]
    assert written["status"] == "error" and "replayed after the script broke it" in written["error"]["message"], written


# torch.compile as a torch before 2.13 has it: no isolate_recompiles (a sitecustomize on the runner's path)
OLDER_TORCH = textwrap.dedent("""
    import torch

    _compile = torch.compile

    def compile(model=None, *, fullgraph=False, dynamic=None, backend="inductor", mode=None, options=None, disable=False):
        return _compile(model, fullgraph=fullgraph, dynamic=dynamic, backend=backend, mode=mode, options=options, disable=disable)

    torch.compile = compile
""")


@pytest.mark.parametrize("isolated", [True, False], ids=["isolate_recompiles", "older-torch"])
def test_a_replay_between_the_scripts_lines_leaves_its_recompile_limit_alone(tmp_path: Path, isolated: bool) -> None:
    """A what-if mode compiled when the script drops a region keeps its cache entries apart (isolate_recompiles): the
    script's later compiles of the same code stay within its own recompile limit, as they would without Compile Lens.
    A torch without isolate_recompiles gets the replay as written only, and the region says what was left out."""
    script = tmp_path / "limit.py"
    script.write_text(
        textwrap.dedent("""
        import torch

        torch._dynamo.config.recompile_limit = 2  # the script's two compiles of `scale` fit, a third would not

        def scale(x):
            return x @ x  # an ATen matmul: the what-if's Inductor compile builds no C++ kernel

        for n in (3, 4):
            fast = torch.compile(scale, backend="eager", dynamic=False)
            for _ in range(3):
                fast(torch.zeros(n, n))
            del fast
    """)
    )
    shim = None
    if not isolated:
        shim = tmp_path / "older_torch"
        shim.mkdir()
        (shim / "sitecustomize.py").write_text(OLDER_TORCH)
    run = run_runner(
        "--script",
        str(script),
        "--quick",
        "--no-in-situ",
        "--modes",
        "reduce-overhead",
        "--out",
        str(tmp_path / "out"),
        extra_path=str(shim) if shim else None,
    )
    assert run.code == 0, run.stderr[-2000:]
    first, second = run.report["regions"]
    if isolated:
        assert [m["mode"] for m in first["measurements"]] == [
            "as-written",
            "reduce-overhead",
        ]  # at the drop, what-if too
        assert first["replay"].get("leftOut") is None
    else:
        assert [m["mode"] for m in first["measurements"]] == ["as-written"] and first["measurements"][0][
            "status"
        ] == "ok"
        assert (
            "the what-if mode reduce-overhead would have compiled into the script's own recompile limit"
            in first["replay"]["leftOut"]
        )
    assert [c["ranCompiled"] for c in second["calls"]] == [True, True, True], second["calls"]
    # the log is the script's again after the replay: its second compile is the script's, the what-if's is not
    assert run.report["modes"][0]["compiler"]["graphCount"] == 2 and second["compiler"]["graphCount"] == 1


TIMED = REPO / "bench" / "scripts" / "timed_calls.py"


def test_the_durations_shown_are_the_scripts_own(tmp_path: Path) -> None:
    own_out = tmp_path / "own.json"
    run = run_runner("--script", str(TIMED), "--quick", "--out", str(tmp_path / "out"), "--", str(own_out))
    assert run.code == 0, run.stderr[-2000:]
    own = json.loads(own_out.read_text())
    [region] = run.report["regions"]
    calls = region["calls"]
    assert [c["index"] for c in calls] == list(range(40))
    # the observer's state checks and captures ran on few calls, marked; every other call was left plain
    marked = [c["index"] for c in calls if c.get("observer")]
    assert marked == [0, 1, 2, 3, 7, 15, 31]
    plain = [c for c in calls if not c.get("observer") and c["index"] >= 4]
    # each shown duration lies inside the script's own timing of the same call (what the wrapper adds to it is a
    # speed: bench/observer_overhead.py)
    assert all(c["ms"] <= own[c["index"]] for c in plain)
    # the steady state's time is a plain call's (in situ, interleaved: the middle pair of blocks' median call made at
    # the compiled stance, the script as written, outside its profiled window)
    steady = region["steadyState"]["medianMs"]
    # nor a call whose step the host interrupted (measure/interruptions.py: left out of the per-call number too)
    interrupted = {p["index"] for p in region["inSitu"]["stepPoints"] if p.get("leftOut") == "interrupted"}
    compiled = [
        c
        for c in plain
        if c["side"] == "compiled"
        and not c.get("profiled")
        and c["index"] >= region["steadyState"]["fromCall"]
        and c["index"] not in interrupted
    ]
    assert steady == region["inSitu"]["call"]["compiledMs"]
    assert min(abs(steady - c["ms"]) for c in compiled) < 1e-4
