"""Every number the runner writes into a sentence a user reads (a verdict's reason, why more pairs were run), formatted
as extension/present/numbers.ts formats it: one function per quantity, the same rounding (JavaScript's toFixed: the
exact value, a tie away from zero), so that a reason's "1.22×" is the panel's and the CodeLens's.
test/fixtures/numbers.json holds both sides to the same strings. And the one form of a sentence's "Fix: …" (fix), which
every text module uses, below the report's words in the import order."""

from __future__ import annotations

import decimal
import math
import os
import re
from collections.abc import Iterable

_CONTEXT = decimal.Context(prec=60, rounding=decimal.ROUND_HALF_UP)


def _fixed(value: float, digits: int) -> str:
    """JavaScript's value.toFixed(digits): Python's own rounding goes to even on a tie (0.125 -> 0.12, not 0.13)."""
    return str(decimal.Decimal(value).quantize(decimal.Decimal(1).scaleb(-digits), context=_CONTEXT))


def _trimmed(text: str, value: float) -> str:
    """ "0.5" for "0.500", "1" for "1.00" where the value is that number: its trailing zeros would read as digits
    measured (review 3C: "0.500 ms"); else kept, digits as measured as the others ("19.0 ms" beside "25.6 ms",
    "57.0 s" beside "55.1 s": review 10G E11, one precision for every time)."""
    return text.rstrip("0").rstrip(".") if "." in text and float(text) == value else text


def plural(n: int, word: str, many: str | None = None) -> str:
    """ "1 call", "3 graphs"."""
    return f"{n} {word if n == 1 else many or word + 's'}"


def whole(n: float) -> str:
    """ "19,467": a whole count with thousands separators (as JavaScript's Math.round, then grouped)."""
    return f"{math.floor(n + 0.5):,}"


def _three_digits(value: float) -> str:
    """`value` (positive) to three significant digits: "412", "14.2", "19.0", "0.542", "0.0523"; without trailing zeros
    where it is that number ("0.5", "1"); the rounded value's digits ("100", not "100.0", from 99.95), as numbers.ts
    threeDigits."""
    decimals = (
        0
        if value >= 100
        else 1
        if value >= 10
        else 2
        if value >= 1
        else 3
        if value >= 0.1
        else 4
        if value >= 0.01
        else 5
    )
    text = _fixed(value, decimals)
    return _trimmed(
        _fixed(value, decimals - 1) if decimals > 0 and float(text) >= 10 ** (3 - decimals) else text, value
    )


def ms(value: float) -> str:
    """ "61.7 s", "6.04 s", "412 ms", "14.2 ms", "19.0 ms", "0.542 ms", "0.1 ms", "52.3 µs", "0 ms": every time a user reads,
    to three significant digits (trailing zeros dropped only where the value is that number: _trimmed), so that times beside a ratio divide to it ("0.54 ms → 0.14 ms" read as 3.86× beside 3.99×)
    and rows add up to their total ("6.0 s" + "525 ms" under "6.6 s" read as 6.5 s); from 1000 ms on, seconds; under 0.1 ms,
    µs (review 8 A15: "0.00965 ms")."""
    if value == 0:
        return "0 ms"
    text = _three_digits(value)
    if float(text) < 0.1 and float(_three_digits(value * 1000)) < 100:
        return f"{_three_digits(value * 1000)} µs"
    return f"{_three_digits(value / 1000)} s" if float(text) >= 1000 else f"{text} ms"


def ms_as(value: float, said: str) -> str:
    """`value` (ms) in the unit `said` is in, for "A instead of B" with A said as ms() or seconds() say it: "501 ms"
    beside "74.3 ms" (not "0.50 s"), "0.0743 s" beside "3.40 s", "3,400 ms" beside "0.17 ms", "120 µs" beside "52.3 µs"."""
    if said.endswith(" µs"):
        return f"{whole(value * 1000)} µs" if value >= 1 else f"{_three_digits(value * 1000)} µs"
    if said.endswith(" ms"):
        return f"{_three_digits(value)} ms" if value < 1000 else f"{whole(value)} ms"
    return f"{_three_digits(value / 1000)} s"


