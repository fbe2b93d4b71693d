"""A script region's charts in words (report/chart_text.py, schema 1.25): the first-call chart's steady state and what
it leaves out, the in-situ overlay's medians and compile steps. On recorded reports: no torch."""

from __future__ import annotations

import copy
import json
from pathlib import Path

from compile_lens_runner import formats
from compile_lens_runner.report import chart_text, in_situ_text

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


def test_beside_an_in_situ_number_the_steady_state_is_the_one_the_story_tells() -> None:
    """The story says "From call 3 on, the script's own calls took turns in blocks, compiled and with compiling off, for the in-situ number", and the in-situ
    line their compiled 0.54 ms; the call chart's band from call 20 and its line at 0.48 ms were a second steady state
    (review 3B M1): beside an in-situ number the chart's steady state is the story's start and the in-situ median."""
    told = [
        region
        for path in sorted(FIXTURES.parent.glob("**/*report.json"))
        for region in json.loads(path.read_text()).get("regions") or []
        if (region.get("inSitu") or {}).get("call") and not region["inSitu"].get("slowestRank")
    ]
    assert len(told) >= 5  # serve_script-cpu, script-in-situ-cpu, …: every fixture with an in-situ number of calls
    assert any(in_situ_text.middle_words(r["inSitu"]["call"]) for r in told)  # serve_script-cpu, gated_service-cpu
    for region in told:
        situ, steady = region["inSitu"], region["steadyState"]
        assert (steady["fromCall"], steady["medianMs"]) == (situ["steadyFromCall"], situ["call"]["compiledMs"])
        assert f"From call {steady['fromCall']} on, the script's own calls took turns in blocks" in region["story"]
        # the line says it at the digits that divide to its speedup (review 17 Y1), and the chart at the line's digits
        # (review 18Y Y5: gated_service's "compiled 0.1123 ms per call" over the tag's "0.112 ms compiled")
        call = situ["call"]
        shown = formats.times_of_ratio(call["eagerMs"], call["compiledMs"], call["speedup"])[1]
        assert f"compiled {shown} per " in " ".join(situ["lines"])
        # the band is shaded as the step chart shades it (review s29): the calls whose steps the number counted; its
        # time the number's own (session 33: the middle pair of blocks' median call where the pairs are compared)
        middle = in_situ_text.middle_words(situ["call"])
        of = f"the median call of {middle}" if middle else "median of the calls it counted"
        assert steady["said"] == (
            f"steady state from call {steady['fromCall']}: the calls whose steps the in-situ number counted; {shown} "
            f"per compiled call, {of}"
        )
        assert steady["label"] == f"steady state: {shown} compiled, {'middle pair' if middle else 'median'}"
    gated = json.loads((FIXTURES.parent / "recorded" / "gated_service-cpu" / "report.json").read_text())["regions"][0]
    assert "eager 0.4287 ms → compiled 0.1123 ms per call" in " ".join(gated["inSitu"]["lines"])
    chart_text.attach(gated)  # said again from its numbers, as the runner says it
    assert gated["steadyState"]["label"] == "steady state: 0.1123 ms compiled, middle pair"
    without = copy.deepcopy(_region("script-in-situ-cpu"))
    del without["inSitu"]
    del without["steadyState"]["inSitu"]
    chart_text.attach(without)  # type: ignore[arg-type]
    assert without["steadyState"]["label"] == "steady state: 0.701 ms median"


