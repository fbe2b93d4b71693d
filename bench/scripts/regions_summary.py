"""Prints what a script-mode report says per region, for docs/BENCHMARKS.md: each call (duration, what it
compiled and for how long), the steady state, the measurements, and where the script's compile time went.

    python3 bench/scripts/regions_summary.py REPORT_DIR_OR_JSON
"""

import json
import os
import sys


def main(path: str) -> None:
    if os.path.isdir(path):
        path = os.path.join(path, "report.json")
    with open(path, encoding="utf-8") as f:
        report = json.load(f)
    script = next(m for m in report["modes"] if m["mode"] == "script")
    env = report["environment"]
    print(f"{report['target']['name']}: {env['deviceName']}, torch {env['torch']}, status {report['status']}")
    compiler = script["compiler"] or {}
    print(f"script compile time {script['compileSeconds']} s over {len(compiler.get('frames', []))} compiles:")
    for frame in compiler.get("frames", []):
        where = frame["location"] or {}
        print(
            f"  {frame['compileId']:>6} {frame['function']:<40} {frame['seconds']:8.3f} s  {where.get('file', '-')}:{where.get('line', '')}"
        )
    for region in report.get("regions", []):
        where = region["location"] or {}
        own = (region["compiler"] or {}).get("compileSeconds", {}).get("total")
        print(
            f"\n{region['id']} {region['name']} ({region['kind']}, {region['options']}) on {region.get('device')}, "
            f"line {where.get('line')}: {region['callCount']} calls, compile {own} s"
        )
        for call in region["calls"][:40]:
            compiled = f"compile {call['compileSeconds']:.3f} s" if call["compileSeconds"] is not None else ""
            ms = f"{call['ms']:10.3f}" if call["ms"] is not None else "         -"
            print(
                f"  call {call['index']:3} {ms} ms  {call['event']:<10} {compiled:<18} ran compiled: {call['ranCompiled']}  "
                f"{call['signature']}" + (f"  [{call['recompileReason']}]" if call["recompileReason"] else "")
            )
        print(f"  steady state: {region['steadyState']}")
        print(f"  replay: {region['replay']}")
        for m in region["measurements"]:
            timing = m.get("timing") or {}
            eager = m.get("eagerTiming") or {}
            print(
                f"  {m['mode']:<16} {m['why']:<13} {m['status']}: speedup {m['speedup']} (IQR {m.get('speedupIqrPct')} %), "
                f"eager {eager.get('medianMs')} ms, compiled {timing.get('medianMs')} ms, compile {m['compileSeconds']} s, "
                f"break-even {m.get('breakEvenCalls')}, kernels {m.get('eagerKernelsPerStep')} -> {m['kernelsPerStep']}, "
                f"outputs ok: {(m.get('correctness') or {}).get('ok')}"
                + (f", error: {m['error']['message']}" if m.get("error") else "")
            )
        print(f"  recommendation: {region['recommendation']}")
    print(f"\nscript recommendation: {report['recommendation']}")


if __name__ == "__main__":
    main(sys.argv[1])
