"""A grad-mode recompile in a training loop that validates under torch.no_grad() between its steps is said as the
loop's switch (one graph per grad mode, compiled once), not as a serving warm-up in the wrong grad mode."""

from __future__ import annotations

from typing import Any

from compile_lens_runner.compiler import explain
from compile_lens_runner.compiler.explain import WARMUP_FIX
from compile_lens_runner.script import grad_switch, warmup_shape


def _calls(modes: list[str]) -> list[Any]:
    return [
        {"index": i, "ms": 1.0, "signature": f"float32[64, 3]; {m}", "gradMode": m}
        | {"event": "recompiled" if m != modes[0] and modes[:i].count(m) == 0 else "cached"}
        | ({"compileSeconds": 1.41} if m != modes[0] and modes[:i].count(m) == 0 else {})
        for i, m in enumerate(modes)
    ]


def _insight() -> Any:
    said = {"what": "Grad mode differed from the compiled call.", "fix": WARMUP_FIX}
    other = {"what": "Input 'x' changed size.", "fix": "mark it dynamic"}
    return {
        "recompiles": [
            {
                "reason": "GLOBAL_STATE changed: grad_mode",
                "location": None,
                "trigger": "call 20",
                "explanation": dict(said),
            }
        ],
        "recompileSites": [
            {
                "pattern": "p",
                "reason": "GLOBAL_STATE changed: grad_mode",
                "count": 1,
                "location": None,
                "compileIds": ["0/1"],
                "explanation": dict(said),
            },
            {"pattern": "q", "reason": "s", "count": 1, "location": None, "explanation": other},
        ],
    }


def test_a_validation_pass_between_training_steps_is_said_as_the_loop_s_switch() -> None:
    insight = _insight()
    grad_switch.explain(_calls(["grad"] * 20 + ["no_grad"] * 3 + ["grad"] * 20), insight)
    site = insight["recompileSites"][0]["explanation"]
    assert site == insight["recompiles"][0]["explanation"]
    assert site["what"] == (
        "The calls switch between grad modes: with grad, then 3 calls under torch.no_grad() from call 20 on, then "
        "with grad again. Each grad mode needs a graph of its own: call 20 compiled the second "
        "(1.41 s), and later switches found both graphs cached."
    )
    assert site["fix"] != WARMUP_FIX and "uncompiled" in site["fix"]
    assert insight["recompileSites"][1]["explanation"]["what"] == "Input 'x' changed size."  # another guard's own


def test_a_warm_up_with_grad_before_serving_under_inference_keeps_the_warm_up_fix() -> None:
    insight = _insight()
    grad_switch.explain(_calls(["grad"] * 2 + ["inference"] * 5 + ["no_grad"]), insight)
    assert insight["recompileSites"][0]["explanation"]["fix"] == WARMUP_FIX  # never back to grad: a warm-up's mode
    assert grad_switch.explanation(_calls(["no_grad"] * 4)) is None


def test_a_loop_whose_switches_recompile_again_keeps_the_guard_s_own_words() -> None:
    insight = _insight()
    again = {
        **insight["recompiles"][0],
        "trigger": "call 43",
        "explanation": dict(insight["recompiles"][0]["explanation"]),
    }
    insight["recompiles"].append(again)
    grad_switch.explain(_calls(["grad"] * 20 + ["no_grad"] * 3 + ["grad"] * 20 + ["no_grad"] * 3), insight)
    assert insight["recompileSites"][0]["explanation"]["fix"] == WARMUP_FIX


