"""Which mode to use, or none, from what was measured: speedup and its interval, correctness, compile time.

A verdict needs a measurement: "stay eager" only when a valid timing or a correctness judgement says so; when the
timed compiled calls ran eagerly (Dynamo fell back), or other processes held the CPUs torch's threads needed while
timing (the ratio then measures the host), the advice is the fix, not a verdict.
"""

from __future__ import annotations

from collections.abc import Sequence

from .. import formats
from ..shapes.common import HostLoad, Recommendation
from ..shapes.mode import ModeResult

MIN_USEFUL_SPEEDUP = 1.05
DECISIVE_SPAN = 2.0


def _measured(mode: ModeResult) -> bool:
    timed = mode.get("timing")
    return (
        mode["status"] == "ok"
        and mode.get("speedup") is not None
        and (timed.get("valid", True) if timed else True)
        and not mode.get("fallback")
        and not _contended(mode)
    )


def _contended(mode: ModeResult) -> HostLoad | None:
    """The measurement's hostLoad where contention made it unreliable (measure/host.py)."""
    timed = mode.get("timing")
    load = timed.get("hostLoad") if timed else None
    return load if load and load["contended"] else None


def _correct(mode: ModeResult) -> bool:
    checked = mode.get("correctness")
    return checked["ok"] if checked else True


def _speedup(mode: ModeResult) -> float:
    """A measured mode's speedup."""
    speedup = mode["speedup"]
    assert speedup is not None  # _measured
    return speedup


def _interval(mode: ModeResult) -> tuple[float, float]:
    """A measured mode's interval (its speedup both ways when it has none)."""
    interval = mode.get("speedupInterval")
    return (interval["low"], interval["high"]) if interval else (_speedup(mode), _speedup(mode))


def _no_measurement(modes: Sequence[ModeResult]) -> Recommendation:
    fell_back = [(m, fallback) for m in modes if (fallback := m.get("fallback"))]
    if fell_back:
        m, fallback = fell_back[0]
        cause, fix = fallback["cause"] or "Dynamo ran the compiled calls eagerly", fallback["fix"]
        return {
            "mode": None,
            "verdict": "none",
            "reason": (
                f"No verdict: the compiled calls of {m['mode']} ran eagerly, so nothing compiled was measured ({cause}). "
                + (f"Fix: {fix} Then profile again." if fix else "Fix that, then profile again.")
            ),
        }
    wrong = [m for m in modes if m["status"] == "ok" and not _correct(m)]
    if wrong:
        names = ", ".join(m["mode"] for m in wrong)
        return {
            "mode": None,
            "verdict": "stay-eager",
            "reason": (
                f"Stay eager: {names} gave wrong results (less accurate than eager against a higher-precision "
                "reference); see the mismatch."
            ),
        }
    contended = [m for m in modes if m["status"] == "ok" and m.get("speedup") is not None and _contended(m)]
    if contended:
        m = contended[0]
        load = _contended(m)
        assert load is not None  # chosen so
        return {
            "mode": None,
            "verdict": "none",
            "reason": (
                f"No verdict: {m['mode']} measured {formats.speedup(_speedup(m))}, but {load['reason']}. Fix: {load['fix']}."
            ),
        }
    failed = [m for m in modes if m["status"] != "ok"]
    if failed:
        first = failed[0]
        error = first.get("error")
        what = error["message"] if error else "it failed"
        return {
            "mode": None,
            "verdict": "none",
            "reason": (
                f"No verdict: no mode was measured ({', '.join(m['mode'] for m in failed)} failed; {first['mode']}: {what})"
            ).rstrip(".")
            + ".",
        }
    return {"mode": None, "verdict": "none", "reason": "No verdict: no mode was measured."}


def _decisive(mode: ModeResult) -> bool:
    """The interval spans less than 2x: a measurement that can support a verdict."""
    low, high = _interval(mode)
    return high <= DECISIVE_SPAN * low


def _cpu_note(mode: str, idle_cuda_graph_modes: tuple[str, ...]) -> str:
    """On CPU a CUDA-graph mode's CUDA graphs do nothing: say so wherever such a mode is recommended."""
    base = mode.split(" ")[0]  # a script's "reduce-overhead as written"
    if base not in idle_cuda_graph_modes:
        return ""
    return (
        f" On CPU, {base}'s CUDA graphs do nothing: its difference from default here is Inductor's code, not CUDA "
        "graphs; on a GPU it would differ."
    )


def recommend(modes: Sequence[ModeResult], idle_cuda_graph_modes: tuple[str, ...] = ()) -> Recommendation:
    """idle_cuda_graph_modes: modes whose CUDA graphs did nothing (a CPU run): their verdict says so."""
    measured = [m for m in modes if _measured(m) and _correct(m)]
    if not measured:
        return _no_measurement(modes)
    usable = [m for m in measured if _decisive(m)]
    if not usable:
        noisy = max(measured, key=_speedup)
        low, high = _interval(noisy)
        return {
            "mode": None,
            "verdict": "none",
            "reason": (
                f"No verdict: the rounds varied too much to decide (best: {noisy['mode']} {formats.speedup(_speedup(noisy))}; a next "
                f"run may give {formats.interval(low, high)}): the host was busy. Profile again when it is quieter, or with more --rounds."
            ),
        }
    best = max(usable, key=_speedup)
    low, high = _interval(best)
    compile_s = best.get("compileSeconds") or 0.0
    span = f"{formats.speedup(_speedup(best))}; a next run may give {formats.interval(low, high)}"
    if high < 1.0:
        return {
            "mode": None,
            "verdict": "stay-eager",
            "reason": (f"Stay eager: even the best mode ({best['mode']}) is slower than eager ({span})."),
        }
    if low < MIN_USEFUL_SPEEDUP:
        return {
            "mode": None,
            "verdict": "stay-eager",
            "reason": (
                f"Stay eager: the best mode ({best['mode']}) may be no faster than eager ({span}), not enough to repay "
                f"{formats.seconds(compile_s)} of compilation."
            ),
        }
    calls = best.get("breakEvenCalls")
    payback = (
        f"its {formats.seconds(compile_s)} compile pays back after {formats.break_even(calls, 'call')}"
        if calls is not None
        else "it compiles once"
    )
    return {
        "mode": best["mode"],
        "verdict": "compile",
        "reason": f"Use {best['mode']}: faster than eager ({span}), and {payback}.{_cpu_note(best['mode'], idle_cuda_graph_modes)}",
    }
