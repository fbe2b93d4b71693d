"""The answer, decided once (schema 1.21): per region and per report, a verdict (compile, compile-for-longer-runs,
stay-eager, none), the one number it rests on, and the reasons as codes with their parameters. Derived here from what
the report holds, each time the report is written (document.write), so a checkpoint, a cancelled run and a merged
torchrun job answer from what they hold; report/sentences.py says it in words, and the report carries those words
(`recommendation.reason` and the headlines are the answer's sentence and headline). "Was it measured?" and the rule
a target's modes and a region's replays share: report/verdict.py.

THE number, per region: the script's own steps in situ (per step; per call where every step held a compile) wherever
there are enough of them (MIN_STEADY_STEPS steps, MIN_PAIRS pairs of blocks), whether they decide or not: compiled and
eager compared in one process, interleaved, on the script's own steps; else (no steps, or too few) the replay of its
calls (as written, its most frequent inputs, or the what-if mode the verdict names); per target: the recommended
mode's paired rounds, else the fastest measured mode's. Every other measurement is evidence, labelled by how it was
made. A range from fewer than MIN_PAIRS pairs of blocks is not said.

The verdict from a number (in situ or replayed, the rule targets use too: verdict.short_of_useful):
- its range clears verdict.MIN_USEFUL_SPEEDUP (1.05x): compile; compile-for-longer-runs when its compile pays back
  only after more steps (calls) than the script made (never "stay eager");
- its range reaches no higher than 1.05x: stay-eager;
- its range straddles 1.05x: stay-eager when the estimate is under 1.05x, else no verdict ("not clearly faster");
- compile (for longer runs) or "not clearly faster" decided by a range's low end within 5 % of 1.05x (two profiles
  of one model agree within 5 %): the verdict stays, and says a next run may give the other (verdict.near_the_bar,
  once, from the verdict as final: never beside a "no verdict" a failure gave);
- its range wider than verdict.DECISIVE_SPAN (2x high over low), or the host contended: no verdict; one wholly below 1x
  stays eager on its direction.
Steps that decide nothing are the answer all the same, "no verdict" and why: the replay, timed apart from the script's
steps, is said beside them (replay-beside: its number, its range and what it alone would say), never as the answer's
number or verdict, so two runs of one script lead with one kind of number. Steps whose eager time holds Compile Lens's
own work (in-situ-own-cost) keep their verdict only where that work could not change it, else no verdict, the caveat
said. The replay decides only where there are no steps, or too few.
A failed compiled call is "fix first" (no verdict); a failed run (out of memory, an exception, a timeout) leads with
the failure at the user's line, then what was measured before it, with no verdict; a region none of whose calls ran
compiled code has no number. Nothing measured: no verdict, never "stay eager".
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from .. import formats
from ..measure import estimator, ranges
from ..shapes.answer import Answer, AnswerNumber, Reason, Unit
from ..shapes.common import HostLoad, Recommendation
from ..shapes.in_situ import InSituSpeedup, RegionInSitu
from ..shapes.mode import ModeResult, RegionMeasurement
from ..shapes.ranks import RankEntry
from ..shapes.region import Region
from ..shapes.report import Report
from . import (
    chart_text,
    compile_names,
    compiler_text,
    guard_text,
    in_situ_text,
    mode_line,
    noise_text,
    notes,
    rank_text,
    reason_text,
    run_source,
    sentences,
    shape_text,
    story,
    verdict,
)
from .shape_reasons import shape_reasons, step_unit

# In-situ verdicts rest on at least this many steady steps, and (interleaved) this many pairs of adjacent
# eager/compiled blocks (one pair is no spread between blocks); fewer: the replay's rounds decide.
MIN_STEADY_STEPS = 3
MIN_PAIRS = 2
SAME_END = 1e-3  # a pair's ratio this close to an end of the range (both rounded to 4 places) set that end
AS_WRITTEN = "as-written"  # a region's measurement of the script's own compiled callable (script/replay.py)
STANCE_TORCH = (2, 6)  # torch.compiler.set_stance, which in-situ measurement switches, came with torch 2.6


def target_answer(report: Report) -> Answer:
    modes = report["modes"]
    if report["target"].get("kind") == "logs":
        decision = verdict.Decision("none", reasons=[{"code": "logs-only"}])
    else:
        measured = [
            (m, verdict.measured_number(m, "target-rounds", m["mode"], k))
            for k, m in enumerate(modes)
            if verdict.unmeasured(m) is None
        ]
        decision = (
            verdict.from_numbers(measured, verdict.idle_modes(report["environment"].get("device")))
            if measured
            else verdict.not_measured_decision(modes)
        )
        failed = verdict.failed_reason(report)
        if failed:  # cancelled, timed out, every mode failed: said first, then what was measured before it
            decision = verdict.Decision("none", decision.number, [failed, *decision.reasons])
        device = report["environment"].get("device")
        decision.reasons += _no_kernels((report.get("settings") or {}).get("backend"), device, decision.number)
        decision.reasons += _cpu_host(device, decision.number, _loads(modes))
        noise_text.say_what_varied(decision.reasons, decision.number, None, list(modes))
        evidence = [n for _, n in measured if n is not decision.number]
    if report["target"].get("kind") == "logs":
        return verdict.build(decision, [], [], [])
    return verdict.build(
        decision, evidence, target_facts(report, decision), verdict.each_unmeasured(modes, lambda m: m["mode"])
    )


def target_facts(report: Report, decision: verdict.Decision) -> list[str]:
    """The shown mode's compiler facts: graphs, breaks, recompiles, compile time."""
    number = decision.number
    mode = next((m for m in report["modes"] if number and m["mode"] == number.get("mode")), None)
    if mode is None:
        return []
    return sentences.compiler_facts(mode.get("compiler"), mode.get("compileSeconds"))