def _significant(value: float, digits: int) -> str:
    """`value` (positive) to `digits` significant digits (at most digits + 2 decimals), every one kept: "2.40", "2.402";
    the rounded value's digits ("100", not "100.0", from 99.95), as numbers.ts significantDigits."""
    decimals = min(digits + 2, max(0, digits - 1 - math.floor(math.log10(value))))
    text = _fixed(value, decimals)
    return _fixed(value, decimals - 1) if decimals > 0 and float(text) >= 10 ** (digits - decimals) else text


def _ms_to(value: float, digits: int) -> tuple[str, float]:
    """`value` (ms) in ms()'s unit for it, to `digits` significant digits (trimmed where it is that number), and the
    ms that text reads."""
    unit = ms(value).split(" ")[1]
    per_ms = 1e-3 if unit == "s" else 1e3 if unit == "µs" else 1
    text = _trimmed(_significant(value * per_ms, digits), value * per_ms)
    return f"{text} {unit}", float(text) / per_ms


def times_of_ratio(eager_ms: float, compiled_ms: float, value: float) -> tuple[str, str]:
    """Eager's and compiled's times a speedup `value` is the ratio of, as ms() says them, with a digit more each (up
    to six) where the shown times would divide to another shown speedup: "13.7 µs" and "9.65 µs" read 0.70× beside a
    0.71× (review 15U U1), "13.68 µs" and "9.652 µs" read 0.71×; as numbers.ts formatTimesOfRatio."""
    shown = speedup(value)
    for digits in range(3, 7):
        (eager, eager_read), (compiled, compiled_read) = _ms_to(eager_ms, digits), _ms_to(compiled_ms, digits)
        if speedup(eager_read / compiled_read) == shown:
            return eager, compiled
    # not the ratio of these times at any digits: no digit more could trace it
    return ms(eager_ms), ms(compiled_ms)


def seconds(value: float) -> str:
    """ "61.7 s", "6.04 s", "525 ms", "1.6 ms": a compile time or a wall time, by the rule of every time (ms's), so
    that a compile's seconds read as the compile phases' rows say them ("0.78 s" beside "783 ms" read as another)."""
    return ms(value * 1000)


def _speedup_digits(value: float) -> int:
    """Two decimals, more under 0.1× so that a small speedup keeps two significant digits (0.0057×, not 0.01×), fewer
    from 10× on so that a large one keeps three ("314×": "313.96×" claims a precision no replay has)."""
    return 0 if value >= 100 else 1 if value >= 10 else 2 if value >= 0.1 else 3 if value >= 0.01 else 4


def speedup(value: float) -> str:
    """ "1.84×", "0.17×", "0.052×", "0.0057×", "12.3×", "314×": to its own value's precision wherever it is said, beside
    its range or not (review 8 A15: "0.170×" beside a range's "0.068×" and "0.17×" without it read as two numbers)."""
    return f"{_fixed(value, _speedup_digits(value))}×"


def speedup_apart(value: float, other: float) -> str:
    """ "1.049×" beside a 1.05× bar, "1.0505×" over it: `value` as speedup says it, with the fewest more decimals that
    keep it from reading as `other` ("a low end 1.05× falls short of the 1.05× bar" read as a contradiction); a value
    equal to `other` as speedup says it."""
    digits = _speedup_digits(value)
    while value != other and digits < 12 and _fixed(value, digits) == _fixed(other, digits):
        digits += 1
    return f"{_fixed(value, digits)}×"


def slowdown(value: float, eager_ms: float | None = None, compiled_ms: float | None = None) -> str:
    """ "1.42×" for a speedup said as "0.71×" beside "13.68 µs" and "9.652 µs": how many times as long compiled takes,
    from the times as times_of_ratio shows them (1 / 0.71 = 1.41× beside times that divide to 1.42×: as numbers.ts
    timesOfSpeedup); a speedup said without its times, from the speedup as printed, so the two divide to each other
    (1 / 0.516 = 1.94× beside "0.52×" read as two numbers for one quantity)."""
    if eager_ms and compiled_ms:
        eager, compiled = times_of_ratio(eager_ms, compiled_ms, value)
        return speedup(shown_ms(compiled) / shown_ms(eager))
    return speedup(1 / float(speedup(value).removesuffix("×").replace(",", "")))


