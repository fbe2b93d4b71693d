"""Shapes that change (issue 43), on the scripts in this folder: a growing-cache decoder, transformers generate() with
its DynamicCache, a dynamic=False server past the recompile limit, a reduce-overhead server recording a CUDA graph per
batch size (cudagraphs). Per script: the plain script as written, with
compiling off (set_stance force_eager) and with the shape fix (dynamic=True), each in its own process with its own
clock; then N profiles (`compile_lens_runner profile --script`, the shape fix measured when within budget); then a
summary: each profile's in-situ number, range and verdict beside the plain runs' own ratio, the shape facts, the
measured fix beside the plain run with the fix, and each profile's wall over the plain script's.

    python3 bench/shapes/run.py --out /tmp/shapes                 # GPU: all three, 3 profiles each
    python3 bench/shapes/run.py --out /tmp/shapes --only server   # one script (each fits a 10-minute call)
    python3 bench/shapes/run.py --out /tmp/shapes --quick         # CPU: small sizes, 1 profile each, --quick rounds
    python3 bench/shapes/run.py --out /tmp/shapes --only server --shape-fix on   # every fix measured, beside the plain
                                                                  # script with dynamic=True ("fix") and mark_dynamic
    python3 bench/shapes/run.py --out /tmp/more --only generate --profiles 2 --no-plain   # more profiles of a script
                                                                  # whose plain runs and profiles outgrow one call

Writes DIR/<script>-<run>/ (the runner's reports), DIR/summary.json, and prints the summary as text. Needs no
network: the models are made from configs.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
SCRIPTS = ("decoder", "generate", "server", "cudagraphs")
AGREE_PCT = 5.0  # profiles of one script within ±5 % of each other (issue 43)
WALL_BUDGET = 2.5  # a profile's wall at most this many times the plain script's


def _env(quick: bool, **extra: str) -> dict[str, str]:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([HERE, os.path.join(REPO, "native-runner")]), **extra)
    if quick:
        env["SHAPES_QUICK"] = "1"
    return env


def plain(script: str, variant: str, quick: bool) -> dict[str, Any]:
    """The script in its own process: its own step clock and its wall (python start to exit)."""
    started = time.monotonic()
    proc = subprocess.run(
        [sys.executable, os.path.join(HERE, f"{script}.py")],
        env=_env(quick, SHAPES_VARIANT=variant, SHAPES_OWN_CLOCK="1"),
        capture_output=True,
        text=True,
        check=False,
    )
    wall = time.monotonic() - started
    line = next((x for x in proc.stdout.splitlines() if x.startswith("SHAPES_TIMING ")), None)
    own = json.loads(line.removeprefix("SHAPES_TIMING ")) if line else {}
    return {
        **own,
        "wallSeconds": round(wall, 2),
        "exitCode": proc.returncode,
        "stderr": proc.stderr[-1500:] if proc.returncode else "",
    }


def profile(script: str, out: str, quick: bool, shape_fix: str) -> dict[str, Any]:
    """One profile of the unmodified script (the shape fixes as --shape-fix says: auto, within the runner's budget)."""
    started = time.monotonic()
    command = [sys.executable, "-m", "compile_lens_runner", "profile", "--script", os.path.join(HERE, f"{script}.py")]
    command += ["--out", out, "--shape-fix", shape_fix, *(["--quick"] if quick else [])]
    proc = subprocess.run(command, env=_env(quick), capture_output=True, text=True, check=False)
    wall = time.monotonic() - started
    try:
        with open(os.path.join(out, "report.json"), encoding="utf-8") as f:
            report = json.load(f)
    except (OSError, ValueError):
        return {"wallSeconds": round(wall, 2), "error": proc.stderr[-1500:]}
    region = (report.get("regions") or [{}])[0]
    answer, situ, shapes = region.get("answer") or {}, region.get("inSitu") or {}, region.get("shapes") or {}
    number = answer.get("number") or {}
    return {
        "wallSeconds": round(wall, 2),
        "headline": region.get("headline"),
        "verdict": answer.get("verdict"),
        "number": {k: number.get(k) for k in ("kind", "unit", "value", "low", "high", "n", "pairs", "tooNoisy")},
        "comparedBy": (situ.get("step") or situ.get("call") or {}).get("comparedBy"),
        "eagerFallback": situ.get("eagerFallback"),
        "hostShare": situ.get("hostShare"),
        "dropped": situ.get("dropped"),
        "shapes": {k: v for k, v in shapes.items() if k not in ("changed", "fixes")},
        "changed": (shapes.get("changed") or [])[:2],
        "fixes": [
            {
                "fix": fix.get("fix"),
                "measured": fix.get("measured"),
                "why": fix.get("why"),
                "graphs": fix.get("graphs"),
                "compileSeconds": fix.get("compileSeconds"),
                "speedup": (fix.get("step") or fix.get("call") or {}).get("speedup"),
                "low": (fix.get("step") or fix.get("call") or {}).get("low"),
                "high": (fix.get("step") or fix.get("call") or {}).get("high"),
                "wallSeconds": fix.get("wallSeconds"),
            }
            for fix in shapes.get("fixes") or []
        ],
    }


def _ratio(eager: dict[str, Any], other: dict[str, Any]) -> float | None:
    a, b = eager.get("stepMs"), other.get("stepMs")
    return round(a / b, 4) if a and b else None


def summarize(script: str, runs: dict[str, Any]) -> dict[str, Any]:
    """The checks of issue 43: the profiles agree (±5 %, inside each other's range, one verdict), and each stays
    within WALL_BUDGET × the plain script's wall."""
    profiles = [p for p in runs["profiles"] if p.get("number", {}).get("value")]
    values = [p["number"]["value"] for p in profiles]
    spread = (max(values) / min(values) - 1) * 100 if values else None
    inside = all(
        p["number"].get("low") is not None
        and q["number"].get("low") is not None
        and p["number"]["low"] <= q["number"]["value"] <= p["number"]["high"]
        for p in profiles
        for q in profiles
    )
    plain_wall = runs["plain"]["as-written"]["wallSeconds"] if runs["plain"] else None
    return {
        "script": script,
        **{
            key: _ratio(runs["plain"]["eager"], runs["plain"][variant]) if runs["plain"] else None
            for key, variant in (
                ("plainSpeedup", "as-written"),
                ("plainFixSpeedup", "fix"),
                ("plainMarkSpeedup", "mark"),
            )
        },
        "profileValues": values,
        "spreadPct": None if spread is None else round(spread, 2),
        "withinAgreePct": spread is not None and spread <= AGREE_PCT,
        "insideEachOthersRange": bool(profiles) and inside,
        "verdicts": sorted({str(p.get("verdict")) for p in runs["profiles"]}),
        "wallOverPlain": [round(p["wallSeconds"] / plain_wall, 2) for p in runs["profiles"]] if plain_wall else None,
        "withinWallBudget": plain_wall is not None
        and all(p["wallSeconds"] <= WALL_BUDGET * plain_wall for p in runs["profiles"]),
        "fixes": [p.get("fixes") for p in runs["profiles"]],
    }


def text(summary: dict[str, Any], runs: dict[str, Any]) -> str:
    plain_runs = runs["plain"]
    lines = [f"== {summary['script']}"]
    for variant, own in plain_runs.items():
        lines.append(
            f"  plain {variant}: step {own.get('stepMs')} ms over {own.get('steps')}, wall {own['wallSeconds']} s"
            + (f", {own['reservedBytes'] / 2**20:.0f} MiB reserved at the end" if own.get("reservedBytes") else "")
            + (f" (exit {own['exitCode']}: {own['stderr'][-300:]})" if own.get("exitCode") else "")
        )
    lines.append(
        f"  plain speedup {summary['plainSpeedup']}x; with dynamic=True {summary['plainFixSpeedup']}x, with "
        f"mark_dynamic {summary['plainMarkSpeedup']}x"
    )
    for k, p in enumerate(runs["profiles"], 1):
        if "error" in p:
            lines.append(f"  profile {k}: failed: {p['error'][-300:]}")
            continue
        lines.append(f"  profile {k} ({p['wallSeconds']} s): {p['headline']}")
        graphs = p["shapes"].get("cudaGraphBytes")
        lines.append(f"    host share {p['hostShare']}" + (f", CUDA graphs {graphs / 2**20:.0f} MiB" if graphs else ""))
    lines.append(
        f"  profiles: {summary['profileValues']} spread {summary['spreadPct']} % "
        f"(within {AGREE_PCT:g} %: {summary['withinAgreePct']}), inside each other's range: "
        f"{summary['insideEachOthersRange']}, verdicts {summary['verdicts']}, wall/plain {summary['wallOverPlain']} "
        f"(within {WALL_BUDGET:g}x: {summary['withinWallBudget']})"
    )
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", required=True)
    parser.add_argument("--only", default=",".join(SCRIPTS), help=f"comma-separated of {', '.join(SCRIPTS)}")
    parser.add_argument("--profiles", type=int, default=None, help="profiles per script (default 3, --quick 1)")
    parser.add_argument("--quick", action="store_true", help="small sizes and --quick rounds (CPU)")
    parser.add_argument("--no-plain", action="store_true", help="profiles only (the plain runs from another call)")
    parser.add_argument(
        "--shape-fix", default="auto", choices=("auto", "on", "off"), help="the profiles' --shape-fix (on: every fix)"
    )
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    count = args.profiles or (1 if args.quick else 3)
    summaries, texts = [], []
    for script in [s for s in args.only.split(",") if s]:
        runs: dict[str, Any] = {"plain": {}, "profiles": []}
        for variant in () if args.no_plain else ("as-written", "eager", "fix", "mark"):
            runs["plain"][variant] = plain(script, variant, args.quick)
            print(f"{script} plain {variant}: {json.dumps(runs['plain'][variant])}", flush=True)
        for k in range(1, count + 1):
            runs["profiles"].append(
                profile(script, os.path.join(args.out, f"{script}-{k}"), args.quick, args.shape_fix)
            )
            # as it lands: a call that runs out of time keeps the profiles it finished
            print(f"{script} profile {k}: {json.dumps(runs['profiles'][-1])}", flush=True)
        summary = summarize(script, runs)
        summaries.append({**summary, "runs": runs})
        texts.append(text(summary, runs))
        print(texts[-1], flush=True)
    with open(os.path.join(args.out, "summary.json"), "w", encoding="utf-8") as f:
        json.dump(summaries, f, indent=2)
    medians = [statistics.median(s["profileValues"]) for s in summaries if s["profileValues"]]
    print(f"summary: {os.path.join(args.out, 'summary.json')} ({len(summaries)} scripts, medians {medians})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
