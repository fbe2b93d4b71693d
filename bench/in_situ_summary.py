"""Summary of bench/in_situ_interleaved.sh: per script the plain runs (own step clock, wall) and each profile's
interleaved in-situ step speedup, interval, pairs, verdict, wall time and the work per step (why); whether every two profiles land within 5 %
of each other and inside each other's interval. Prints markdown rows and writes OUT/summary.json."""

from __future__ import annotations

import json
import os
import re
import sys
from typing import Any

SCRIPTS = ("amp_train", "decode_static_kv", "resnet_infer", "varlen_server", "pointwise_train")


def _read(path: str) -> str | None:
    return open(path, encoding="utf-8").read() if os.path.exists(path) else None


def _plain(out: str, name: str) -> dict[str, Any]:
    plain: dict[str, Any] = {}
    for label in ("compiled-cold", "eager", "compiled"):
        text = _read(os.path.join(out, f"{name}.plain-{label}.out")) or ""
        medians = [float(m) for m in re.findall(r"median step ([0-9.]+) ms", text)]
        wall = _read(os.path.join(out, f"{name}.plain-{label}.wall"))
        plain[label] = {"stepMs": medians[-1] if medians else None, "wallSeconds": float(wall) if wall else None}
    e, c = plain["eager"]["stepMs"], plain["compiled"]["stepMs"]
    plain["speedup"] = round(e / c, 3) if e and c else None
    return plain


def _profile(out: str, name: str, k: int) -> dict[str, Any] | None:
    text = _read(os.path.join(out, f"{name}-{k}", "report.json"))
    if text is None:
        return None
    report = json.loads(text)
    wall = _read(os.path.join(out, f"{name}-{k}.wall"))
    regions = []
    for region in report.get("regions") or []:
        situ = region.get("inSitu") or {}
        step = situ.get("step")
        regions.append(
            {
                "id": region["id"],
                "name": region["name"],
                "calls": region["callCount"],
                "step": None
                if step is None
                else {
                    x: step.get(x)
                    for x in ("eagerMs", "compiledMs", "speedup", "low", "high", "pairs", "comparedBy", "samples")
                },
                "breakEvenSteps": situ.get("breakEvenSteps"),
                "compileSeconds": situ.get("compileSeconds"),
                "dropped": situ.get("dropped"),
                "reason": situ.get("reason"),
                "work": situ.get("work"),
                "verdict": (region.get("recommendation") or {}).get("verdict"),
                "because": (region.get("recommendation") or {}).get("reason"),
            }
        )
    return {
        "status": report["status"],
        "wallSeconds": float(wall) if wall else None,
        "device": report.get("environment", {}).get("deviceName"),
        "torch": report.get("environment", {}).get("torch"),
        "schedule": (report.get("inSitu") or {}).get("schedule"),
        "regions": regions,
        "headline": report["recommendation"]["reason"],
        "verdict": report["recommendation"].get("verdict"),
    }


def main(out: str) -> None:
    summary: dict[str, Any] = {}
    for name in SCRIPTS:
        profiles = [p for p in (_profile(out, name, k) for k in range(1, 10)) if p is not None]
        if not profiles:
            continue
        plain = _plain(out, name)
        summary[name] = {"plain": plain, "profiles": profiles}
        steps = [p["regions"][0]["step"] if p["regions"] else None for p in profiles]
        numbers = [s for s in steps if s is not None]
        within = all(abs(a["speedup"] / b["speedup"] - 1) <= 0.05 for a in numbers for b in numbers)
        inside = all(b["low"] <= a["speedup"] <= b["high"] for a in numbers for b in numbers)
        summary[name]["agree"] = {
            "within5pct": within,
            "insideEachOthersInterval": inside,
            "sameVerdict": len({p["regions"][0]["verdict"] if p["regions"] else None for p in profiles}) == 1,
        }
        wall_c = plain["compiled"]["wallSeconds"]
        print(
            f"\n{name} on {profiles[0]['device']} (torch {profiles[0]['torch']}): plain eager {plain['eager']['stepMs']} ms, "
            f"compiled {plain['compiled']['stepMs']} ms per step = {plain['speedup']}x; plain compiled wall {wall_c} s "
            f"(cold {plain['compiled-cold']['wallSeconds']} s)"
        )
        for k, p in enumerate(profiles, 1):
            ratio = f"{p['wallSeconds'] / wall_c:.2f}x plain" if p["wallSeconds"] and wall_c else "?"
            for r in p["regions"]:
                s = r["step"]
                number = (
                    f"{s['speedup']:.3f}x [{s['low']:.3f}-{s['high']:.3f}] ({s['eagerMs']:.3f} -> {s['compiledMs']:.3f} ms, "
                    f"{s['pairs']} pairs, {s['comparedBy']})"
                    if s
                    else f"no number: {r['reason']}"
                )
                print(
                    f"| {name} | {k} | {r['id']} {r['name']} | {number} | {r['verdict']} | {p['wallSeconds']:.0f} s ({ratio}) |"
                )
                if r["work"]:
                    print(f"    why: {r['work']['text']}")
            print(f"    headline: {p['headline']}")
        print(f"    agree: {summary[name]['agree']}")
    with open(os.path.join(out, "summary.json"), "w", encoding="utf-8") as f:
        json.dump(summary, f, indent=1)


if __name__ == "__main__":
    main(sys.argv[1])
