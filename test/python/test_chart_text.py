"""A script region's charts in words (report/chart_text.py, schema 1.25): the first-call chart's steady state and what
it leaves out, the in-situ overlay's medians and compile steps. On recorded reports: no torch."""

from __future__ import annotations

import copy
import json
from pathlib import Path

from compile_lens_runner.report import chart_text

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "reports"


def _region(name: str) -> dict:  # type: ignore[type-arg]
    return json.loads((FIXTURES / name / "report.json").read_text())["regions"][0]  # type: ignore[no-any-return]


def test_the_steady_state_says_where_it_starts_its_median_and_how_much_calls_varied() -> None:
    # the shape fix's run of warmup_step.py (test/fixtures/recorded/README.md): no in-situ number, so the chart's median
    region = _region("../recorded/warmup_step-cpu-shape-fix-on/shape_fix")  # rederive_fixtures.py writes them
    assert region["steadyState"]["said"] == "steady state from call 1: 0.147 ms per call, median (calls varied 33%)"
    assert region["steadyState"]["label"] == "steady state: 0.147 ms median"
    assert region["chartNotes"] == []
    cut = copy.deepcopy(region)
    cut["calls"][3]["ms"] = None
    cut.update(callsTruncated=True, callCount=5000)
    assert chart_text.chart_notes(cut) == [  # type: ignore[arg-type]
        "1 call without a recorded duration (not drawn)",
        "first 7 of 5000 calls",
    ]


def test_beside_an_in_situ_number_the_steady_state_says_no_second_value_of_the_same_calls() -> None:
    """The story and the in-situ lines say the steady calls took 0.70 ms in situ; the chart's own median of the same
    calls (0.66 ms) was a second value of one quantity on the screen (issue 44): beside an in-situ number the chart
    says where the steady state is, not another time for it."""
    region = _region("script-in-situ-cpu")
    assert region["steadyState"]["said"] == "steady state from call 3 (calls varied 312%)"
    assert region["steadyState"]["label"] == "steady state"
    without = copy.deepcopy(region)
    del without["inSitu"]
    chart_text.attach(without)  # type: ignore[arg-type]
    assert without["steadyState"]["label"] == "steady state: 0.662 ms median"


def test_the_in_situ_overlay_says_each_side_s_median_and_each_step_that_compiled() -> None:
    situ = _region("script-in-situ-cpu")["inSitu"]
    assert situ["medianText"] == {
        "compiled": "as written (compiled): 0.704 ms per step, median of the steady state",
        "eager": "compiling off (eager): 0.862 ms per step, median of the steady state",
    }
    assert situ["compileSteps"] == [{"side": "compiled", "index": 0, "text": "step 0: 3.1 s, compiled 1 time"}]
