"""Guard failures in the user's terms, recompiles grouped per site, and the GPU idle share (pure, no compile)."""

from __future__ import annotations

import json
from pathlib import Path

from compile_lens_runner.compiler import explain, made_for, recompile_sites
from compile_lens_runner.measure.profiling import gpu_idle_pct
from compile_lens_runner.shapes.compiler import Recompile

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"

COUNTER_REASON = (
    "0/0: self.calls == 90                                         # self.calls += 1  # counter.py:10 in forward "
    "(HINT: torch.compile considers integer attributes of the nn.Module to be static. If you are observing "
    "recompilation, you might want to make this integer dynamic using "
    "torch._dynamo.config.allow_unspec_int_on_nn_module = True, or convert this integer into a tensor.)\n"
    'User stack trace:\n  File "counter.py", line 10, in forward'
)


def test_pattern_abstracts_compared_numbers_only() -> None:
    assert (
        explain.pattern("self.calls == 90 (guard from: self.calls += 1)")
        == "self.calls == N (guard from: self.calls += 1)"
    )
    assert (
        explain.pattern("tensor 'args[0]' size mismatch at index 0. expected 32, actual 64")
        == "tensor 'args[0]' size mismatch at index 0. expected N, actual N"
    )


def test_pytorch_hint_is_read_from_the_reason() -> None:
    hint = explain.pytorch_hint(COUNTER_REASON)
    assert hint and hint.startswith("torch.compile considers integer attributes") and hint.endswith("into a tensor.")
    assert explain.pytorch_hint("tensor 'x' size mismatch at index 0. expected 32, actual 64") is None


def test_integer_module_attribute() -> None:
    found = explain.explain("self.calls == 90 (guard from: self.calls += 1)", COUNTER_REASON)
    assert found and found["what"].startswith("The integer attribute self.calls of the module changes between calls")
    assert "allow_unspec_int_on_nn_module = True" in found["fix"]


def test_autograd_only_dispatch_key_difference_is_a_grad_mode_mismatch() -> None:
    reason = (
        "tensor 'args[0]' dispatch key set mismatch. expected DispatchKeySet(CUDA, BackendSelect, ADInplaceOrView, "
        "AutogradCUDA), actual DispatchKeySet(CUDA, BackendSelect)"
    )
    found = explain.explain(reason)
    assert found and "differ in grad mode" in found["what"] and "the call's 1st argument" in found["what"]
    assert "then arrived under torch.inference_mode()" in found["what"]
    assert found["fix"].startswith("warm up under the same grad mode you serve with")
    reverse = explain.explain(
        "tensor 'x' dispatch key set mismatch. expected DispatchKeySet(CPU, BackendSelect), "
        "actual DispatchKeySet(CPU, BackendSelect, ADInplaceOrView, AutogradCPU)"
    )
    assert reverse and "made under torch.inference_mode()" in reverse["what"]
    other = explain.explain(
        "tensor 'x' dispatch key set mismatch. expected DispatchKeySet(CPU), actual DispatchKeySet(CUDA)"
    )
    assert other and "grad mode" not in other["what"]


def test_size_mismatch_names_the_dimension_and_mark_dynamic_with_its_cost() -> None:
    found = explain.explain("tensor 'x' size mismatch at index 1. expected 128, actual 256")
    assert (
        found
        and found["what"]
        == "Input 'x' changed size in dimension 1 from 128 to 256; the compiled code had been specialised to 128, so it "
        "was recompiled for 256."
    )
    assert (
        "torch._dynamo.mark_dynamic(x, 1)" in found["fix"] and "dynamic=True" in found["fix"] and "cost" in found["fix"]
    )
    assert found["quickFix"]["kind"] == "compile-dynamic"  # the editor offers dynamic=True on the torch.compile call
    # CUDA graphs record one graph per size even so: said where the run recorded them, not on a CPU (review 25, B N7)
    assert "CUDA graphs" not in found["fix"]
    on_cuda = explain.explain("tensor 'x' size mismatch at index 1. expected 128, actual 256", cuda_graphs=True)
    assert on_cuda and "CUDA graphs still record one graph per size" in on_cuda["fix"]
    assert explain.explain("something no one has seen before") is None


def test_a_size_fix_s_cost_says_what_the_device_s_compiler_generates() -> None:
    """On a CPU Inductor generates C++ functions, not kernels: the cost of one graph for every size says generated
    code there, as every other CPU surface says CPU ops and generated C++ functions (review 20X X4: "kernels not tuned
    to one size" on fused.py's CPU page); a GPU's keeps kernels, a recorded recompile said again likewise."""
    guard = "tensor 'x' size mismatch at index 1. expected 128, actual 256"
    on_cpu, on_gpu = explain.explain(guard, on_cpu=True), explain.explain(guard)
    assert on_cpu and "(shape arithmetic, generated code not tuned to one size)" in on_cpu["fix"]
    assert "kernel" not in on_cpu["fix"]
    assert on_gpu and "(shape arithmetic, kernels not tuned to one size)" in on_gpu["fix"]
    recorded: Recompile = {"reason": guard, "location": None, "allReasons": [guard], "compileId": "0/1"}
    again = explain.explain_recorded(recorded, False, on_cpu=True)
    assert again and "generated code not tuned to one size" in again["fix"]


