"""Compiles and generated kernels by name in the runner's words (report/compile_names.py, schema 1.28), on recorded
reports (no torch): a compile by its function and which compile of it, a kernel by its kind, place, compile and lines,
the CodeLens over it in the generated code. test/unit/compileNames.test.ts holds the TypeScript naming of a trace
opened without a report to the same words."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from compile_lens_runner.compiler import artifacts, explain, made_for, user_code
from compile_lens_runner.compiler import torch_trace as tt
from compile_lens_runner.compiler.insight import compiler_insight, limit_hits
from compile_lens_runner.report import compile_names

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "reports"
DDP = FIXTURES / "ddp-ranks-cpu"


def _compiler(name: str) -> dict:  # type: ignore[type-arg]
    return json.loads((FIXTURES / name / "report.json").read_text())["modes"][0]["compiler"]  # type: ignore[no-any-return]


def _names(compiler: dict[str, Any]) -> dict[str, str]:
    """Each compile's name by its id, as the record carries it."""
    return {f["compileId"]: f["nameText"] for f in compiler["frames"]}


def _ddp_ranks() -> list[dict[str, Any]]:
    """ddp-ranks-cpu's reports of rank 0 (the run's own) and rank 1."""
    return [json.loads(path.read_text()) for path in (DDP / "report.json", DDP / "ranks" / "rank1" / "report.json")]


