"""Generated code, guards, FX graphs and compile phases from real compiler logs (test/fixtures/logs: a CPU run with
C++ kernels and a recompile, and an H100 run with Triton kernels), linked to kernels and the user's lines."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from compile_lens_runner.compiler import artifacts as compiler_artifacts
from compile_lens_runner.compiler import phase_names, torch_trace
from compile_lens_runner.compiler.insight import MAX_KERNELS, compiler_insight
from compile_lens_runner.logs import files
from compile_lens_runner.measure.compared_steps import SPEC, compared_run
from compile_lens_runner.measure.profiling import kernel_us_per_step
from compile_lens_runner.shapes.compiler import CompilePhase
from conftest import SCHEMA

LOGS = Path(__file__).resolve().parents[1] / "fixtures" / "logs"
TRACES = Path(__file__).resolve().parents[1] / "fixtures" / "traces"


def artifacts(log: str, mode: str | None, workdir: Path, trace: Path | None = None) -> dict[str, Any]:
    """The mode's compiler block as the worker builds it, with the profile trace (if any) beside the report."""
    records = [r for r in torch_trace.parse((LOGS / log).read_text()) if r.mode == mode]
    compiler = compiler_insight(records, lambda record: None, cudagraphs=False)
    if trace:
        (workdir / trace.name).write_bytes(trace.read_bytes())
    compiler_artifacts.attach(compiler, records, str(workdir), mode or "default", trace.name if trace else None, 3)
    validator = jsonschema.Draft202012Validator({"$defs": SCHEMA["$defs"], "$ref": "#/$defs/compiler"})
    validator.validate(json.loads(json.dumps(compiler)))
    return compiler


def line_of(workdir: Path, relative: str, line: int) -> str:
    return (workdir / relative).read_text().split("\n")[line - 1]


def kernel(compiler: dict[str, Any], name: str, compile_id: str) -> dict[str, Any]:
    return next(k for k in compiler["kernels"] if k["name"] == name and k["compileId"] == compile_id)


def test_cpu_log_links_cpp_kernels_to_their_code_and_lines(tmp_path: Path) -> None:
    compiler = artifacts("cpu-fused-recompile.log", "default", tmp_path, LOGS / "cpu-fused-default.trace.json")
    by_id = {c["compileId"]: c for c in compiler["compiles"]}
    assert list(by_id) == ["0/0", "0/1"]
    for compile_id, entry in by_id.items():
        fused = kernel(compiler, "cpp_fused_add_mul_relu_0", compile_id)
        assert line_of(tmp_path, entry["outputCode"], fused["codeLine"]).startswith(
            "cpp_fused_add_mul_relu_0 = async_compile.cpp_pybinding("
        )
        assert [loc["line"] for loc in fused["sourceLines"]] == [12, 13] and fused["atenOps"] == [
            "aten.add",
            "aten.mul",
            "aten.relu",
        ]
        extern = kernel(compiler, "extern_kernels.addmm", compile_id)
        assert line_of(tmp_path, entry["outputCode"], extern["codeLine"]).strip().startswith("extern_kernels.addmm(")
        assert "class GraphModule" in (tmp_path / entry["fxGraph"]).read_text()
        assert entry["guardCount"] > 10 and (tmp_path / entry["guards"]).read_text().count("TENSOR_MATCH") >= 1
    # the profile ran the timed inputs (batch 16): compile 0/1 ran, its kernel has a time; 0/0's did not run
    assert kernel(compiler, "cpp_fused_add_mul_relu_0", "0/1")["usPerStep"] > 0
    assert kernel(compiler, "cpp_fused_add_mul_relu_0", "0/0")["usPerStep"] is None


def test_a_compile_logged_again_lists_its_kernels_from_its_last_graphs_up_to_the_cap(tmp_path: Path) -> None:
    # the same compile ids logged 61 times (a log of several runs, Dynamo reset between them); in the later runs the
    # fused kernel's relu node is a sigmoid
    text = (LOGS / "cpu-fused-recompile.log").read_text()
    again = text.replace("torch.ops.aten.relu.default(add)", "torch.ops.aten.sigmoid.default(add)")
    records = [r for r in torch_trace.parse(text + again * 60) if r.mode == "default"]
    compiler = compiler_insight(records, lambda record: None, cudagraphs=False)
    compiler_artifacts.attach(compiler, records, str(tmp_path), "default", None, 3)
    assert len(compiler["kernels"]) == MAX_KERNELS  # 244 in the log
    fused = [k for k in compiler["kernels"] if k["name"] == "cpp_fused_add_mul_relu_0"]
    assert {tuple(k["atenOps"]) for k in fused} == {("aten.add", "aten.mul", "aten.sigmoid")}  # each node's last op
    code = {c["compileId"]: c["outputCode"] for c in compiler["compiles"]}
    last = fused[-1]
    assert line_of(tmp_path, code[last["compileId"]], last["codeLine"]).startswith("cpp_fused_add_mul_relu_0 = ")


