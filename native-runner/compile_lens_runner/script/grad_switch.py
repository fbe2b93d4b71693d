"""A grad-mode recompile in a loop that goes back and forth: training calls with grad, an evaluation pass under
torch.no_grad() (or torch.inference_mode()) between them, then training again. Each grad mode needs a graph of its own;
the first call in the other mode compiles it, and every later switch finds both graphs cached. The guard's own
explanation (compiler/explain.py) is a serving warm-up's ("warm up under the grad mode you serve with"), wrong advice
for a loop that validates on purpose: here the region's calls say which it was."""

from __future__ import annotations

from .. import formats
from ..compiler.explain import GRAD_SWITCH, grad_mode_guard, warmup_said
from ..shapes.compiler import CompilerInsight, Explanation, Recompile, RecompileSite
from ..shapes.region import RegionCall


def _switch_back(calls: list[RegionCall]) -> tuple[str, str, list[list[RegionCall]]] | None:
    """(the first mode, the other, the stretches of calls in the other) where the calls return to the first mode after
    the other: the loop switches back and forth, not a warm-up in one mode before serving in another."""
    # every call of the region, those run with compiling off for the in-situ number too: the script made them all
    modes = [(c, mode) for c in calls if (mode := c.get("gradMode"))]
    if not modes:
        return None
    first = modes[0][1]
    begun = next((k for k, (_, m) in enumerate(modes) if m != first), None)
    if begun is None or not any(m == first for _, m in modes[begun:]):
        return None
    other = modes[begun][1]
    stretches: list[list[RegionCall]] = []
    for k, (call, mode) in enumerate(modes):
        if mode == other:
            if k == 0 or modes[k - 1][1] != other:
                stretches.append([])
            stretches[-1].append(call)
    return first, other, stretches


def _stretches_said(stretches: list[list[RegionCall]], first: str) -> str:
    """ "from call 20 on, then with grad again"; several evaluation passes said as several, not as one block ("in 3
    stretches, from calls 20, 43 and 66 on, with grad between them"; the first's call alone past three)."""
    starts = [str(s[0]["index"]) for s in stretches]
    if len(stretches) == 1:
        return f"from call {starts[0]} on, then {formats.grad_mode(first)} again"
    at = f"from calls {formats.listed(starts)} on" if len(starts) <= 3 else f"the first from call {starts[0]} on"
    return f"in {len(stretches)} stretches, {at}, {formats.grad_mode(first)} between them"


def explanation(calls: list[RegionCall]) -> Explanation | None:
    """The grad-mode recompile's words where the loop switches back and forth; None where it does not."""
    switch = _switch_back(calls)
    if switch is None:
        return None
    first, other, stretches = switch
    in_other = [c for stretch in stretches for c in stretch]
    # the call that compiled the other mode's graph (the first in it may have run with compiling off)
    call = next((c for c in in_other if c["event"] == "recompiled"), in_other[0])
    seconds = call.get("compileSeconds")
    cost = f" ({formats.seconds(seconds)})" if seconds else ""
    return {
        "kind": GRAD_SWITCH,
        "what": (
            f"The calls switch between grad modes: {formats.grad_mode(first)}, then "
            f"{formats.plural(len(in_other), 'call')} {formats.grad_mode(other)} {_stretches_said(stretches, first)}. "
            f"Each grad mode needs a graph of its own: call {call['index']} compiled the second{cost}, and later "
            "switches found both graphs cached."
        ),
        "fix": (
            "nothing to fix while it compiles once per grad mode, as here. To skip that compile, make the calls in the "
            "other grad mode (an evaluation pass) on the module you compiled from, uncompiled."
        ),
    }


def explain(calls: list[RegionCall], insight: CompilerInsight | None) -> None:
    """The region's grad-mode recompiles and their finding said as a loop's switch, where its calls switch back."""
    if insight is None:
        return
    items: list[Recompile | RecompileSite] = [*insight["recompiles"], *insight["recompileSites"]]
    found = [r for r in items if _grad_mode(r)]
    # once per grad mode: every grad-mode recompile set off by one call (its parts around graph breaks), else the
    # switches recompiled again and "found both graphs cached" would not hold
    once = len({r.get("trigger") for r in insight["recompiles"] if _grad_mode(r)}) == 1
    words = explanation(calls) if found and once else None
    if words is None:
        return
    for item in found:
        item["explanation"] = words


def _grad_mode(item: Recompile | RecompileSite) -> bool:
    """A recompile whose guard is the grad mode's (compiler/explain.grad_mode_guard), explained, and not as a warm-up's
    (script/warmup_shape.py said it from the script's source)."""
    said = item.get("explanation")
    return bool(said) and not warmup_said(said) and grad_mode_guard(item["reason"])
