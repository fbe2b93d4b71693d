"""Every sentence of an answer, written here and nowhere else (schema 1.21): the headline, the verdict's sentence,
each number's and each reason's text, rendered from the answer's codes and numbers (report/answer.py decides them)
with formats.py's numbers. The report carries the strings; every surface (CLI, report panel, CodeLens, hover, Problems, Runs view,
compare, --json) shows them as they are.

Extension point: a reason code's words are one entry of SENTENCES: (its clause in the headline, its sentence). A code
in LEADING leads the headline, before the verdict and its number: a failure at the user's line, and the shape story
of issue 43 (recompile-limit, warmup-other-shape, cuda-graphs-per-size, automatic-dynamic and the shape-fix beside
it; report/shape_reasons.py gives them, and what an in-situ number leaves out: eager-fallback, in-situ-left-out, and
a decode loop's sequence).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable

from .. import formats
from ..shapes.answer import Answer, AnswerNumber, Reason
from ..shapes.compiler import CompilerInsight, Recompile
from ..shapes.region import Region

VERDICT_WORDS = {
    "compile": "compile it",
    "compile-for-longer-runs": "compile for longer runs",
    "stay-eager": "stay eager",
    "none": "no verdict",
}

_HOW = {  # in-situ-step: per its unit (a step, a decode loop's token)
    "in-situ-call": "per call in situ",
    "replay-call": "per call replayed",
    "target-rounds": "per call",
}

_TOO_NOISY = {
    "range-too-wide": "too noisy to say: a next run could land more than 3× away",
    "too-few-pairs": "too few blocks each way to say a range",
}


def place(reason: Reason) -> str:
    """ "train.py:41", "cell 3, line 2", or "" where the reason has no line."""
    line, cell = reason.get("line"), reason.get("cell")
    if not line:
        return ""
    if isinstance(cell, int):
        return f"cell {cell + 1}, line {line}"
    file = reason.get("file")
    return f"{os.path.basename(file)}:{line}" if file else f"line {line}"


def _at(reason: Reason) -> str:
    where = place(reason)
    return f" at {where}" if where else ""


def _call(reason: Reason) -> str:
    call = reason.get("call")
    return f" (call {call})" if call is not None else ""


def _fix(reason: Reason) -> str:
    fix = reason.get("fix")
    return f" Fix: {fix.rstrip('.')}." if fix else ""


def _paid(r: Reason) -> str:
    """What a pay-back pays back: the compiler's time, or in situ the compiled warm-up's time beyond eager steps
    (a different measurement from the compiler's own count beside it, so said as what it is)."""
    if r.get("warmUp"):
        return f"The {formats.seconds(r['seconds'])} its compiled warm-up took beyond eager {r.get('unit', 'step')}s"
    return f"Its {formats.seconds(r['seconds'])} compile"


def _pays_back(r: Reason) -> str:
    unit = r.get("unit", "step")
    return f"pays back after {formats.break_even(r['steps'], unit)}" + (
        f", this run made {formats.whole(r['made'])}" if r.get("made") is not None else ""
    )


_FAILED_WORDS = {"out-of-memory": "ran out of memory", "timeout": "timed out", "cancelled": "cancelled"}


def _failed_clause(r: Reason) -> str:
    kind = r.get("kind", "")
    return f"{_FAILED_WORDS.get(kind, 'failed')}{_at(r)}{_call(r)}"


# --- the shape story (issue 43: report/shape_reasons.py gives these codes) ------------------------------------------


_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")


def _input(name: str) -> str:
    """ "x", or a positional input ("input 0", script/shape_facts.py) as "the first input"."""
    match = re.fullmatch(r"input (\d+)", name)
    if match and int(match[1]) < len(_ORDINALS):
        return f"the {_ORDINALS[int(match[1])]} input"
    return name


def _sizes(r: Reason) -> str:
    """ "12 batch sizes", "96 lengths", "3 sizes of mask's dimension 2"."""
    n = r.get("sizes", 0)
    if r.get("growing"):
        return formats.plural(n, "length")
    if r.get("dim") == 0:
        return formats.plural(n, "batch size")
    return f"{formats.plural(n, 'size')} of {_input(str(r.get('input')))}'s dimension {r.get('dim')}"


def _size(r: Reason, key: str) -> str:
    return f"batch {r.get(key)}" if r.get("dim") == 0 else f"size {r.get(key)}"


def _limit_clause(r: Reason) -> str:
    written = "dynamic=False with " if r.get("dynamic") is False else ""
    graphs = r.get("graphs")
    made = f"{formats.whole(graphs)} compiled" if graphs is not None else "one graph each"
    cap = f" ({r['limit']})" if r.get("limit") is not None else ""
    return (
        f"{written}{_sizes(r)}: {made}, then the recompile limit{cap} ran {formats.whole(r.get('count', 0))} of "
        f"{formats.whole(r.get('made', 0))} calls eagerly"
    )


def _warmup_clause(r: Reason) -> str:
    at = f" (line {r['line']})" if r.get("line") else ""
    one = r.get("count") == 1
    seconds = r.get("seconds")
    paid = (
        f"; {'that call' if one else 'the first'} paid {formats.seconds(seconds)} recompiling"
        if seconds is not None
        else "; the first recompiled"
    )
    return (
        f"the warm-up at {_size(r, 'size')}{at} compiled a graph the {'real call' if one else 'real calls'} at "
        f"{_size(r, 'realSize')} never used{paid}"
    )


def _automatic_clause(r: Reason) -> str:
    seconds = r.get("seconds")
    took = f" ({formats.seconds(seconds)})" if seconds is not None else ""
    return (
        f"sizes changed at call {r.get('call')}: a second compile{took} made one size-generic graph, which served the "
        f"next {formats.whole(r.get('count', 0))} calls without compiling"
    )


def _graphs_clause(r: Reason) -> str:
    """ "reduce-overhead recorded a CUDA graph for each of 6 batch sizes, holding 1.2 GiB"."""
    n = r.get("count", 0)
    sizes = (
        formats.plural(n, "length")
        if r.get("growing")
        else formats.plural(n, "batch size")
        if r.get("dim") == 0
        else formats.plural(n, "input size")
    )
    held = f", holding {formats.memory(r['bytes'])}" if "bytes" in r else ""
    return f"{r.get('mode')} recorded a CUDA graph for each of {sizes}{held}"


_CACHE = {True: " from a warm cache", False: " from a cold cache"}


def _fix_clause(r: Reason) -> str:
    """ "with dynamic=True: 1 graph instead of 8, 1.31× per step in situ (1.22–1.40×), compile 3.1 s instead of 33 s"."""
    if not r.get("measured"):
        return f"{r.get('what')} not measured: {r.get('why')}"
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
        parts.append(f"the first real call {formats.ms(ms)}" + (f" instead of {formats.ms(was_ms)}" if was_ms else ""))
    if "value" in r:
        said = formats.interval(r["low"], r["high"]) if "low" in r and "high" in r else "too noisy to say a range"
        parts.append(f"{formats.speedup(r['value'])} per {r.get('unit', 'step')} in situ ({said})")
    if r.get("count"):
        parts.append(f"{formats.whole(r['count'])} calls still ran eagerly")
    seconds, was_s = r.get("seconds"), r.get("wasSeconds")
    if seconds is not None:
        # a side whose compiles hit Inductor's cache compiled less than a cold run does: each side's cache is said
        warm, was_warm = bool(r.get("cacheHits")), bool(r.get("wasCacheHits"))
        cache, was_cache = (_CACHE[warm], _CACHE[was_warm]) if warm or was_warm else ("", "")
        same = was_s is not None and formats.seconds(seconds) == formats.seconds(was_s) and cache == was_cache
        before = "" if was_s is None else " as written" if same else f" instead of {formats.seconds(was_s)}{was_cache}"
        parts.append(f"compile {formats.seconds(seconds)}{cache}{before}")
    return f"with {r.get('what')}: {', '.join(parts) or 'no number'}"


def _more_runs(runs: int) -> str:
    return "once more" if runs == 1 else f"{runs} more times"


def shape_fix_over_budget(runs: int, seconds: float, budget: float) -> str:
    """Why a shape fix was not measured by default (script/shape_fix.py)."""
    return (
        f"measuring it runs the script {_more_runs(runs)} (about {seconds:.0f} s), which would take the profile past "
        f"{budget:g}× the script's own time; profile again with --shape-fix on to measure it"
    )


def marked_dynamic(names: list[str], dims: list[int]) -> str:
    """The mark_dynamic fix in words: "the first input's dimension 0 marked dynamic (mark_dynamic)"; the Quick Fix's
    edit stays code (compiler/quick_fixes.py)."""
    marked = " and ".join(f"{_input(n)}'s dimension {d}" for n, d in zip(names, dims, strict=True))
    return f"{marked} marked dynamic (mark_dynamic)"


def shape_fix_timeout() -> str:
    return "--timeout leaves no time to run the script once more with it"


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
    """Why a call ran eagerly past torch._dynamo.config.recompile_limit, in plain words (a call's fallbackReason)."""
    return (
        f"Dynamo stopped compiling {function or 'this function'} after {formats.plural(limit, 'compile')} of it; "
        "later calls run eagerly"
    )


def _left_out(r: Reason) -> str:
    return (
        f"In situ, {formats.whole(r.get('count', 0))} of the script's {formats.whole(r.get('made', 0))} calls are left "
        "out of the number: compiles, the warm-up, first calls at a size, and calls that ran eagerly."
    )


def _launch_bound(r: Reason) -> str:
    return (
        f"A launch-bound eager (its host time {formats.pct(r.get('hostPct', 0.0))} of its GPU time): the range holds a "
        f"host that moves ±{formats.pct(r.get('floorPct', 0.0))} between runs."
    )


def _per_sequence(r: Reason) -> str:
    return (
        f"per sequence of {formats.plural(r.get('made', 0), 'token')}: {formats.ms(r.get('wasMs') or 0.0)} → "
        f"{formats.ms(r.get('ms') or 0.0)}"
    )


Clause = Callable[[Reason], str]

# code -> (its clause in the headline, its sentence); every reason a report carries has its words here
SENTENCES: dict[str, tuple[Clause, Clause]] = {
    "failed": (
        _failed_clause,
        lambda r: f"The script {_failed_clause(r)}: {r.get('what', '').rstrip('.')}.{_fix(r)}",
    ),
    "compiled-call-failed": (
        lambda r: f"compiled call {r.get('call') or '?'} fails{_at(r)}",
        lambda r: (
            f"Fix first: compiled call {r.get('call') or '?'} failed{_at(r)}: {r.get('what', '').rstrip('.')}.{_fix(r)}"
        ),
    ),
    "no-compiled-code": (
        lambda r: f"no compiled code ran: {r.get('what')}",
        lambda r: (
            f"No compiled code ran: {r.get('what')}, so every call ran eagerly — the compiled and eager runs executed "
            "the same code, and there is no speedup to show."
        ),
    ),
    "ran-eagerly": (
        lambda r: f"{r['mode'] + chr(39) + 's' if r.get('mode') else 'the'} compiled calls ran eagerly",
        lambda r: (
            f"The compiled calls{' of ' + r['mode'] if r.get('mode') else ''} ran eagerly, so nothing compiled was "
            f"measured ({r.get('what') or 'Dynamo ran the original code'}).{_fix(r)}"
        ),
    ),
    "wrong-results": (
        lambda r: f"{r.get('mode')} gave wrong results",
        lambda r: (
            f"{r.get('mode')} gave wrong results (less accurate than eager against a higher-precision reference); see "
            "the mismatch."
        ),
    ),
    "host-contended": (
        lambda r: "host busy",
        lambda r: f"Not trusted: {r.get('what', '').rstrip('.')}.{_fix(r)}",
    ),
    "too-noisy-to-decide": (
        lambda r: "too noisy to decide",
        lambda r: "It varied too much to decide: profile again when the host is quieter, or with more --rounds.",
    ),
    "slower": (lambda r: "slower compiled", lambda r: "Compiled is slower than eager."),
    "not-faster": (
        lambda r: "not faster compiled",
        lambda r: f"Compiled is not faster: the range stays under {formats.speedup(r['value'])}.",
    ),
    "may-be-no-faster": (
        lambda r: "may be no faster",
        lambda r: f"Compiled may be no faster: the range does not clear {formats.speedup(r['value'])}.",
    ),
    "not-clearly-faster": (
        lambda r: "not clearly faster",
        lambda r: f"Compiled may be faster, but not clearly: the range does not clear {formats.speedup(r['value'])}.",
    ),
    "pays-back-after": (
        _pays_back,
        lambda r: f"{_paid(r)} {_pays_back(r)}.",
    ),
    "compile-cost-unknown": (
        lambda r: "compile cost unknown",
        lambda r: "What the compile costs was not measured.",
    ),
    "cuda-graphs-idle-on-cpu": (
        lambda r: f"{r.get('mode')}'s CUDA graphs idle on CPU",
        lambda r: (
            f"On CPU, {r.get('mode')}'s CUDA graphs do nothing: its difference from default here is Inductor's code, "
            "not CUDA graphs; on a GPU it would differ."
        ),
    ),
    "in-situ-too-few": (
        lambda r: "too few steps in situ",
        lambda r: (
            f"In situ, {formats.plural(r.get('samples', 0), 'steady step')} in "
            f"{formats.plural(r.get('pairs', 0), 'pair')} of blocks are too few to decide on."
        ),
    ),
    "no-steady-steps": (
        lambda r: "no steady step in situ",
        lambda r: f"Not measured in situ: {r.get('what', '').rstrip('.')}.",
    ),
    "no-in-situ": (
        lambda r: "replay only" if r.get("kind") == "no-set-stance" else "in situ off",
        # what was not measured, only: a replay's number says itself ("per call replayed"), and a region that was
        # not replayable has no verdict to rest on it (a rank of a torchrun job read "the verdict rests on the replay")
        lambda r: (
            f"Not measured in situ: torch {r.get('torch') or 'here'} has no torch.compiler.set_stance (PyTorch 2.6 and "
            "later)."
            if r.get("kind") == "no-set-stance"
            else "Not measured in situ (--no-in-situ)."
        ),
    ),
    "replay-not-possible": (
        lambda r: f"not replayable: {r.get('what')}",
        lambda r: f"Not replayed: {r.get('what', '').rstrip('.')}.",
    ),
    "not-measured": (
        lambda r: f"not measured: {r.get('what')}",
        lambda r: f"Not measured: {r.get('what', '').rstrip('.')}.",
    ),
    "never-called": (lambda r: "never called", lambda r: "The script never called it."),
    "measurement-failed": (
        lambda r: f"measuring {r.get('mode') or 'it'} failed: {r.get('what')}",
        lambda r: f"Measuring {r.get('mode') or 'it'} failed: {r.get('what', '').rstrip('.')}.{_fix(r)}",
    ),
    "replay-disagrees": (
        lambda r: "the replay disagrees",
        lambda r: (
            f"The replay gave {formats.speedup(r['value'])} per call ({formats.interval(r['low'], r['high'])}), apart "
            "from the in-situ range: the verdict rests on the script's own steps."
        ),
    ),
    "in-situ-undecided": (
        lambda r: f"in situ {r.get('what')}",
        lambda r: (
            f"In situ, {formats.speedup(r['value'])} per {r.get('unit', 'step')}"
            + (f" ({formats.interval(r['low'], r['high'])})" if "low" in r and "high" in r else "")
            + f" supports no verdict: {r.get('what')}."
        ),
    ),
    "replayed-forward-only": (
        lambda r: "replayed",
        lambda r: "The number is the replay's: the region's calls alone, on their captured inputs.",
    ),
    "nothing-measured": (lambda r: "nothing measured", lambda r: "Nothing was measured."),
    "no-region": (
        lambda r: "no torch.compile region ran",
        lambda r: "The script made no torch.compile region (no torch.compile or nn.Module.compile call ran).",
    ),
    "logs-only": (
        lambda r: "read from compiler logs",
        lambda r: "Read from compiler logs: nothing was timed, so there is no verdict.",
    ),
    "recompile-limit": (
        _limit_clause,
        lambda r: (
            f"{_limit_clause(r)[:1].upper()}{_limit_clause(r)[1:]}: Dynamo runs a frame eagerly for sizes it has no "
            "graph for once it reached the limit, so those calls are never timed as compiled: the number compares "
            "the calls compiled code served."
        ),
    ),
    "warmup-other-shape": (
        _warmup_clause,
        lambda r: f"{_warmup_clause(r)[:1].upper()}{_warmup_clause(r)[1:]}: warm up at the shape the real calls use.",
    ),
    "cuda-graphs-per-size": (
        _graphs_clause,
        lambda r: (
            f"{_graphs_clause(r)}: each new size pauses to record one and keeps GPU memory for it; pad inputs to a "
            "few sizes."
        ),
    ),
    "automatic-dynamic": (
        _automatic_clause,
        lambda r: f"{_automatic_clause(r)[:1].upper()}{_automatic_clause(r)[1:]} (automatic dynamic shapes).",
    ),
    "shape-fix": (_fix_clause, lambda r: f"{_fix_clause(r)[:1].upper()}{_fix_clause(r)[1:]}."),
    "eager-fallback": (
        lambda r: (
            f"{formats.whole(r.get('count', 0))} of {formats.whole(r.get('made', 0))} compiled-side calls ran eagerly"
        ),
        lambda r: (
            f"{formats.whole(r.get('count', 0))} of the {formats.whole(r.get('made', 0))} calls made with compiling "
            "on ran eagerly (Dynamo ran the original code): the number leaves them out."
        ),
    ),
    "in-situ-left-out": (
        lambda r: f"{formats.whole(r.get('count', 0))} calls left out",
        _left_out,
    ),
    "launch-bound-range": (lambda r: "launch-bound eager", _launch_bound),
    "decode-loop": (
        _per_sequence,
        lambda r: (
            f"A decode loop: {formats.plural(r.get('count', 0), 'sequence')} of about "
            f"{formats.whole(r.get('made', 0))} tokens, one a call; {_per_sequence(r)}."
        ),
    ),
}


FAILURES: frozenset[str] = frozenset({"failed", "compiled-call-failed"})
# codes that lead the headline, before the verdict: a failure at the user's line (issue 44), and the shape story
# that decided the outcome (issue 43); its fix as measured follows the verdict and its number (the headline's first
# speedup is always the answer's)
LEADING: frozenset[str] = FAILURES | {
    "recompile-limit",
    "warmup-other-shape",
    "cuda-graphs-per-size",
    "automatic-dynamic",
}


def clause(reason: Reason) -> str:
    return SENTENCES[reason["code"]][0](reason)


def sentence(reason: Reason) -> str:
    return SENTENCES[reason["code"]][1](reason)


def number_text(n: AnswerNumber) -> str:
    """ "1.31× per step in situ (1.22–1.40×)", "1.52× per token in situ (1.40–1.61×)" (a decode loop's step),
    "1.84× per call replayed with default (1.70–1.95×)", "3.31× per call with reduce-overhead (2.77–3.79×)", "1.07× per
    call in situ (too noisy to say: ...)": the one wording of a speedup and its range."""
    mode = f" with {n['mode']}" if n.get("mode") and n["kind"] in ("replay-call", "target-rounds") else ""
    how = f"per {n['unit']} in situ" if n["kind"] == "in-situ-step" else _HOW[n["kind"]]
    text = f"{formats.speedup(n['value'])} {how}{mode}"
    noisy = n.get("tooNoisy")
    if noisy:
        return f"{text} ({_TOO_NOISY[noisy['why']]})"
    if "low" in n and "high" in n:
        return f"{text} ({formats.interval(n['low'], n['high'])})"
    return text


# the word beside a number (schema 1.26: its directionText), by its direction; too noisy: why no range is said
_DIRECTION_WORDS = {"faster": "faster", "slower": "slower", "host-busy": "host busy, not trusted"}
_NO_DIRECTION = {"range-too-wide": "too noisy to say", "too-few-pairs": "too few blocks to say"}


def direction_text(n: AnswerNumber) -> str:
    """ "faster", "slower"; "too noisy to say" or "host busy, not trusted" where the number points nowhere."""
    direction = n["direction"]  # verdict.directed gives every number its direction
    if direction != "too-noisy":
        return _DIRECTION_WORDS[direction]
    noisy = n.get("tooNoisy")
    return _NO_DIRECTION[noisy["why"]] if noisy else "too noisy to say"


def _verdict_part(answer: Answer) -> str:
    number = answer["number"]
    leading = any(r["code"] in FAILURES for r in answer["reasons"])  # the shape story leads, but is no failure
    if number is not None:
        said = number_text(number)
        return (
            f"measured before it: {said}"
            if leading and answer["verdict"] == "none"
            else f"{VERDICT_WORDS[answer['verdict']]}: {said}"
        )
    rest = [r for r in answer["reasons"] if r["code"] not in LEADING and r["code"] not in _BESIDE_NUMBER]
    if leading:
        return ""
    return f"{VERDICT_WORDS[answer['verdict']]}: {clause(rest[0])}" if rest else VERDICT_WORDS[answer["verdict"]]


# reasons said in the headline after the number: what makes the verdict what it is
_AFTER_NUMBER = frozenset(
    {
        "pays-back-after",
        "not-clearly-faster",
        "too-noisy-to-decide",
        "host-contended",
        "in-situ-too-few",
        "eager-fallback",
        "decode-loop",
    }
)
# said beside the verdict (what an in-situ number leaves out, the shape fix as measured): never the reason in its place
_BESIDE_NUMBER = frozenset({"eager-fallback", "in-situ-left-out", "decode-loop", "shape-fix"})


def headline(answer: Answer, facts: list[str]) -> str:
    """The one line: leading reasons, the verdict and its number, why, the shape fix as measured (without a number of
    the answer's own, only a fix that carries no speedup: the headline's first speedup is the answer's), then the
    facts ("2 graphs", "compile 3.4 s")."""
    lead = [clause(r) for r in answer["reasons"] if r["code"] in LEADING]
    number = answer["number"]
    # a number too noisy says so in its parentheses: "too noisy to decide" after it would say it twice
    after = [
        clause(r)
        for r in answer["reasons"]
        if r["code"] in _AFTER_NUMBER and not (r["code"] == "too-noisy-to-decide" and number and number.get("tooNoisy"))
    ]
    after = after if number else []
    fixes = [
        clause(r) for r in answer["reasons"] if r["code"] == "shape-fix" and (answer["number"] or "value" not in r)
    ]
    # a reason two measurements share (the host busy for in situ and for the replay) is said once
    return " · ".join(dict.fromkeys(p for p in [*lead, _verdict_part(answer), *after, *fixes, *facts] if p))


def headline_after_lead(answer: Answer) -> str:
    """The headline without its leading clauses, for a line that follows their sentences in full (the script's
    recommendation: the deciding region's shape story is said once, with its fix)."""
    lead = " · ".join(dict.fromkeys(p for p in (clause(r) for r in answer["reasons"] if r["code"] in LEADING) if p))
    said = answer["headline"]
    return said[len(lead) + len(" · ") :] if lead and said.startswith(f"{lead} · ") else said


def verdict_sentence(answer: Answer) -> str:
    """The verdict and its reasons in full: "Compile (default): 1.31× per step in situ (1.22–1.40×). Its 11.7 s
    compile pays back after 212 steps, this run made 400." ("Compile: 1.30× per call with default …" where the number
    names the mode)."""
    verdict, number = answer["verdict"], answer["number"]
    # the mode to compile with, where its number does not name it already
    mode = "" if number is not None and number.get("mode") == answer["mode"] else f" ({answer['mode']})"
    head = {
        "compile": f"Compile{mode}",
        "compile-for-longer-runs": f"Compile{mode} for longer runs",
        "stay-eager": "Stay eager",
        "none": "No verdict",
    }[verdict]
    lead = [sentence(r) for r in answer["reasons"] if r["code"] in LEADING]
    rest = [sentence(r) for r in answer["reasons"] if r["code"] not in LEADING]
    said = f"{head}: {number_text(number)}." if number is not None else f"{head}."
    return " ".join([*lead, said, *rest])


def compiler_facts(compiler: CompilerInsight | None, compile_s: float | None) -> list[str]:
    """A target mode's compiler facts for its headline: graphs, breaks, recompiles, compile time."""
    graphs = compiler.get("graphCount") if compiler else None
    breaks, recompiles = (
        (len(compiler.get("graphBreaks") or []), len(compiler.get("recompiles") or [])) if compiler else (0, 0)
    )
    out = [formats.plural(graphs or 0, "graph"), formats.plural(breaks, "break")]
    if recompiles:
        out.append(formats.plural(recompiles, "recompile"))
    if compile_s is not None:
        out.append(f"compile {formats.seconds(compile_s)}")
    return out


def _other_ranks(items: list[Recompile]) -> tuple[int, str]:
    """Of a torchrun job's items (graph breaks, recompiles: every rank's, each with its `ranks`), how many rank 0,
    whose region this is, did not have, and the ranks that did ("rank 1", "ranks 1, 3")."""
    others = [item for item in items if "ranks" in item and 0 not in item["ranks"]]
    ranks = sorted({k for item in others for k in item["ranks"]})
    return len(others), f"rank{'s' if len(ranks) > 1 else ''} {', '.join(map(str, ranks))}"


def counts(region: Region) -> list[str]:
    """A region's compiler facts for its headline: graphs, breaks, recompiles, calls that ran eagerly. In a torchrun
    job the region, its graphs and calls are rank 0's: another rank's recompiles are said with its ranks."""
    compiler = region.get("compiler")
    elsewhere, where = 0, ""
    if compiler is not None:
        graphs: int | None = compiler.get("graphCount")
        elsewhere, where = _other_ranks(compiler.get("recompiles") or [])
        breaks, recompiles = len(compiler.get("graphBreaks") or []), len(compiler.get("recompiles") or []) - elsewhere
    else:  # the calls say it when there is no compiler record
        graphs, breaks = None, 0
        recompiles = sum(1 for c in region["calls"] if c.get("event") == "recompiled")
    # calls Dynamo ran eagerly: said here unless the shape story says them (the recompile limit's, over the script's
    # calls as written; or beside an in-situ number, the compiled side's): one quantity, one value
    shapes, situ = region.get("shapes"), region.get("inSitu")
    limit = shapes.get("recompileLimit") if shapes else None
    beside = situ is not None and situ.get("eagerFallback") and (situ.get("step") or situ.get("call"))
    said = bool(limit and limit["eagerCalls"]) or bool(beside)
    eager_calls = 0 if said else sum(1 for c in region["calls"] if c.get("ranCompiled") is False)
    out = [formats.plural(graphs, "graph")] if graphs is not None else []
    if breaks:
        out.append(formats.plural(breaks, "break"))
    if recompiles:
        out.append(formats.plural(recompiles, "recompile"))
    if elsewhere:
        out.append(f"{formats.plural(elsewhere, 'recompile')} on {where}")
    if eager_calls:
        out.append(f"{formats.plural(eager_calls, 'call')} ran eagerly")
    return out
