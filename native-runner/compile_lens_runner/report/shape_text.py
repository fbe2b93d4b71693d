"""The shape story's words (issue 43): the clauses of the codes report/shape_reasons.py gives (the recompile limit, a
warm-up at another shape, automatic dynamic, CUDA graphs per size, the shape fix as measured, what an in-situ number
leaves out, a decode loop's sequence), and why a shape fix was not measured (script/shape_fix.py). reason_text.py
puts the clauses in SENTENCES.
"""

from __future__ import annotations

import re

from .. import formats
from ..shapes.answer import Reason

_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")


def _input(name: str) -> str:
    """ "x", or a positional input ("input 0", script/shape_facts.py) as "the first input"."""
    match = re.fullmatch(r"input (\d+)", name)
    if match and int(match[1]) < len(_ORDINALS):
        return f"the {_ORDINALS[int(match[1])]} input"
    return name


def _sizes(r: Reason) -> str:
    """ "12 sizes of x's dimension 0", "96 lengths", "3 sizes of mask's dimension 2" (dimension 0 is not always the
    batch: review 8 A14)."""
    n = r.get("sizes", 0)
    if r.get("growing"):
        return formats.plural(n, "length")
    return f"{formats.plural(n, 'size')} of {_input(str(r.get('input')))}'s dimension {r.get('dim')}"


def _size(r: Reason, key: str) -> str:
    return f"size {r.get(key)}"


def _at(r: Reason) -> str:
    """ " (line 9)"; in a notebook " (cell 3, line 2)" (review 8 A1: a line of the exported script no cell has)."""
    line, cell = r.get("line"), r.get("cell")
    if not line:
        return ""
    return f" ({formats.cell_line(cell, line)})" if cell is not None else f" (line {line})"


def _input_size(r: Reason, key: str) -> str:
    """ "x's size 1 in dimension 0", as a recompile's name and its failed guard say it; "size 1" with no input named."""
    named = r.get("input") is not None and r.get("dim") is not None
    return f"{_input(str(r.get('input')))}'s size {r.get(key)} in dimension {r.get('dim')}" if named else _size(r, key)


# Each shape story in two lengths: the headline's clause, the one fact that explains the verdict (a headline is the
# verdict and its number: issue 44), and the sentence's, in full.


def limit_clause(r: Reason) -> str:
    """ "10 lengths hit the recompile limit (8): 2 of 10 calls ran eagerly"."""
    cap = f" ({r['limit']})" if r.get("limit") is not None else ""
    return (
        f"{_sizes(r)} hit the recompile limit{cap}: {formats.whole(r.get('count', 0))} of "
        f"{formats.whole(r.get('made', 0))} calls ran eagerly"
    )


def limit_in_full(r: Reason) -> str:
    written = "dynamic=False with " if r.get("dynamic") is False else ""
    graphs = r.get("graphs")
    made = f"{formats.whole(graphs)} compiled" if graphs is not None else "one graph each"
    cap = f" ({r['limit']})" if r.get("limit") is not None else ""
    return (
        f"{written}{_sizes(r)}: {made}, then the recompile limit{cap} ran {formats.whole(r.get('count', 0))} of "
        f"{formats.whole(r.get('made', 0))} calls eagerly"
    )


def sizes_said(sizes: list[int]) -> str:
    """ "sizes 4, 8, 16, 32"; a long list cut: "sizes 2, 3, 4, 5, 6, … 64"."""
    shown = sizes if len(sizes) <= 6 else [*sizes[:5], "…", sizes[-1]]
    return "sizes " + ", ".join(map(str, shown)).replace(", …,", ", …")


_WARMUP_DYNAMIC = "warm up at a size the real calls use, with that dimension marked dynamic"


def warmup_dynamic_fix(name: str | None = None, dim: int | None = None, was: int | None = None) -> str:
    """The fix for a warm-up before calls whose size follows traffic, one rule for its every wording: one warm-up size
    serves them only with the dimension marked dynamic. Short (a reason's "Fix: …"): "warm up at …: one compile";
    full, with the warm-up's input and dimension (its explanation): how to mark it, and why not at a size of 1."""
    if name is None or dim is None:
        return f"{_WARMUP_DYNAMIC}: one compile"
    return (
        f"{_WARMUP_DYNAMIC} (torch._dynamo.mark_dynamic on the warm-up's '{name}', dimension {dim}, before the call) or "
        "with dynamic=True: one compile then serves every size."
        + (" A size of 1 cannot be marked dynamic: Dynamo always compiles it apart (specialised)." if was == 1 else "")
    )


def _real(r: Reason) -> str:
    """The real calls' size, or their sizes where they follow traffic (schema 1.41)."""
    sizes = r.get("realSizes")
    return sizes_said(sizes) if sizes else _size(r, "realSize")