def test_the_switch_s_words_reach_the_script_s_findings_and_survive_a_re_derivation() -> None:
    """The editor's findings come from the script's own insight (one log, the same compile ids): the region's words go
    there too (on the H200 the finding still said "Warm up under the same grad mode you serve with"), and a report read
    again (explain_recorded) keeps them, as the log alone cannot say them."""
    region = _insight()
    grad_switch.explain(_calls(["grad"] * 20 + ["no_grad"] * 3 + ["grad"] * 20), region)
    script = _insight()
    warmup_shape.share(script, [{"compiler": region}])  # type: ignore[list-item]
    said = region["recompiles"][0]["explanation"]
    assert said["kind"] == explain.GRAD_SWITCH
    assert script["recompiles"][0]["explanation"] == said and script["recompileSites"][0]["explanation"] == said
    assert explain.explain_recorded(region["recompiles"][0], False) == said


def test_the_first_call_in_the_other_mode_ran_with_compiling_off_the_one_that_compiled_is_named() -> None:
    """In situ, the script's own calls take turns with compiling off: the pass may begin in an eager block, and the
    call that compiled the second graph comes later; every call of the pass is counted (the script made them all)."""
    calls = _calls(["grad"] * 20 + ["no_grad"] * 3 + ["grad"] * 20)
    calls[20] |= {"event": "ran", "side": "eager"}
    calls[20].pop("compileSeconds")
    calls[21] |= {"event": "recompiled", "compileSeconds": 0.25}
    said = grad_switch.explanation(calls)
    assert said is not None
    assert "then 3 calls under torch.no_grad() from call 20 on" in said["what"]
    assert "call 21 compiled the second (250 ms)" in said["what"]


def test_several_evaluation_passes_are_said_as_several_not_as_one_block() -> None:
    """Code read 3 §6: grad×3, no_grad×2, grad×3, no_grad×2, grad read "4 calls under torch.no_grad() from call 3 on",
    as calls 3 to 6 in one stretch."""
    said = grad_switch.explanation(_calls(["grad"] * 3 + ["no_grad"] * 2 + ["grad"] * 3 + ["no_grad"] * 2 + ["grad"]))
    assert said is not None
    assert said["what"].startswith(
        "The calls switch between grad modes: with grad, then 4 calls under torch.no_grad() in 2 stretches, from calls "
        "3 and 8 on, with grad between them. Each grad mode needs a graph of its own: call 3 compiled the second"
    )
    many = grad_switch.explanation(_calls((["grad"] * 2 + ["no_grad"]) * 5 + ["grad"]))
    assert many is not None
    assert (
        "then 5 calls under torch.no_grad() in 5 stretches, the first from call 2 on, with grad between them."
        in (many["what"])
    )


def test_a_grad_mode_recompile_is_found_by_its_guard_not_by_its_explanation_s_words() -> None:
    """A reworded fix still finds the grad-mode guard (it compared the fix with WARMUP_FIX); the fix's words on
    another guard do not; nor does a warm-up's explanation, said from the script's source."""
    insight = _insight()
    insight["recompiles"][0]["explanation"]["fix"] = "Reworded."
    insight["recompileSites"][1]["explanation"]["fix"] = WARMUP_FIX
    warm = {"kind": explain.WARMUP, "what": "The warm-up call at line 3 ran at another shape.", "fix": "f"}
    insight["recompileSites"][0]["explanation"] = dict(warm)
    grad_switch.explain(_calls(["grad"] * 20 + ["no_grad"] * 3 + ["grad"] * 20), insight)
    assert insight["recompiles"][0]["explanation"]["kind"] == explain.GRAD_SWITCH
    assert insight["recompileSites"][1]["explanation"] == {"what": "Input 'x' changed size.", "fix": WARMUP_FIX}
    assert insight["recompileSites"][0]["explanation"] == warm
    keys = "tensor 'x' dispatch key set mismatch. expected DispatchKeySet(CPU, ADInplaceOrView), actual DispatchKeySet(CPU)"
    assert explain.grad_mode_guard(f"0/1: {keys}") and explain.grad_mode_guard("GLOBAL_STATE changed: grad_mode ")
    assert not explain.grad_mode_guard("tensor 'x' size mismatch at index 0. expected 8, actual 16")
