"""A script region's first-call story (report/story.py), said by the runner from the recorded calls of fixture reports
(real runs): which call compiled, which recompiled and why, the failed guard as a sentence, never PyTorch's guard
text ("tensor 'x' size mismatch at index 1. expected 128, actual 256") as our words."""

from __future__ import annotations

import copy
import json
import statistics
from typing import Any

from compile_lens_runner import formats
from compile_lens_runner.compiler import explain
from compile_lens_runner.report import chart_text, sentences, story
from compile_lens_runner.script import region_entry
from conftest import REPO

FIXTURES = REPO / "test" / "fixtures"
# real runs (test/fixtures/recorded/README.md): train_small.py's four regions, warmup_step.py's warm-up at batch 1
TRAIN_SMALL, WARMUP = "recorded/train_small-cpu", "recorded/warmup_step-cpu"


def region(name: str, rid: str) -> Any:
    report = json.loads((FIXTURES / (name if "/" in name else f"reports/{name}") / "report.json").read_text())
    return copy.deepcopy(next(r for r in report["regions"] if r["id"] == rid))


def test_signatures_a_leading_dimension_change_named_by_its_dimension_other_changes_by_the_tensor() -> None:
    tensors, grad, _ = story.parse_signature("float32[5, 4096, 64], int64[5]; inference")
    assert [(t.dtype, t.shape) for t in tensors] == [("float32", (5, 4096, 64)), ("int64", (5,))]
    assert grad == "inference"
    assert story.parse_signature("float32[]; grad")[0][0].shape == ()
    change = story.signature_change
    # not "batch 1": dimension 0 is not always the batch, and the failed guard says "dimension 0" (review 8 A14)
    assert change("bfloat16[1, 77, 64], float32[1]; inference", "bfloat16[5, 77, 64], float32[5]; inference") == (
        "size 1 in dimension 0",
        "size 5 in dimension 0",
    )
    assert change("float32[8, 128]; grad", "float32[8, 256]; grad") == ("float32[8, 128]", "float32[8, 256]")
    assert change("int64[3]; grad", "int64[4]; grad") == ("int64[3]", "int64[4]")  # a 1-D tensor alone: by the tensor
    # only the grad mode changed: said as a noun ("recompiled for torch.no_grad()"), never the raw token
    assert change("float32[2, 3]; no_grad", "float32[2, 3]; grad") == ("torch.no_grad()", "grad enabled")
    assert change("x=3", "x=4") == ("x=3", "x=4")
    # under autocast (code read 3 §2): the grad mode is the grad mode, never "autocast cuda bfloat16"
    cast = "; autocast cuda bfloat16"
    assert change(f"float32[8]; grad{cast}", f"float32[8]; no_grad{cast}") == ("grad enabled", "torch.no_grad()")
    assert change("float32[8]; grad", f"float32[8]; grad{cast}") == (
        "float32[8] with grad",
        "float32[8] with grad, under autocast to bfloat16 on cuda",
    )
    assert story.parse_signature("float32[8], 'a;b'; grad; autocast cuda bfloat16")[1:] == (
        "grad",
        "autocast cuda bfloat16",
    )
    # inputs said whole in the inputs column's words, never a raw grad-mode token (review 14S S4)
    assert change("float32[2]; grad", "int64[2, 3]; inference") == (
        "float32[2] with grad",
        "int64[2, 3] under torch.inference_mode()",
    )