def warmup_clause(r: Reason) -> str:
    """ "the warm-up at size 1 (line 9) compiled a graph size 4 never used"; before calls whose size follows traffic,
    "… a graph sizes 4, 8, 16, 32 never used" (a headline's clause, short, under test_plain_words' 200 characters: the
    sentence says "the real calls at sizes …" and names the input and dimension)."""
    at = _at(r)
    return f"the warm-up at {_size(r, 'size')}{at} compiled a graph {_real(r)} never used"


def warmup_in_full(r: Reason) -> str:
    at = _at(r)
    one = r.get("count") == 1
    seconds, ms = r.get("seconds"), r.get("ms")
    first = "that call" if one else "the first"
    paid = (
        # the call's whole time, as the measured fix says it ("the first real call … instead of 359 ms"), and its
        # recompile's part of it, labelled as a part: "took 176 ms, recompiling" beside the phases' 166 ms read as
        # one cost with two values (review 9E E6), and so did a bare "355 ms recompiling" beside 359 (3C R14)
        f"; {first} took {formats.ms(ms)}{of_it_recompiling(ms, seconds)}"
        if ms is not None
        else f"; {first} paid {formats.seconds(seconds)} recompiling"
        if seconds is not None
        else "; the first recompiled"
    )
    return (
        f"the warm-up at {_input_size(r, 'size')}{at} compiled a graph the {'real call' if one else 'real calls'} at "
        f"{_real(r)} never used{paid}"
    )


def of_it_recompiling(ms: float, seconds: float | None) -> str:
    """ ", 166 ms of it recompiling" after a call's whole time; ", recompiling" where its recompile's time is not known
    or is not within the call's (a compile the call did not hold)."""
    if seconds is None or seconds * 1000.0 > ms:
        return ", recompiling"
    return f", {formats.ms(seconds * 1000.0)} of it recompiling"


def automatic_clause(r: Reason) -> str:
    """ "sizes changed at call 2: one size-generic recompile (0.45 s)"."""
    seconds = r.get("seconds")
    took = f" ({formats.seconds(seconds)})" if seconds is not None else ""
    return f"sizes changed at call {r.get('call')}: one size-generic recompile{took}"


def automatic_in_full(r: Reason) -> str:
    seconds = r.get("seconds")
    took = f" ({formats.seconds(seconds)})" if seconds is not None else ""
    return (
        f"sizes changed at call {r.get('call')}: a second compile{took} made one size-generic graph, which served the "
        f"next {formats.whole(r.get('count', 0))} calls without compiling"
    )


def graphs_clause(r: Reason) -> str:
    """ "reduce-overhead recorded a CUDA graph for each of 6 input sizes, holding 1.2 GiB"."""
    n = r.get("count", 0)
    sizes = formats.plural(n, "length") if r.get("growing") else formats.plural(n, "input size")
    held = f", holding {formats.memory(r['bytes'])}" if "bytes" in r else ""
    return f"{r.get('mode')} recorded a CUDA graph for each of {sizes}{held}"


_CACHE = {True: " from a warm cache", False: " from a cold cache"}


def fix_clause(r: Reason) -> str:
    """ "with dynamic=True: 1 graph instead of 8, 1.31× per step in situ (1.22–1.40×), compile 3.1 s instead of 33 s"."""
    if not r.get("measured"):  # the headline's clause: the fixes, why, and how to measure them in the sentence
        return f"{formats.plural(r.get('count') or 1, 'shape fix', 'shape fixes')} not measured"
    parts = []
    graphs, was = r.get("graphs"), r.get("wasGraphs")
    if graphs is not None:
        parts.append(
            f"the same {formats.plural(graphs, 'graph')}"
            if graphs == was
            else formats.plural(graphs, "graph") + (f" instead of {formats.whole(was)}" if was is not None else "")
        )
    ms, was_ms = r.get("ms"), r.get("wasMs")
    if ms is not None:
        # one unit for both sides of a comparison ("74.3 ms instead of 501 ms", not "… instead of 0.50 s")
        said = formats.ms(ms)
        parts.append(f"the first real call {said}" + (f" instead of {formats.ms_as(was_ms, said)}" if was_ms else ""))
    if "value" in r:
        ranged = "low" in r and "high" in r
        said = formats.interval(r["low"], r["high"], r["value"]) if ranged else "too noisy to say a range"
        point = formats.speedup(r["value"])
        parts.append(f"{point} per {r.get('unit', 'step')} in situ ({said})")
    if r.get("count"):
        parts.append(f"{formats.whole(r['count'])} calls still ran eagerly")
    seconds, was_s = r.get("seconds"), r.get("wasSeconds")
    if seconds is not None:
        # a side whose compiles hit Inductor's cache compiled less than a cold run does: each side's cache is said
        warm, was_warm = bool(r.get("cacheHits")), bool(r.get("wasCacheHits"))
        cache, was_cache = (_CACHE[warm], _CACHE[was_warm]) if warm or was_warm else ("", "")
        said = formats.seconds(seconds)
        then = None if was_s is None else formats.ms_as(was_s * 1000, said)
        same = then == said and cache == was_cache
        before = "" if then is None else " as written" if same else f" instead of {then}{was_cache}"
        parts.append(f"compile {said}{cache}{before}")
    return f"with {r.get('what')}: {', '.join(parts) or 'no number'}"