def test_recompile_names_the_failed_guard_in_the_earlier_compile(tmp_path: Path) -> None:
    compiler = artifacts("cpu-fused-recompile.log", "default", tmp_path)
    first, recompile = compiler["compiles"]
    assert first["failedGuards"] == []
    [failed] = recompile["failedGuards"]
    assert failed["compileId"] == "0/0" and failed["guards"] == first["guards"]
    assert failed["reason"] == "tensor 'x' size mismatch at index 0. expected 8, actual 16"
    text = line_of(tmp_path, failed["guards"], failed["line"])
    assert "TENSOR_MATCH: check_tensor(L['x']" in text and "size=[8, 64]" in text and failed["guard"] in text


def test_h100_log_links_triton_kernels(tmp_path: Path) -> None:
    # mlp-default.trace.json is the same model profiled on the same H100 (compile 0/0 ran in it)
    compiler = artifacts("h100-recompile-cold.log", None, tmp_path, TRACES / "mlp-default.trace.json")
    by_id = {c["compileId"]: c for c in compiler["compiles"]}
    triton = kernel(compiler, "triton_poi_fused_addmm_relu_0", "0/0")
    code = by_id["0/0"]["outputCode"]
    assert (
        line_of(tmp_path, code, triton["codeLine"])
        == "triton_poi_fused_addmm_relu_0 = async_compile.triton('triton_poi_fused_addmm_relu_0', '''"
    )
    assert (
        line_of(tmp_path, code, kernel(compiler, "extern_kernels.mm", "0/0")["codeLine"])
        .strip()
        .startswith("extern_kernels.mm(")
    )
    assert [loc["line"] for loc in triton["sourceLines"]] == [19] and triton["atenOps"] == ["aten.add", "aten.relu"]
    assert triton["usPerStep"] == pytest.approx(1.131, abs=0.01)
    assert kernel(compiler, "triton_poi_fused_addmm_relu_0", "0/1")["usPerStep"] is None
    [failed] = by_id["0/1"]["failedGuards"]
    assert "size=[32, 512]" in line_of(tmp_path, failed["guards"], failed["line"])


def test_phases_nest_per_compile_and_mark_cache_lookups(tmp_path: Path) -> None:
    phases = artifacts("h100-recompile-cold.log", None, tmp_path)["phases"]
    first = [p for p in phases if p["compileId"] == "0/0"]
    names = [p["name"] for p in first]
    for name in (
        "Dynamo: whole frame",
        "Dynamo: trace bytecode",
        "AOT Autograd",
        "Inductor",
        "Inductor: codegen",
        "kernel compile",
    ):
        assert name in names
    whole = next(p for p in first if p["name"] == "Dynamo: whole frame")
    codegen = next(p for p in first if p["name"] == "Inductor: codegen")
    assert whole["depth"] == 0 and codegen["depth"] > whole["depth"]
    assert (
        whole["startMs"] <= codegen["startMs"]
        and codegen["startMs"] + codegen["durMs"] <= whole["startMs"] + whole["durMs"]
    )
    assert {(p["name"], p["cache"]) for p in first if "cache" in p} == {
        ("FX graph cache", "miss"),
        ("AOT autograd cache", "miss"),
    }
    assert all(p["durMs"] > 0 for p in phases if "cache" not in p)


def test_a_training_loop_s_lazy_backward_compile_is_in_its_compile_seconds() -> None:
    """A static graph's backward compiles at its first backward, outside the frame's compile (its own
    bwd_compilation_metrics, 24.5 s here); the size-generic 0/1 compiles its backward inside the frame's (65.3 s)."""
    compiler = compiler_insight(
        torch_trace.parse((LOGS / "cpu-train-varlen.log").read_text()), lambda record: None, cudagraphs=False
    )
    seconds = compiler["compileSeconds"]
    assert seconds["total"] == pytest.approx(20.913 + 24.543 + 65.348, abs=0.01)
    assert seconds["dynamo"] + seconds["aot"] + seconds["inductor"] + seconds["codegen"] == pytest.approx(
        seconds["total"], abs=0.01
    )
    assert seconds["codegen"] == pytest.approx(13.398 + 23.747 + 53.213, abs=0.01)
    assert [f["compileId"] for f in compiler["frames"]] == ["0/0", "0/1"]  # a backward is no frame of its own
    assert compiler["cache"] == {
        "fxGraph": {"hit": 0, "miss": 4, "bypass": 0},
        "aotAutograd": {"hit": 0, "miss": 2, "bypass": 0},
    }