def shown_ms(text: str) -> float:
    """The ms a time as ms() or times_of_ratio says it reads: 0.484 for "0.484 ms", 0.01368 for "13.68 µs"."""
    number, unit = text.split(" ")
    return float(number.replace(",", "")) * _MS_PER[unit]


_MS_PER = {"s": 1000.0, "ms": 1.0, "µs": 1e-3}


def interval(low: float, high: float, value: float | None = None) -> str:
    """ "0.87–1.32×", "0.0054–0.0061×", "0.068–0.180×": where the next run's speedup may land, both ends to one
    precision, the finer end's ("0.068–0.18×" read as two). Beside its point (`value`), the point's precision, finer
    only where an end would keep no significant digit: "0.17× (0.07–0.20×)", not "(0.068–0.195×)" beside a two-digit
    point (review H6)."""
    said_low, said_high = speedup_ends(low, high, value)
    return f"{said_low}–{said_high}×"


def speedup_ends(low: float, high: float, value: float | None = None) -> tuple[str, str]:
    """Two ratios to one precision, the finer one's (interval's ends; a spread's, "from 0.41× to 2.90×")."""
    ends = (low, high)
    digits = (
        max(map(_speedup_digits, ends))
        if value is None
        else max(_speedup_digits(value), *(_speedup_digits(end) - 1 for end in ends))
    )
    return _fixed(low, digits), _fixed(high, digits)


def speedup_range(value: float, low: float, high: float) -> str:
    """ "0.15× (0.10–0.16×)", "1.31× (1.22–1.40×)": a speedup and its range, to one precision."""
    return f"{speedup(value)} ({interval(low, high, value)})"


def pct(value: float) -> str:
    """ "57%"."""
    return f"{_fixed(value, 0)}%"


def memory(value: float) -> str:
    """ "512 B", "6.8 KiB", "20 KiB", "1.2 GiB": a size in memory."""
    units = ("B", "KiB", "MiB", "GiB", "TiB")
    unit = 0
    while value >= 1024 and unit < len(units) - 1:
        value /= 1024
        unit += 1
    return f"{_fixed(value, 0 if unit == 0 or value >= 10 else 1)} {units[unit]}"