def _records(report: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """A script report's two records of its compiles: its region's and its own, which holds its regions' together."""
    return report["regions"][0]["compiler"], report["modes"][0]["compiler"]


def test_a_compile_is_its_function_and_which_compile_of_it_never_its_id() -> None:
    frames = _compiler("graphbreak-cpu")["frames"]  # forward broke at lines 20, 22, 24; after 24 it recompiled
    said = {f["compileId"]: f["nameText"] for f in frames}  # the fixture carries them (scripts/rederive_fixtures.py)
    assert said["0/0"] == "forward" and said["1/0"] == "forward after line 20"
    # a number its line 24 computes (np.random.randint), guarded under Dynamo's own name (___stack1): compile 3/1's
    # value is in 3/2's record of the guards that failed; 3/2's own, in no later record
    # whose number (review 10 C8: "the value 0 at line 24"): the call line 24 indexes self.heads with; 3/2's own
    # value in no record: by the values the frame's earlier compiles were made for, in one form
    assert said["3/1"] == "forward after line 24, recompiled for np.random.randint(…) == 0 at line 24"
    assert said["3/2"] == "forward after line 24, recompiled for np.random.randint(…) not in (2, 0) at line 24"
    assert compile_names.compile_name([], "1/1") == "compiled function 2, recompile 1"  # no function recorded
    assert compile_names.compile_name(frames, None) == "an unknown compile"


def test_a_notebook_compile_after_a_graph_break_is_named_by_the_cell_and_its_line() -> None:
    """Review 8 A1: explore-cpu broke at cell 3, line 7 (line 10 of the exported script, which no cell has); the
    Compiler tree said "forward after line 10". The part after the break starts at the break's line, which the
    frame's location holds, mapped to the cell."""
    compiler = json.loads((FIXTURES.parent / "recorded" / "explore-cpu" / "report.json").read_text())["modes"][0][
        "compiler"
    ]
    frames = compiler["frames"]
    resumed = next(f for f in frames if f["compileId"] == "1/0")
    assert resumed["function"] == "torch_dynamo_resume_in_forward_at_10"
    assert compile_names.compile_name(frames, "1/0") == "forward after cell 3, line 7"
    kernel = next(k for k in compiler["kernels"] if k["compileId"] == "1/0")
    assert compile_names.kernel_name(kernel, "forward after cell 3, line 7") == (
        "fused C++ function 1 of forward after cell 3, line 7 (cell 3, line 8)"
    )
    across = [{"file": "/a/e.ipynb", "line": 4, "cell": 1}, {"file": "/a/e.ipynb", "line": 7, "cell": 2}]
    assert compile_names.lines_text(across) == "e.ipynb cell 2, line 4; e.ipynb cell 3, line 7"  # type: ignore[arg-type]


def test_a_compile_that_hit_the_recompile_limit_is_named_as_that_not_as_one_more_recompile() -> None:
    """counter-cpu: forward's ninth compile (0/8) failed at the recompile limit and made no graph; it was drawn as
    "forward, recompile 8" beside "8 graphs · 7 recompiles". Marked from Dynamo's words where the log is read."""
    compiler = _compiler("counter-cpu")
    (failure,) = compiler["compileFailures"]
    del failure["recompileLimitHit"]
    compile_names.name_all(compiler)
    assert _names(compiler)["0/8"] == "forward, recompiled for self.calls not in (16, 17, …, 23)"
    limit_hits([failure])
    compile_names.name_all(compiler)
    said = _names(compiler)
    assert (
        said["0/8"] == "forward: hit the recompile limit, made no graph"
        and said["0/7"] == "forward, recompiled for self.calls == 23"
    )


def test_a_recompile_for_a_value_is_named_by_the_value_its_own_guard_holds() -> None:
    """counter-cpu: forward counts its calls on self.calls, an integer attribute Dynamo guards by value; each recompile
    was drawn as "forward, recompile 1" (review s29). The failed guard says the older compile's value (16), the
    next recompile's record each compile's own (0/1: self.calls == 17): named by it; a last compile no record follows
    by what changed, and where two would read alike (or nothing is known), by number."""
    compiler = _compiler("counter-cpu")
    said = _names(compiler)
    assert (
        said["0/1"] == "forward, recompiled for self.calls == 17"
        and said["0/2"] == "forward, recompiled for self.calls == 18"
    )
    recompiles = compiler["recompiles"]
    for recompile in recompiles:
        recompile["explanation"].pop("madeFor", None)
    made_for.fill(recompiles[:2])  # 0/2's value is in no record of these two
    # a last compile by the values it was not, in the series' form (review 10 E10/C11: "a new value of self.calls")
    assert [r["explanation"]["madeFor"] for r in recompiles[:2]] == ["self.calls == 17", "self.calls not in (16, 17)"]
    guard = "L['self'].step == 3 (guard from: self.step += 1)"
    one = [
        {"compileId": "0/1", "reason": guard, "allReasons": [], "location": None, "explanation": explain.explain(guard)}
    ]
    made_for.fill(one)  # type: ignore[arg-type]
    assert one[0]["explanation"]["madeFor"] == "a new value of self.step"  # no record of an earlier compile's value
    one[0]["allReasons"] = ["0/0: L['self'].step == 3 # self.step += 1"]
    one[0]["explanation"].pop("madeFor")
    made_for.fill(one)  # type: ignore[arg-type]
    assert one[0]["explanation"]["madeFor"] == "self.step != 3"
    length = [{"compileId": "0/1", "reason": "len(L['xs']) == 2", "allReasons": [], "location": None}]
    length[0]["explanation"] = explain.explain(length[0]["reason"])  # type: ignore[assignment]
    made_for.fill(length)  # type: ignore[arg-type]
    assert length[0]["explanation"]["madeFor"] == "a new value of len(xs)"  # type: ignore[index]
    unknown = [{"compileId": "0/1", "reason": "___check_global_state()", "allReasons": [], "location": None}]
    unknown[0]["explanation"] = {"what": "Something changed.", "fix": "See the guard."}  # type: ignore[assignment]
    made_for.fill(unknown)  # type: ignore[arg-type]
    assert "madeFor" not in unknown[0]["explanation"]  # type: ignore[operator]  # nothing known: by its number
    for recompile in recompiles:
        recompile["explanation"]["madeFor"] = "self.calls changed"  # alike: said apart by their numbers
    compile_names.name_all(compiler)
    assert _names(compiler)["0/2"] == "forward, recompile 2"


def test_a_python_attribute_s_recompiles_are_one_series_under_one_name() -> None:
    """Review 10 E10/C11/F7: train_small's Counter rows read "recompiled for self.calls == 1", "== 2", then "recompiled
    for a new value of self.calls", beside "Not replayed: it changes the Python attribute Counter.calls (0 → 1)" and
    "because the Python value self.calls changed". One attribute, one name (self.calls, as the user's code and the
    guard say it); one form for the series, the last compile by the values it was not."""
    report = json.loads((FIXTURES.parent / "recorded" / "train_small-cpu" / "report.json").read_text())
    said = _names(report["modes"][0]["compiler"])
    assert [said[f"2/{n}"] for n in (1, 2, 3)] == [
        "forward, recompiled for self.calls == 1",
        "forward, recompiled for self.calls == 2",
        "forward, recompiled for self.calls not in (0, 1, 2)",
    ]
    counter = next(r for r in report["regions"] if r["name"] == "Counter")
    assert counter["replay"]["reason"].startswith("it changes the Python attribute self.calls (0 → 1)")
    assert "the Python value self.calls changed" in counter["story"]
    assert "Counter.calls" not in json.dumps(report) and "a new value of" not in json.dumps(report)


def test_a_kernels_ops_are_said_as_pytorch_users_know_them_each_once() -> None:
    ops = ["aten.erf", "aten.mul.Tensor", "aten.sum.dim_IntList", "aten.sum", "aten._adaptive_avg_pool2d"]
    assert compile_names.ops_text(ops) == "erf, mul, sum, adaptive_avg_pool2d"
    fused = next(k for k in _compiler("fused-cpu")["kernels"] if k["name"] == "cpp_fused_add_mul_relu_0")
    assert fused["opsText"] == "add, mul, relu" and fused["lensText"] == "fuses lines 12, 13 (add, mul, relu)"


def test_a_fused_gelu_is_said_as_gelu_not_as_the_parts_inductor_recorded() -> None:
    """Review E13: torch.nn.functional.gelu(x) * 2 + 1 then .sum() is recorded as add, erf, mul, sum; its kernel's
    name keeps gelu (and the user's own add and mul), so gelu is said where erf was, the ops the name says kept."""
    ops = ["aten.add.Tensor", "aten.erf", "aten.mul.Tensor", "aten.sum"]
    assert compile_names.ops_text(ops, "cpp_fused_add_gelu_mul_sum_0") == "add, gelu, mul, sum"
    assert compile_names.ops_text(["aten.mul", "aten.erf", "aten.add"], "cpp_fused_gelu_0") == "gelu"
    assert compile_names.ops_text(["aten.mul", "aten.tanh", "aten.pow"], "triton_poi_fused_gelu_0") == "gelu"
    # a name Inductor cut short (kernel_name_max_ops: 10 ops) may leave out a mul and an add the user wrote beside
    # gelu: they are said as theirs, only erf folded into gelu (the code read's item 12)
    cut = "cpp_fused_abs_add_clamp_cos_div_exp_gelu_log_max_min_0"  # its ops sorted, the 11th (mul) cut
    cut_ops = ["aten.mul.Tensor", "aten.erf", "aten.abs", "aten.cos"]
    assert compile_names.ops_text(cut_ops, cut) == "mul, gelu, abs, cos"
    assert compile_names.ops_text(["aten.pow", "aten.tanh"], "triton_poi_fused_" + "_".join(["gelu"] * 10) + "_0") == (
        "pow, gelu"
    )
    # a kernel whose name does not say gelu keeps its erf
    assert compile_names.ops_text(["aten.erf", "aten.mul"], "cpp_fused_erf_mul_0") == "erf, mul"
    report = json.loads((FIXTURES / "script-kernels-cpu" / "report.json").read_text())
    kernels = [k for region in report["regions"] for k in region["compiler"]["kernels"]]
    gelu = [k for k in kernels if "gelu" in k["name"].split("_")]
    assert gelu and all("gelu" in k["opsText"] and "erf" not in k["opsText"] for k in gelu)
    assert all("erf" not in k["lensText"] for k in gelu)


def test_a_compile_outside_the_users_files_is_named_by_the_users_call_that_led_there() -> None:
    """A torch.compile(DDP(model)) compiles PyTorch's own wrappers and contextlib's helpers before the user's forward:
    a library's frame is not where the user acts (review s29: "__init__ (in Python's contextlib.py)" read as a place),
    so each is named by the user's line whose call led there (schema 1.35: the innermost user frame of the stack its
    compile started from, not the runner's own frames around it), the library's frame as detail, a part resumed
    after a graph break by that file's line; torch.compile's wrapper of a module by the module's call."""
    (log,) = (FIXTURES.parent / "attach-2x2" / "job" / "ranks" / "rank0" / "torch_trace").glob("*.log")
    insight = compiler_insight(tt.parse(log.read_text()), lambda record: None, cudagraphs=False)
    compile_names.name_all(insight)
    assert [f["nameText"] for f in insight["frames"]] == [
        "the compiled module called at ddp_train.py:78",
        # contextlib's by what it does, not a place in Python (review 13 F5)
        "the call at ddp_train.py:78 (making a with statement's context manager, contextlib)",
        "the call at ddp_train.py:78 (starting a with statement's context manager, contextlib)",
        "the call at ddp_train.py:78 (starting a with statement's context manager, contextlib, after a graph break in it)",
        "forward",
    ]
    assert insight["frames"][1]["calledFrom"]["function"] == "<module>" and "calledFrom" not in insight["frames"][4]


def test_a_compile_outside_the_users_files_says_where_it_is() -> None:
    """Where the report does not say the user's call that led there (recorded before schema 1.35, its compiler log not
    kept), nor do its graph breaks: each frame by where it is (schema 1.31), not as a bare "inner", and a part
    resumed after a graph break by that file's line (review 10 F5: "line 105" read as the user's file's), as the
    runner recorded them in ddp-ranks-cpu (a torch installed in /opt/torch/.venv: PyTorch's from its package folder);
    a report recorded before schema 1.31 (no `library`) says only that they are not the user's, and names no line of
    a file it does not name."""
    named = [
        "inner (in PyTorch's _dynamo/external_utils.py)",
        # contextlib's by what it does (review 13 F5), its line after a graph break meaning nothing to the user
        "making a with statement's context manager (contextlib)",
        "starting a with statement's context manager (contextlib)",
        "starting a with statement's context manager (contextlib), after a graph break in it",
        "forward",
    ]
    region = _ddp_ranks()[0]["regions"][0]
    recorded = region["compiler"]["frames"]
    assert not any("calledFrom" in f for f in recorded)
    assert [compile_names.compile_name(recorded, f["compileId"]) for f in recorded] == named
    older = [{key: value for key, value in f.items() if key != "library"} for f in recorded]
    said = [compile_names.compile_name(older, f["compileId"]) for f in older]
    assert said == [
        "inner (not in your files)",
        "helper (not in your files)",
        "__init__ (not in your files)",
        "__init__ (not in your files), after a graph break",
        "forward",
    ]
    # ... but PyTorch's wrapper, known by its name, is the region the user compiled (review 5A G10: "TransformerEncoder:
    # inner (not in your files)"), in the region's record and in the script's own, which holds its regions' together
    wrapped = f"DistributedDataParallel at ddp_train.py:{region['location']['line']}"
    assert compile_names.compile_name(older, "0/0", wrapped) == wrapped
    encoder = json.loads((FIXTURES.parent / "recorded" / "encoder_fastpath-h200" / "report.json").read_text())
    for record in _records(encoder):
        assert [f["nameText"] for f in record["frames"]] == ["TransformerEncoder at encoder_fastpath.py:10"]
    assert _ddp_ranks()[0]["modes"][0]["compiler"]["frames"][0]["nameText"] == wrapped
    library = "/usr/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py"
    assert user_code.library_place(library) == "transformers/models/llama/modeling_llama.py"
    venv = "/opt/torch/.venv/lib/python3.12/site-packages/torch/_dynamo/external_utils.py"
    assert user_code.library_place(venv) == "PyTorch's _dynamo/external_utils.py"
    assert user_code.library_place("/src/pytorch/torch/_dynamo/eval_frame.py") == "PyTorch's _dynamo/eval_frame.py"


def test_a_compile_outside_the_users_files_without_its_caller_is_named_by_the_line_its_calls_breaks_reached() -> None:
    """Review 10 F5: ddp-ranks-cpu (recorded before schema 1.35, no compiler log kept: no `calledFrom`) drew
    "DistributedDataParallel: __init__ (in Python's contextlib.py), after its graph break at line 105", contextlib's
    line read as the user's. Each contextlib frame is named by the user's line that reached it, as a report that
    records `calledFrom` names it: its own graph breaks' line, else that of the breaks of the call that compiled it
    (DDP's wrapper and the first helper broke at ddp_train.py:84; the two __init__ frames nowhere); the break's line
    with its file. Several lines, or none, name no line."""
    for report in _ddp_ranks():
        for compiler in _records(report):
            said = _names(compiler)
            assert said["1/0"] == "the call at ddp_train.py:84 (making a with statement's context manager, contextlib)"
            assert (
                said["2/0"] == "the call at ddp_train.py:84 (starting a with statement's context manager, contextlib)"
            )
            assert said["3/0"] == (
                "the call at ddp_train.py:84 (starting a with statement's context manager, contextlib, after a graph"
                " break in it)"
            )
            assert not [n for n in said.values() if "105" in n or "Python's" in n]
    region = _ddp_ranks()[0]["regions"][0]
    compiler, calls = region["compiler"], region["calls"]
    assert compile_names.reached_from(compiler, calls)["2/0"]["line"] == 84
    assert compile_names.reached_from(compiler, [])["1/0"]["line"] == 84  # its own break
    assert "2/0" not in compile_names.reached_from(compiler, [])  # no break of its own, no call known
    elsewhere = {**compiler["graphBreaks"][0], "location": {**compiler["graphBreaks"][0]["location"], "line": 50}}
    two_lines = {**compiler, "graphBreaks": [*compiler["graphBreaks"], elsewhere]}
    assert "2/0" not in compile_names.reached_from(two_lines, calls)  # which line reached it is not known


def test_a_compile_whose_backward_compiled_at_the_first_backward_is_named_for_both() -> None:
    """Review 10 D8: ddp-ranks-cpu's row "DistributedDataParallel: forward · 54.8 s" held the backward AOT autograd
    compiled at the first backward (983 ms, outside the frame's 53.8 s compile), which the story counts apart: the
    row is named for what it holds. A backward compiled inside the frame's compile (rank 1's recompile) is the
    compile's own part, as every compile's forward is: its name says nothing more."""
    assert artifacts.PHASE_LABELS["compile_fx.<locals>.bw_compiler"] == compile_names.BACKWARD_COMPILE
    for report in _ddp_ranks():
        for compiler in _records(report):
            said = _names(compiler)
            assert said["4/0"] == "forward and its backward"
            assert said.get("4/1", "forward, recompiled for x's size 8 in dimension 0") == (
                "forward, recompiled for x's size 8 in dimension 0"
            )
            assert [n for n in said.values() if "backward" in n] == ["forward and its backward"]
        # the script's own record has the phases (a region's record none): its compile is named alike in both
        assert compile_names.backward_compiled_after(report["modes"][0]["compiler"]) == {"4/0"}
    # a recompile whose backward compiled later: "and its backward" joins the function, before which compile it was
    frames = [{"compileId": "0/1", "function": "forward", "location": {"file": "/a/m.py", "line": 3}, "seconds": 1.0}]
    phases = [{"compileId": "0/1", "name": "backward compile", "startMs": 9.0, "durMs": 1.0, "depth": 0}]
    compiler = {"frames": frames, "recompiles": [], "kernels": [], "phases": phases}
    compile_names.name_all(compiler)  # type: ignore[arg-type]
    assert frames[0]["nameText"] == "forward and its backward, recompile 1"
    phases[0]["depth"] = 2  # inside the frame's compile
    compile_names.name_all(compiler)  # type: ignore[arg-type]
    assert frames[0]["nameText"] == "forward, recompile 1"


def test_a_compiled_modules_kernel_is_named_by_the_users_module_not_torchs_wrapper() -> None:
    """torch.compile(nn.Sequential(...)) compiles PyTorch's `inner` (_dynamo/external_utils.py), the wrapper it calls
    the module through: its graph and kernels are the user's Sequential at gated_service.py:22, and named so (review
    s26, issue 44 point 4); a report's modes and a region's record alike (answer.attach names them)."""
    report = json.loads((FIXTURES.parent / "recorded" / "gated_service-cpu" / "report.json").read_text())
    compiler = report["regions"][0]["compiler"]
    assert [f["nameText"] for f in compiler["frames"]] == ["Sequential at gated_service.py:22"]
    named = [k["nameText"] for k in compiler["kernels"] if "nameText" in k]
    assert named and all(
        n.startswith("fused C++ function") and " of Sequential at gated_service.py:22 (" in n for n in named
    )
    assert not any("external_utils" in n or "inner" in n for n in named)
    for frame in compiler["frames"]:
        del frame["nameText"]
    compile_names.attach(report)
    assert compiler["frames"][0]["nameText"] == "Sequential at gated_service.py:22"
    # without its region (a trace's compiler log read alone), by the user's call of it: it is not the user's file
    compile_names.name_all(compiler)
    assert compiler["frames"][0]["nameText"] == "the compiled module called at gated_service.py:25"
    del compiler["frames"][0]["calledFrom"]  # recorded before schema 1.35
    compile_names.name_all(compiler)
    assert compiler["frames"][0]["nameText"] == "inner (in PyTorch's _dynamo/external_utils.py)"


def test_a_recompile_is_named_by_what_it_was_made_for_and_apart_from_its_frames_other_compiles() -> None:
    """Review 5C J4: "forward, recompile 1 · 901 ms" named Dynamo's count; the failed guard says what the compile was
    for (made_for.recompiled_for, kept as the explanation's madeFor): a size by its dimension's number, 0 too, as the
    failed guard's sentence says it (review 8 A14: "x's batch 16" beside "changed size in dimension 0"), a dtype; any other guard, or two compiles of one frame for the same
    change, by their numbers (one name, one compile)."""
    assert (
        made_for.recompiled_for("0/0: tensor 'x' size mismatch at index 0. expected 8, actual 16")
        == "x's size 16 in dimension 0"
    )
    assert made_for.recompiled_for("tensor 'x' size mismatch at index 1. expected 16, actual 32") == (
        "x's size 32 in dimension 1"
    )
    assert made_for.recompiled_for("tensor 'x' dtype mismatch. expected Float, actual Half") == "x as Half"
    # a wrapper's input Dynamo names no argument for, by its place in the call
    assert made_for.recompiled_for("tensor 'args[0]' size mismatch at index 0. expected 8, actual 16") == (
        "the 1st argument's size 16 in dimension 0"
    )
    assert made_for.recompiled_for("L['self'].calls == 90") is None  # a value guard: made_for.compiled_values
    # other changes of the call, by what the call brought
    assert made_for.recompiled_for("tensor 'x' stride mismatch at index 0. expected 1, actual 8") == (
        "x's stride 8 in dimension 0"
    )
    assert made_for.recompiled_for("tensor 'x' requires_grad mismatch. expected requires_grad=0") == (
        "x with requires_grad"
    )
    keys = "tensor 'x' dispatch key set mismatch. expected DispatchKeySet(CPU, AutogradCPU), actual DispatchKeySet(CPU)"
    assert made_for.recompiled_for(keys) == "calls under torch.inference_mode()"
    assert made_for.recompiled_for("GLOBAL_STATE changed: grad_mode ") == "the other grad mode"
    assert made_for.recompiled_for("tensor 'x[0]' size mismatch at index 0. expected 8, actual 16") is None
    frames = [{"compileId": f"0/{n}", "function": "forward", "location": None, "seconds": 1.0} for n in range(3)]
    for frame in frames:
        frame["location"] = {"file": "/a/m.py", "line": 3}
    guard = "tensor 'x' size mismatch at index 0. expected 8, actual 16"
    recompiles = [{"compileId": f"0/{n}", "reason": guard, "explanation": explain.explain(guard)} for n in (1, 2)]
    made_for.fill(recompiles)  # type: ignore[arg-type]
    compiler = {"frames": frames, "recompiles": recompiles[:1], "kernels": []}
    compile_names.name_all(compiler)  # type: ignore[arg-type]
    assert [f["nameText"] for f in frames] == [
        "forward",
        "forward, recompiled for x's size 16 in dimension 0",
        "forward, recompile 2",
    ]
    compiler["recompiles"] = recompiles  # both for size 16: said apart by their numbers
    compile_names.name_all(compiler)  # type: ignore[arg-type]
    assert [f["nameText"] for f in frames] == ["forward", "forward, recompile 1", "forward, recompile 2"]


def test_a_kernel_by_its_kind_place_compile_and_lines_and_its_code_lens() -> None:
    kernels = _compiler("fused-cpu")["kernels"]
    fused = next(k for k in kernels if k["name"] == "cpp_fused_add_mul_relu_0" and k["compileId"] == "0/1")
    # the recompile by what it was made for, as its failed guard says (review 5C J4: "forward, recompile 1")
    assert (
        fused["nameText"] == "fused C++ function 1 of forward, recompiled for x's size 16 in dimension 0 (lines 12, 13)"
    )
    assert fused["lensText"] == "fuses lines 12, 13 (add, mul, relu)"
    library = next(k for k in kernels if k["name"].startswith("extern_kernels."))
    assert "nameText" not in library and library["lensText"] == "library call for line 11 (addmm)"
    # schema 1.29: the kernel both compiles made alike (the recompile made it again), once, with the compiles
    # the compiles grouped by their function, one separator each (was "forward; forward, recompile 1")
    assert (
        fused["sharedText"]
        == "fused C++ function 1 (lines 12, 13), made by 2 compiles: forward (first compile and the recompile for x's size 16 in dimension 0)"
    )
    assert (
        library["sharedText"]
        == "library call for line 11 (addmm), made by 2 compiles: forward (first compile and the recompile for x's "
        "size 16 in dimension 0)"
    )
    grouped = compile_names.shared_text(
        fused, ["forward", "forward after line 24", "forward after line 24, recompile 2"]
    )  # type: ignore[arg-type]
    assert grouped.endswith("made by 3 compiles: forward and forward after line 24 (first compile and recompile 2)")
    # more than 3 of one function by their count: each listed was a wall of "the recompile for self.calls == 17"
    many = compile_names.shared_text(fused, ["forward", *(f"forward, recompiled for n == {n}" for n in range(4))])  # type: ignore[arg-type]
    assert many.endswith("made by 5 compiles: forward (first compile and 4 recompiles)")
    counter = next(k for k in _compiler("counter-cpu")["kernels"] if k.get("sharedText"))
    assert counter["sharedText"].endswith("made by 8 compiles: forward (first compile and 7 recompiles)")
    bare = {key: value for key, value in fused.items() if key != "sharedText"}
    alone = {"frames": [], "kernels": [dict(bare, compileId="0/0"), dict(bare, compileId="0/1", sourceLines=[])]}
    compile_names.name_all(alone)  # type: ignore[arg-type]
    assert all("sharedText" not in k for k in alone["kernels"]), "other lines: another kernel, each said alone"
    triton = {"name": "triton_red_fused_sum_3", "atenOps": [], "sourceLines": []}
    assert compile_names.kernel_name(triton, None) == "fused reduction kernel 4"  # type: ignore[arg-type]
    across = [{"file": "/a/model.py", "line": 3}, {"file": "/a/fused.py", "line": 12}]
    assert compile_names.lines_text(across) == "model.py:3, fused.py:12"  # type: ignore[arg-type]


def test_a_cpu_reports_generated_functions_are_named_as_the_compare_counts_them_never_kernels() -> None:
    """Review 18Y Y4: on a CPU the rows count "generated C++ functions", and the items they list read "fused kernel 1
    of scale"; Inductor's C++ (cpp_fused_*) is named a C++ function, its Triton (a GPU's) a kernel, as before."""
    for name in ("fused-cpu", "counter-cpu", "script-kernels-cpu"):
        report = json.loads((FIXTURES / name / "report.json").read_text())
        assert report["environment"]["device"] == "cpu"
        said = [
            k[key]
            for part in [*report["modes"], *(report.get("regions") or [])]
            for k in (part.get("compiler") or {}).get("kernels") or []
            for key in ("nameText", "sharedText")
            if key in k
        ]
        assert any(s.startswith("fused C++ function") for s in said), name
        assert not any("kernel" in s for s in said), name
    cpp = {"name": "graph_1_cpp_fused_add_gelu_mul_sum_0", "atenOps": [], "sourceLines": []}
    assert compile_names.kernel_name(cpp, "scale") == "fused C++ function 1 of scale"  # type: ignore[arg-type]
    triton = {"name": "triton_poi_fused_addmm_relu_0", "atenOps": [], "sourceLines": []}
    assert compile_names.kernel_name(triton, "forward") == "fused kernel 1 of forward"  # type: ignore[arg-type]


def test_every_recorded_frame_outside_the_users_files_is_said_one_way() -> None:
    """Review 6B: "helper (not in your files)" on the attached job's screens beside "helper (in Python's
    contextlib.py)" on the DDP report's, one row of one script. A fixture recorded before schema 1.31 keeps its
    compiler log, from which scripts/rederive_fixtures.py reads where each frame is, as the runner reads it now."""
    reports = [json.loads(path.read_text()) for path in sorted(FIXTURES.parent.glob("**/*report.json"))]
    said = [
        frame["nameText"]
        for report in reports
        for entry in [*report["modes"], *(report.get("regions") or [])]
        for frame in (entry.get("compiler") or {}).get("frames") or []
        if "nameText" in frame
    ]
    assert any("with statement's context manager, contextlib" in s for s in said)
    assert not [s for s in said if "not in your files" in s or " of Python's " in s]


def test_a_compile_no_frame_lists_is_named_for_its_phase_row_one_that_only_autotuned_as_no_recompile() -> None:
    """Review 13 O6: h100-mlp's third compile holds nothing but `autotune 108 ms` and the heading says "1 made none:
    autotuning alone", yet its row read "compiled function 1, recompile 2": the runner names the rows of compiles no
    frame lists, that one as the autotuning it was."""
    phases = [
        {"compileId": "0/0", "name": "Dynamo: whole frame", "startMs": 0.0, "durMs": 5.0, "depth": 0},
        {"compileId": "0/1", "name": "Dynamo: whole frame", "startMs": 6.0, "durMs": 5.0, "depth": 0},
        {"compileId": "0/2", "name": "autotune", "startMs": 12.0, "durMs": 1.0, "depth": 0},
    ]
    compiler = {"frames": [], "recompiles": [], "kernels": [], "phases": phases}
    compile_names.name_all(compiler)  # type: ignore[arg-type]
    assert compiler["phaseRowTexts"] == {
        "0/0": "compiled function 1",
        "0/1": "compiled function 1, recompile 1",
        "0/2": "compiled function 1: only autotuned, made no graph",
    }
    # a compile a frame lists is named by its frame, as before: no row name of its own
    frames = [{"compileId": "0/0", "function": "forward", "location": {"file": "/a/m.py", "line": 3}, "seconds": 1.0}]
    listed = {"frames": frames, "recompiles": [], "kernels": [], "phases": phases[:1]}
    compile_names.name_all(listed)  # type: ignore[arg-type]
    assert "phaseRowTexts" not in listed
    report = json.loads((FIXTURES / "h100-mlp" / "report.json").read_text())
    rows = report["modes"][0]["compiler"]["phaseRowTexts"]
    assert rows["0/2"] == "compiled function 1: only autotuned, made no graph"
    assert not any("recompile 2" in row for row in rows.values())


def test_every_compile_that_made_no_graph_says_so_in_its_row_as_the_heading_counts_it() -> None:
    """Review 15 U2/V1: the heading said "5 made no graph: 4 captured nothing in function forward, 1 hit the recompile
    limit" over Counter's five unmarked rows, and DDP's "4 made no graph" over rank 0's four unmarked rows: which
    made nothing was left to guess. Each row that made none says so, in the heading's words."""
    recorded = Path(__file__).resolve().parents[1] / "fixtures" / "recorded" / "train_small-cpu" / "report.json"
    script = json.loads(recorded.read_text())["modes"][0]["compiler"]
    rows = script["phaseRowTexts"]
    assert rows == {
        "2/0": "forward, captured nothing, made no graph",
        "2/1": "forward, recompiled for self.calls == 1, captured nothing, made no graph",
        "2/2": "forward, recompiled for self.calls == 2, captured nothing, made no graph",
        "2/3": "forward, recompiled for self.calls not in (0, 1, 2), captured nothing, made no graph",
    }
    limit = [f["nameText"] for f in script["frames"] if f["nameText"].endswith(compile_names.NO_GRAPH)]
    assert limit == ["step: hit the recompile limit, made no graph"]
    assert "5 made no graph: 4 captured nothing in function forward, 1 hit the recompile limit" in script["phasesText"]
    # DDP: no op count logged, but only forward's compile handed a graph to the backend, the one graph counted: the
    # other four made none; those whose frame broke (a graph break recorded in it, or its function resumed after one)
    # stopped at that break, as the card's "graph breaks (in compiles that made no graph)" says (review 17 X3: the
    # heading said "for reasons the log does not give"); the resumed part as its row says it, after a graph break
    # (review 18Y Y8: "for a reason the log does not give" beside the row "…, after a graph break in it)"; each rank's
    # group of rows too)
    ddp = json.loads((DDP / "report.json").read_text())["modes"][0]["compiler"]
    (rank0, rank1) = [g["compiler"]["phaseRowTexts"] for g in ddp["rankPhases"]]
    assert ddp["phaseRowTexts"] == rank0 and sorted(rank0) == ["0/0", "1/0", "2/0", "3/0"]
    assert rank0["0/0"] == "DistributedDataParallel at ddp_train.py:77, stopped at a graph break, made no graph"
    assert all(row.endswith(", made no graph") and "captured" not in row for row in rank0.values())
    assert [c for c, row in rank0.items() if "stopped at a graph break" in row] == ["0/0", "1/0", "2/0"]
    assert rank0["3/0"].endswith(
        "(starting a with statement's context manager, contextlib, after a graph break in it), made no graph"
    )
    assert ddp["rankPhases"][0]["compiler"]["phasesText"].startswith(
        "5 compiles (1 graph; 4 made no graph: 3 stopped at a graph break, 1 resumed after a graph break) "
    )
    assert (
        rank1["0/1"] == "DistributedDataParallel at ddp_train.py:77, recompiled for x's size 8 in dimension 0, "
        "stopped at a graph break, made no graph"
    )
    # no break recorded and no resumed part listed: none is said to have stopped at one
    assert compile_names.no_graph_reasons({**ddp, "graphBreaks": [], "frames": ddp["frames"][:3]}) == {  # type: ignore[typeddict-item]
        "0/0": None,
        "1/0": None,
        "2/0": None,
        "3/0": None,
    }
    assert "4/0" not in rank0 and "4/1" not in rank1
    # where the compiles known to have made a graph are fewer than the graphs counted, which made none is not known:
    # none is said to
    frames = [{"compileId": f"{n}/0", "function": "f", "location": None, "seconds": 1.0} for n in range(3)]
    unknown = {"frames": frames, "graphCount": 1, "recompiles": [], "kernels": [], "phases": []}
    assert compile_names.no_graph_reasons(unknown) == {}  # type: ignore[arg-type]
    unknown["kernels"] = [{"name": "cpp_fused_add_0", "compileId": "2/0", "atenOps": [], "sourceLines": []}]
    assert compile_names.no_graph_reasons(unknown) == {"0/0": None, "1/0": None}  # type: ignore[arg-type]


def test_only_autotuned_is_one_rule_for_the_heading_s_count_and_the_row() -> None:
    """The code read's item 8: the heading counted "only autotuned" by one rule (failures left out) and the row named
    it by another (failures in; a listed frame kept its own name)."""
    from compile_lens_runner.report import compiler_text

    phases = [
        {"compileId": "0/0", "name": "backend compile", "startMs": 0.0, "durMs": 5.0, "depth": 0},
        {"compileId": "0/1", "name": "autotune", "startMs": 6.0, "durMs": 1.0, "depth": 0},
    ]
    failed = {"compileId": "0/1", "failType": "BackendCompilerFailed", "reason": "x"}
    compiler = {"frames": [], "recompiles": [], "kernels": [], "phases": phases, "graphCount": 1}
    compiler["compileFailures"] = [failed]
    compile_names.name_all(compiler)  # type: ignore[arg-type]
    assert compile_names.only_autotuned(compiler) == set()  # type: ignore[arg-type]
    assert compiler["phaseRowTexts"]["0/1"] == "compiled function 1, recompile 1, failed, made no graph"
    assert compiler_text.compiles_made(2, 1, compiler) == "2 compiles (1 graph; 1 made no graph: failed)"  # type: ignore[arg-type]
    # a listed frame with only autotuning under it: no recompile of its function, in its row as in the count
    frames = [
        {"compileId": f"0/{n}", "function": "forward", "location": {"file": "/a/m.py", "line": 3}, "seconds": 1.0}
        for n in range(2)
    ]
    listed = {"frames": frames, "recompiles": [], "kernels": [], "phases": phases, "graphCount": 1}
    compile_names.name_all(listed)  # type: ignore[arg-type]
    assert listed["phaseRowTexts"] == {"0/1": "forward: only autotuned, made no graph"}
    assert compiler_text.compiles_made(2, 1, listed) == "2 compiles (1 graph; 1 made no graph: only autotuned)"  # type: ignore[arg-type]
    # a compile at the recompile limit that no frame lists: no recompile of its function either
    compiler["compileFailures"] = [{**failed, "recompileLimitHit": True}]
    compile_names.name_all(compiler)  # type: ignore[arg-type]
    assert compiler["phaseRowTexts"]["0/1"] == "compiled function 1: hit the recompile limit, made no graph"