def test_a_failed_guard_as_a_sentence() -> None:
    assert explain.guard_sentence("0/0: tensor 'x' size mismatch at index 0. expected 8, actual 16") == (
        "input 'x' changed size in dimension 0 from 8 to 16"
    )
    assert explain.guard_sentence("tensor 'x' size mismatch at index 1. expected 128, actual 256") == (
        "input 'x' changed size in dimension 1 from 128 to 256"
    )
    assert explain.guard_sentence("tensor 'x' dtype mismatch. expected float32, actual float16") == (
        "input 'x' arrived as float16 after the code was compiled for float32"
    )
    assert explain.guard_sentence("something Compile Lens has no words for") is None
    # a wrapper's positional argument (DistributedDataParallel's forward) has no name: never a made-up one, and not
    # Dynamo's args[0] (review 4B D21: the raw guard says it); the user's line names it where it makes one such call
    ddp = "tensor 'args[0]' size mismatch at index 0. expected 16, actual 8"
    assert explain.guard_sentence(ddp) == "the call's 1st argument changed size in dimension 0 from 16 to 8"
    assert explain.guard_sentence(ddp, "loss = train_model(x).square().mean()") == (
        "input 'x' changed size in dimension 0 from 16 to 8"
    )
    assert explain.guard_sentence(ddp, "loss = train_model(x) + head(y)") == (  # two calls: which one is not known
        "the call's 1st argument changed size in dimension 0 from 16 to 8"
    )
    # one wording of one change: the finding's, whose first clause it is (review 25 D6)
    found = explain.explain("tensor 'x' size mismatch at index 0. expected 8, actual 16")
    assert found and found["what"].startswith("Input 'x' changed size in dimension 0 from 8 to 16; ")


def test_the_warmup_graph_no_later_call_used_and_the_recompile_that_paid_for_it() -> None:
    assert story.region_story(region(WARMUP, "r0")) == (
        "Call 0 (size 1 in dimension 0) compiled a graph that none of the 6 later calls used (all at size 4 in "
        "dimension 0); call 1, the first at size 4 in dimension 0, took 176 ms, 166 ms of it recompiling (input 'x' "
        "changed size in dimension 0 from 1 to 4)."
    )  # the call's whole time and its recompile's part, each labelled: the phases say 166 ms (review 9E E6)


def recompiling(r: Any) -> str:
    """ "recompiling took 495 ms of the 550 ms compiling": the recompiled calls' own sum and the region's compile
    total as its facts say it (this host's numbers, not ones to pin)."""
    own = sum(c["compileSeconds"] for c in r["calls"] if c["event"] == "recompiled")
    return f"recompiling took {formats.seconds(own)} of the {formats.seconds(r['compiler']['compileSeconds']['total'])} compiling"


def test_a_region_that_recompiles_every_call_and_the_calls_dynamo_ran_eagerly() -> None:
    r1 = region(TRAIN_SMALL, "r1")
    assert story.region_story(r1) == (
        "7 of 10 calls recompiled, each for inputs not seen before (float32[4, 32], float32[4, 48], float32[4, 64], …, "
        f"float32[4, 128]); {recompiling(r1)}. Calls 8–9 ran eagerly: Dynamo stopped compiling step "
        "at its recompile limit, 8 (torch._dynamo.config.recompile_limit); later calls run eagerly."
    )


def test_the_recompiles_cost_is_their_own_beside_the_compile_total_the_facts_say() -> None:
    """train_small's step: its compile record holds the recompile-limit compile that no call reported (2.4 ms here),
    so the calls' sum (548 ms) read beside the facts' 550 ms (review 8A A3). The story says the facts' total, and
    the recompiles' own sum as theirs, not the first compile's too."""
    r1 = region(TRAIN_SMALL, "r1")
    total = next(f for f in sentences.region_facts(r1) if f.endswith("compiling in the script's own calls"))
    said = story.region_story(r1) or ""
    assert f" of the {total.split(' compiling')[0]} compiling." in said
    calls_sum = sum(c["compileSeconds"] or 0.0 for c in r1["calls"])
    assert formats.seconds(calls_sum) not in said  # the sum that left the no-graph compile out
    first = r1["calls"][0]["compileSeconds"]
    assert f"recompiling took {formats.seconds(calls_sum - first)} of" in said
    # no compiler record: the calls' reported times are the total; a recompile that reported none is said so
    del r1["compiler"]
    r1["calls"][3]["compileSeconds"] = None
    known = sum(c["compileSeconds"] or 0.0 for c in r1["calls"])
    assert (
        f"; recompiling took {formats.seconds(known - first)} in the calls that reported it of the "
        f"{formats.seconds(known)} compiling." in (story.region_story(r1) or "")
    )


