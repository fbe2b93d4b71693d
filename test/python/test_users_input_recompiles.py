"""A recompile on the user's own input, said as the user's (not as a tensor a library made), and one change of it that
recompiled every part of a call around its graph breaks said as one finding. From the H200's profiles of two scripts a
new user writes (test/fixtures/logs/README.md: h200-timm-warmup-1.log, h200-hf-train-parts.log)."""

from __future__ import annotations

from pathlib import Path

from compile_lens_runner.compiler import explain, recompile_sites
from compile_lens_runner.compiler import torch_trace as tt
from compile_lens_runner.compiler.insight import compiler_insight, entered, library_frame
from compile_lens_runner.compiler.user_code import location
from compile_lens_runner.shapes.compiler import Recompile

LOGS = Path(__file__).resolve().parents[1] / "fixtures" / "logs"


def _insight(log: str):  # type: ignore[no-untyped-def]
    return compiler_insight(
        tt.parse((LOGS / log).read_text()), lambda record: "a call made by the script", cudagraphs=False
    )


def test_a_size_change_of_the_argument_of_the_forward_the_users_call_entered_is_the_users_input() -> None:
    """timm's ResNet `forward` (a library file) compiled from the user's `fast(x)`: its `x` is the user's tensor. An
    older runner said "A tensor made inside library code you called (forward in resnet.py) … not yours to do", beside
    the report's own "input 'x' changed size" and its measured mark_dynamic on x."""
    [recompile] = _insight("h200-timm-warmup-1.log")["recompiles"]
    said = recompile["explanation"]
    assert said is not None
    assert said["what"].startswith("Input 'x' changed size in dimension 0 from 1 to 32;")
    assert "library" not in said["what"] and "not yours" not in said["what"]
    assert "generate()" not in said["fix"] and "mark_dynamic(x, 0)" in said["fix"]


def test_a_warm_up_at_size_1_is_fixed_by_warming_up_at_a_size_the_calls_use_not_by_marking_1_dynamic() -> None:
    """A size of 1 is always specialised: mark_dynamic or dynamic=True at 1 still compiles twice (checked on torch
    2.13: a call at 1 then 32, 4, 8 made 2 graphs either way), so the fix is a warm-up at a real size, marked dynamic,
    and no one-click dynamic=True is offered."""
    said = explain.explain("tensor 'x' size mismatch at index 0. expected 1, actual 32")
    assert said is not None
    assert "warm up at a size the real calls use" in said["fix"] and "mark_dynamic(x, 0)" in said["fix"]
    assert "quickFix" not in said
    other = explain.explain("tensor 'x' size mismatch at index 0. expected 8, actual 32")
    assert other and "quickFix" in other and "warm up at a size" not in other["fix"]


def test_one_change_of_the_users_input_that_recompiled_every_part_of_the_call_is_one_finding() -> None:
    """GPT-2 from transformers, compiled, trained on lengths 128/192/256: transformers' `wrapper` (entered by the
    user's call, its kwargs the user's), the model's forward, the loss and the output's __init__ each recompiled when
    input_ids went from 192 to 128. An older runner showed four findings at hf_train.py:21, each "a tensor made inside
    library code" with a generate() static-cache fix."""
    insight = _insight("h200-hf-train-parts.log")
    [site] = insight["recompileSites"]
    assert site["count"] == 1 and site["compileIds"] == ["0/1", "1/1", "3/1", "4/1"]
    said = site["explanation"]
    assert said is not None
    assert said["what"] == (
        "Input 'input_ids' changed size in dimension 1 from 192 to 128; the compiled code had been specialised to 192, "
        "so the call recompiled 4 parts of it (the graphs around its graph breaks) for 128."
    )
    assert "torch._dynamo.mark_dynamic(input_ids, 1)" in said["fix"] and "generate()" not in said["fix"]
    # each part, as evidence: the library's tensor, the user's input that caused it, and that input's fix
    parts = [r for r in insight["recompiles"] if r["compileId"] != "0/1"]
    for part in parts:
        words = part["explanation"]
        assert words is not None and words["fix"] == said["fix"]
        assert "library code you called" in words["what"]
        assert words["what"].endswith(
            "The call's input 'input_ids' changed size in dimension 1 from 192 to 128, which caused it."
        )
    # grouped again (code read 37 item 11: a second group_sites said the cause twice): the same words, the same site
    said_once = [r["explanation"] for r in insight["recompiles"]]
    assert recompile_sites.group_sites(insight["recompiles"]) == [site]
    assert [r["explanation"] for r in insight["recompiles"]] == said_once