def test_a_graph_from_an_attempt_dynamo_restarted_is_not_counted() -> None:
    """The same loop with dynamic=True: Dynamo logged 0/0's graph, restarted the compile's analysis
    (TensorifyScalarRestartAnalysis) and logged its graph again at attempt 1: one graph was made. The log twice over
    (its ids compiled again after a reset) is two."""
    text = (LOGS / "cpu-train-varlen-dynamic.log").read_text()
    records = torch_trace.parse(text)
    graphs = [(r.compile_id, r.attempt) for r in records if r.kind == "dynamo_output_graph"]
    assert graphs == [("0/0", 0), ("0/0", 1)]
    compiler = compiler_insight(records, lambda record: None, cudagraphs=False)
    assert compiler["graphCount"] == 1 and [f["compileId"] for f in compiler["frames"]] == ["0/0"]
    assert compiler_insight(torch_trace.parse(text + text), lambda record: None, cudagraphs=False)["graphCount"] == 2


def test_a_restarted_compile_s_graph_code_and_kernel_lines_are_its_last_attempt_s(tmp_path: Path) -> None:
    """restart_float.py under dynamic=True: Dynamo traced `scale` as a symbolic float (an input, `.item()`), AOT autograd
    could not keep it symbolic and Dynamo restarted 0/0 with it specialised (`0.5 * 2`). The first attempt's graph was
    logged, never compiled: the compile's FX graph, code and kernel are the second attempt's. The log twice over (the
    id compiled again after a reset): each run's last attempt."""
    text = (LOGS / "cpu-restart-float.log").read_text()
    assert [r.attempt for r in torch_trace.parse(text) if r.kind == "dynamo_output_graph"] == [0, 1]
    compiler = artifacts("cpu-restart-float.log", None, tmp_path)
    assert compiler["graphCount"] == 1 and compiler["restarts"] == [
        {"compileId": "0/0", "reason": "<class 'torch._dynamo.exc.TensorifyScalarRestartAnalysis'>"}
    ]
    [compile_] = compiler["compiles"]
    graph = (tmp_path / compile_["fxGraph"]).read_text()
    assert graph.count("class GraphModule") == 1 and "L_scale_" not in graph and "= 0.5 * 2" in graph
    [fused] = compiler["kernels"]
    assert line_of(tmp_path, compile_["outputCode"], fused["codeLine"]).startswith("cpp_fused_add_clamp_relu_sin_0 = ")
    assert [loc["line"] for loc in fused["sourceLines"]] == [9, 11]
    assert fused["atenOps"] == ["aten.add", "aten.clamp_max", "aten.relu", "aten.sin"]
    saved = compiler_artifacts.save(torch_trace.parse(text + text), str(tmp_path), "twice")
    graphs = (tmp_path / saved.compiles[0]["fxGraph"]).read_text()
    assert graphs.count("class GraphModule") == 2 and "L_scale_" not in graphs


def test_cache_hit_and_unattributed_work_in_phases() -> None:
    def event(name: str, ph: str, ts: float, compile_id: str | None, **args: Any) -> str:
        payload = json.dumps({"name": name, "ts": ts, "ph": ph, "args": {"compile_id": compile_id, **args}})
        return f'V1123 05:33:40.852000 1 x.py:1] {{"chromium_event": {{}}, "has_payload": "x"}}\n\t{payload}'

    log = "\n".join(
        [
            event("entire_frame_compile", "B", 1000, "0/0"),
            event("AOTAutogradCache.inductor_load", "B", 2000, "0/0"),
            event("compile_file", "B", 2500, "None"),
            event("compile_file", "E", 3500, "None"),
            event("AOTAutogradCache.inductor_load", "E", 4000, "0/0"),
            event("autograd_cache_hit", "i", 4100, "0/0", cache_state="hit"),
            event("entire_frame_compile", "E", 5000, "0/0"),
            event("bytecode_tracing", "B", 6000, "1/0"),
        ]
    )
    phases = compiler_artifacts.phases(torch_trace.parse(log))
    assert [(p["compileId"], p["name"], p["startMs"], p["durMs"], p["depth"]) for p in phases] == [
        ("0/0", "Dynamo: whole frame", 0.0, 4.0, 0),
        ("0/0", "load from cache", 1.0, 2.0, 1),
        ("0/0", "C++ compile", 1.5, 1.0, 2),
        ("0/0", "AOT autograd cache", 3.1, 0.0, 1),
    ]  # the span the log never closed is not shown
    assert phases[-1]["cacheHit"] is True and phases[-1]["cache"] == "hit"


