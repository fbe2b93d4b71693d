"""Each reason code's words (schema 1.21): its clause in the headline and its sentence, from the reason's parameters
with formats.py's numbers; sentences.py puts them in the headline and the verdict's sentence.

Extension point: a reason code's words are one entry of SENTENCES: (its clause in the headline, its sentence). A code
in LEADING leads the headline, before the verdict and its number: a failure at the user's line, and the shape story
of issue 43 (recompile-limit, warmup-other-shape, cuda-graphs-per-size, automatic-dynamic and the shape-fix beside
it; report/shape_reasons.py gives them, shape_text.py words them, and what an in-situ number leaves out:
eager-fallback, in-situ-left-out (in in_situ_text.py's words, as the in-situ lines count them), and a decode loop's
sequence).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable

from .. import formats
from ..shapes.answer import Reason
from . import in_situ_text, run_source, shape_text


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


# a cause longer than this is said in the verdict's sentence, not in the headline: a headline is the verdict and its
# number, about 200 characters at most (review 25, J8: one ran to 900)
_HEADLINE_CAUSE = 60


def _cause(said: str, what: object) -> str:
    """ "measuring default failed: CUDA out of memory"; a long cause left to the sentence: "measuring default
    failed"."""
    return f"{said}: {what}" if what and len(str(what)) <= _HEADLINE_CAUSE else said


def _fix(reason: Reason) -> str:
    fix = reason.get("fix")
    return f" {formats.fix(fix)}" if fix else ""


def _paid(r: Reason) -> str:
    """What a pay-back pays back: the compiler's time, or in situ the compiled warm-up's time beyond eager steps
    (a different measurement from the compiler's own count beside it, so said as what it is)."""
    if r.get("warmUp"):
        return f"The {formats.seconds(r['seconds'])} its compiled warm-up took beyond eager {r.get('unit', 'step')}s"
    return f"Its {formats.seconds(r['seconds'])} compile"


def _pays_back(r: Reason) -> str:
    unit = r.get("unit", "step")
    cold = " with a cold compile cache" if r.get("coldCache") else ""
    return f"pays back after {formats.break_even(r['steps'], unit)}{cold}" + (
        f", this run made {formats.whole(r['made'])}" if r.get("made") is not None else ""
    )


def _pays_back_sentence(r: Reason) -> str:
    """A cold cache's pay-back says that later runs pay less (review 4C X2: a verdict resting on a cost the same
    screen says later runs will not pay)."""
    later = "; later runs load the cache, so it pays back sooner" if r.get("coldCache") else ""
    return f"{_paid(r)} {_pays_back(r)}{later}."


_FAILED_WORDS = {"out-of-memory": "ran out of memory", "timeout": "timed out", "cancelled": "cancelled"}


def _failed_clause(r: Reason) -> str:
    kind = r.get("kind", "")
    return f"{_FAILED_WORDS.get(kind, 'failed')}{_at(r)}{_call(r)}"


Clause = Callable[[Reason], str]

# a verdict code in words: the headline's first words (sentences.py), and what a replay beside the steps alone would say
VERDICT_WORDS = {
    "compile": "compile it",
    "compile-for-longer-runs": "compile for longer runs",
    "stay-eager": "stay eager",
    "none": "no verdict",
}


# what a number's time is per, by its kind (sentences.number_text; in-situ-step: per its unit, a step, a decode loop's
# token): here, where a replay's number beside the steps says it too
HOW = {
    "in-situ-call": "per call in situ",
    "replay-call": "per call replayed",
    "target-rounds": "per call",
}


def _replay_beside(r: Reason, source: str = run_source.SCRIPT) -> str:
    """The replay beside steps that decided nothing (answer._replay_beside): evidence, never the answer's number or
    verdict, so its verdict is said as what it alone would say; its number in a replay's words (HOW, every surface's
    label for it)."""
    mode = f" with {r['mode']}" if r.get("mode") else ""
    ends = f" ({formats.interval(r['low'], r['high'], r['value'])})" if "low" in r and "high" in r else ""
    why = f" ({r['what']})" if r.get("what") else ""
    kind = r.get("kind", "none")
    alone = "which decides nothing either" if kind == "none" else f"which alone would say {VERDICT_WORDS[kind]}"
    return (
        f"The replay, timed apart from the {source}'s own steps: {formats.speedup(r['value'])} {HOW['replay-call']}"
        f"{mode}{ends}, {alone}{why}; the answer rests on the {source}'s own steps."
    )


