"""What older runners wrote in words the runner no longer writes, said as it says them now, from what they recorded:
a timing a recompile voided, why an in-situ run has no step, a call past the recompile limit, a graph break, a contended
host, an attached rank's in-situ skip, why a region was not replayed or its replay ran no compiled code, a shape fix and
a measured one beside the recompiles it answers, a compile phase's label. A part of rederive_fixtures.py (which puts the
runner on the path)."""

from __future__ import annotations

import json
import re
from typing import Any

from compile_lens_runner import formats
from compile_lens_runner.compiler import break_patterns, explain
from compile_lens_runner.measure import host
from compile_lens_runner.report import answer, reason_text, shape_text
from compile_lens_runner.script import replay, shape_fix
from compile_lens_runner.script.shape_fix_apply import WARMUP, ShapeFixPlan

# a timing voided by a recompile, as runners before schema 1.22 said it: with Dynamo's guard text and compile id
_OLD_VOIDED = re.compile(
    r"^(\d+) compile\(s\) ran inside the timed region(?: \(guard failure: (.*?)\))?: (the timed calls .*|a timed call .*)$",
    re.S,
)


# as runners from schema 1.22 to 1.29 said it: the failed guards as sentences in parentheses, the inputs nested in them
_VOIDED_IN_PARENTHESES = re.compile(
    r"^(\d+) compiles? ran while timing(?: \((.*)\))?: (the timed calls \(.*|a timed call took a path warmup .*)$",
    re.S,
)
# their cause: the inputs each side ran on (the warm-up's end where a sentence or the end follows), or the path
_OLD_CAUSE = re.compile(
    r"^(?:the timed calls \((.*)\) did not match warmup \((.*?)\)(?=\.$|\. |$)|a timed call took a path warmup had "
    r"not compiled)(.*)$",
    re.S,
)


def _cause(text: str) -> str:
    old = _OLD_CAUSE.match(text)
    if not old:
        return text
    return (explain.timing_cause(old[1], old[2]) if old[1] is not None else explain.timing_cause("", "")) + old[3]


# as the runner says it from schema 1.30: the failed guards, the inputs each side ran on, then what changed and its fix
_VOIDED = re.compile(
    r"^(.*), so (\d+) compiles? ran while timing: warm-up ran on (.*?), the timed calls on (.*?)(?:\. (.*)|\.)$", re.S
)


def voided_timing(text: str, compiler: dict[str, Any] | None, on_cpu: bool = False) -> str:
    """A voided timing's reason as the runner says it now (explain.recompiled_while_timing), from an older one's; what
    changed, from the first recompile that ran while timing (target/mode.py), where the reason said it."""
    said = _VOIDED.match(text)
    if said:
        cause = explain.timing_cause(said[4], said[3])
        timed = [r for r in (compiler or {}).get("recompiles") or [] if r.get("inTimedRegion")]
        cuda_graphs = bool((compiler or {}).get("cudaGraphs"))
        if (
            said[5]
            and timed
            and (
                found := explain.explain(
                    timed[0]["reason"], timed[0]["allReasons"][0], None, cuda_graphs, on_cpu=on_cpu
                )
            )
        ):
            cause += f". {explain.voided_tail(timed[0]['reason'], found)}"
        if timed:  # each guard that failed while timing, in today's words
            return explain.recompiled_while_timing(int(said[2]), [r["reason"] for r in timed], cause)
        return explain.voided_timing(int(said[2]), said[1].split("; "), cause)
    old = _OLD_VOIDED.match(text)
    if old:
        guards = re.split(r"; (?=\d+/\d+: )", old[2]) if old[2] else []
        return explain.recompiled_while_timing(int(old[1]), guards, _cause(old[3]))
    said = _VOIDED_IN_PARENTHESES.match(text)
    if not said:
        return text
    return explain.voided_timing(int(said[1]), said[2].split("; ") if said[2] else [], _cause(said[3]))


