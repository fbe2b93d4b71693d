"""Which mode to use, or none, from measured speedup, its spread, compile time and break-even calls."""
from __future__ import annotations

from typing import Any

MIN_USEFUL_SPEEDUP = 1.05


def break_even_calls(compile_s: float | None, eager_ms: float | None, compiled_ms: float | None) -> float | None:
    if compile_s is None or eager_ms is None or compiled_ms is None or compiled_ms >= eager_ms:
        return None
    return round(compile_s * 1000.0 / (eager_ms - compiled_ms), 1)


def recommend(modes: list[dict[str, Any]]) -> dict[str, Any]:
    usable = [m for m in modes if m["status"] == "ok" and m.get("speedup") is not None
              and (m.get("correctness") or {}).get("ok", True)]
    if not usable:
        failed = [m["mode"] for m in modes if m["status"] != "ok" or not (m.get("correctness") or {}).get("ok", True)]
        why = f"modes {', '.join(failed)} failed or gave wrong results" if failed else "no mode was measured"
        return {"mode": None, "reason": f"Don't compile this yet: {why}."}
    best = max(usable, key=lambda m: m["speedup"])
    # The middle half of the per-pair ratios, not max-min: 21 pairs on a busy host always include a spike.
    spread = best.get("speedupIqrPct", best.get("speedupSpreadPct")) or 0.0
    compile_s = best.get("compileSeconds") or 0.0
    noise = max(MIN_USEFUL_SPEEDUP, 1.0 + spread / 100.0)
    vary = f"ratios vary {spread:.0f}% between rounds" if spread >= 1 else "ratios vary <1% between rounds"
    if best["speedup"] < 1.0:
        return {"mode": None, "reason": (
            f"Don't compile this: even the best mode ({best['mode']}) is slower than eager, "
            f"{best['speedup']:.2f}x ({vary}).")}
    if best["speedup"] < noise:
        return {"mode": None, "reason": (
            f"Don't compile this: the best mode ({best['mode']}) runs at {best['speedup']:.2f}x eager, within the "
            f"noise ({vary}), not enough to repay {compile_s:.1f} s of compilation.")}
    calls = best.get("breakEvenCalls")
    payback = f"its {compile_s:.1f} s compile pays back after {calls:,.0f} calls" if calls is not None else "it compiles once"
    return {"mode": best["mode"], "reason": f"{best['mode']} is {best['speedup']:.2f}x faster than eager ({vary}) and {payback}."}