# --- script regions


def _in_situ_of(region: Region) -> RegionInSitu:
    return region.get("inSitu") or {"pairs": 0}


def in_situ_number(s: RegionInSitu, unit: str, per: Unit = "step") -> AnswerNumber | None:
    """The in-situ step ("step") or call ("call") speedup as a number, with the range it may be said with. per: what
    one step is (a decode loop's: a token)."""
    x: InSituSpeedup | None = s.get("step") if unit == "step" else s.get("call")
    if not x:
        return None
    number: AnswerNumber = {
        "kind": "in-situ-step" if unit == "step" else "in-situ-call",
        "unit": per if unit == "step" else "call",
        "n": int(x.get("samples") or 0),
        "value": round(x["speedup"], 4),
        "eagerMs": x["eagerMs"],
        "compiledMs": x["compiledMs"],
    }
    interleaved = s.get("method") == "interleaved"
    if interleaved:
        number["pairs"] = int(x.get("pairs") or 0)
    verdict.ranged(number, x["low"], x["high"], too_few_pairs=interleaved and number.get("pairs", 0) < MIN_PAIRS)
    load = s.get("hostLoad")
    return verdict.directed(number, bool(load and load["contended"]))


def _in_situ(region: Region) -> verdict.Decision | None:
    """The verdict from the script's own steps; None when there is no in-situ number to rest one on."""
    s = _in_situ_of(region)
    calls = [c for c in region.get("calls") or [] if c.get("side") != "eager"]
    if s.get("method") == "interleaved" and s.get("step") is None and s.get("call") is None:
        no_step, reason = s.get("noStep"), s.get("reason")
        if no_step is not None and no_step["code"] == "never-compiled" and reason:
            return verdict.Decision("none", reasons=[{"code": "ran-eagerly", "what": reason}])
        return None
    if not any(c.get("ranCompiled") is True for c in calls) and any(c.get("ranCompiled") is False for c in calls):
        why = next((r for c in calls if (r := c.get("fallbackReason"))), "Dynamo ran the original code")
        return verdict.Decision("none", reasons=[{"code": "ran-eagerly", "what": why}])
    # per step (what the script's loop costs); per call where every step held another region's compile
    unit = "step" if s.get("step") is not None else "call"
    number = in_situ_number(s, unit, step_unit(region))
    if number is None:
        return None
    if number["n"] < MIN_STEADY_STEPS or number.get("pairs", MIN_PAIRS) < MIN_PAIRS:
        return None  # too few of the script's own steps (or blocks) to rest a verdict on: the replay decides
    load = s.get("hostLoad")
    if load and load["contended"]:  # no verdict on steps timed on a busy host; the replay is said beside them
        return verdict.Decision(
            "none",
            number,
            [{"code": "host-contended", "what": load["reason"] or "", "fix": load["fix"]}],
            undecided=True,
        )
    slower = verdict.slower_however_noisy(number)
    if not verdict.decisive(number) and not slower:
        return verdict.Decision("none", number, [verdict.undecided(number)], undecided=True)
    own = s.get("ownCost")
    caveats: list[Reason] = []
    if own:  # eager's time in situ is not the script's own: it reads high by up to ownMs
        tool: Reason = {
            "code": "in-situ-own-cost",
            "ownMs": own["ms"],
            "eagerMs": own["eagerMs"],
            "unit": number["unit"],
        }
        if not slower and not _holds_without_own_cost(number, own["ms"], own["eagerMs"]):
            return verdict.Decision("none", number, [tool], undecided=True)  # the tool's work could flip it
        # the verdict is the same with eager's time less the tool's (a cliff at 5% of eager's step flipped an H200
        # server's "stay eager: 0.94×" to "no verdict: 0.95×" between two processes whose host ran 2× apart)
        caveats.append({**tool, "code": "in-situ-own-cost-holds"})
    if slower:  # below 1× wherever a next run lands: the direction decides, its size is not said
        return verdict.Decision("stay-eager", number, [{"code": "slower"}, *caveats])
    short = verdict.short_of_useful(number)
    if short is not None:
        return verdict.Decision(short[0], number, [short[1], *caveats], undecided=short[0] == "none")
    cost, made = s.get("compileSeconds"), int(s.get("stepsMade") or region.get("callCount") or 0)
    # at the times shown beside it: a step's from the same times, unrounded (measure/interleaved.py)
    after = s.get("breakEvenSteps") if unit == "step" else verdict.pays_back_after(cost, number)
    mode = str((region.get("options") or {}).get("mode") or "default")
    reasons: list[Reason] = []
    if after is not None and cost is not None:
        paid, counted = in_situ_text.warm_up_cost(region)
        pays: Reason = {
            "code": "pays-back-after",
            "steps": after,
            "made": made,
            "unit": number["unit"],
            "seconds": paid or cost,
            "warmUp": not counted,
        }
        if mode_line.is_cold(region.get("compiler")):
            pays["coldCache"] = True
        reasons.append(pays)
    reasons.extend(caveats)
    if after is not None and after > made and region.get("stoppedAfterCalls") is None:
        return verdict.Decision("compile-for-longer-runs", number, reasons, mode=mode)
    return verdict.Decision("compile", number, reasons, mode=mode)


