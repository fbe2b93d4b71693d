"""What a script's regions say: per region compile / stay eager / no verdict, and one summary for the script.

Measured regions go through advice.recommend, the rule targets use. Where nothing was measured the verdict is
'none' and the reason says why, never "don't compile".
"""
from __future__ import annotations

from typing import Any

from ..compiler.insight import CUDAGRAPH_MODES
from ..report import advice
from .replay import AS_WRITTEN

_NO_VERDICT = "No verdict: "


def _where(region: dict[str, Any]) -> str:
    """"Net (line 17)"; in a notebook "Net (cell 3, line 2)", cells counted from 1 as the editor shows them."""
    location = region.get("location") or {}
    line, cell = location.get("line"), location.get("cell")
    if not line:
        return str(region["name"])
    return f"{region['name']} (cell {cell + 1}, line {line})" if isinstance(cell, int) else f"{region['name']} (line {line})"


def _primary(region: dict[str, Any]) -> list[dict[str, Any]]:
    """Measurements on the region's most frequent signature: the verdict rests on those."""
    return [m for m in region["measurements"] if m.get("why") == "most-frequent"]


def _label(region: dict[str, Any], mode: str) -> str:
    return f"{region['options']['mode']} as written" if mode == AS_WRITTEN else mode


def region_recommendation(region: dict[str, Any]) -> dict[str, Any]:
    measured = [m for m in _primary(region) if m["status"] == "ok" and m.get("speedup") is not None]
    if not measured:
        failed = next((m["error"]["message"] for m in _primary(region) if m.get("error")), None)
        why = region["replay"]["reason"] or failed or "it was not measured"
        return {"mode": None, "verdict": "none", "reason": f"{_NO_VERDICT}{why}."}
    rec = advice.recommend([dict(m, mode=_label(region, m["mode"])) for m in _primary(region)],
                          CUDAGRAPH_MODES if region.get("device") == "cpu" else ())
    if rec["mode"] is None:
        # "no verdict" (rounds too noisy, compiled calls ran eagerly) stays no verdict: never "stay eager" without a measurement that says so
        return {"mode": None, "verdict": rec.get("verdict") or "stay-eager", "reason": rec["reason"]}
    own = region["options"]["mode"]
    return {"mode": own if rec["mode"] == _label(region, AS_WRITTEN) else rec["mode"], "verdict": "compile",
            "reason": rec["reason"]}


def _best_speedup(region: dict[str, Any]) -> float | None:
    speedups = [m["speedup"] for m in _primary(region) if m["status"] == "ok" and m.get("speedup") is not None]
    return max(speedups) if speedups else None


def script_recommendation(regions: list[dict[str, Any]]) -> dict[str, Any]:
    """One line for the whole script from its regions' verdicts."""
    if not regions:
        return {"mode": None, "verdict": "none", "reason": (
            f"{_NO_VERDICT}the script made no torch.compile region (no torch.compile or nn.Module.compile call ran).")}
    parts, compiling = [], []
    for region in regions:
        rec, best = region["recommendation"], _best_speedup(region)
        if rec["verdict"] == "compile":
            compiling.append((best or 0.0, rec["mode"]))
            parts.append(f"{_where(region)}: compile ({rec['mode']}, {best:.2f}x)")
        elif rec["verdict"] == "stay-eager":
            parts.append(f"{_where(region)}: stay eager" + (f" (best {best:.2f}x)" if best is not None else ""))
        elif best is not None:  # measured, but the measurement supports no verdict (e.g. too noisy)
            parts.append(f"{_where(region)}: no verdict, {rec['reason'].removeprefix(_NO_VERDICT).split(' (')[0].rstrip('.')}")
        else:
            parts.append(f"{_where(region)}: not measured, {rec['reason'].removeprefix(_NO_VERDICT).rstrip('.')}")
    if compiling:
        return {"mode": max(compiling)[1], "verdict": "compile", "reason": "; ".join(parts) + "."}
    verdict = "stay-eager" if any(r["recommendation"]["verdict"] == "stay-eager" for r in regions) else "none"
    return {"mode": None, "verdict": verdict, "reason": ("" if verdict == "stay-eager" else _NO_VERDICT) + "; ".join(parts) + "."}