def test_recompiles_with_the_same_inputs_say_what_changed_instead() -> None:
    """train_small's Counter recompiled on calls 1-3 at the same inputs: the failed guard (self.calls changed) is
    why, not the inputs listed three times (review 25, C D8)."""
    report = json.loads((REPO / "test" / "fixtures" / "recorded" / "train_small-cpu" / "report.json").read_text())
    counter = next(r for r in report["regions"] if r["name"] == "Counter")
    assert story.region_story(counter) == (
        "3 of 4 calls recompiled with the same inputs (float32[8, 32] under torch.inference_mode()), each time because the Python "
        f"value self.calls changed; {recompiling(counter)}.{STOPS_NOT} {COUNTER_FIX}"
    )
    # one of them at new inputs: each recompile says its own change
    counter["calls"][2]["signature"] = "float32[16, 32]; inference"
    assert story.region_story(counter) == (
        f"3 of 4 calls recompiled (the Python value self.calls changed, size 16 in dimension 0, size 8 in dimension 0); {recompiling(counter)}."
    )


STOPS_NOT = (
    " These recompiles do not stop by themselves: torch.compile holds an nn.Module's integer attribute as a constant, "
    "so each new value compiles again until the recompile limit (torch._dynamo.config.recompile_limit, 8 by default); "
    "past it, forward runs eagerly."
)
COUNTER_FIX = (
    "Fix: set torch._dynamo.config.allow_unspec_int_on_nn_module = True (PyTorch's hint), keep the value in a tensor "
    "(e.g. a registered buffer), or move the bookkeeping out of forward."
)


def test_recompiles_on_a_python_value_say_what_to_change_and_whether_they_stop() -> None:
    """Review 20Y Y2: train_small's Counter recompiled on 3 of 4 calls because self.calls changed, and its card said
    the cause, never the change, nor whether the recompiles stop (its last phase row, "recompiled for self.calls not
    in (0, 1, 2)", reads as if Dynamo had generalised the value: on torch 2.13 it had not, the fourth compile guards
    self.calls == 3). The fix is the compiler explanation's, the one the Problems list gives for the same site."""
    counter = region(TRAIN_SMALL, "r2")
    said = story.region_story(counter) or ""
    assert said.endswith(f"compiling.{STOPS_NOT} {COUNTER_FIX}")
    (site,) = counter["compiler"]["recompileSites"]  # what the Problems list says for self.calls += 1
    assert formats.fix(site["explanation"]["fix"]) == COUNTER_FIX
    # once a call ran eagerly the story's eager sentence says the limit: no promise of what comes later
    eager = copy.deepcopy(counter)
    eager["calls"][3]["ranCompiled"] = False
    after = story.region_story(eager) or ""
    assert "do not stop" not in after and COUNTER_FIX in after and "Call 3 ran eagerly" in after
    # a Python value that is not a module's integer attribute (no such hint from PyTorch): its fix, no promise
    plain = copy.deepcopy(counter)
    for r in plain["compiler"]["recompiles"]:
        r["hint"] = None
        r["explanation"] = {
            "what": "The Python value n changed.",
            "fix": "Keep n constant across calls, or pass it as a tensor.",
        }
    assert (story.region_story(plain) or "").endswith(
        "compiling. Fix: keep n constant across calls, or pass it as a tensor."
    )
    # two fixes for one churn: neither is the fix, none said
    plain["compiler"]["recompiles"][0]["explanation"] = {"what": "…", "fix": "Another fix."}
    assert (story.region_story(plain) or "").endswith("compiling.")
    # no compiler record (an older report): nothing to match the calls' compiles with, nothing said
    del counter["compiler"]
    assert "Fix:" not in (story.region_story(counter) or "") and "do not stop" not in (
        story.region_story(counter) or ""
    )