def test_a_cold_cpu_compile_s_codegen_adds_up_to_named_parts() -> None:
    """Review 25 N1: a cold first compile on CPU (gated_service-cpu, recorded) spent 58.7 s in Inductor's codegen, of
    which the C++ compiles drawn in it were 15 s: the rest was drawn as nothing. Codegen's parts are named (the
    kernels' code, each C++ compile inside it; loading the module) and add up to it."""
    (log,) = (LOGS.parent / "recorded" / "gated_service-cpu" / "torch_trace").glob("*.log")
    first = [p for p in compiler_artifacts.phases(torch_trace.parse(log.read_text())) if p["compileId"] == "0/0"]
    [codegen] = [p for p in first if p["name"] == "Inductor: codegen"]
    parts = [p for p in first if p["depth"] == codegen["depth"] + 1 and not p.get("cache")]
    inside = [p for p in parts if codegen["startMs"] <= p["startMs"] <= codegen["startMs"] + codegen["durMs"]]
    assert [p["name"] for p in inside] == ["Inductor: kernel codegen", "Inductor: load module"]
    assert sum(p["durMs"] for p in inside) >= 0.99 * codegen["durMs"]
    [kernels] = [p for p in inside if p["name"] == "Inductor: kernel codegen"]
    cpp = [p for p in first if p["name"] == "C++ compile" and p["startMs"] < kernels["startMs"] + kernels["durMs"]]
    assert cpp and all(p["depth"] == kernels["depth"] + 1 for p in cpp)


def test_guards_logged_again_for_a_compile_are_its_last(tmp_path: Path) -> None:
    def guards(check: str) -> str:
        return (
            'V1123 05:33:40.852000 1 x.py:1] {"dynamo_cpp_guards_str": {}, "frame_id": 0, "frame_compile_id": 0, '
            f'"attempt": 0, "has_payload": "x"}}\n\tTREE_GUARD_MANAGER:\n\t+- RootGuardManager\n\t| +- {check}'
        )

    log = "\n".join([guards("GLOBAL_STATE: the first"), guards("TENSOR_MATCH: check_tensor(L['x'], Tensor, size=[2])")])
    [compiled] = compiler_artifacts.save(torch_trace.parse(log), str(tmp_path), "default").compiles
    text = (tmp_path / compiled["guards"]).read_text()
    assert "TENSOR_MATCH: check_tensor(L['x']" in text and "the first" not in text and compiled["guardCount"] == 1


@pytest.mark.parametrize(
    "reason, expected",
    [
        (
            "3/0: ___stack1 == 1  # head = self.heads[...]  # anchors.py:61 in forward",
            "EQUALS_MATCH: L['___stack1'] == 1",
        ),
        (
            "0/0: tensor 'x' size mismatch at index 0. expected 32, actual 64",
            "TENSOR_MATCH: check_tensor(L['x'], Tensor, size=[32, 512])",
        ),
        ("0/0: L['self'].training == True", "ID_MATCH: ___check_obj_id(L['self'].training, 7)"),
        ("0/0: something torch said about a global we do not guard", None),
    ],
)
def test_failed_guard_matches_dynamos_reasons(reason: str, expected: str | None) -> None:
    guards = compiler_artifacts.readable_guards(
        "\n".join(
            [
                "TREE_GUARD_MANAGER:",
                "+- RootGuardManager",
                "| +- GuardManager: source=L['x'], accessed_by=FrameLocalsGuardAccessor(key='x', framelocals_idx=1), type=<class 'torch.Tensor'>, tag_safe=(True, False)",
                "| | +- TENSOR_MATCH: check_tensor(L['x'], Tensor, size=[32, 512])",
                "| +- GuardManager: source=L['___stack1'], accessed_by=FrameLocalsGuardAccessor(key='___stack1', framelocals_idx=3), type=<class 'int'>, tag_safe=(True, False)",
                "| | +- EQUALS_MATCH: L['___stack1'] == 1",
                "| +- ID_MATCH: ___check_obj_id(L['self'].training, 7)",
            ]
        )
    )
    assert "| +- L['x']  (torch.Tensor)" in guards.split("\n")
    found = compiler_artifacts.failed_guard(reason, guards)
    assert (found[1] if found else None) == expected
    if found:
        assert guards.split("\n")[found[0] - 1].endswith(expected or "")