def _holds_without_own_cost(number: AnswerNumber, own_ms: float, eager_ms: float) -> bool:
    """The verdict of the number with eager's time less Compile Lens's own work on it is the number's own."""
    if own_ms >= eager_ms:
        return False
    less = verdict.scaled(number, (eager_ms - own_ms) / eager_ms)
    return (verdict.short_of_useful(less) or ("compile",))[0] == (verdict.short_of_useful(number) or ("compile",))[0]


def _primary(region: Region) -> list[RegionMeasurement]:
    """Measurements on the region's most frequent signature: a replay's verdict rests on those."""
    return [m for m in region["measurements"] if m.get("why") == "most-frequent"]


def _mode_of(region: Region, m: ModeResult) -> str:
    """The compile mode a measurement ran: the script's own for its as-written callable."""
    return str((region.get("options") or {}).get("mode") or "default") if m["mode"] == AS_WRITTEN else m["mode"]


def replay_number(region: Region, m: RegionMeasurement) -> AnswerNumber:
    """A replayed measurement's number; its mode is said only for a what-if mode (as written: the script's own)."""
    index = next(k for k, x in enumerate(region["measurements"]) if x is m)
    number = verdict.measured_number(m, "replay-call", _mode_of(region, m), index)
    if m["mode"] == AS_WRITTEN:
        del number["mode"]
    if m.get("signature"):
        number["signature"] = str(m["signature"])
    return number