def test_the_steady_state_is_the_median_of_one_signatures_calls_and_says_which() -> None:
    """Server (script-shapes-cpu) ran batches of 5, 3 and more after its last compile: a median pooled over them is
    no batch's time; the steady state is the most frequent signature's, said so. Calls Dynamo ran eagerly past the
    recompile limit (3, 4, 5, 27, 28) ran no compiled code: left out, their input shapes too."""
    r1 = region("reports/script-shapes-cpu", "r1")
    steady = region_entry.steady_state(r1["calls"])
    assert steady is not None and (steady["signature"], steady["signatures"]) == ("float32[5, 32]; no_grad", 3)
    after = [
        c
        for c in r1["calls"]
        if c["index"] >= steady["fromCall"] and c.get("ranCompiled") is not False and c.get("side") != "eager"
        and not c.get("profiled") and not c.get("observer")
    ]  # fmt: skip
    mine = [c["ms"] for c in after if c["signature"] == steady["signature"]]
    assert steady["calls"] == len(mine) and steady["medianMs"] == round(statistics.median(mine), 4)
    assert steady["medianMs"] != round(statistics.median(c["ms"] for c in after), 4)
    # beside the in-situ number the recorded steady state is the story's (report/chart_text.in_situ_steady)
    assert r1["steadyState"]["inSitu"] and r1["steadyState"]["medianMs"] == r1["inSitu"]["call"]["compiledMs"]
    as_if_compiled = [{**c, "ranCompiled": True} for c in r1["calls"]]
    assert (region_entry.steady_state(as_if_compiled) or {}).get("signatures") == 6
    # without an in-situ number beside it, the chart and the story say the median and whose it is
    alone = {**copy.deepcopy(r1), "steadyState": steady}
    del alone["inSitu"]
    chart_text.attach(alone)
    whose = "the 4 calls on float32[5, 32] under torch.no_grad(), the most frequent of 3 input shapes"
    assert (
        alone["steadyState"]["said"]
        == f"steady state from call 3: 10.8 ms per call, median of {whose} (calls varied 92%)"
    )
    assert f"From call 3 on, {whose}, took 10.8 ms (median) without compiling." in story.region_story(alone)
    one = [c for c in r1["calls"] if c["signature"] == steady["signature"]]
    assert chart_text.signature_words(region_entry.steady_state(one)) is None  # type: ignore[arg-type]


def test_one_compile_and_one_recompile_that_later_calls_reuse_with_the_guard_as_a_sentence() -> None:
    r0 = region(TRAIN_SMALL, "r0")
    said = story.region_story(r0)
    first, recompile = (formats.seconds(r0["calls"][i]["compileSeconds"]) for i in (0, 6))
    assert said == (
        f"Call 0 compiled ({first}); call 6 recompiled for float32[8, 256, 64] ({recompile}; input 'x' changed size in "
        "dimension 1 from 128 to 256)."
    )
    # the fixture says what region_entry writes: the guard as a sentence beside PyTorch's words
    assert [(c["recompileReason"], c["recompileWhy"]) for c in r0["calls"] if c["event"] == "recompiled"] == [
        (
            "tensor 'x' size mismatch at index 1. expected 128, actual 256",
            "input 'x' changed size in dimension 1 from 128 to 256",
        )
    ]
    story.attach(r0)
    assert r0["story"] == said
    # rank 1 of a torchrun job under attach (test/fixtures/attach-2x2): the calls after its recompile, its steady state
    assert story.region_story(region("attach-2x2/job/ranks/rank1", "r0")) == (
        "Call 0 compiled (4.58 s); call 3 recompiled for size 8 in dimension 0 (343 ms; input 'x' changed size in dimension 0 from 16 "
        "to 8). "
        "(Call 3's recompile was 2 compiles: a call recompiles each compiled part whose guard failed, e.g. the parts "
        "around a graph break.) From call 4 on, calls took 0.497 ms (median) without compiling."
    )


def test_the_story_says_only_what_the_calls_show() -> None:
    base = region(WARMUP, "r0")
    unknown = copy.deepcopy(base)
    for c in unknown["calls"]:
        c["compileSeconds"] = None
        if c["index"] == 1:
            c["ms"] = None
    assert "; call 1, the first at size 4 in dimension 0, recompiled (input 'x' changed size" in (
        story.region_story(unknown) or ""
    )
    timed = copy.deepcopy(base)
    for c in timed["calls"]:
        c["compileSeconds"] = None
    assert "took 176 ms, recompiling (input 'x'" in (story.region_story(timed) or "")
    assert story.region_story({**base, "callCount": 0, "calls": [], "steadyState": None}) == (
        "torch.compile returned f, but the script never called it."
    )
    said = story.region_story({**base, "callCount": 5000, "callsTruncated": True}) or ""
    assert said.endswith("(The first 7 of 5000 calls were recorded.)")
    # a guard with no words of ours: PyTorch's own, quoted as theirs
    odd = copy.deepcopy(region(TRAIN_SMALL, "r0"))
    odd["calls"][6].update(recompileReason="___odd_guard(L['x'])", recompileWhy=None)
    took = formats.seconds(odd["calls"][6]["compileSeconds"])
    assert f"({took}; the guard \"___odd_guard(L['x'])\" failed)" in (story.region_story(odd) or "")