# why an interleaved measurement had no step speedup, as runners before schema 1.25 said it (no code beside it)
_OLD_NO_STEP: list[tuple[re.Pattern[str], Any]] = [
    (re.compile(r"^no steady (eager|compiled) step\b"), lambda m: {"code": "no-steady-side", "side": m[1]}),
    (
        re.compile(
            r"^the script's (\d+) call\(s\) of it all came before the interleaving began \(it starts after (\d+) "
        ),
        lambda m: {"code": "before-interleaving", "calls": int(m[1]), "quietCalls": int(m[2])},
    ),
    (re.compile(r"^no input signature had steady steps both ways"), lambda m: {"code": "no-shared-signature"}),
]


def no_step(reason: str) -> dict[str, Any] | None:
    """An older interleaved measurement's reason as the code the runner records now (measure/interleaved.py)."""
    for pattern, code in _OLD_NO_STEP:
        if m := pattern.match(reason):
            return code(m)  # type: ignore[no-any-return]
    return None


# a call past the recompile limit, as older runners said why it ran eagerly: before schema 1.25 (PyTorch's config
# name as ours), and "after 8 compiles of it" (the limit read as a count of compiles: review 17 X2)
_OLD_LIMIT = re.compile(
    r"^(?:(\S+) hit torch\._dynamo\.config\.recompile_limit|recompile_limit \(\d+\) reached for (\S+?):"
    r"|Dynamo stopped compiling (this function|\S+) after \d+ compiles? of it;)"
)


def limit_fallback(call: dict[str, Any]) -> None:
    """An older runner's reason for a call past the recompile limit, in the words and with the limit recorded now."""
    old = _OLD_LIMIT.match(call.get("fallbackReason") or "")
    limit = call.get("recompileLimit") or explain.recompile_limit(call.get("fallbackReason") or "")
    if old and limit is not None:
        function = old[1] or old[2] or old[3]
        call["fallbackReason"] = shape_text.recompile_limit_reached(
            None if function == "this function" else function, limit
        )
        call["recompileLimit"] = limit


def break_explanation(graph_break: dict[str, Any]) -> None:
    """A graph break in the runner's sentence for it (break_patterns.explain_recorded), one an older runner recorded
    without it included, so no surface shows PyTorch's message as ours. The frame Dynamo stopped in (`brokeAt`) is read
    from the log's "Graph break in user code at" line, which such a report did not keep: null."""
    graph_break["explanation"] = break_patterns.explain_recorded(graph_break)
    graph_break.setdefault("brokeAt", None)


def no_compiled_fix(region: dict[str, Any]) -> None:
    """A region that ran no compiled code, its fix the break's that stopped it (compiler/no_compiled.py) as the
    runner says that break's fix now (after the hover's "Fix:", lower case: review 22Y Y1), not as it was recorded."""
    nothing = region.get("noCompiledCode")
    breaks = (region.get("compiler") or {}).get("graphBreaks") or []
    said = [b["explanation"] for b in breaks if b.get("explanation")]
    same = next((e for e in said if nothing and e["pattern"] == nothing.get("pattern")), None)
    if nothing and same is not None:
        nothing["fix"] = same["fix"]


# a contended host's samples, its load average and its fix, as older runners said them
_OLD_SHORT_OF_CPUS = re.compile(r"\((\d+) of (\d+) samples found fewer CPUs free than torch's (\d+) threads?")
_LOAD_AVERAGE = re.compile(
    r", load average (?:about [\d.]+ over the run|(?:rose|fell) from [\d.]+ to [\d.]+|\d+\.\d+(?: to \d+\.\d+)?)"
)
_OLD_QUIETER = "profile when the host is quieter: other processes kept every CPU busy"
_OLD_SLICED = "every round was time-sliced with them"


