"""What a region that recompiles on a Python value, at the same inputs, should change, and whether its recompiles stop
by themselves: the sentences after the story's churn sentence (story._recompile_churn; review 20Y Y2: "each time
because the Python value self.calls changed" and no fix anywhere on the card). The fix is the compiler explanation's
(compiler/explain.py), the words the Problems list says for the same recompile site, so both surfaces say one fix."""

from __future__ import annotations

from .. import formats
from ..shapes.compiler import Recompile
from ..shapes.region import Region, RegionCall

# PyTorch's hint on a guard of an nn.Module's integer attribute (torch 2.13: "torch.compile considers integer
# attributes of the nn.Module to be static. …"): recorded as the recompile's `hint`
_MODULE_INT_HINT = "integer attributes of the nn.Module"


def _records(region: Region, recompiles: list[RegionCall]) -> list[Recompile]:
    """The compiler's records of these calls' recompiles, matched by compile id."""
    compiler = region.get("compiler")
    ids = {i for r in recompiles for i in r.get("compileIds") or []}
    return [r for r in (compiler.get("recompiles") or [] if compiler else []) if r.get("compileId") in ids]


def _does_not_stop(records: list[Recompile], calls: list[RegionCall]) -> str | None:
    """Whether the recompiles stop by themselves, for an nn.Module's integer attribute, where no call ran eagerly yet
    (the story's eager sentence says the limit once it was reached). Checked on torch 2.13 (CPU, a module whose forward
    does `self.calls += 1`, 12 calls): Dynamo guards each compile on one value (`self.calls == 3` in the fourth
    compile's guards, though its phase row reads "not in (0, 1, 2)": the guards that failed before it), never makes
    the attribute dynamic (allow_unspec_int_on_nn_module is off by default), and stops at recompile_limit (8): calls 0-7
    compiled one value each, calls 8-11 ran eagerly."""
    if not records or any(_MODULE_INT_HINT not in (r.get("hint") or "") for r in records):
        return None
    if any(c.get("ranCompiled") is False for c in calls):
        return None
    location = records[0].get("location")
    function = location["function"] if location and location.get("function") else "the function"
    return (
        "These recompiles do not stop by themselves: torch.compile holds an nn.Module's integer attribute as a "
        "constant, so each new value compiles again until the recompile limit (torch._dynamo.config.recompile_limit, "
        f"8 by default); past it, {function} runs eagerly."
    )


def value_churn_after(region: Region, recompiles: list[RegionCall]) -> str:
    """ " These recompiles do not stop by themselves: … Fix: …", or "" where the compiler record gives no fix."""
    records = _records(region, recompiles)
    fixes = list(dict.fromkeys(e["fix"] for r in records if (e := r.get("explanation")) and e.get("fix")))
    stops = _does_not_stop(records, region["calls"])
    said = [stops] if stops else []
    if len(fixes) == 1:
        said.append(formats.fix(fixes[0]))
    return "".join(f" {s}" for s in said)
