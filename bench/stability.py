"""Speedup stability on real models: profiles each model twice, in separate processes, and prints per model and
mode run 1, run 2, their difference, each run's interval, eager's GPU idle share and the correctness verdict.

    python3 bench/stability.py --out /tmp/stability                       # the H100 set, both modes, two runs each
    python3 bench/stability.py --out /tmp/s --models mlp --device cpu --quick   # a quick check on CPU

Writes DIR/<model>-run<N>/ (the runner's report directories), DIR/stability.json (the table's numbers) and
DIR/rounds.json (every pair's round times, in the format of test/fixtures/timing/ for estimator tests). Models
whose package (torchvision, transformers, timm) is missing are skipped with a line saying so.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from typing import Any

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARGETS = os.path.join(REPO, "bench", "real_models", "targets.py")
AGREE_PCT = 5.0


@dataclass(frozen=True)
class Model:
    name: str
    runner_args: tuple[str, ...]
    needs: str | None = None
    runs: int | None = None  # None: --runs


MODELS = {
    "resnet18": Model("resnet18", ("--target", f"{TARGETS}:resnet18"), "torchvision"),
    "bert": Model("bert", ("--target", f"{TARGETS}:bert"), "transformers"),
    "gpt2": Model("gpt2", ("--target", f"{TARGETS}:gpt2"), "transformers"),
    "vit": Model("vit", ("--target", f"{TARGETS}:vit_small"), "timm"),
    "mlp": Model("mlp", ("--sample", "mlp")),
    "localopt": Model("localopt", ("--sample", "localopt")),
    # one run is enough to show the fallback to eager is caught on this device too
    "counter": Model("counter", ("--target", f"{TARGETS}:counter"), runs=1),
}
DEFAULT_MODELS = "resnet18,bert,gpt2,vit,mlp,localopt,counter"


def run_once(model: Model, index: int, args: argparse.Namespace) -> tuple[dict[str, Any] | None, float, str]:
    out = os.path.join(args.out, f"{model.name}-run{index}")
    command = [
        sys.executable,
        "-m",
        "compile_lens_runner",
        "profile",
        *model.runner_args,
        "--device",
        args.device,
        "--modes",
        args.modes,
        "--out",
        out,
        "--timeout",
        str(args.timeout),
    ]
    if args.quick:
        command.append("--quick")
    env = dict(
        os.environ,
        PYTHONPATH=os.pathsep.join(filter(None, [os.path.join(REPO, "native-runner"), os.environ.get("PYTHONPATH")])),
    )
    started = time.monotonic()
    proc = subprocess.run(command, env=env, check=False, capture_output=True, text=True, timeout=args.timeout + 60)
    seconds = time.monotonic() - started
    path = os.path.join(out, "report.json")
    if not os.path.exists(path):
        return None, seconds, (proc.stderr.strip().splitlines() or ["no output"])[-1]
    with open(path, encoding="utf-8") as f:
        return json.load(f), seconds, ""


def mode_facts(report: dict[str, Any], mode: dict[str, Any]) -> dict[str, Any]:
    correctness = mode.get("correctness") or {}
    interval = mode.get("speedupInterval") or {}
    timing, eager_timing = mode.get("timing") or {}, mode.get("eagerTiming") or {}
    return {
        "status": mode["status"],
        "speedup": mode.get("speedup"),
        "low": interval.get("low"),
        "high": interval.get("high"),
        "medianRatio": mode.get("speedupMedianRatio"),
        "pairs": len(timing.get("rounds") or []),
        "stop": timing.get("stopReason"),
        "eagerMs": eager_timing.get("estimateMs"),
        "compiledMs": timing.get("estimateMs"),
        "eagerGpuIdlePct": report["eager"].get("gpuIdlePct"),
        "launchBound": report["eager"].get("launchBound"),
        "correct": correctness.get("ok"),
        "reference": correctness.get("reference"),
        "maxAbsError": correctness.get("maxAbsError"),
        "precision": correctness.get("precision"),
        "fallback": (mode.get("fallback") or {}).get("cause"),
        "error": (mode.get("error") or {}).get("message"),
        "verdict": report["recommendation"].get("verdict"),
        "recommendation": report["recommendation"]["reason"],
    }


def difference_pct(a: float, b: float) -> float:
    return abs(a - b) / ((a + b) / 2) * 100.0


def fmt(value: float | None, digits: int = 2, suffix: str = "") -> str:
    return f"{value:.{digits}f}{suffix}" if isinstance(value, (int, float)) else "n/a"


def describe(facts: dict[str, Any]) -> str:
    """One run's cell: speedup [interval] or why there is none."""
    if facts["status"] != "ok":
        return f"failed: {facts['error']}"
    if facts["speedup"] is None:
        return f"not measured: {facts['fallback'] or 'invalid timing'}"
    return f"{fmt(facts['speedup'])}x [{fmt(facts['low'])}-{fmt(facts['high'])}] {facts['pairs']}p {facts['stop']}"