# a plain word: a sentence that starts with one starts with it capitalised; code (dynamic=False, mark_dynamic(x, 1),
# x's batch) keeps its case
_PLAIN_WORD = re.compile(r"[a-z]+(?=[\s,:;]|$)")


def _generated(r: Reason) -> tuple[str, str]:
    """What Inductor generates, as every surface of the device says it: kernels on a GPU, C++ functions on a CPU
    (backend-no-kernels; review 19X X3: "generates kernels" on a CPU-only page that says "generated C++ functions")."""
    return ("C++ functions", "fused C++ functions") if r.get("device") == "cpu" else ("kernels", "kernels")


def _start(clause: str) -> str:
    """The clause as a sentence's start: its first word capitalised unless it is code."""
    return clause[:1].upper() + clause[1:] if _PLAIN_WORD.match(clause) else clause


# a torchrun rank's region.replay.reason (ranks/script.py): the replay-not-possible reason a rank's answer carries is
# said as what the user can do, not as why a replay would hang
TORCHRUN_RANK = "a rank of a torchrun job waits in its collectives for the other ranks, so it is not replayed alone"
_TORCHRUN_RANK = (
    "torchrun ranks are not timed against eager",
    "A rank of a torchrun job is not timed against eager on its own: replayed alone, it would wait in its collectives "
    "for the other ranks. Each rank's time per call after compiling is listed under it; to time the model against eager, "
    "profile it in one process, without torchrun.",
)

# code -> (its clause in the headline, its sentence); every reason a report carries has its words here
# why no in-situ measurement was made, by the no-in-situ reason's kind: its clause and its sentence
_NO_IN_SITU: dict[str, tuple[str, Clause]] = {
    "no-set-stance": (
        "replay only",
        lambda r: (
            f"Not measured in situ: torch {r.get('torch') or 'here'} has no torch.compiler.set_stance (PyTorch 2.6 and "
            "later)."
        ),
    ),
    "turned-off": ("in situ off", lambda r: "Not measured in situ (--no-in-situ)."),
    "attached": (
        "not measured in situ under attach",
        lambda r: (
            "Not measured in situ: the job was started by your own launcher; Compile Lens only watched it, and does "
            "not switch compiling off for some of the job's calls to time them eagerly."
        ),
    ),
}


def _failed(r: Reason, source: str = run_source.SCRIPT) -> str:
    what = r.get("what", "").rstrip(".")
    if r.get("kind") == "cancelled":  # the user's cancel, said by its own words ("The script cancelled: The run was
        return f"{what}.{_fix(r)}"  # cancelled; …" read as the script cancelling itself)
    return f"The {source} {_failed_clause(r)}: {what}.{_fix(r)}"


def _own_cost(r: Reason, source: str = run_source.SCRIPT) -> str:
    return (
        f"In situ, eager's {formats.ms(r.get('eagerMs', 0))} per {r.get('unit', 'step')} is not the {source}'s own: "
        "at the eager stance each call still passes through torch.compile's wrapper, and Compile Lens works around "
        f"each call (together up to {formats.ms(r.get('ownMs', 0))} a call), so in situ the speedup reads high."
    )


def _never_called(r: Reason, source: str = run_source.SCRIPT) -> str:
    return f"The {source} never called it."


def _replay_disagrees(r: Reason, source: str = run_source.SCRIPT) -> str:
    return (
        f"The replay gave {formats.speedup(r['value'])} per call "
        f"({formats.interval(r['low'], r['high'], r['value'])}), apart "
        f"from the in-situ range: the verdict rests on the {source}'s own steps."
    )


def _no_region(r: Reason, source: str = run_source.SCRIPT) -> str:
    return f"The {source} made no torch.compile region (no torch.compile or nn.Module.compile call ran)."


