"""Review 14R R9: a script region's kernel card said "this one took 1.80 µs" with no time per step, while the compare
said 1.26 µs/step: the script is not profiled, its regions' replays of its own compiled callable are."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from compile_lens_runner.measure.profiling import PROFILED_STEPS
from compile_lens_runner.script import kernel_times

HERE = Path(__file__).resolve().parents[1] / "fixtures" / "reports" / "script-kernels-cpu"


def _untimed(report: Any) -> Any:
    out = copy.deepcopy(report)
    for compiler in [out["modes"][0]["compiler"], *(r["compiler"] for r in out["regions"])]:
        compiler.pop("kernelSteps", None)
        for k in compiler["kernels"]:
            k["usPerStep"] = None
            k.pop("kernelSteps", None)
    return out


def test_the_scripts_kernels_are_timed_from_their_regions_as_written_profiles() -> None:
    report = json.loads((HERE / "report.json").read_text())
    untimed = _untimed(report)
    script, mlp = untimed["modes"][0]["compiler"], untimed["regions"][1]
    kernel_times.time_script_kernels(script, untimed["regions"], str(HERE), PROFILED_STEPS)
    timed = {(k["compileId"], k["name"]): k["usPerStep"] for k in script["kernels"]}
    # the compare's 1.26 µs/step, over the steps it counts
    assert timed[("1/0", "cpp_fused_gelu_0")] == 1.257 and script["kernelSteps"] == {"first": 2, "last": 3}
    assert [k["usPerStep"] for k in mlp["compiler"]["kernels"] if k["name"] == "cpp_fused_gelu_0"] == [1.257]
    # a library call (addmm) is no kernel Inductor named: untimed, not given another's time
    assert timed[("1/0", "extern_kernels.addmm")] is None
    # each kernel says its own region's steps (here alike: the record's too)
    assert {str(k.get("kernelSteps")) for k in script["kernels"]} == {"{'first': 2, 'last': 3}"}
    # the fixture holds what this derives (scripts/rederive_fixtures.py), the steps said (compiler_text.attach)
    for kernel in script["kernels"]:
        kernel["kernelSteps"]["text"] = "steps 2\u20133"
    assert script["kernels"] == report["modes"][0]["compiler"]["kernels"]


def test_a_region_not_profiled_as_written_leaves_its_kernels_untimed() -> None:
    untimed = _untimed(json.loads((HERE / "report.json").read_text()))
    script = untimed["modes"][0]["compiler"]
    for region in untimed["regions"]:
        region["measurements"] = [{**m, "trace": None} for m in region["measurements"]]
    kernel_times.time_script_kernels(script, untimed["regions"], str(HERE), PROFILED_STEPS)
    assert all(k["usPerStep"] is None for k in script["kernels"]) and "kernelSteps" not in script
    # only the region's own compiles are timed from its profile: normalize's kernel (0/0) not from TinyMLP's
    untimed = _untimed(json.loads((HERE / "report.json").read_text()))
    untimed["regions"][0]["measurements"] = [{**m, "trace": None} for m in untimed["regions"][0]["measurements"]]
    script = untimed["modes"][0]["compiler"]
    kernel_times.time_script_kernels(script, untimed["regions"], str(HERE), PROFILED_STEPS)
    timed = {(k["compileId"], k["name"]): k["usPerStep"] for k in script["kernels"]}
    assert (
        timed[("0/0", "cpp_fused_add_mean_mul_rsqrt_sub_var_0")] is None and timed[("1/0", "cpp_fused_add_1")] == 0.179
    )


def test_a_kernel_run_in_the_profiled_copy_is_timed_for_its_compile() -> None:
    """Review 15 V6: b_item's kernel card had no average: its region's profile ran the copy compiled for it (Dynamo's
    "0/1", graph_1_cpp_fused_add_gelu_mul_sum_0), which the report does not list, and the kernel of "0/0" was timed
    from none of it."""
    here = HERE.parent.parent / "traces" / "profiled-copy-cpu"
    report = json.loads((here / "report.json").read_text())
    untimed = _untimed(report)
    script = untimed["modes"][0]["compiler"]
    kernel_times.time_script_kernels(script, untimed["regions"], str(here), PROFILED_STEPS)
    assert [k["usPerStep"] for k in script["kernels"]] == [1.122]
    assert [k["usPerStep"] for k in untimed["regions"][0]["compiler"]["kernels"]] == [1.122]


def test_each_kernel_says_its_own_regions_steps_where_the_regions_differ(monkeypatch: Any) -> None:
    """The code read's item 4: each region's profile compares its own steps (one with a compile in step 2 compares
    3-4); the script's record said the last region's for every kernel."""
    from compile_lens_runner.compiler import artifacts

    real = artifacts.kernel_us_per_step

    def later_in_mlp(path: str, steps: int) -> Any:
        times = real(path, steps)
        return {**times, "steps": (3, 3)} if times and "r1" in path else times

    monkeypatch.setattr(artifacts, "kernel_us_per_step", later_in_mlp)
    untimed = _untimed(json.loads((HERE / "report.json").read_text()))
    script = untimed["modes"][0]["compiler"]
    kernel_times.time_script_kernels(script, untimed["regions"], str(HERE), PROFILED_STEPS)
    steps = {k["compileId"]: (k["kernelSteps"]["first"], k["kernelSteps"]["last"]) for k in script["kernels"]}
    assert steps == {"0/0": (2, 3), "1/0": (3, 3)}
    assert "kernelSteps" not in script