def test_each_drawn_step_says_whether_the_number_counted_it_as_the_lines_count_them() -> None:
    """The overlay shaded the steps from the first quiet call on, the 100-200 ms steps the lines leave out among them
    (review 3C N2): each step the series draws says whether it counted, and why not, in the counts the lines give."""
    for name in ("../recorded/serve_script-cpu", "../recorded/train_small-cpu", "script-shapes-cpu", "ddp-ranks-cpu"):
        for region in json.loads((FIXTURES / name / "report.json").read_text())["regions"]:
            situ = region["inSitu"]
            drawn = sorted(int(p[3]) for side in ("compiled", "eager") for p in situ["series"][side] if (p[1] or 0) > 0)
            points = situ["stepPoints"]
            assert [p["index"] for p in sorted(points, key=lambda p: p["index"])] == drawn
            counted = sum(1 for p in points if p["counted"])
            assert counted == sum(situ["steadySteps"].values()), (name, region["id"])
            left: dict[str, int] = {}
            for p in points:
                if p["leftOut"]:
                    left[p["leftOut"]] = left.get(p["leftOut"], 0) + 1
            assert left == situ["dropped"], (name, region["id"])
    serve = _region("../recorded/serve_script-cpu")["inSitu"]["stepPoints"]
    assert any(
        p["text"].endswith("left out of the steady state: a step during which compiling was switched on or off")
        for p in serve
    )


def test_a_torchrun_job_s_step_chart_says_whose_steps_it_draws() -> None:
    """ddp-ranks-cpu's step chart drew step 3 as "a step that compiled" (2.4 s, 2.1 s in the recording of 2026-11-30 07:46) beside rank 0's calls, which compiled
    nothing there (review 3B M2): rank 1 compiled, rank 0 waited on it."""
    region = _region("ddp-ranks-cpu")
    situ = region["inSitu"]
    assert {p["rank"] for p in situ["stepPoints"]} == {0, 1}
    assert situ["ranksText"].startswith(
        "each step drawn is the slowest rank's (a synchronous job waits for it): rank 0"
    )
    assert {
        "side": "compiled",
        "index": 3,
        "text": "step 3: 2.13 s, compiled 2 times on rank 1, the slowest rank's step: rank 0; left out of the steady "
        "state: a step in Compile Lens's compiled warm-up",
    } in situ["compileSteps"]
    assert region["chartNotes"][0] == "rank 0's calls"


def test_the_in_situ_overlay_says_each_side_s_median_and_each_step_that_compiled() -> None:
    situ = _region("script-in-situ-cpu")["inSitu"]
    assert situ["medianText"] == {
        "compiled": "as written (compiled): 0.704 ms per step, median of the steady state",
        "eager": "compiling off (eager): 0.862 ms per step, median of the steady state",
    }
    # interleaved, its pairs compared: each side's time is the middle pair of blocks' (session 33)
    serve = json.loads((FIXTURES.parent / "recorded" / "serve_script-cpu" / "report.json").read_text())["regions"][0]
    assert serve["inSitu"]["medianText"] == {
        "compiled": "as written (compiled): 0.471 ms per step, the middle of 5 pairs of blocks",
        "eager": "compiling off (eager): 0.602 ms per step, the middle of 5 pairs of blocks",
    }
    # each at its line's digits, which divide to the speedup (review 18Y Y5: one time, one precision)
    step = copy.deepcopy(serve["inSitu"])
    step["step"].update(eagerMs=0.4287, compiledMs=0.1123, speedup=3.82)
    chart_text.attach({**serve, "inSitu": step})
    assert step["medianText"]["compiled"].startswith("as written (compiled): 0.1123 ms per step")
    assert step["medianText"]["eager"].startswith("compiling off (eager): 0.4287 ms per step")
    # separate runs (no per-step counts): the step and its compiles
    assert situ["compileSteps"] == [{"side": "compiled", "index": 0, "text": "step 0: 3.08 s, compiled 1 time"}]


def test_the_in_situ_overlay_s_steady_state_is_said_by_the_runner() -> None:
    """The shaded band's tooltip was composed in the panel ("steady state from call 3" over the number's line): its
    start in the runner's words; only where there is a step number to have counted steps."""
    situ = _region("script-in-situ-cpu")["inSitu"]
    assert (
        situ["steadyText"] == f"steady state from call {situ['steadyFromCall']}: the steps the in-situ number counted"
    )
    region = _region("script-in-situ-cpu")
    del region["inSitu"]["step"], region["inSitu"]["steadyText"]
    chart_text.attach(region)
    assert "steadyText" not in region["inSitu"]