# a measured fix's compile and the script's are each one process's, timed once (review 11 J9: the warm-up fix's
# "compile 74.3 ms" read as a promise; the re-run after it measured 173 ms on a busier host, and no screen said why)
ONE_PROCESS_COMPILE = (
    "each compile is one process's, timed once: a re-run's (another process, its own compile cache, the host's load "
    "then) may differ"
)


def fix_in_full(r: Reason) -> str:
    """A shape-fix reason in the verdict's sentence: fixes not measured as what to change (fix_instructions), then why
    not and how to measure them; buckets refused (a call that mixes rows) as no fix; a measured one's compile said as
    what it is (ONE_PROCESS_COMPILE) where it is compared."""
    if not r.get("measured"):
        return _unmeasured(r)
    compared = r.get("seconds") is not None and r.get("wasSeconds") is not None
    return fix_clause(r) + (f"; {ONE_PROCESS_COMPILE}" if compared else "")


# why a fix has no number, the codes script/shape_fix.py records (ShapeFix.whyCode) that this module words again
REFUSED, BUDGET_LEFT, TIMEOUT_LEFT = "refused", "budget", "timeout"


def _unmeasured(r: Reason) -> str:
    """ "Fix: mark x's dimension 1 dynamic (…), compile with dynamic=True, or pad the lengths to buckets of 16, 32.
    None of the 3 was measured: measuring them runs …"; beside fixes measured, "Another fix: …" / "Other fixes: …".
    Past the recompile limit the fixes were said only as the subject of "not measured", read as what the run did
    (review 20X X2: "x's dimension 1 marked dynamic (mark_dynamic) and dynamic=True … not measured")."""
    n, made = r.get("count") or 1, r.get("made")
    if r.get("kind") == REFUSED:  # buckets that change what a call returns are no fix to make
        return f"{r.get('what')} not measured: {r.get('why')}"
    if made is None:  # the fix the finding's sentence gave ("Fix: warm up at the shape the real calls use")
        return f"the fix ({r.get('what')}) was not measured: {r.get('why')}"
    lead = "Fix" if made <= n else "Another fix" if n == 1 else "Other fixes"
    none = "It was not" if n == 1 else "Neither was" if n == 2 else f"None of the {n} was"
    return f"{lead}: {r.get('what')}. {none} measured: {r.get('why')}"


def fix_to_make(r: Reason) -> str | None:
    """ "Fix: mark x's dimension 1 dynamic (…), compile with dynamic=True, or pad …." where no fix was measured: said
    with the finding that leads the script's answer, as a warm-up's finding says its fix (review 20X X2: past the
    recompile limit no line told what to change); None for a measured fix (its region's sentence says it)."""
    n, made = r.get("count") or 1, r.get("made")
    if r.get("measured") or r.get("kind") == REFUSED or made is None or made > n:
        return None
    return f"Fix: {r.get('what')}."


def _dims(names: list[str], dims: list[int]) -> str:
    return " and ".join(f"{_input(n)}'s dimension {d}" for n, d in zip(names, dims, strict=True))


_CODE = re.compile(r"[A-Za-z_][\w.\[\]'\"]*")  # a name the user's code can write ("x", "cache.layers[0].keys")


def mark_instruction(names: list[str], dims: list[int]) -> str:
    """ "mark x's dimension 1 dynamic (torch._dynamo.mark_dynamic(x, 1) before the first call)"; an input with no
    name to write in code (a positional one, "input 0") is marked in words only."""
    code = [f"torch._dynamo.mark_dynamic({n}, {d})" for n, d in zip(names, dims, strict=True) if _CODE.fullmatch(n)]
    how = " and ".join(code) if len(code) == len(names) else "torch._dynamo.mark_dynamic"
    return f"mark {_dims(names, dims)} dynamic ({how} before the first call)"


def buckets_instruction(names: list[str], dims: list[int], sizes: list[int], lengths: bool) -> str:
    """ "pad the lengths to buckets of 16, 32, 64" (a size that grows call after call), else "pad x's dimension 0 to
    buckets of 8, 16"."""
    shown = sizes_said(sizes).removeprefix("sizes ")
    return f"pad {'the lengths' if lengths else _dims(names, dims)} to buckets of {shown}"


