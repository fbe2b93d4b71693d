"""bench/stability.py, the GPU stability kit, on CPU with the tiny mlp sample: it runs the runner, prints the table,
writes the summaries, and skips models whose package is missing with a line saying so."""

from __future__ import annotations

import importlib.util
import json
import re
import subprocess
import sys
import types
from pathlib import Path
from typing import Any

import pytest
from compile_lens_runner.measure import estimator
from conftest import REPO, run_runner


def _driver(monkeypatch: pytest.MonkeyPatch) -> Any:
    """bench/stability.py as a module, its runner forked as run_runner's runs are (a process of its own imported torch
    and Inductor again: ~7 CPU-s); the driver's own work (its table, summaries and skips) runs as written."""
    spec = importlib.util.spec_from_file_location("stability", REPO / "bench" / "stability.py")
    assert spec and spec.loader
    driver = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "stability", driver)  # its dataclasses look their module up there
    spec.loader.exec_module(driver)

    def run(command: list[str], **_: Any) -> subprocess.CompletedProcess[str]:
        assert command[1:4] == ["-m", "compile_lens_runner", "profile"], command
        done = run_runner(*command[4:])
        return subprocess.CompletedProcess(command, done.code, "", done.stderr)

    driver.subprocess = types.SimpleNamespace(run=run)
    return driver


def test_stability_driver_on_cpu(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    models = "mlp" if importlib.util.find_spec("timm") else "mlp,vit"
    code = _driver(monkeypatch).main(
        ["--out", str(tmp_path), "--models", models, "--runs", "1", "--quick", "--device", "cpu", "--modes", "default"]
    )
    stdout = capsys.readouterr().out
    assert code == 0, stdout[-3000:]
    if models.endswith("vit"):
        assert "skip vit: timm is not installed" in stdout
    assert "mlp run 1: ok" in stdout
    row = next(line for line in stdout.splitlines() if re.match(r"mlp\s+default\s", line))  # the table's row
    assert "x [" in row and "ok (ref" in row
    summary = json.loads((tmp_path / "stability.json").read_text())
    [run] = summary["models"]["mlp"]
    assert run["modes"]["default"]["speedup"] > 0 and run["modes"]["default"]["low"] <= run["modes"]["default"]["high"]
    rounds = json.loads((tmp_path / "rounds.json").read_text())["runs"]["mlp_1"]["modes"]["default"]
    pairs = list(zip(rounds["eagerRoundsMs"], rounds["compiledRoundsMs"], strict=True))
    # the estimator's own input format gives the reported speedup, to the report's rounding (4 decimals) plus what
    # rounding each stored time to 1e-6 ms moves the ratio (0.12 ms rounds moved it by 5.26e-5 in CI run 33)
    ratio = estimator.fastest_ratio(pairs)
    stored_rounding = ratio * (0.5e-6 / min(rounds["eagerRoundsMs"]) + 0.5e-6 / min(rounds["compiledRoundsMs"]))
    assert abs(ratio - rounds["reportedSpeedup"]) <= 0.5e-4 + stored_rounding + 1e-9
    assert (tmp_path / "mlp-run1" / "report.json").exists()