SENTENCES: dict[str, tuple[Clause, Clause]] = {
    "failed": (_failed_clause, _failed),
    "compiled-call-failed": (
        lambda r: f"compiled call {r.get('call') or '?'} fails{_at(r)}",
        lambda r: (
            f"Fix first: compiled call {r.get('call') or '?'} failed{_at(r)}: {r.get('what', '').rstrip('.')}.{_fix(r)}"
        ),
    ),
    "no-compiled-code": (
        lambda r: _cause("no compiled code ran", r.get("what")),
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
        # the number says "host busy, not trusted" (sentences.number_text): this says why
        lambda r: f"{_start(r.get('what', '')).rstrip('.')}.{_fix(r)}",
    ),
    "too-noisy-to-decide": (
        lambda r: "too noisy to decide",
        # what varied, where the record says it (report/noise_text.py, review 14R R7: no cause named)
        lambda r: (
            f"It varied too much to decide: {r['what']}. Profile again when the host is quieter, or with more --rounds."
            if r.get("what")
            else "It varied too much to decide: profile again when the host is quieter, or with more --rounds."
        ),
    ),
    "no-range": (
        lambda r: "no range measured",
        lambda r: "A report from before ranges: where a next run lands is unknown, so no verdict rests on it.",
    ),
    "slower": (
        lambda r: "slower compiled",
        # the slowdown as a user reads it: "0.52× (slower)" read as 52 % slower (review 3B N9)
        lambda r: (
            f"Compiled takes {formats.slowdown(r['value'], r.get('eagerMs'), r.get('compiledMs'))} as long as eager."
            if "value" in r
            # a range too wide to size, wholly below 1× (verdict.slower_however_noisy): the direction, never a size
            else "Compiled is slower than eager wherever a next run lands."
        ),
    ),
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
    "near-the-bar": (
        lambda r: f"near the {formats.speedup(r['value'])} bar",
        # the low end to the digits that tell it from the bar: "1.049× falls short of the 1.05× bar", never "1.05×"
        lambda r: (
            f"Its range's low end {formats.speedup_apart(r['low'], r['value'])} "
            f"{'falls short of' if r.get('mayGive') == 'compile' else 'clears'} the {formats.speedup(r['value'])} bar "
            f"by under {r['nearPct']:g}%: a next run may say "
            f"{'compile' if r.get('mayGive') == 'compile' else 'not clearly faster'}."
        ),
    ),
    "pays-back-after": (
        _pays_back,
        _pays_back_sentence,
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
    "in-situ-own-cost-holds": (
        lambda r: f"eager's {formats.ms(r.get('eagerMs', 0))} per {r.get('unit', 'step')} reads high in situ",
        lambda r: (
            f"In situ, eager's {formats.ms(r.get('eagerMs', 0))} per {r.get('unit', 'step')} holds up to "
            f"{formats.ms(r.get('ownMs', 0))} a call of torch.compile's wrapper and Compile Lens's own work, so the "
            "speedup reads a little high; without that much, the verdict would be the same."
        ),
    ),
    "in-situ-own-cost": (
        # short: it follows the number in the headline (about 200 characters at most, issue 44)
        lambda r: f"eager's {formats.ms(r.get('eagerMs', 0))} per {r.get('unit', 'step')} is too short to time in situ",
        _own_cost,
    ),
    "no-steady-steps": (
        lambda r: "no steady step in situ",
        lambda r: f"Not measured in situ: {r.get('what', '').rstrip('.')}.",
    ),
    "no-in-situ": (
        lambda r: _NO_IN_SITU[r.get("kind", "turned-off")][0],
        # what was not measured, only: a replay's number says itself ("per call replayed"), and a region that was
        # not replayable has no verdict to rest on it (a rank of a torchrun job read "the verdict rests on the replay")
        lambda r: _NO_IN_SITU[r.get("kind", "turned-off")][1](r),
    ),
    "replay-not-possible": (
        lambda r: _TORCHRUN_RANK[0] if r.get("what") == TORCHRUN_RANK else f"not replayable: {r.get('what')}",
        lambda r: (
            _TORCHRUN_RANK[1] if r.get("what") == TORCHRUN_RANK else f"Not replayed: {r.get('what', '').rstrip('.')}."
        ),
    ),
    "not-measured": (
        lambda r: f"not measured: {r.get('what')}",
        lambda r: f"Not measured: {r.get('what', '').rstrip('.')}.",
    ),
    "never-called": (lambda r: "never called", _never_called),
    "measurement-failed": (
        lambda r: _cause(f"measuring {r.get('mode') or 'it'} failed", r.get("what")),
        lambda r: f"Measuring {r.get('mode') or 'it'} failed: {r.get('what', '').rstrip('.')}.{_fix(r)}",
    ),
    "replay-disagrees": (lambda r: "the replay disagrees", _replay_disagrees),
    "replay-beside": (
        lambda r: f"{formats.speedup(r['value'])} {HOW['replay-call']} apart from the steps",
        _replay_beside,
    ),
    "replayed-forward-only": (
        lambda r: "replayed",
        lambda r: "The number is the replay's: the region's calls alone, on their captured inputs.",
    ),
    "nothing-measured": (lambda r: "nothing measured", lambda r: "Nothing was measured."),
    "no-region": (lambda r: "no torch.compile region ran", _no_region),
    "logs-only": (
        lambda r: "read from compiler logs",
        lambda r: "Read from compiler logs: nothing was timed, so there is no verdict.",
    ),
    "recompile-limit": (
        shape_text.limit_clause,
        lambda r: (
            f"{_start(shape_text.limit_in_full(r))}: Dynamo runs a frame eagerly for sizes it has no "
            "graph for once it reached the limit, so those calls are never timed as compiled"
            + (": the number compares the calls compiled code served." if r.get("measured", True) else ".")
        ),
    ),
    "warmup-other-shape": (
        shape_text.warmup_clause,
        # its fix said as every reason's is ("Fix: …"): "…, recompiling: warm up at …" read the fix as what recompiled
        # sizes that follow traffic: one warm-up size serves them only with the dimension marked dynamic (s31-shapes)
        lambda r: (
            f"{_start(shape_text.warmup_in_full(r))}. Fix: "
            + (
                f"{shape_text.warmup_dynamic_fix()}."
                if r.get("realSizes")
                else "warm up at the shape the real calls use."
            )
        ),
    ),
    "cuda-graphs-per-size": (
        shape_text.graphs_clause,
        lambda r: (
            f"{shape_text.graphs_clause(r)}: each new size pauses to record one and keeps GPU memory for it; pad inputs to a "
            "few sizes."
        ),
    ),
    "automatic-dynamic": (
        shape_text.automatic_clause,
        lambda r: f"{_start(shape_text.automatic_in_full(r))} (automatic dynamic shapes).",
    ),
    "shape-fix": (
        shape_text.fix_clause,
        lambda r: f"{_start(shape_text.fix_in_full(r))}.",
    ),
    "eager-fallback": (
        lambda r: (
            f"{formats.whole(r.get('count', 0))} of {formats.whole(r.get('made', 0))} compiled-side calls ran eagerly"
        ),
        lambda r: (
            f"{formats.whole(r.get('count', 0))} of the {formats.whole(r.get('made', 0))} calls made with compiling "
            "on ran eagerly (Dynamo ran the original code): the number leaves them out."
        ),
    ),
    "backend-no-kernels": (
        lambda r: f"backend {r.get('kind')}: no {_generated(r)[0]}",
        lambda r: (
            f"Backend {r.get('kind')} compiles nothing to {_generated(r)[0]}: Dynamo captures graphs and checks their "
            "guards, and the graphs run op by op as eager does, so the number is Dynamo's own cost, not what compiled "
            f"code gains; Inductor (the default backend) generates {_generated(r)[1]}."
        ),
    ),
    "in-situ-left-out": (
        in_situ_text.left_out_clause,
        in_situ_text.left_out_sentence,
    ),
    "launch-bound-range": (lambda r: "launch-bound eager", shape_text.launch_bound),
    "in-situ-few-pairs": (lambda r: f"{formats.plural(r.get('pairs', 0), 'pair')} of blocks", in_situ_text.few_pairs),
    "cpu-host-range": (lambda r: "a CPU's next process", shape_text.cpu_host),
    "decode-loop": (
        shape_text.per_sequence,
        lambda r: (
            f"A decode loop: {formats.plural(r.get('count', 0), 'sequence')} of about "
            f"{formats.whole(r.get('made', 0))} tokens, one a call; {shape_text.per_sequence(r)}."
        ),
    ),
}


FAILURES: frozenset[str] = frozenset({"failed", "compiled-call-failed"})
# torch.compile backends that generate no kernels: their speedup is Dynamo's cost (the answer says so beside it)
NO_KERNELS: frozenset[str] = frozenset({"eager", "aot_eager", "aot_eager_decomp_partition"})
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


# the sentences that name what the user ran: "the script's own steps", "the notebook's" in a notebook's run
# (run_source.noun; review 19X X4); SENTENCES holds them said of a script
_OF_SOURCE: dict[str, Callable[[Reason, str], str]] = {
    "failed": _failed,
    "in-situ-own-cost": _own_cost,
    "never-called": _never_called,
    "replay-disagrees": _replay_disagrees,
    "replay-beside": _replay_beside,
    "no-region": _no_region,
}


def sentence(reason: Reason, source: str = run_source.SCRIPT) -> str:
    """The reason's sentence; source: what the user ran (run_source.noun), in the sentences that name it."""
    of_source = _OF_SOURCE.get(reason["code"])
    return of_source(reason, source) if of_source else SENTENCES[reason["code"]][1](reason)
