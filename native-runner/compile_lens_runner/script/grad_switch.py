"""A grad-mode recompile in a loop that goes back and forth: training calls with grad, an evaluation pass under
torch.no_grad() (or torch.inference_mode()) between them, then training again. Each grad mode needs a graph of its own;
the first call in the other mode compiles it, and every later switch finds both graphs cached. The guard's own
explanation (compiler/explain.py) is a serving warm-up's ("warm up under the grad mode you serve with"), wrong advice
for a loop that validates on purpose: here the region's calls say which it was."""

from __future__ import annotations

from .. import formats
from ..compiler.explain import GRAD_SWITCH, WARMUP_FIX
from ..shapes.compiler import CompilerInsight, Explanation
from ..shapes.region import RegionCall


def _switch_back(calls: list[RegionCall]) -> tuple[str, str, RegionCall] | None:
    """(the first mode, the other, the other's first call) where the calls return to the first mode after the other:
    the loop switches back and forth, not a warm-up in one mode before serving in another."""
    # every call of the region, those run with compiling off for the in-situ number too: the script made them all
    modes = [(c, c.get("gradMode")) for c in calls if c.get("gradMode")]
    if not modes:
        return None
    first = modes[0][1]
    other = next(((c, m) for c, m in modes if m != first), None)
    if other is None or first is None:
        return None
    after = modes[modes.index(other) :]
    if not any(m == first for _, m in after):
        return None
    return first, str(other[1]), other[0]


def explanation(calls: list[RegionCall]) -> Explanation | None:
    """The grad-mode recompile's words where the loop switches back and forth; None where it does not."""
    switch = _switch_back(calls)
    if switch is None:
        return None
    first, other, begun = switch
    in_other = [c for c in calls if c.get("gradMode") == other]
    # the call that compiled the other mode's graph (the first in it may have run with compiling off)
    call = next((c for c in in_other if c["event"] == "recompiled"), begun)
    seconds = call.get("compileSeconds")
    cost = f" ({formats.seconds(seconds)})" if seconds else ""
    return {
        "kind": GRAD_SWITCH,
        "what": (
            f"The calls switch between grad modes: {formats.grad_mode(first)}, then "
            f"{formats.plural(len(in_other), 'call')} {formats.grad_mode(other)} from call {begun['index']} "
            f"on, then {formats.grad_mode(first)} again. Each grad mode needs a graph of its own: "
            f"call {call['index']} compiled the second{cost}, and later switches found both graphs cached."
        ),
        "fix": (
            "Nothing to fix while it compiles once per grad mode, as here. To skip that compile, make the calls in the "
            "other grad mode (an evaluation pass) on the module you compiled from, uncompiled."
        ),
    }


def explain(calls: list[RegionCall], insight: CompilerInsight | None) -> None:
    """The region's grad-mode recompiles and their finding said as a loop's switch, where its calls switch back."""
    if insight is None:
        return
    items = [*insight["recompiles"], *insight["recompileSites"]]
    found = [r for r in items if _grad_mode(r.get("explanation"))]
    # once per grad mode: every grad-mode recompile set off by one call (its parts around graph breaks), else the
    # switches recompiled again and "found both graphs cached" would not hold
    once = len({r.get("trigger") for r in insight["recompiles"] if _grad_mode(r.get("explanation"))}) == 1
    words = explanation(calls) if found and once else None
    if words is None:
        return
    for item in found:
        item["explanation"] = words


def _grad_mode(said: Explanation | None) -> bool:
    return bool(said and said["fix"] == WARMUP_FIX)