def fix_instructions(said: list[str]) -> str:
    """The fixes as what to change, one of them to make: "A", "A or B", "A, B, or C"."""
    return said[0] if len(said) == 1 else f"{', '.join(said[:-1])}{',' if len(said) > 2 else ''} or {said[-1]}"


COMPILE_DYNAMIC = "compile with dynamic=True"


def _more_runs(runs: int) -> str:
    return "once more" if runs == 1 else f"{runs} more times"


# the profile's wall at most this many times the plain script's, with the fix runs (script/shape_fix.py runs them
# within it; said here, where why a fix was left out is worded again for the fixes it left out)
SHAPE_FIX_BUDGET = 2.5


def shape_fix_over_budget(runs: int, seconds: float, budget: float = SHAPE_FIX_BUDGET, fixes: int = 1) -> str:
    """Why shape fixes were not measured by default (script/shape_fix.py), of one fix or of several."""
    it = "it" if fixes == 1 else "them"
    return (
        f"measuring {it} runs the script {_more_runs(runs)} (about {seconds:.0f} s), which would take the profile past "
        f"{budget:g}× the script's own time; to measure {it}, profile again with shape fixes measured (the editor's "
        "Measure the shape fix, or the command line's --shape-fix on)"
    )


def marked_dynamic(names: list[str], dims: list[int]) -> str:
    """The mark_dynamic fix in words: "the first input's dimension 0 marked dynamic (mark_dynamic)"; the Quick Fix's
    edit stays code (compiler/quick_fixes.py)."""
    marked = " and ".join(f"{_input(n)}'s dimension {d}" for n, d in zip(names, dims, strict=True))
    return f"{marked} marked dynamic (mark_dynamic)"


def shape_fix_timeout(fixes: int = 1) -> str:
    return f"--timeout leaves no time to run the script again with {'it' if fixes == 1 else 'them'}"


def shape_fix_failed(message: str | None) -> str:
    return f"the run with the fix failed: {message or 'it wrote no report'}"


def shape_fix_no_call() -> str:
    return "the run with the fix made no call of it"


def buckets_refused(size: int, bucket: int, max_diff: float | None) -> str:
    """Buckets not offered: padding changed what the call returns (a call that mixes rows)."""
    what = (
        "its outputs' shapes differ"
        if max_diff is None
        else f"its outputs cut back differ from the call's own by up to {max_diff:.3g}"
    )
    return (
        f"padding a call of size {size} to {bucket} changes what it returns ({what}): the call mixes rows (a mean over "
        "the batch, attention over padding), so its calls cannot be padded"
    )


def shape_fix_measure_title(runs: int, seconds: float) -> str:
    """The editor's CodeLens / Quick Fix that measures the fixes the budget left out (--shape-fix on)."""
    return f"Measure the shape fix (runs the script {_more_runs(runs)}, about {formats.seconds(seconds)})"


def recompile_limit_reached(function: str | None, limit: int) -> str:
    """Why a call ran eagerly past torch._dynamo.config.recompile_limit, in plain words (a call's fallbackReason). The
    limit, not a count of compiles: the compile that hit it is one more, made no graph, and the card counts it (review
    17 X2: "9 compiles" above "stopped after 8 compiles")."""
    return (
        f"Dynamo stopped compiling {function or 'this function'} at its recompile limit, {limit} "
        "(torch._dynamo.config.recompile_limit); later calls run eagerly"
    )


def launch_bound(r: Reason) -> str:
    return (
        f"A launch-bound eager (its host time {formats.pct(r.get('hostPct', 0.0))} of its GPU time): the range holds a "
        f"host that moves ±{formats.pct(r.get('floorPct', 0.0))} between runs."
    )


# from this many CPUs a host is many-core: the 3× between processes was measured on a 16-core VM (review 9C C5: it
# was said on a 2-CPU host too)
MANY_CORES = 8


def cpu_host(r: Reason) -> str:
    """The range's caveat on a CPU: what it allows a next process; on a many-core host, that one can move more, and
    what that means for the verdict (the range's caveat, never a verdict voided unsaid: review 9E E2)."""
    cpus = r.get("cpus")
    floor = formats.pct(r.get("floorPct", 0.0))
    if cpus is None or cpus < MANY_CORES:
        return f"Timed on a CPU: the range allows a next process ±{floor} away."
    return (
        f"Timed on {cpus} CPUs: the range allows a next process ±{floor} away, but a many-core CPU can move more "
        "(up to 3× between processes of one script on a 16-core VM), so the range is this process's: where a second "
        "profile's range agrees with it, the answer holds on this host."
    )


def per_sequence(r: Reason) -> str:
    return (
        f"per sequence of {formats.plural(r.get('made', 0), 'token')}: {formats.ms(r.get('wasMs') or 0.0)} → "
        f"{formats.ms(r.get('ms') or 0.0)}"
    )