def test_the_steady_state_starts_where_the_calls_settle() -> None:
    """Review 25 N10: call 1, the first after call 0 compiled, took 0.11 ms, 3.6× the 0.030 ms the later calls took,
    and the steady state began at it; it starts at call 2, where the calls settle, and its median is of those."""
    r0 = region("script-kernels-cpu", "r0")
    steady = region_entry.steady_state(r0["calls"])
    assert steady is not None and steady["fromCall"] == 2 and steady["medianMs"] == 0.0302
    assert r0["calls"][1]["ms"] > region_entry.SETTLED_FACTOR * steady["medianMs"]
    # a profiled call still warming up (ddp-ranks-cpu's call 1: 4.5 ms against about 0.8 ms) is no steady call either
    calls = [{**c, "profiled": c["index"] in (1, 2, 3, 4)} for c in r0["calls"]]
    assert (region_entry.steady_state(calls) or {}).get("fromCall") == 2
    # a decode loop's first pass over each cache length is compared only with later calls at that length
    decode = region("script-shapes-cpu", "r0")
    assert region_entry.steady_state(decode["calls"])["fromCall"] > 3  # type: ignore[index]


def test_numbers_side_by_side_agree_or_say_why() -> None:
    # the measured time is the answer's (the fastest rounds' estimate), not the rounds' median (review 25, C D6)
    r1 = region("script-kernels-cpu", "r1")
    replay = next(n for n in [r1["answer"]["number"], *r1["answer"]["evidence"]] if n["kind"] == "replay-call")
    assert round(replay["compiledMs"], 3) != round(r1["measurements"][0]["timing"]["medianMs"], 3)
    compiled = formats.times_of_ratio(replay["eagerMs"], replay["compiledMs"], replay["value"])[1]
    assert f"and {compiled} measured.)" in (story.region_story(r1) or "")
    r0 = region("script-kernels-cpu", "r0")
    said = story.region_story(r0) or ""
    # the script's calls took 0.030 ms (median), the measurement 0.014 ms: one line says why, the measured time at
    # the digits of the card's measurement cells (review 16 X8: "13.7 µs measured" four lines above "13.68 µs/call")
    assert said.endswith(
        "calls took 30.2 µs (median) without compiling. (The script's calls are timed one at a time as it ran them, "
        "with its own work between them; the measurement times back-to-back calls on one input: hence 30.2 µs here "
        "and 13.68 µs measured.)"
    )
    assert "13.68 µs/call vs eager 9.652 µs" in r0["measurements"][0]["measuredText"]
    # three compiler recompiles in two calls: said with the reason (the headline's count: test_headline.py)
    for i in (2, 4):
        r0["calls"][i].update(event="recompiled", signature=f"float32[{i}, 32]")
    r0["compiler"]["recompiles"] = [{"reason": f"r{n}", "compileId": f"0/{n}", "location": None} for n in (1, 2, 3)]
    assert "(The recompiles of calls 2 and 4 were 3 compiles: a call recompiles each compiled part whose guard" in (
        story.region_story(r0) or ""
    )


def test_in_situ_the_story_says_where_the_in_situ_calls_begin_not_their_times_again() -> None:
    """Issue 44: the in-situ times are the in-situ line's (and the chart's); the story said them a second time."""
    r0 = region("script-in-situ-cpu", "r0")
    said = story.region_story(r0)
    assert said == (
        "Call 0 compiled (6.50 s). From call 1 on, the script's own calls took turns in blocks, compiled and with "
        "compiling off, for the in-situ number."
    )
    call = r0["inSitu"]["call"]  # type: ignore[index]
    assert formats.ms(call["eagerMs"]) not in said and formats.ms(call["compiledMs"]) not in said


