"""Compile Lens `inspect` against tlparse on tlparse's own test logs: per log, the counts both tools give of compile
ids, graph breaks, recompiles, failures and restarts, and cache hits and misses, as a Markdown table.

    pip install tlparse   # the reference binary
    python bench/tlparse_parity.py TLPARSE_REPO/tests/inputs [--tlparse PATH] > table.md

Each rank log of a multi-rank folder is compared on its own (tlparse's per-rank pages do the same counting).
Needs no torch: inspect reads logs only."""

from __future__ import annotations

import argparse
import gzip
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
KEYS = ("compile ids", "graph breaks", "recompiles", "failures+restarts", "cache hits", "cache misses")


def tlparse_counts(binary: str, log: Path, out: Path) -> dict[str, int] | str:
    if log.name.endswith(".gz"):  # tlparse reads plain text only
        plain = out.with_suffix(".log")
        plain.parent.mkdir(parents=True, exist_ok=True)
        plain.write_bytes(gzip.decompress(log.read_bytes()))
        log = plain
    proc = subprocess.run(
        [binary, str(log), "-o", str(out), "--overwrite", "--no-browser"], check=False, capture_output=True, text=True
    )
    if proc.returncode != 0 or not (out / "compile_directory.json").exists():
        return f"tlparse failed: {(proc.stderr.strip().splitlines() or ['exit ' + str(proc.returncode)])[-1][:120]}"
    directory = json.loads((out / "compile_directory.json").read_text())
    ids = {re.sub(r"_\d+\]$", "]", key) for key in directory if re.match(r"^\[!?\d", key)}
    names = [a["name"] for entry in directory.values() for a in entry.get("artifacts", [])]
    html = (out / "failures_and_restarts.html").read_text() if (out / "failures_and_restarts.html").exists() else ""
    rows = max(html.count("<tr>") - 1, 0)
    return {
        "compile ids": len(ids),
        "graph breaks": sum(n.startswith("dynamo_graph_break_reason") for n in names),
        "recompiles": sum(n.startswith("recompile_reasons") for n in names),
        "failures+restarts": rows,
        "cache hits": sum("cache_hit" in n for n in names),
        "cache misses": sum("cache_miss" in n for n in names),
    }


def our_counts(log: Path, out: Path) -> dict[str, int] | str:
    env = dict(os.environ, PYTHONPATH=str(REPO / "native-runner"))
    proc = subprocess.run(
        [sys.executable, "-m", "compile_lens_runner", "inspect", str(log), "--out", str(out)],
        check=False,
        capture_output=True,
        text=True,
        env=env,
    )
    report_path = out / "report.json"
    if not report_path.exists():
        return f"inspect failed: {proc.stderr.strip()[-120:]}"
    report = json.loads(report_path.read_text())
    if report["status"] == "error":
        return f"inspect: {report['error']['message'][:120]}"
    c = report["modes"][0]["compiler"]
    cache = c["cache"]
    return {
        "compile ids": c["compiledFrames"],
        "graph breaks": sum(b.get("count", 1) for b in c["graphBreaks"]),
        "recompiles": len(c["recompiles"]),
        "failures+restarts": len(c["compileFailures"]) + len(c["restarts"]),
        "cache hits": cache["fxGraph"]["hit"] + cache["aotAutograd"]["hit"],
        "cache misses": cache["fxGraph"]["miss"] + cache["aotAutograd"]["miss"],
    }


def logs_under(inputs: Path) -> list[Path]:
    return sorted(
        p
        for p in inputs.rglob("*")
        if p.is_file() and p.name.endswith((".log", ".txt", ".log.gz")) and p.stat().st_size > 0
    )


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("inputs", type=Path, help="a folder: every .log, .log.gz and .txt under it")
    parser.add_argument("--tlparse", default=shutil.which("tlparse") or "tlparse")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="parity-"))
    print("| log | " + " | ".join(KEYS) + " |")
    print("|---|" + "---|" * len(KEYS))
    disagreements = 0
    for i, log in enumerate(logs_under(args.inputs)):
        theirs, ours = tlparse_counts(args.tlparse, log, work / f"t{i}"), our_counts(log, work / f"o{i}")
        cells = []
        for key in KEYS:
            if isinstance(theirs, str) or isinstance(ours, str):
                cells.append("—")
                continue
            same = theirs[key] == ours[key]
            disagreements += not same
            cells.append(f"{ours[key]}" if same else f"**{ours[key]} / {theirs[key]}**")
        note = "".join(f" ({t})" for t in (theirs, ours) if isinstance(t, str))
        print(f"| {log.relative_to(args.inputs)}{note} | " + " | ".join(cells) + " |")
    print(f"\n{disagreements} disagreeing cells (bold: Compile Lens / tlparse)")
    shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