def _why_not_replayed(region: Region) -> Reason:
    replay = region["replay"]
    if region["callCount"] == 0:
        return {"code": "never-called"}
    if not replay.get("replayable"):
        return {"code": "replay-not-possible", "what": replay.get("reason") or "its inputs cannot be replayed safely"}
    if not region["measurements"]:
        return {"code": "not-measured", "what": replay.get("reason") or "no measurement was recorded"}
    if not _primary(region):
        return {"code": "not-measured", "what": "its most frequent inputs were not replayed, only its last ones"}
    return verdict.not_measured_decision(_primary(region), lambda m: _mode_of(region, m)).reasons[0]


def _replayed(region: Region) -> verdict.Decision:
    measured = [(m, replay_number(region, m)) for m in _primary(region) if verdict.unmeasured(m) is None]
    if not measured:
        return verdict.Decision("none", reasons=[_why_not_replayed(region)])
    decision = verdict.from_numbers(measured, verdict.idle_modes(region.get("device")), lambda m: _mode_of(region, m))
    if decision.verdict != "compile" or region.get("stoppedAfterCalls") is not None:
        return decision
    # a replay's "compile" against the calls the script made: a break-even beyond them does not pay back here
    made = region.get("callCount")
    pays = next((r for r in decision.reasons if r["code"] == "pays-back-after"), None)
    if pays is not None and made is not None:
        pays["made"] = made
        if pays["steps"] > made:
            decision.verdict = "compile-for-longer-runs"
    return decision


def _disagreement(region: Region, decision: verdict.Decision) -> verdict.Decision:
    """The in-situ per-call speedup and the replay's (as written, most frequent signature) apart beyond both ranges:
    said, and that the verdict rests on the in-situ steps (the script's own calls, in its own state)."""
    call = in_situ_number(_in_situ_of(region), "call")
    replayed = next((m for m in _primary(region) if m["mode"] == AS_WRITTEN and verdict.unmeasured(m) is None), None)
    if call is None or replayed is None or "low" not in call:
        return decision
    number = replay_number(region, replayed)
    said = verdict.bounds(number)
    if said is None or (call["low"] <= said[1] and said[0] <= call["high"]):  # no range: no disagreement to say
        return decision
    r_low, r_high = said
    disagree: Reason = {"code": "replay-disagrees", "value": number["value"], "low": r_low, "high": r_high}
    decision.reasons.append(disagree)
    return decision


# inSitu.skipped on a rank of a job its own launcher started (script/mode.py): the user passed no --no-in-situ
ATTACHED = "a rank of a job its own launcher started (attach): no in-situ schedule runs there"


def _no_in_situ(report: Report) -> Reason | None:
    """Why the report has no in-situ measurement at all (attach, torch without set_stance, --no-in-situ)."""
    situ = report.get("inSitu")
    if not situ or not situ.get("skipped"):
        return None
    torch = report["environment"].get("torch")
    version = tuple(int(p) for p in re.findall(r"\d+", torch or "")[:2])
    kind = (
        "attached"
        if situ["skipped"] == ATTACHED
        else "no-set-stance"
        if len(version) == 2 and version < STANCE_TORCH
        else "turned-off"
    )
    return {"code": "no-in-situ", "kind": kind, "torch": torch}


def _replay_beside(steps: verdict.Decision, replayed: verdict.Decision) -> verdict.Decision:
    """Steps that decide nothing, with the replay beside them as evidence: its number, range and what it alone would
    say, timed apart from the script's steps (two processes of one decode loop led with the replay's "stay eager:
    1.21× per call replayed" in one and the steps' "no verdict: 1.15× per step" in the next). A replay without a
    number: why not (or its wrong results), each reason said once."""
    number = replayed.number
    if number is None:
        said = {r["code"] for r in steps.reasons}
        steps.reasons.extend(r for r in replayed.reasons if r["code"] not in said)
        return steps
    beside: Reason = {"code": "replay-beside", "kind": replayed.verdict, "value": number["value"]}
    if "low" in number and "high" in number:
        beside.update({"low": number["low"], "high": number["high"]})
    if number.get("mode"):
        beside["mode"] = str(number["mode"])
    if replayed.reasons:
        beside["what"] = reason_text.clause(replayed.reasons[0])
    steps.reasons.append(beside)
    return steps