def test_the_frame_the_users_call_entered_is_the_one_torch_compiles_wrapper_called() -> None:
    site, torch_dir = "/venv/lib/python3.12/site-packages", "/venv/lib/python3.12/site-packages/torch"
    user = location("/ws/train.py", 21, "<module>")
    wrapper = location(f"{torch_dir}/_dynamo/eval_frame.py", 1, "compile_wrapper")
    call = location(f"{torch_dir}/nn/modules/module.py", 1, "_call_impl")
    forward = location(f"{site}/transformers/models/gpt2/modeling_gpt2.py", 1, "forward")
    resumed = location(f"{site}/transformers/utils/generic.py", 1, "torch_dynamo_resume_in_wrapper_at_9")
    assert entered([user, call, wrapper, forward])
    assert not entered([user, call, wrapper, call, forward])  # reached by the library's code after a graph break
    assert not entered([user, call, wrapper, resumed])
    # HF's generate() calling `model.forward = torch.compile(model.forward)`: the attention_mask is the library's
    decode = location("/ws/decode.py", 12, "<module>")
    generate = location(f"{site}/transformers/generation/utils.py", 1, "generate")
    sample = location(f"{site}/transformers/generation/utils.py", 2, "_sample")
    llama = location(f"{site}/transformers/models/llama/modeling_llama.py", 1, "forward")
    stack = [decode, generate, sample, call, wrapper, llama]
    assert not entered(stack)
    reason = "tensor 'kwargs['attention_mask']' size mismatch at index 1. expected 9, actual 10"
    said = explain.explain(reason, library_frame=library_frame(stack))
    assert said and 'cache_implementation="static"' in said["fix"] and "mark_dynamic" not in said["fix"]
    assert explain.guards_an_argument("tensor 'kwargs['input_ids']' size mismatch at index 1. expected 8, actual 9")
    assert explain.guards_an_argument("tensor 'x' size mismatch at index 0. expected 8, actual 9")
    assert not explain.guards_an_argument(
        "tensor 'L['self']._buffers['cache']' size mismatch at index 0. expected 8, actual 9"
    )


def test_the_static_kv_cache_is_offered_only_for_transformers_generation() -> None:
    reason = "tensor 'input_ids' size mismatch at index 1. expected 7, actual 8"
    generation = explain.explain(reason, library_frame="generate in utils.py")
    forward = explain.explain(reason, library_frame="forward in modeling_gpt2.py")
    assert generation and 'cache_implementation="static"' in generation["fix"]
    assert forward and "static" not in forward["fix"] and "dynamic=True" in forward["fix"]


def test_a_library_recompile_at_another_line_or_dimension_is_not_caused_by_the_users_input() -> None:
    """A decode loop under one constant trigger: the user's frame recompiled on input_ids' batch 1 → 2, transformers'
    on its KV cache's length 1 → 2 at another line. An older runner matched the sizes alone: the cache's recompile said
    "caused by input_ids", took its fix, and was folded into the user's site as a part."""
    trigger = "a call made by the script"
    users = "tensor 'input_ids' size mismatch at index 0. expected 1, actual 2"
    cache = "tensor 'self.layers[0].keys' size mismatch at index 2. expected 1, actual 2"
    user_recompile: Recompile = {
        "reason": users,
        "compileId": "0/1",
        "location": location("/ws/s.py", 9, "<module>"),
        "trigger": trigger,
        "explanation": explain.explain(users),
    }
    library_recompile: Recompile = {
        "reason": cache,
        "compileId": "3/1",
        "location": location("/ws/s.py", 20, "<module>"),
        "trigger": trigger,
        "explanation": explain.explain(cache, library_frame="_sample in transformers"),
    }
    own = library_recompile["explanation"]
    sites = recompile_sites.group_sites([user_recompile, library_recompile])
    assert [s["compileIds"] for s in sites] == [["0/1"], ["3/1"]]
    assert library_recompile["explanation"] == own  # its own words and static-KV-cache fix, not input_ids'
    # at the user's line, in another dimension: still another change
    at_the_line: Recompile = {**library_recompile, "location": user_recompile["location"]}
    assert not recompile_sites.seen_through_library(at_the_line, [user_recompile, at_the_line])