def test_a_keyword_arguments_guard_is_said_by_its_name() -> None:
    """An HF generate() loop's compiled forward is called with keyword arguments: Dynamo names them
    `kwargs['input_ids']`, quotes inside the guard's quotes (the H200's GPT-2 profile, 2026-11-30: no sentence at all,
    PyTorch's words in the findings)."""
    reason = "tensor 'kwargs['input_ids']' size mismatch at index 1. expected 128, actual 1"
    found = explain.explain(reason)
    assert found and found["what"].startswith(
        "Input 'input_ids' changed size in dimension 1 from 128 to 1; the compiled code had been specialised to 128, so "
        "it was recompiled for 1."
    )
    cache = "tensor 'kwargs['past_key_values'].layers[0].keys' size mismatch at index 2. expected 128, actual 129"
    found = explain.explain(cache)
    assert found and found["what"].startswith("Input 'past_key_values.layers[0].keys' changed size in dimension 2")
    assert made_for.recompiled_for(reason) == "input_ids's size 1 in dimension 1"
    assert made_for.recompiled_for(cache) is None  # an attribute of an input: no name of the user's to give it


def test_recurring_recompiles_are_one_site() -> None:
    loc = {"file": "/ws/m.py", "line": 10, "function": "forward", "code": "self.calls += 1"}
    recompiles = [
        {
            "reason": f"self.calls == {n} (guard from: self.calls += 1)",
            "compileId": f"0/{n - 89}",
            "location": loc,
            "trigger": "a warmup call",
            "inTimedRegion": n == 97,
            "hint": "h",
            "explanation": {"what": "w", "fix": "f"},
        }
        for n in range(90, 98)
    ]
    other = {
        "reason": "tensor 'x' size mismatch at index 0. expected 32, actual 64",
        "compileId": "1/1",
        "location": {**loc, "line": 20},
        "inTimedRegion": False,
    }
    sites = recompile_sites.group_sites([*recompiles, other])
    assert [(s["location"]["line"], s["count"]) for s in sites] == [(10, 8), (20, 1)]
    assert sites[0]["values"] == [str(n) for n in range(90, 98)] and sites[0]["inTimedRegion"] is True
    assert sites[0]["compileIds"][0] == "0/1" and sites[1]["values"] == []


def test_recompiles_recorded_at_one_line_are_one_site_saying_the_sizes_in_order() -> None:
    """train_small.py (a real run, recorded/README.md): `step` recompiled 7 times at line 40 as x's dimension 1 grew
    by 16 each call."""
    report = json.loads((FIXTURES / "recorded" / "train_small-cpu" / "report.json").read_text())
    recompiles = next(r for r in report["regions"] if r["name"] == "step")["compiler"]["recompiles"]
    [site] = recompile_sites.group_sites(recompiles)
    assert site["count"] == 7 and site["values"] == ["16", "32", "48", "64", "80", "96", "112", "128"]
    assert site["explanation"] and site["explanation"]["what"] == (
        "Input 'x' changed size in dimension 1: 16 → 32 → 48 → 64 → … → 128; the compiled code was specialised to "
        "each size in turn, so every new one compiled again."
    )
    assert "torch._dynamo.mark_dynamic(x, 1)" in site["explanation"]["fix"]
    # one recompile alone keeps its own sentence
    [one] = recompile_sites.group_sites(recompiles[:1])
    assert one["values"] == [] and one["explanation"] == {
        **explain.explain(recompiles[0]["reason"], on_cpu=True),  # type: ignore[dict-item]  # a CPU run's
        "madeFor": "x's size 32 in dimension 1",  # what it was made for (compiler/made_for.py)
    }


def test_a_recurring_value_guard_says_the_values_it_took() -> None:
    """counter-cpu (a real run): self.calls recompiled on every call until the limit."""
    report = json.loads((FIXTURES / "reports" / "counter-cpu" / "report.json").read_text())
    [site] = recompile_sites.group_sites(report["modes"][0]["compiler"]["recompiles"])
    assert site["explanation"] and site["explanation"]["what"].endswith("In order: 16 → 17 → 18 → 19 → … → 23.")
    assert site["explanation"]["what"].startswith("The integer attribute self.calls of the module changes")