def _region_decision(region: Region, no_in_situ: Reason | None) -> verdict.Decision:
    s = _in_situ_of(region)
    failure = s.get("failure")
    if failure:
        where = failure.get("location")
        reason: Reason = {
            "code": "compiled-call-failed",
            "call": failure.get("index"),
            "what": failure["what"],
            "fix": failure["fix"],
            "file": where["file"] if where else None,
            "line": where["line"] if where else None,
        }
        before = (_in_situ(region) or verdict.Decision("none")).number
        return verdict.Decision("none", before, [reason])
    nothing = region.get("noCompiledCode")
    if nothing:
        return verdict.Decision(
            "none", reasons=[{"code": "no-compiled-code", "what": nothing["cause"], "fix": nothing.get("fix")}]
        )
    situ = _in_situ(region)
    if situ is not None and not situ.undecided:
        return _disagreement(region, situ)
    replayed = _replayed(region)
    if situ is not None:  # the steps' number is the answer's, undecided and why; the replay only beside it
        return _replay_beside(situ, replayed)
    if replayed.number is not None and replayed.verdict != "none":
        replayed.reasons.append({"code": "replayed-forward-only"})
    number = in_situ_number(s, "step", step_unit(region)) or in_situ_number(s, "call")
    if number is not None:  # too few steps to decide: said first, the number a region with one leads with
        too_few: Reason = {
            "code": "in-situ-too-few",
            "pairs": number.get("pairs", s["pairs"]),
            "samples": number["n"],
        }
        if replayed.number is None:
            return verdict.Decision("none", number, [too_few, *replayed.reasons])
        replayed.reasons.append(too_few)
    elif s.get("reason"):
        replayed.reasons.append({"code": "no-steady-steps", "what": str(s.get("reason"))})
    elif no_in_situ is not None:
        replayed.reasons.append(no_in_situ)
    return replayed


def region_answer(
    region: Region,
    failed: Reason | None = None,
    no_in_situ: Reason | None = None,
    job: Sequence[RankEntry] = (),
    source: str = run_source.SCRIPT,
) -> Answer:
    """failed: the run's failure, said first (a compiled call's own failure says itself); no_in_situ: why the whole
    run has no in-situ number; job: a torchrun job's ranks (its counts said by rank); source: what the user ran
    (run_source.noun)."""
    decision = _region_decision(region, no_in_situ)
    decision.reasons = [
        *shape_reasons(region),
        *decision.reasons,
        *_few_pairs(region, decision.number),
        *_launch_bound(region, decision.number),
        *_cpu_host(
            region.get("device"),
            decision.number,
            [_in_situ_of(region).get("hostLoad"), *_loads(region["measurements"])],
        ),
        *_no_kernels((region.get("options") or {}).get("backend"), region.get("device"), decision.number),
    ]
    if failed is not None and not (failed.get("kind") == "compile" and _in_situ_of(region).get("failure")):
        decision = verdict.Decision("none", decision.number, [failed, *decision.reasons])
    number = decision.number
    noise_text.say_what_varied(decision.reasons, number, region.get("inSitu"), list(region["measurements"]))
    for r in decision.reasons:
        if r["code"] == "recompile-limit":  # its sentence says what the number compares only where there is one
            r["measured"] = number is not None
    evidence = [
        n
        for n in (
            in_situ_number(_in_situ_of(region), "step", step_unit(region)),
            in_situ_number(_in_situ_of(region), "call"),
            *(replay_number(region, m) for m in region["measurements"] if verdict.unmeasured(m) is None),
        )
        if n is not None and n != number and not region.get("noCompiledCode")  # eager code timed against itself
    ]
    return verdict.build(
        decision,
        evidence,
        sentences.counts(region, job),
        verdict.each_unmeasured(region["measurements"], lambda m: _mode_of(region, m)),
        source,
    )


