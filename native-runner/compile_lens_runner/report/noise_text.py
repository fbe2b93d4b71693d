"""What varied in a number too noisy to decide, from the times it rests on (review 14R R7, 12L L6: "It varied too
much to decide" named no cause): an in-situ number's pairs of blocks' ratios, a replay's or a target's rounds on each
side. These are the spread of what was measured, never a range a next run may land in (issue 44: such a range is not
said, "next run 1.01–128.11×" is no range)."""

from __future__ import annotations

from .. import formats
from ..shapes.answer import AnswerNumber, Reason
from ..shapes.in_situ import RegionInSitu
from ..shapes.mode import ModeResult


def _rounds(m: ModeResult) -> str | None:
    """ "eager's slowest of 9 rounds took 180× as long as its fastest, compiled's 1.65×": each side's slowest round
    against its fastest, the side that varied the more first; as multiples, not times (its fastest round is the
    number's own time, said beside it: one time said once)."""
    sides = []
    for side, timing in (("eager", m.get("eagerTiming")), ("compiled", m.get("timing"))):
        rounds = [r for r in ((timing.get("rounds") or []) if timing else []) if r > 0]
        if len(rounds) > 1:
            sides.append((max(rounds) / min(rounds), side, len(rounds)))
    if not sides:
        return None
    sides.sort(key=lambda s: -s[0])
    spread, side, count = sides[0]
    said = [f"{side}'s slowest of {count} rounds took {formats.speedup(spread)} as long as its fastest"]
    said += [f"{other}'s {formats.speedup(ratio)}" for ratio, other, _ in sides[1:]]
    return ", ".join(said)


def _pairs(s: RegionInSitu, kind: str) -> str | None:
    """ "its 6 pairs of eager and compiled blocks gave ratios from 0.41× to 2.90×"."""
    x = s.get("step") if kind == "in-situ-step" else s.get("call")
    ratios = [r for r in ((x.get("pairRatios") or []) if x else []) if r > 0]
    if len(ratios) < 2:
        return None
    low, high = formats.speedup_ends(min(ratios), max(ratios))
    return f"its {formats.plural(len(ratios), 'pair')} of eager and compiled blocks gave ratios from {low}× to {high}×"


def what_varied(number: AnswerNumber, in_situ: RegionInSitu | None, measured: list[ModeResult]) -> str | None:
    """The spread behind a number too noisy to decide, where the record has it: in situ, its blocks' ratios; replayed
    or a target's rounds, each side's rounds (measured: the region's measurements or the target's modes)."""
    kind = number["kind"]
    if kind in ("in-situ-step", "in-situ-call"):
        return _pairs(in_situ, kind) if in_situ else None
    index = number.get("index")
    return _rounds(measured[index]) if index is not None and 0 <= index < len(measured) else None


def say_what_varied(
    reasons: list[Reason], number: AnswerNumber | None, in_situ: RegionInSitu | None, measured: list[ModeResult]
) -> None:
    """Each too-noisy-to-decide reason given what varied (its `what`), where the record says it."""
    what = what_varied(number, in_situ, measured) if number else None
    for r in reasons:
        if r["code"] == "too-noisy-to-decide" and what:
            r["what"] = what