def test_a_value_the_users_line_made_guarded_again_in_pytorchs_code_is_one_site_at_that_line() -> None:
    """graphbreak-cpu (a real run): line 24's random head index recompiled twice, once guarded at that line and once
    at ModuleList's `idx = operator.index(idx)`; they were two findings at line 24, the second naming code the user
    never wrote (issue 44 point 4: findings on one line grouped)."""
    report = json.loads((FIXTURES / "reports" / "graphbreak-cpu" / "report.json").read_text())
    recompiles = report["modes"][0]["compiler"]["recompiles"]
    assert {r["location"]["line"] for r in recompiles} == {24} and len(recompiles) == 2
    [site] = recompile_sites.group_sites(recompiles)
    assert site["count"] == 2 and site["values"] == ["2", "0"]
    assert site["explanation"] and site["explanation"]["what"].startswith(
        "A Python number computed at `head = self.heads[np.random.randint(0, len(self.heads))]` changed"
    )
    assert site["explanation"]["what"].endswith("In order: 2 → 0.") and "operator.index" not in str(site)
    # two values the user's own code guarded at one line stay two sites
    own = [{**r, "reason": r["reason"].replace("idx = operator.index(idx)", "head = self.heads")} for r in recompiles]
    assert len(recompile_sites.group_sites(own)) == 2


def test_fallback_cause_names_the_frame_the_limit_and_the_guard() -> None:
    insight = {
        "frames": [{"compileId": "0/0", "function": "forward"}],
        "recompileSites": [
            {
                "pattern": "self.calls == N (guard from: self.calls += 1)",
                "count": 8,
                "compileIds": [f"0/{i}" for i in range(1, 9)],
                "explanation": {"what": "w", "fix": "use a tensor"},
            }
        ],
        "compileFailures": [
            {
                "compileId": "0/8",
                "failType": "Unsupported",
                "reason": (
                    "Dynamo recompile limit exceeded\n  Explanation: ... exceeding the recompile_limit cache size limit (currently set to 8)."
                ),
            }
        ],
    }
    assert explain.fallback_cause(insight, False, 40) == {
        "cause": "forward hit the recompile limit (8) after recompiling on every call: guard self.calls == N",
        "fix": "use a tensor",
    }
    nothing = explain.fallback_cause({}, None, 0)
    assert "no compiled frame was entered" in str(nothing["cause"])


def test_gpu_idle_share_between_kernels() -> None:
    def kernel(a: float, b: float) -> dict[str, object]:
        return {"ph": "X", "cat": "kernel", "name": "k", "ts": a, "dur": b - a}

    step = {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "ts": 0, "dur": 100}
    launch_bound = [step, kernel(10, 15), kernel(30, 35), kernel(50, 60)]  # busy 20 of 50 us between first and last
    assert gpu_idle_pct(launch_bound) == 60.0
    busy = [step, kernel(10, 40), kernel(40, 70), kernel(65, 80)]  # overlapping kernels counted once
    assert gpu_idle_pct(busy) == 0.0
    assert gpu_idle_pct([step]) is None  # CPU runs: no kernels, nothing to say


def test_gpu_idle_share_of_a_real_h100_eager_trace() -> None:
    # the H100 mlp sample's eager trace: 7 small kernels per call, the GPU waits for the host most of the time
    trace = json.loads((FIXTURES / "traces" / "mlp-eager.trace.json").read_text())
    assert gpu_idle_pct(trace["traceEvents"]) == 92.6


def test_recompile_limit_is_read_in_old_and_new_wording() -> None:
    assert (
        explain.recompile_limit("exceeding the recompile_limit cache size limit (currently set to 8). Excessive") == 8
    )
    assert (
        explain.recompile_limit("exceeding the accumulated_recompile_limit cache size limit (currently set to 256)")
        == 256
    )
    assert explain.recompile_limit("torch._dynamo hit config.cache_size_limit (8)") == 8
    assert explain.recompile_limit("tensor 'x' size mismatch at index 0. expected 32, actual 64") is None


def test_a_number_on_dynamos_stack_is_named_by_the_users_line_not_by___stack0() -> None:
    found = explain.explain("___stack1 == 2 (guard from: head = self.heads[np.random.randint(0, len(self.heads))])")
    assert found and "___" not in found["what"] + found["fix"]
    assert "`head = self.heads[np.random.randint(0, len(self.heads))]`" in found["what"]
    assert "torch.randint" in found["fix"]


def test_a_size_change_inside_a_library_call_gets_a_fix_at_the_users_level() -> None:
    reason = "tensor 'input_ids' size mismatch at index 1. expected 7, actual 8"
    found = explain.explain(reason, library_frame="generate in utils.py")  # HF generate()'s KV cache
    assert found and "dimension 1 from 7 to 8" in found["what"] and "generate in utils.py" in found["what"]
    assert (
        "mark_dynamic" not in found["fix"]
        and "static" in found["fix"]
        and "dynamic=True" in found["fix"]
        and "pad" in found["fix"]
    )
    assert "quickFix" not in found  # not the user's tensor: no one-click edit
    own = explain.explain(reason)
    assert own and "torch._dynamo.mark_dynamic(input_ids, 1)" in own["fix"]