def test_a_compile_logged_again_has_each_module_in_its_code_in_turn(tmp_path: Path) -> None:
    """A log of a run repeated (a job's log appended to): each compile's output code holds every module logged for it,
    in turn under its header, read back from the file one at a time, and each kernel's line is in its own module."""
    log = tmp_path / "twice.log"
    log.write_bytes((LOGS / "cpu-fused-recompile.log").read_bytes() * 2)
    records, _ = files.read(str(log))
    records = [r for r in records if r.mode == "default"]
    compiler = compiler_insight(records, lambda record: None, cudagraphs=False)
    compiler_artifacts.attach(compiler, records, str(tmp_path), "default", None, 0)
    for entry in compiler["compiles"]:
        code = (tmp_path / entry["outputCode"]).read_text()
        assert [line.split(" (")[0] for line in code.split("\n") if line.startswith("# ---- Compile Lens")] == [
            "# ---- Compile Lens: Inductor output code 1 of 2",
            "# ---- Compile Lens: Inductor output code 2 of 2",
        ]
        fused = [
            k
            for k in compiler["kernels"]
            if k["name"] == "cpp_fused_add_mul_relu_0" and k["compileId"] == entry["compileId"]
        ]
        assert len(fused) == 2 and fused[0]["codeLine"] < fused[1]["codeLine"]
        assert all(
            line_of(tmp_path, entry["outputCode"], k["codeLine"]).startswith("cpp_fused_add_mul_relu_0 = ")
            for k in fused
        )
        assert (tmp_path / entry["fxGraph"]).read_text().count("class GraphModule") == 2


def test_one_phase_one_name_in_every_fixture() -> None:
    """Review 10 D12/C12: a cache hit's load read "cache hit: load" in train_small and "load from cache" in
    serve_script, beside a legend naming the 'load from cache' bar. Every fixture's phases are named as the runner
    names them now (re-derived), by the one table the timeline reads too."""
    fixtures = Path(__file__).resolve().parents[1] / "fixtures"
    named = set(compiler_artifacts.PHASE_LABELS.values()) | {"autotune", "FX graph cache", "AOT autograd cache"}
    loads: dict[str, set[str]] = {}
    for path in fixtures.rglob("*report.json"):
        report = json.loads(path.read_text())
        for entry in [*report.get("modes", []), *(report.get("regions") or [])]:
            for phase in (entry.get("compiler") or {}).get("phases") or []:
                assert phase["name"] in named, f"{path}: {phase['name']}"
                if "load" in phase["name"] and "module" not in phase["name"]:
                    loads.setdefault(phase["name"], set()).add(path.parent.name)
    assert compiler_artifacts.PHASE_LABELS["AOTAutogradCache.inductor_load"] == "load from cache"
    assert list(loads) == ["load from cache"] and {"train_small-cpu", "serve_script-cpu"} <= loads["load from cache"]


def test_a_phases_last_label_is_its_short_name_where_its_name_has_no_room(tmp_path: Path) -> None:
    """Review 10H H2: a bar with no room for "Dynamo: build guards 209 ms" read "209 ms", a bare time beside a named
    bar; its short name ("guards 209 ms"), the last of its labels, labels it instead; code read 36 item 7: not written
    apart as well (`shortName`, which the chart reads only in a report before labels)."""
    phases = artifacts("h100-recompile-cold.log", None, tmp_path)["phases"]
    last = {p["name"]: p["labels"][-1] for p in phases if "cache" not in p}
    assert last["Dynamo: build guards"] == "guards" and last["Dynamo: whole frame"] == "Dynamo"
    assert last["Inductor"] == "Inductor"  # short already
    assert all("shortName" not in p for p in phases)
    assert all("labels" not in p for p in phases if "cache" in p)  # a marker, not a labelled bar
    # each short name is shorter than the name less its compiler part ("build guards"), the form tried before it
    for name, said in phase_names.SHORT_NAMES.items():
        assert len(said) < len(name.split(": ")[-1]), name


def _phase(name: str, start: float, dur: float, depth: int, cid: str = "0/1") -> CompilePhase:
    return {"compileId": cid, "name": name, "startMs": start, "durMs": dur, "depth": depth}