def host_loads(value: Any) -> None:
    """Each contended measurement's host load (`hostLoad`, wherever it is kept) said as measure/host.py says it now."""
    if isinstance(value, list):
        for item in value:
            host_loads(item)
    elif isinstance(value, dict):
        load = value.get("hostLoad")
        if isinstance(load, dict) and load.get("reason"):
            reason = _OLD_SHORT_OF_CPUS.sub(
                lambda m: "(" + host.short_of_cpus(int(m[3]), int(m[1]), int(m[2])), load["reason"]
            )
            reason = reason.replace(_OLD_SLICED, host.SHARED_EVERY_RUN)
            load["reason"] = _LOAD_AVERAGE.sub(lambda _: host.load_words(load.get("loadAverage")), reason)
            if load.get("fix") == _OLD_QUIETER:
                load["fix"] = host.QUIETER
        for item in value.values():
            host_loads(item)


def cuda_graph_fixes(statuses: list[dict[str, Any]] | None) -> None:
    """Each graph's CUDA-graph skip fixes said as every fix is said after "Fix:" (formats.fix_words: lower case, since
    2026-12-01), where an older runner recorded them capitalised."""
    for status in statuses or []:
        for skip in [status.get("explanation"), *(status.get("hints") or [])]:
            if skip and skip.get("fix"):
                skip["fix"] = formats.fix_words(skip["fix"])


def divergence_fixes(divergence: list[dict[str, Any]] | None) -> None:
    """A torchrun job's divergence fixes (its recompile's explanation's, ranks/divergence.py) said as every fix is said
    after "fix:" (formats.fix_words), where an older runner recorded them capitalised."""
    for item in divergence or []:
        details = item.get("details") or {}
        if details.get("fix"):
            details["fix"] = formats.fix_words(details["fix"])


def attached_skip(report: dict[str, Any]) -> None:
    """A rank of an attached job (its rank facts name its host: ranks/script.py) recorded, before schema 1.30, no
    in-situ run as if its user had passed --no-in-situ: said as the runner records it now (answer.ATTACHED)."""
    situ = report.get("inSitu")
    if "host" in (report.get("rank") or {}) and situ and "--no-in-situ" in (situ.get("skipped") or ""):
        situ["skipped"] = answer.ATTACHED


# a torchrun rank's reason for no replay, as runners of schema 1.30 and before said it (four clauses, no action)
_OLD_RANK_NO_REPLAY = (
    "a rank of a torchrun job: replayed alone, its collectives would wait for the other ranks (the script's own calls "
    "are profiled instead)"
)


# a Python attribute a call changed, as runners of schema 1.30 and before said its values (script/capture.py)
_OLD_ATTRIBUTE = re.compile(r"^(it changes the Python attribute \S+ \(.*?) -> ")


def replay_reason(reason: str | None, region: str) -> str | None:
    """Why a region was not replayed, in the words the runner writes now (its module's attribute as `self`'s, as
    Dynamo's guards name it, not by the module's class: review 10 F7)."""
    if reason == _OLD_RANK_NO_REPLAY:
        return reason_text.TORCHRUN_RANK
    said = _OLD_ATTRIBUTE.sub(r"\1 → ", reason) if reason else reason
    return said.replace(f"Python attribute {region}.", "Python attribute self.") if said else said


# a replay that ran no compiled code, as runners of schema 1.30 and before said it (Dynamo's terms, no action)
_OLD_RAN_EAGERLY = re.compile(
    r"^During the replay Dynamo ran the region's original code eagerly (\d+) times? \(no compiled graph matched and "
    r"none was compiled: the recompile limit, or a skipped frame\), so its timing is eager code$"
    r"|^no compiled code ran in the replay \(Dynamo ran the region (?:as written|'s original code eagerly) (\d+) "
    r"times?\), so it timed eager against eager$"
)
# a shape fix the profile's budget left out, as runners before s26 said how to measure it (a CLI flag, in an editor)
_OLD_OVER_BUDGET = re.compile(
    r"^measuring it runs the script (?:once|(\d+)) more(?: times)? \(about (\d+) s\), which would take the profile "
    r"past ([\d.]+)× the script's own time; profile again with --shape-fix on to measure it$"
)


