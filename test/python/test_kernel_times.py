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
    # the fixture holds what this derives (scripts/rederive_fixtures.py)
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