def test_a_compiles_phases_of_one_name_are_told_apart_by_the_runner() -> None:
    """Code read 35 item 1: the words that tell a compile's phases of one name apart ("Inductor (backward)", "C++
    compile (backward, 1 of 2)") are the runner's (schema 1.40 labels), the chart only draws them: by the part of the
    compile they lie under (its backward compile), then by their order; a shorter name two phases share left out."""
    phases = [
        _phase("Dynamo: trace bytecode", 0, 5, 0),
        _phase("Dynamo: trace bytecode", 6, 5, 0),
        _phase("Inductor", 12, 10, 1),
        _phase("C++ compile", 13, 2, 2),
        _phase("backward compile", 30, 20, 1),
        _phase("Inductor", 31, 15, 2),
        _phase("C++ compile", 40, 2, 3),
        _phase("C++ compile", 32, 2, 3),
        _phase("Inductor: codegen", 33, 5, 3),
        _phase("Inductor: kernel codegen", 34, 1, 4),
        {**_phase("FX graph cache", 12, 0, 1), "cache": "hit", "cacheHit": True},
        _phase("Inductor", 0, 3, 0, cid="1/0"),  # another compile's: alone in its row
    ]
    phase_names.label_phases(phases)
    labels = [p.get("labels") for p in phases]
    assert labels == [
        # Dynamo traced the frame again: its restart, said (review 13 O7), not "(1 of 2)"
        # the first given up, the frame traced again from its start (review 19Y Y5)
        [
            "Dynamo: trace bytecode (given up, restarted)",
            "trace bytecode (given up, restarted)",
            "trace (given up, restarted)",
        ],
        ["Dynamo: trace bytecode (again)", "trace bytecode (again)", "trace (again)"],
        ["Inductor (forward)"],
        ["C++ compile (forward)", "C++ (forward)"],
        ["backward compile", "backward"],
        ["Inductor (backward)"],
        ["C++ compile (backward, 2 of 2)", "C++ (backward, 2 of 2)"],  # by start, not by order in the list
        ["C++ compile (backward, 1 of 2)", "C++ (backward, 1 of 2)"],
        ["Inductor: codegen"],  # "codegen" is kernel codegen's short name too: neither is said by it
        ["Inductor: kernel codegen", "kernel codegen"],
        None,  # a cache lookup is a marker, not a bar
        ["Inductor"],
    ]
    # where a count is said, the names without it: the chart's where a mate has no label (review 13 P6)
    uncounted = [p.get("uncountedLabels") for p in phases]
    assert uncounted[6] == uncounted[7] == ["C++ compile (backward)", "C++ (backward)"]
    # a trace's attempt is no count: kept where its restart is bare, the one word that says Dynamo traced the frame
    # twice (review 15U R4)
    assert [k for k, u in enumerate(uncounted) if u] == [6, 7]
    # their count and time in all, for the row's hover where some are bare (review 17X X4); never a trace's restarts
    counted = [p.get("countedText") for p in phases]
    assert counted[6] == counted[7] == "2 × C++ compile (backward), 4 ms in all"
    assert [k for k, c in enumerate(counted) if c] == [6, 7]


def test_a_cpu_runs_codegen_is_said_as_c_plus_plus_a_gpu_runs_as_kernels() -> None:
    """Review 22X X3: a CPU report's legend says "C++ compile" (Inductor builds C++ functions there, no kernel) while
    its bars read "Inductor: kernel codegen": on a CPU run the bar, its short forms and its count say C++ codegen; a
    GPU run's keep kernel codegen. The phase keeps its name (the chart colours it by that)."""

    def said(on_cpu: bool) -> list[CompilePhase]:
        phases = [
            _phase("Inductor: codegen", 0, 10, 0),
            _phase("Inductor: kernel codegen", 1, 3, 1),
            _phase("Inductor: kernel codegen", 5, 4, 1),
        ]
        phase_names.label_phases(phases, on_cpu)
        return phases

    cpu, gpu = said(True), said(False)
    assert cpu[1]["labels"] == ["Inductor: C++ codegen (1 of 2)", "C++ codegen (1 of 2)"]
    assert cpu[2]["uncountedLabels"] == ["Inductor: C++ codegen", "C++ codegen"]
    assert cpu[1]["countedText"] == "2 × Inductor: C++ codegen, 7 ms in all"
    assert [p["name"] for p in cpu] == [p["name"] for p in gpu]
    assert gpu[1]["labels"] == ["Inductor: kernel codegen (1 of 2)", "kernel codegen (1 of 2)"]
    assert gpu[1]["countedText"] == "2 × Inductor: kernel codegen, 7 ms in all"
    assert cpu[0]["labels"] == gpu[0]["labels"] == ["Inductor: codegen"]


