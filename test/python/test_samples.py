"""The built-in samples end to end: report, traces, compiler logs, graph breaks at their lines, recompiles."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import SAMPLES_DIR, Run, marker_line, run_runner


@pytest.fixture(scope="module")
def mlp(outdir: Path) -> Run:
    return run_runner(
        "--sample",
        "mlp",
        "--quick",
        "--device",
        "cpu",
        "--modes",
        "default,reduce-overhead",
        "--out",
        str(outdir / "mlp"),
    )


@pytest.fixture(scope="module")
def default_sample(outdir: Path) -> Run:
    """No target named: the runner profiles its default sample."""
    return run_runner("--quick", "--device", "cpu", "--out", str(outdir / "default"))


@pytest.fixture(scope="module")
def graphbreak(outdir: Path) -> Run:
    """Dynamo's eager backend: what is asserted of the breaks (lines, ids, stacks, graphs, time outside the compiled
    regions) is Dynamo's and the profiler's; Inductor's C++ compile of each of the ~4 graphs was ~25 CPU-s here."""
    return run_runner(
        "--sample",
        "graphbreak",
        "--quick",
        "--device",
        "cpu",
        "--backend",
        "eager",
        "--out",
        str(outdir / "graphbreak"),
    )


@pytest.fixture(scope="module")
def recompile(outdir: Path) -> Run:
    return run_runner("--sample", "recompile", "--quick", "--device", "cpu", "--out", str(outdir / "recompile"))


def test_mlp_writes_report_traces_and_compiler_logs(mlp: Run, outdir: Path) -> None:
    assert mlp.code == 0, mlp.stderr[-3000:]
    report, root = mlp.report, mlp.report_dir
    assert root == outdir / "mlp" and report["status"] == "ok"
    assert [m["mode"] for m in report["modes"]] == ["default", "reduce-overhead"]
    assert report["environment"]["device"] == "cpu" and report["target"]["kind"] == "sample"
    assert report["target"]["line"] == marker_line(SAMPLES_DIR / "mlp.py", "class SimpleNet")
    for name in [report["eager"]["trace"]] + [m["trace"] for m in report["modes"]]:
        trace = json.loads((root / name).read_text())
        steps = {e["name"] for e in trace["traceEvents"] if e.get("name", "").startswith("ProfilerStep#")}
        assert len(steps) == 3, name
    assert report["eager"]["kernelsPerStep"] == 3  # linear, relu, linear
    assert report["eager"]["timing"]["medianMs"] > 0 and report["eager"]["peakMemoryBytes"] > 0
    for mode in report["modes"]:
        assert mode["status"] == "ok" and mode["error"] is None
        assert mode["speedup"] > 0 and mode["compileSeconds"] > 0 and mode["kernelsPerStep"] >= 1
        assert len(mode["timing"]["rounds"]) == 3 + mode["timing"]["extraRounds"] <= 9
        assert (
            len(mode["eagerTiming"]["rounds"]) == len(mode["timing"]["rounds"]) and mode["timing"]["callsPerRound"] >= 1
        )
        assert mode["correctness"]["ok"] and mode["correctness"]["maxAbsError"] < 1e-3
        compiler = mode["compiler"]
        assert compiler["graphCount"] == 1 and compiler["graphBreaks"] == [] and compiler["recompiles"] == []
        assert compiler["guardCount"] > 0 and compiler["compileSeconds"]["total"] > 0
        assert (root / compiler["torchTraceLog"]).stat().st_size > 0
        fused = [k for k in compiler["kernels"] if k["name"].startswith("cpp_fused")]
        assert fused and "aten.relu" in fused[0]["atenOps"]
        assert fused[0]["sourceLines"][0]["line"] == marker_line(SAMPLES_DIR / "mlp.py", "return self.output(")
    assert report["recommendation"]["reason"]
    phases = [line["phase"] for line in mlp.lines if line["type"] == "progress"]
    fractions = [line["fraction"] for line in mlp.lines if line["type"] == "progress"]
    assert {"eager", "compile", "timing", "profile"} <= set(phases) and fractions == sorted(fractions)


def test_the_default_sample_compiles_its_pointwise_work_into_one_fused_kernel(default_sample: Run) -> None:
    """gatedblock: two dozen eager ops per call, fused by Inductor into one C++ kernel whose code maps back to each
    line of the block (the kernel diff a newcomer sees first). Whether it pays is docs/BENCHMARKS.md's, not a test's."""
    assert default_sample.code == 0, default_sample.stderr[-3000:]
    report, source = default_sample.report, SAMPLES_DIR / "gatedblock.py"
    assert report["target"]["name"] == "gatedblock" and report["target"]["kind"] == "sample"
    assert report["target"]["line"] == marker_line(source, "class GatedResidual(")
    [mode] = report["modes"]
    assert mode["status"] == "ok" and mode["correctness"]["ok"] and mode["speedup"] > 0
    compiler = mode["compiler"]
    assert compiler["graphCount"] == 1 and compiler["graphBreaks"] == [] and compiler["recompiles"] == []
    assert report["eager"]["kernelsPerStep"] >= 20 and mode["kernelsPerStep"] < report["eager"]["kernelsPerStep"] / 4
    [fused] = [k for k in compiler["kernels"] if k["name"].startswith("cpp_fused")]
    assert {"aten.relu", "aten.rsqrt", "aten.clamp_min", "aten.add"} <= set(fused["atenOps"])
    block = [marker_line(source, marker) for marker in ("h = self.norm(x)", "activation =", "gate =", "return x +")]
    assert sorted({line["line"] for line in fused["sourceLines"]}) == block