def test_library_frame_names_the_compiled_library_function_only_when_user_code_called_it() -> None:
    from compile_lens_runner.compiler.insight import library_frame
    from compile_lens_runner.compiler.user_code import location

    def start(*files: tuple[str, str]) -> list[dict]:  # the stack a compile started from, outermost first
        return [location(file, 1, name) for file, name in files]

    user, lib = (
        ("/ws/gen.py", "<module>"),
        ("/venv/site-packages/transformers/models/llama/modeling_llama.py", "forward"),
    )
    assert library_frame(start(user, lib)) == "forward in modeling_llama.py"
    assert library_frame(start(user, ("/ws/model.py", "forward"))) is None
    assert library_frame(start(user, ("/venv/site-packages/torch/_dynamo/eval_frame.py", "inner"))) == "PyTorch code"
    # an HF generate() whose model.forward the user compiled (the H200's GPT-2 profile): the library function the
    # user's line called, not transformers' `wrapper` under nn.Module and Compile Lens's observer, and not "PyTorch
    # code" for a virtualenv whose path holds /torch/
    site = "/opt/torch/.venv/lib/python3.12/site-packages"
    generate = start(
        user,
        (f"{site}/torch/utils/_contextlib.py", "decorate_context"),
        (f"{site}/transformers/generation/utils.py", "generate"),
        (f"{site}/transformers/generation/utils.py", "_sample"),
        (f"{site}/torch/nn/modules/module.py", "_call_impl"),
        ("/ws/native-runner/compile_lens_runner/script/capture.py", "observed"),
        (f"{site}/transformers/utils/generic.py", "wrapper"),
    )
    assert library_frame(generate) == "generate in utils.py"
    # torch.compile(nn.Sequential(...)) or of DDP compiles torch's wrapper `inner`, whose args are the user's call's
    # (bench/shapes/cudagraphs.py on the H200 was told "a tensor made inside library code … not yours to do")
    wrapper = start(user, ("/venv/site-packages/torch/_dynamo/external_utils.py", "inner"))
    assert library_frame(wrapper) is None
    said = explain.explain("tensor 'args[0]' size mismatch at index 0. expected 8, actual 256", library_frame=None)
    assert said and said["what"].startswith("The call's 1st argument changed size in dimension 0 from 8 to 256")
    assert "torch._dynamo.mark_dynamic(x, 0)" in said["fix"]


def test_a_voided_timing_says_the_guard_then_the_inputs_each_side_ran_on_without_nested_parentheses() -> None:
    """fused-cpu (recorded): an older runner said "1 compile ran while timing (x's batch changed from 8 to 16): the
    timed calls (float32[16, 64] (inference)) did not match warmup (float32[8, 64] (inference))." (review 25, B D19).
    The runner's words now: the guard, then the inputs each side ran on, then what changed and its fix."""
    report = json.loads((FIXTURES / "reports" / "fused-cpu" / "report.json").read_text())
    [discarded] = report["modes"][0]["discardedTimings"]
    said = (
        "input 'x' changed size in dimension 0 from 8 to 16, so 1 compile ran while timing: warm-up ran on "
        "float32[8, 64], the timed calls on float32[16, 64]. The compiled code had been specialised to 8, so it was "
        "recompiled for 16. Fix: if that "
    )  # the change said once, in its finding's words (review 25 D6)
    assert discarded["invalidReason"].startswith(said)
    # a CPU run records no CUDA graphs: the fix does not speak of them (review 25, B N7); the runner's grad modes are
    # said only where the two sides' differ, in PyTorch's terms (B D19)
    assert "CUDA graphs" not in discarded["invalidReason"] and "(inference)" not in discarded["invalidReason"]
    assert explain.timing_cause("float32[16, 64] (grad)", "float32[16, 64] (inference)") == (
        "warm-up ran on float32[16, 64] under torch.inference_mode(), the timed calls on float32[16, 64] with grad"
    )
    guard = "tensor 'x' size mismatch at index 0. expected 8, actual 16"
    explained = explain.explain(guard, guard, on_cpu=True)  # a CPU run: generated code, not kernels (review 21X X2)
    assert explained is not None
    cause = explain.timing_cause("float32[16, 64] (inference)", "float32[8, 64] (inference)")
    cause += f". {explain.voided_tail(guard, explained)}"
    assert explain.recompiled_while_timing(1, [guard, guard], cause) == discarded["invalidReason"]
    assert explain.recompiled_while_timing(2, [], explain.timing_cause("a", "a")) == (
        "2 compiles ran while timing: a timed call took a path warm-up had not compiled."
    )