def test_each_call_that_compiled_or_ran_eagerly_says_what_happened_for_its_chart_mark() -> None:
    recompiled = {"index": 6, "event": "recompiled", "compileSeconds": 0.45, "recompileReason": "tensor 'x' …",
                  "recompileWhy": "x's dimension 1 changed from 128 to 256"}  # fmt: skip
    assert story.call_said(recompiled) == (  # type: ignore[arg-type]
        "recompiled because x's dimension 1 changed from 128 to 256; compiling took 450 ms"
    )
    eager = {"index": 9, "event": "cached", "ranCompiled": False, "fallbackReason": "the recompile limit (8)"}
    assert story.call_said(eager) == "ran eagerly (Dynamo fell back to the original code): the recompile limit (8)"  # type: ignore[arg-type]
    assert story.call_said({"index": 3, "event": "cached", "ranCompiled": True}) is None  # type: ignore[arg-type]


def test_a_compile_that_made_no_graph_is_said_as_the_attempt_it_was() -> None:
    """A region whose compiles made no graph ran no compiled code: its first call tried to compile, and its in-situ
    calls compare eager code with itself (no "compiled (median, in situ)")."""
    report = json.loads((REPO / "test" / "fixtures" / "recorded" / "encoder_fastpath-h200" / "report.json").read_text())
    nothing = report["regions"][0]
    assert nothing["compiler"]["graphCount"] == 0 and nothing["noCompiledCode"]
    fast_path = (
        "`aten._transformer_encoder_layer_fwd` broke the graph at encoder_fastpath.py:13 inside transformer.py:921"
        " before any op was compiled"
    )
    # why they ran eagerly is the no-compiled-code sentence's, shown beside the story: said once (review 25, J8)
    assert nothing["noCompiledCode"]["headline"].startswith(f"No compiled code ran: {fast_path}, ")
    assert story.region_story(nothing) == "Call 0 tried to compile (783 ms) and made no graph. Calls 0–5 ran eagerly."
    assert story.call_said(nothing["calls"][0], no_graph=True) == (
        "tried to compile and made no graph; the attempt took 783 ms; ran eagerly (Dynamo fell back to the original"
        f" code): {fast_path}"
    )
    compiled = region("script-in-situ-cpu", "r0")
    assert story.region_story(compiled).startswith("Call 0 compiled (6.50 s). From call 1 on,")  # type: ignore[union-attr]


def test_a_first_compile_says_the_backward_compiled_after_it_and_the_total_the_facts_say() -> None:
    """Review 6B M11: ddp_train's "Call 0 compiled (50.2 s)" beside its facts' and rank row's "50.3 s compiling": AOT
    autograd compiled the backward at the first backward, after call 0 returned; the story says both and the total."""
    region = json.loads((FIXTURES / "reports" / "ddp-ranks-cpu" / "report.json").read_text())["regions"][0]
    said = story.region_story(region) or ""
    calls = formats.seconds(region["calls"][0]["compileSeconds"])
    total = formats.seconds(region["compiler"]["compileSeconds"]["total"])
    assert calls != total  # the recorded run compiled its backward after its first call
    extra = formats.seconds(region["compiler"]["compileSeconds"]["total"] - region["calls"][0]["compileSeconds"])
    # said once, plainly (review 10 F6: "983 ms more for its backward at the first backward")
    assert said.startswith(
        f"Call 0 compiled ({calls}; the first backward pass compiled {extra} more: {total} in all). "
    )
    assert said.count("backward") == 1
    assert any(fact.startswith(f"{total} compiling") for fact in region["facts"])
    # rank 1 recompiled too: the total is after every compile, the recompile's time being in it
    rank1 = json.loads((FIXTURES / "reports" / "ddp-ranks-cpu" / "ranks" / "rank1" / "report.json").read_text())
    told = rank1["regions"][0]["story"]
    assert told.startswith("Call 0 compiled (53.9 s; the first backward pass compiled 999 ms more); call 3 recompiled")
    assert "(2.12 s; input 'x' changed size in dimension 0 from 16 to 8): 57.0 s compiling in all." in told
    # one compile record whose total is its calls' (no backward after them) says the one number
    region["compiler"]["compileSeconds"]["total"] = region["calls"][0]["compileSeconds"]
    assert (story.region_story(region) or "").startswith(f"Call 0 compiled ({calls}). ")