def test_a_phases_names_are_the_same_on_every_bar_of_it_in_a_record() -> None:
    """Review 13 O5: one chart said a phase by several names; a shorter name two phases of the record share is left
    out of every bar of each, not only in the compile where both are (so each bar of a phase has the same forms), and a
    frame Dynamo restarted twice counts its restarts."""
    phases = [
        _phase("Inductor: codegen", 0, 5, 0),
        _phase("Inductor: codegen", 0, 5, 0, cid="1/0"),
        _phase("Inductor: kernel codegen", 1, 1, 1, cid="1/0"),
        _phase("Dynamo: trace bytecode", 0, 5, 0, cid="2/0"),
        _phase("Dynamo: trace bytecode", 6, 5, 0, cid="2/0"),
        _phase("Dynamo: trace bytecode", 12, 5, 0, cid="2/0"),
    ]
    phase_names.label_phases(phases)
    assert phases[0]["labels"] == phases[1]["labels"] == ["Inductor: codegen"]
    assert [p["labels"][0] for p in phases[3:]] == [
        "Dynamo: trace bytecode (given up, restarted)",
        "Dynamo: trace bytecode (again, 1 of 2)",
        "Dynamo: trace bytecode (again, 2 of 2)",
    ]
    # without their count where one of the frame's traces has no label, never without their attempt: the first
    # trace's "(given up, restarted)" says a restart came where no restart is named (review 15U R4)
    assert "uncountedLabels" not in phases[3]
    assert [p["uncountedLabels"][0] for p in phases[4:]] == ["Dynamo: trace bytecode (again)"] * 2


def test_a_fixtures_phases_carry_the_runners_names_for_them() -> None:
    """A torchrun job's rank 1 recompiled its forward and compiled its backward with it: its phases in the fixture
    (re-derived: scripts/rederive_fixtures.py) carry each bar's names told apart, as artifacts.phases emits them."""
    report = json.loads(
        (Path(__file__).resolve().parents[1] / "fixtures/reports/ddp-ranks-cpu/report.json").read_text()
    )
    groups = [g for m in report["modes"] for g in (m.get("compiler") or {}).get("rankPhases") or []]
    told = {label for g in groups for p in g["compiler"]["phases"] for label in p.get("labels") or []}
    assert {"Inductor (forward)", "Inductor (backward)", "C++ compile (backward, 1 of 2)"} <= told
    assert {"Dynamo: trace bytecode (given up, restarted)", "Dynamo: trace bytecode (again)"} <= told  # 13 O7, 19Y Y5
    assert not any(label.startswith("Dynamo: trace bytecode (1 of") for label in told)
    bars = [p for g in groups for p in g["compiler"]["phases"] if "cache" not in p]
    # a CPU job's: its codegen in the CPU's words (review 22X X3)
    assert "Inductor: C++ codegen (forward)" in told and not any("kernel" in label for label in told)
    assert bars and all(p["labels"][0].startswith(phase_names.CPU_LABELS.get(p["name"], p["name"])) for p in bars)


def test_a_kernel_s_time_per_step_is_of_the_steps_the_compare_counts() -> None:
    """Review 13O O2: one fused kernel read "0.943 µs/step" on its hover (the mean of every profiled step, the first
    with the profiler's start-up in it) and "0.891 µs/step" in the compare (steps 2–3). Its time is now of the steps
    the compare counts, past the first, and says which."""
    trace = Path(__file__).resolve().parents[1] / "fixtures" / "reports" / "fused-cpu" / "default.trace.json"
    times = kernel_us_per_step(str(trace), 3)
    assert times["steps"] == (2, 3)
    events = json.loads(trace.read_text())["traceEvents"]
    steps = {e["name"]: (e["ts"], e["ts"] + e["dur"]) for e in events if e.get("name", "").startswith("ProfilerStep#")}
    fused = [e for e in events if e.get("cat") == "cpu_op" and e.get("name", "").endswith("cpp_fused_add_mul_relu_0")]
    past_first = [
        e["dur"] for e in fused if any(a <= e["ts"] < b for n, (a, b) in steps.items() if n != "ProfilerStep#1")
    ]
    every = [e["dur"] for e in fused]
    assert len(every) > len(past_first) > 0
    [(_, us)] = [(key, us) for key, us in times["us"].items() if key[1].endswith("cpp_fused_add_mul_relu_0")]
    assert us == pytest.approx(sum(past_first) / 2) and us != pytest.approx(sum(every) / 3)
    assert round(us, 3) == 0.891  # the compare's, as the fixture's compare list says it