def test_the_timed_code_is_compiled_without_kernel_profiling(mlp: Run) -> None:
    """On CPU the profile names each C++ kernel only when compiled to record itself: the timed code (its output code
    in the report) carries no such recording, while the profile's copy did, so every fused kernel still has a time."""
    root = mlp.report_dir
    for mode in mlp.report["modes"]:
        compiler = mode["compiler"]
        [compiled] = compiler["compiles"]
        code = (root / compiled["outputCode"]).read_text()
        assert "cpp_fused" in code and "RecordFunction" not in code, mode["mode"]
        fused = [k for k in compiler["kernels"] if k["name"].startswith("cpp_fused")]
        assert fused and all(k["usPerStep"] and k["usPerStep"] > 0 for k in fused), fused
        assert compiler["graphCount"] == 1 and compiler["recompiles"] == []  # the copy's compile is not the mode's


def test_graph_breaks_found_at_their_source_lines(graphbreak: Run) -> None:
    assert graphbreak.code == 0, graphbreak.stderr[-3000:]
    source = SAMPLES_DIR / "graphbreak.py"
    breaks = graphbreak.report["modes"][0]["compiler"]["graphBreaks"]
    found = {(b["location"]["file"], b["location"]["line"]) for b in breaks}
    expected = {
        (str(source), marker_line(source, marker))
        for marker in (
            "graph break: print",
            "graph break: data-dependent .item()",
            "graph break: numpy random head choice",
        )
    }
    assert found == expected
    by_line = {b["location"]["line"]: b for b in breaks}
    printed = by_line[marker_line(source, "graph break: print")]
    assert printed["gbId"] == "GB0059" and "print" in printed["reason"]
    assert printed["docUrl"] == "https://meta-pytorch.github.io/compile-graph-break-site/gb/gb0059.html"
    assert printed["hint"] and printed["userStack"][-1]["line"] == printed["location"]["line"]
    # the runner's own frames (worker, targets, runpy) are not the user's: only the sample's forward remains
    assert all([f["file"] for f in b["userStack"]] == [str(source)] for b in breaks)
    assert graphbreak.report["modes"][0]["compiler"]["graphCount"] >= 4
    # what the breaks cost: time outside the compiled graphs, per call; eager has no graphs to be outside of
    assert graphbreak.report["modes"][0]["outsideGraphsMsPerStep"] > 0
    assert "outsideGraphsMsPerStep" not in graphbreak.report["eager"]


def test_recompile_in_timed_region_is_flagged_and_remeasured(recompile: Run) -> None:
    assert recompile.code == 0, recompile.stderr[-3000:]
    mode = recompile.report["modes"][0]
    assert recompile.report["settings"]["dynamic"] is False
    [discarded] = mode["discardedTimings"]
    assert discarded["valid"] is False and discarded["invalidReason"].startswith(
        "input 'x' changed size in dimension 0 from 32 to 64, so 1 compile ran while timing: warm-up ran on "
        "float32[32, 512], the timed calls on float32[64, 512]. "
    )
    assert mode["timing"]["valid"] is True
    timed = [r for r in mode["compiler"]["recompiles"] if r["inTimedRegion"]]
    assert len(timed) == 1
    assert "size mismatch at index 0. expected 32, actual 64" in timed[0]["reason"]
    assert "float32[64, 512]" in timed[0]["trigger"] and "float32[32, 512]" in timed[0]["trigger"]
    assert "dynamic=False" in timed[0]["trigger"]
    assert timed[0]["location"]["file"] == str(SAMPLES_DIR / "mlp.py")


def test_fullgraph_turns_graph_breaks_into_a_compile_error(outdir: Path) -> None:
    run = run_runner(
        "--sample", "graphbreak", "--quick", "--device", "cpu", "--fullgraph", "--out", str(outdir / "fullgraph")
    )
    assert run.code == 1 and run.report["status"] == "error"  # its only mode failed
    [mode] = run.report["modes"]
    assert mode["status"] == "error" and mode["error"]["kind"] == "compile" and "print" in mode["error"]["message"]
    assert run.report["eager"]["timing"] is not None  # eager still measured


def test_compiler_artifacts_are_saved_and_linked(recompile: Run) -> None:
    """Output code, guards and FX graph per compile are files in the report directory; kernels point into the code;
    the recompile points at the guard of the first compile that failed."""
    compiler, root = recompile.report["modes"][0]["compiler"], recompile.report_dir
    first, second = compiler["compiles"][:2]
    for entry in (first, second):
        for key in ("outputCode", "guards", "fxGraph"):
            assert (root / entry[key]).is_file(), (entry["compileId"], key)
    fused = [k for k in compiler["kernels"] if k["name"].startswith("cpp_fused")]
    for k in fused:
        code = next(c for c in compiler["compiles"] if c["compileId"] == k["compileId"])["outputCode"]
        assert (root / code).read_text().split("\n")[k["codeLine"] - 1].startswith(f"{k['name']} = async_compile.")
    # the profile runs the timed inputs: the recompiled graph's kernel ran, so it has a time per step
    assert next(k for k in fused if k["compileId"] == second["compileId"])["usPerStep"] > 0
    [failed] = second["failedGuards"]
    guard = (root / failed["guards"]).read_text().split("\n")[failed["line"] - 1]
    assert failed["compileId"] == first["compileId"] and "TENSOR_MATCH" in guard and "size=[32, 512]" in guard
    assert {"Dynamo: whole frame", "backend compile"} <= {
        p["name"] for p in compiler["phases"] if p["compileId"] == first["compileId"]
    }