def _no_kernels(backend: object, device: str | None, number: AnswerNumber | None) -> list[Reason]:
    """Beside a number measured with a backend that generates no kernels (backend="eager"): that it is Dynamo's cost;
    on a CPU (device) its sentence says what Inductor generates there, C++ functions (review 19X X3)."""
    if not number or backend not in reason_text.NO_KERNELS:
        return []
    reason: Reason = {"code": "backend-no-kernels", "kind": str(backend)}
    if device == "cpu":
        reason["device"] = device
    return [reason]


def _cpu_host(device: str | None, number: AnswerNumber | None, loads: Iterable[HostLoad | None]) -> list[Reason]:
    """Beside a number measured on a CPU with a range said, on a host that was not busy (a busy one's number is not
    trusted: its fix is said last): the host's move between processes its range holds (estimator.cpu_floor_pct), and
    the CPUs it ran on (the most any of its measurements recorded), which say whether a many-core host's larger move
    applies (shape_text.cpu_host)."""
    if device != "cpu" or number is None or "low" not in number or number.get("direction") == "host-busy":
        return []
    reason: Reason = {"code": "cpu-host-range", "floorPct": estimator.cpu_floor_pct()}
    cpus = [load["cpus"] for load in loads if load]
    if cpus:
        reason["cpus"] = max(cpus)
    return [reason]


def _loads(timed: Iterable[ModeResult]) -> list[HostLoad | None]:
    return [timing.get("hostLoad") if (timing := m.get("timing")) else None for m in timed]


def _launch_bound(region: Region, number: AnswerNumber | None) -> list[Reason]:
    """Beside an in-situ number whose eager is launch-bound: the host's move between runs that its range holds."""
    share = _in_situ_of(region).get("hostShare")
    if number is None or number["kind"] not in ("in-situ-step", "in-situ-call") or not share:
        return []
    floor = share["floorPct"]
    return [] if floor is None else [{"code": "launch-bound-range", "hostPct": share["eagerPct"], "floorPct": floor}]


def _few_pairs(region: Region, number: AnswerNumber | None) -> list[Reason]:
    """Beside an in-situ range that few pairs of blocks widened to cover their own ratios (ranges.of_block_pairs):
    why it is wide and that more steps narrow it; said only where a pair's ratio sets an end of the range (a range the
    floor sets covers its pairs anyway: review 23X X1)."""
    if number is None or number["kind"] not in ("in-situ-step", "in-situ-call") or "low" not in number:
        return []
    situ = _in_situ_of(region)
    measured = situ.get("step") if number["kind"] == "in-situ-step" else situ.get("call")
    ratios = (measured.get("pairRatios") or []) if measured else []
    if not MIN_PAIRS <= len(ratios) < ranges.FEW_BLOCK_PAIRS:
        return []
    low, high = min(ratios), max(ratios)
    if low > number["low"] * (1 + SAME_END) and high < number["high"] * (1 - SAME_END):
        return []
    return [{"code": "in-situ-few-pairs", "pairs": len(ratios), "low": low, "high": high, "unit": number["unit"]}]


def _where(region: Region) -> str:
    """ "Net (line 17)"; in a notebook "Net (cell 3, line 2)"."""
    location = region["location"]
    reason: Reason = {"code": "", "line": location["line"], "cell": location.get("cell")} if location else {"code": ""}
    where = reason_text.place({**reason, "file": None})
    return f"{region['name']} ({where})" if where else str(region["name"])


def _leads(answer: Answer) -> bool:
    return any(r["code"] in reason_text.LEADING for r in answer["reasons"])