def table(results: dict[str, list[dict[str, Any]]], modes: list[str]) -> list[str]:
    lines = [
        f"{'model':10} {'mode':16} {'run 1':34} {'run 2':34} {'diff':>7} {'covers':>6} {'eager idle':>10} {'median-ratio 1/2':>17}  correctness"
    ]
    for name, runs in results.items():
        for mode in modes:
            cells = [r["modes"].get(mode) for r in runs]
            if not any(cells):
                continue
            first = cells[0] or {}
            second = cells[1] if len(cells) > 1 else None
            diff = covers = ""
            if second and first.get("speedup") and second.get("speedup"):
                diff = f"{difference_pct(first['speedup'], second['speedup']):.1f}%" + (
                    " !" if difference_pct(first["speedup"], second["speedup"]) > AGREE_PCT else ""
                )
                covers = (
                    "yes"
                    if (
                        first["low"] <= second["speedup"] <= first["high"]
                        and second["low"] <= first["speedup"] <= second["high"]
                    )
                    else "NO"
                )
            idle = fmt(first.get("eagerGpuIdlePct"), 0, "%") + (" LB" if first.get("launchBound") else "")
            medians = "/".join(fmt(c.get("medianRatio")) for c in cells if c)
            correct = "; ".join(
                sorted(
                    {
                        f"{'ok' if c.get('correct') else 'MISMATCH' if c.get('correct') is False else 'n/a'} (ref {c.get('reference')}, max |d| {fmt(c.get('maxAbsError'), 6)})"
                        for c in cells
                        if c
                    }
                )
            )
            lines.append(
                f"{name:10} {mode:16} {describe(first):34} {describe(second) if second else '':34} {diff:>7} {covers:>6} "
                f"{idle:>10} {medians:>17}  {correct}"
            )
    return lines


def rounds_fixture(
    results: dict[str, list[dict[str, Any]]], reports: dict[str, list[dict[str, Any]]]
) -> dict[str, Any]:
    runs: dict[str, Any] = {}
    for name, run_reports in reports.items():
        for index, report in enumerate(run_reports, 1):
            modes = {}
            for mode in report["modes"]:
                timing, eager = mode.get("timing") or {}, mode.get("eagerTiming") or {}
                if timing.get("rounds") and eager.get("rounds"):
                    modes[mode["mode"]] = {
                        "eagerRoundsMs": eager["rounds"],
                        "compiledRoundsMs": timing["rounds"],
                        "reportedSpeedup": mode.get("speedup"),
                        "callsPerRound": [eager.get("callsPerRound"), timing.get("callsPerRound")],
                    }
            runs[f"{name}_{index}"] = {"target": name, "modes": modes}
    return {
        "about": "Per-pair round times (ms per call) from bench/stability.py; each pair: eager and compiled round, order alternating.",
        "runs": runs,
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", required=True, help="directory for the report directories and the summaries")
    p.add_argument("--models", default=DEFAULT_MODELS, help=f"comma-separated, from: {','.join(MODELS)}")
    p.add_argument("--modes", default="default,reduce-overhead")
    p.add_argument("--device", default="cuda", choices=("cuda", "cpu", "auto"))
    p.add_argument("--runs", type=int, default=2)
    p.add_argument("--timeout", type=int, default=400, help="seconds per runner process")
    p.add_argument("--quick", action="store_true", help="the runner's --quick (fewer, shorter rounds)")
    args = p.parse_args(argv)
    os.makedirs(args.out, exist_ok=True)
    names = [n.strip() for n in args.models.split(",") if n.strip()]
    unknown = [n for n in names if n not in MODELS]
    if unknown:
        p.error(f"unknown models: {', '.join(unknown)} (known: {', '.join(MODELS)})")
    results: dict[str, list[dict[str, Any]]] = {}
    reports: dict[str, list[dict[str, Any]]] = {}
    started = time.monotonic()
    for name in names:
        model = MODELS[name]
        if model.needs and importlib.util.find_spec(model.needs) is None:
            print(f"skip {name}: {model.needs} is not installed in {sys.executable}", flush=True)
            continue
        for index in range(1, (model.runs or args.runs) + 1):
            report, seconds, problem = run_once(model, index, args)
            if report is None:
                print(f"{name} run {index}: no report after {seconds:.0f} s: {problem}", flush=True)
                continue
            facts = {m["mode"]: mode_facts(report, m) for m in report["modes"]}
            results.setdefault(name, []).append(
                {
                    "run": index,
                    "seconds": round(seconds, 1),
                    "status": report["status"],
                    "environment": report["environment"],
                    "modes": facts,
                }
            )
            reports.setdefault(name, []).append(report)
            print(
                f"{name} run {index}: {report['status']} in {seconds:.0f} s; "
                + "; ".join(f"{mode} {describe(f)}" for mode, f in facts.items()),
                flush=True,
            )
    modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    lines = table(results, modes)
    print("\n" + "\n".join(lines))
    env = next((r[0]["environment"] for r in results.values() if r), None)
    if env:
        print(
            f"\n{env.get('deviceName')} · torch {env.get('torch')} · triton {env.get('triton')} · {time.monotonic() - started:.0f} s in all"
        )
    print(
        "columns: speedup [interval] pairs stop-reason; diff = |run1 - run2| / mean (! over 5 %); covers: each run's interval "
        "holds the other's speedup; eager idle: GPU idle between kernels (LB: launch-bound); median-ratio: the old estimator"
    )
    with open(os.path.join(args.out, "stability.json"), "w", encoding="utf-8") as f:
        json.dump({"models": results, "table": lines}, f, indent=1)
    with open(os.path.join(args.out, "rounds.json"), "w", encoding="utf-8") as f:
        json.dump(rounds_fixture(results, reports), f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