def break_even(n: float, unit: str) -> str:
    """ "51 calls", "about 540 calls", "about 170,000 steps": rounded up (a part-call never pays), then from 100 on to
    two significant digits, said as "about" (review 4C X2: "168,037 steps" from a 1.34–1.50× range that allows
    140,000–183,000 is a precision the range does not have); half up in integers, as numbers.ts formatBreakEven."""
    calls = math.ceil(n)
    if calls < 100:
        return plural(calls, unit)
    step = 10 ** (len(str(calls)) - 2)
    rounded = (calls + step // 2) // step * step
    return f"about {whole(rounded)} {unit}s"


def count(value: float) -> str:
    """ "3", "41.5", "4,120": kernels per step (thousands grouped)."""
    if float(value).is_integer():
        return whole(value)
    whole_part, _, decimals = _fixed(value, 1).partition(".")
    return f"{int(whole_part):,}.{decimals}"


def load_average(value: float) -> str:
    """ "12.2", "3.5", "9" (as count says it); below 1 to two significant digits, "0.04", "0.13", "0.5" (one decimal
    said 0.01 and 0.04 alike, "rose from 0.0 to 0.0": the code read's item 11). A runner-only form: the extension shows
    the runner's sentences."""
    if value <= 0 or value >= 1:
        return count(value)
    text = _fixed(value, 1 - math.floor(math.log10(value)))
    return count(value) if float(text) >= 1 else _trimmed(text, value)


def rate(value: float) -> str:
    """ "1,161", "35.2", "0.3": steps per second (whole from 100 on: "1160.6" read as a measured decimal)."""
    return whole(value) if value >= 100 else _fixed(value, 1)


def spread(value: float) -> str:
    """ "ratios varied 57% between rounds"."""
    return f"ratios varied {pct(value)} between rounds"


def listed(items: list[str]) -> str:
    """ "a", "a and b", "a, b and c": a list said in a sentence."""
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def place(file: str, line: int, cell: int | None = None) -> str:
    """ "train.py:41"; in a notebook "explore.ipynb cell 4, line 2" (cells counted from 1, as VS Code shows them):
    shared/sourcePlace.ts placeLabel's."""
    name = os.path.basename(file)
    return f"{name}:{line}" if cell is None else f"{name} {cell_line(cell, line)}"


# a signature's grad mode said (script/calls.py's names): "; grad" alone read as an input that requires grad
_GRAD_MODE_SAID = {"grad": "with grad", "no_grad": "under torch.no_grad()", "inference": "under torch.inference_mode()"}


def signature_parts(signature: str) -> tuple[str, str | None, str | None]:
    """(arguments, grad mode, autocast) of a call's signature as script/calls.py writes it, "float32[8], 'a;b'; grad;
    autocast cuda bfloat16" -> ("float32[8], 'a;b'", "grad", "autocast cuda bfloat16"): the optional autocast peeled off
    the end, then the last ";" ends the arguments (a str argument's repr may hold ";"). The one reading of a signature
    (inputs, report/story.py's): grad mode None where the signature has no ";"."""
    rest, autocast = signature, None
    head, cut, tail = signature.rpartition(";")
    if cut and tail.strip().startswith("autocast "):
        rest, autocast = head, tail.strip()
    args, cut, grad = rest.rpartition(";")
    if not cut:
        return rest.strip(), None, autocast
    return args.strip(), grad.strip() or None, autocast


def inputs(signature: str) -> str:
    """ "float32[4, 8] with grad" for the signature "float32[4, 8]; grad": a call's inputs and the grad mode it ran
    in, as a user reads them (review 13P P7), and its autocast ("...; grad; autocast cuda bfloat16": "... with grad,
    under autocast to bfloat16 on cuda", s32's H200 fine-tuning loop); a mode of no known name as recorded."""
    args, grad, autocast = signature_parts(signature)
    modes = ([grad_mode(grad)] if grad else []) + ([_autocast(autocast)] if autocast else [])
    if not modes:
        return signature
    said = ", ".join(modes)
    return f"{args} {said}" if args else said


def _autocast(mode: str) -> str:
    """ "under autocast to bfloat16 on cuda" for script/calls.py's "autocast cuda bfloat16"."""
    device, _, dtype = mode.removeprefix("autocast ").partition(" ")
    return f"under autocast to {dtype} on {device}" if dtype else f"under {mode}"


def grad_mode(mode: str) -> str:
    """ "under torch.no_grad()" for a call's recorded grad mode "no_grad"; a mode of no known name as recorded."""
    return _GRAD_MODE_SAID.get(mode, f"({mode})")


def rank_list(ranks: Iterable[int]) -> str:
    """ "rank 3", "ranks 3, 17, 41"; three or more consecutive ranks as a range ("ranks 0-2, 4-16, 18")."""
    ordered = sorted(set(ranks))
    if len(ordered) == 1:
        return f"rank {ordered[0]}"
    runs: list[list[int]] = []
    for rank in ordered:
        if runs and rank == runs[-1][-1] + 1:
            runs[-1].append(rank)
        else:
            runs.append([rank])
    parts = [f"{run[0]}-{run[-1]}" if len(run) >= 3 else ", ".join(map(str, run)) for run in runs]
    return f"ranks {', '.join(parts)}"


def cell_line(cell: int, line: int) -> str:
    """ "cell 4, line 2" (cells counted from 1, as VS Code shows them): shared/sourcePlace.ts cellLineLabel's."""
    return f"cell {cell + 1}, line {line}"


def fix(text: str) -> str:
    """ "Fix: move the print out of forward.": every "Fix:" of a page begins alike, lower case after the colon
    (review 21X X4: "Fix: Move", "Fix: Set" beside "Fix: mark", "Fix: profile"); a name (torch.compile, DDP) kept."""
    return f"Fix: {fix_words(text)}"


def fix_words(text: str) -> str:
    """ "move the print out of forward.": a fix as it reads after "Fix:" (fix), for a fix the editor says after its own
    "Fix:" (a graph break's: review 22Y Y1, "Fix: Move …" in the panel beside the runner's "Fix: mark …")."""
    text = text.rstrip(".")
    if re.match(r"[A-Z][a-z]+ ", text):
        text = text[0].lower() + text[1:]
    return f"{text}."