def script_answer(report: Report) -> Answer:
    """The script's answer is the answer of the region that decides it: a failed one (or one whose shapes lead) first,
    else the fastest compiling one, else the first compiling for longer runs, the first staying eager, the first; the
    sentence says every region's headline."""
    regions, source = report.get("regions") or [], run_source.noun(report)
    if not regions:
        failed = verdict.failed_reason(report)
        return verdict.build(
            verdict.Decision("none", reasons=[failed] if failed else [{"code": "no-region"}]), [], [], [], source
        )
    answers = [r["answer"] for r in regions]
    compiling = [k for k, a in enumerate(answers) if a["verdict"] == "compile"]
    lead = next(
        (k for k, a in enumerate(answers) if _leads(a)),
        max(compiling, key=lambda k: (answers[k]["number"] or {"value": 0.0})["value"])
        if compiling
        else next(
            (k for v in ("compile-for-longer-runs", "stay-eager") for k, a in enumerate(answers) if a["verdict"] == v),
            0,
        ),
    )
    region = regions[lead]
    more = "" if len(regions) == 1 else f", +{formats.plural(len(regions) - 1, 'more region')}"
    lines = [f"{_where(r)}: {a['headline']}" for r, a in zip(regions, answers, strict=True)]
    # the failure (or shape story) that decides it leads, in full with its fix (a shape story's fixes where none was
    # measured: review 20X X2), on its region's line (the headline without the clauses it says in full); then every
    # other region in one line each
    reasons = answers[lead]["reasons"]
    story = " ".join(
        [
            *(reason_text.sentence(r, source) for r in reasons if r["code"] in reason_text.LEADING),
            *(fix for r in reasons if r["code"] == "shape-fix" and (fix := shape_text.fix_to_make(r))),
        ]
    )
    if story:
        rest = sentences.headline_after_lead(answers[lead])
        lines = [f"{_where(region)}: {story} {rest[:1].upper()}{rest[1:]}", *lines[:lead], *lines[lead + 1 :]]
    return {
        **answers[lead],
        # the region said by its name, as every surface says it (its id only where two share a name: region.label)
        "headline": f"{answers[lead]['headline']} — {region.get('label') or region['name']}{more}",
        "sentence": "; ".join(lines) + ".",
        "region": region["id"],
    }


def _recommendation(answer: Answer) -> Recommendation:
    return {"mode": answer["mode"], "verdict": answer["verdict"], "reason": answer["sentence"]}


def attach(report: Report) -> None:
    """Each region's answer, then the run's, from what the report holds now; the recommendations and headlines are
    theirs; the notes beside each number (notes.py)."""
    notes.attach(report)
    compiler_text.attach(report)
    compile_names.attach(report)
    guard_text.attach(report)
    rank_text.attach(report)
    if report["target"].get("kind") != "script":
        answer = target_answer(report)
        notes.said_by_answer(report["modes"], answer)
        mode_line.attach(report, answer)
    else:
        failed, no_in_situ, job = verdict.failed_reason(report), _no_in_situ(report), report.get("ranks") or []
        rank = rank_text.headline_rank(job)
        labels = sentences.region_labels(report.get("regions") or [])
        source = run_source.noun(report)  # "the notebook's calls" in a notebook's run
        for region in report.get("regions") or []:
            region["label"] = labels[region["id"]]
            story.attach(region, rank, source)
            in_situ_text.attach_reason(region, source)
            region["answer"] = region_answer(region, failed, no_in_situ, job, source)
            notes.host_said_once(region)
            nothing = region.get("noCompiledCode")
            if nothing:  # its sentence, as the answer says it
                nothing["headline"] = next(
                    r["text"] for r in region["answer"]["reasons"] if r["code"] == "no-compiled-code"
                )
            region["recommendation"] = _recommendation(region["answer"])
            region["headline"] = region["answer"]["headline"]
            region["facts"] = sentences.region_facts(region, job, source)
            in_situ_text.attach(region, source)
            chart_text.attach(region, source)
            mode_line.attach_region(region)
        in_situ_text.attach_wall(report)
        answer = script_answer(report)
    report["answer"] = answer
    report["recommendation"] = _recommendation(answer)
    report["headline"] = answer["headline"]
    report["titleText"] = sentences.title_text(report)
    report["headerText"] = sentences.header_text(report)
    note = sentences.profiler_note(report)
    if note:
        report["profilerNote"] = note