def test_a_cuda_trace_s_kernel_time_counts_each_step_once_by_its_cpu_marker() -> None:
    """Code read 37 item 1: a CUDA trace marks each step twice (the CPU's `user_annotation` and the stream's
    `gpu_user_annotation`); the H200 fixture's top kernel read 9.03 µs "mean of steps 1–2" (step 1 counted, divided by
    3). It is step 2's: the kernels launched inside the CPU's ProfilerStep#2, over one step."""
    trace = Path(__file__).resolve().parents[1] / "fixtures/recorded/encoder_fastpath-h200/in-situ-eager.trace.json"
    events = json.loads(trace.read_text())["traceEvents"]
    assert {e.get("cat") for e in events if e.get("name") == "ProfilerStep#2"} == {
        "user_annotation",
        "gpu_user_annotation",
    }
    times = kernel_us_per_step(str(trace), 2)
    assert times["steps"] == (2, 2)
    [(a, b)] = [
        (e["ts"], e["ts"] + e["dur"])
        for e in events
        if e.get("name") == "ProfilerStep#2" and e["cat"] == "user_annotation"
    ]
    launched = {
        e["args"]["correlation"]
        for e in events
        if e.get("cat") in ("cuda_runtime", "cuda_driver")
        and "correlation" in (e.get("args") or {})
        and a <= e["ts"] < b
    }
    top = max(times["us"].items(), key=lambda kv: kv[1])
    in_step_2 = sum(
        e["dur"]
        for e in events
        if e.get("cat") == "kernel" and e["name"] == top[0][1] and e["args"].get("correlation") in launched
    )
    assert top[1] == pytest.approx(in_step_2) and round(top[1], 2) == 14.98


def test_a_kernel_s_steps_are_the_compare_s_those_without_a_compile() -> None:
    """Code read 37 item 3: the runner counted every step but the first, the compare (compare.ts stepsCompared) the
    longest run of them without a compile. train_small's in-situ eager trace holds another region's compile in step 3:
    the compare counts step 2 (test/unit/traceCompare.test.ts, "a step in which a compile ran"), and so do the kernels."""
    trace = Path(__file__).resolve().parents[1] / "fixtures/traces/train_small-before-s29/in-situ-eager.trace.json"
    assert kernel_us_per_step(str(trace), 3)["steps"] == (2, 2)
    # a recompile in step 3 of 4: step 2, as test/unit/traceCompare.test.ts holds the compare to on this trace
    four = Path(__file__).resolve().parents[1] / "fixtures/traces/constructed/recompile-in-step-3-of-4.trace.json"
    assert kernel_us_per_step(str(four), 4)["steps"] == (2, 2)


@pytest.mark.parametrize("case", SPEC["cases"])
def test_the_compared_steps_are_the_shared_spec_s(case: dict[str, list[int]]) -> None:
    """measure/compared_steps.json's cases, which test/unit/traceCompare.test.ts holds the compare's rule to too."""
    first, last = case["compared"]
    assert compared_run([bool(c) for c in case["compiling"]]) == (first - 1, last - 1)


def _step(n: int, at: float) -> dict[str, object]:
    return {"ph": "X", "cat": "user_annotation", "name": f"ProfilerStep#{n}", "ts": at, "dur": 10.0}


def _op(name: str, at: float, dur: float = 1.0) -> dict[str, object]:
    return {"ph": "X", "cat": "cpu_op", "name": name, "ts": at, "dur": dur}


@pytest.mark.parametrize(
    ("compiled_in", "counted", "us"),
    [
        ((), (2, 4), 3.0),  # every step but the first: 2 + 3 + 4 over 3
        ((3,), (2, 2), 2.0),  # a recompile in step 3 of 4: runs [2] and [4], the first of equals
        ((2,), (3, 4), 3.5),
        ((2, 3, 4), (2, 4), 3.0),  # every compared step compiled: all of them (the compare says them unlike)
    ],
)
def test_the_compared_steps_are_the_longest_run_without_a_compile(
    tmp_path: Path, compiled_in: tuple[int, ...], counted: tuple[int, int], us: float
) -> None:
    """4 profiled steps, step n running one `aten::mm` of n µs; a compile (Dynamo's dynamo_timed span) in some."""
    events = [e for n in range(1, 5) for e in (_step(n, n * 100.0), _op("aten::mm", n * 100.0 + 1, float(n)))]
    events += [_op("_compile.compile_inner (dynamo_timed)", n * 100.0 + 5, 2.0) for n in compiled_in]
    trace = tmp_path / "t.trace.json"
    trace.write_text(json.dumps({"traceEvents": events}))
    times = kernel_us_per_step(str(trace), 4)
    assert times["steps"] == counted
    assert times["us"][(None, "aten::mm")] == pytest.approx(us)