# a warm-up fix as a runner before session 29 named it: dimension 0 is not always the batch (review 8 A14)
_OLD_WARMUP_FIX = re.compile(r"^a warm-up at batch (\d+)$")


def _warmup_plan(real_size: int) -> ShapeFixPlan:
    return {"kind": WARMUP, "region": "", "file": "", "line": 0, "realSize": real_size}  # text() reads kind, realSize


def shape_fixes(region: dict[str, Any]) -> None:
    """A shape fix's recorded words said as shape_fix.text says them now: its over-budget reason, a warm-up's size."""
    for fix in (region.get("shapes") or {}).get("fixes") or []:
        if old := _OLD_OVER_BUDGET.match(fix.get("why") or ""):
            fix["why"] = shape_text.shape_fix_over_budget(int(old[1] or 1), float(old[2]), float(old[3]))
        if warmup := _OLD_WARMUP_FIX.match(fix.get("fix") or ""):
            fix["fix"] = shape_fix.text(_warmup_plan(int(warmup[1])))


def ran_eagerly(measurement: dict[str, Any]) -> None:
    error = measurement.get("error") or {}
    old = _OLD_RAN_EAGERLY.match(error.get("message") or "")
    if old:
        error.update({"message": replay.ran_eagerly(int(old[1] or old[2])), "fix": replay.RAN_EAGERLY_FIX})


def measured_fixes(report: dict[str, Any]) -> None:
    """A measured shape fix beside the recompiles it answers (the Problems entry's fix, the Quick Fix's title), in the
    words of the region's answer now (shape_fix.annotate, from its shape-fix reason): the recorded words dropped. A
    report whose explanations carry none (a runner before the annotation) is left as recorded."""
    insights = [e.get("compiler") for e in [*report["modes"], *(report.get("regions") or [])]]
    if " Measured on this script's own calls with " not in json.dumps(insights):
        return
    for insight in (i for i in insights if i):
        for item in [*(insight.get("recompileSites") or []), *(insight.get("recompiles") or [])]:
            explanation = item.get("explanation")
            if not explanation:
                continue
            explanation["fix"] = explanation["fix"].split(" Measured on this script's own calls with ")[0]
            for quick in [explanation.get("quickFix"), *(explanation.get("quickFixes") or [])]:
                if quick:
                    quick["title"] = re.sub(r" \(measured: .*\)$", "", quick["title"])
    script = report["modes"][0].get("compiler") if report["target"].get("kind") == "script" else None
    for region in report.get("regions") or []:
        shape_fix.annotate(region, script)


# a compile phase as older runners labelled it (compiler/phase_labels.json): one phase, one name (review 10 D12)
OLD_PHASE_LABELS = {"cache hit: load": "load from cache"}


# a recompile's trigger as runners before session 32 said it: the call's signature raw ("float32[8, 32]; grad") or a
# target's inputs with their grad mode in parentheses ("float32[8, 32] (inference)")
_CALL_TRIGGER = re.compile(r"^(call \d+ of .+?) with (.+; (?:grad|no_grad|inference))$")
_TARGET_INPUTS = re.compile(r"(call|warmup) with ([^;()]+?) \((grad|no_grad|inference)\)")


def trigger(text: str | None) -> str | None:
    """A recompile's trigger with its inputs said as formats.inputs says them ("float32[8, 32] with grad")."""
    if not text:
        return text
    call = _CALL_TRIGGER.match(text)
    if call:
        return f"{call[1]} on {formats.inputs(call[2])}"
    said = _TARGET_INPUTS.sub(lambda m: f"{m[1]} on {formats.inputs(f'{m[2]}; {m[3]}')}", text)
    return said.replace(", after warmup on ", ", after a warmup on ")
