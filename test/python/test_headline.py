"""The one-line answers (report/headline.py): the run's and each region's headline, the verdict first in one wording,
then the number it rests on, written into every report the runner writes. The editor shows them as they are."""

from __future__ import annotations

import copy
import json
import os
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from compile_lens_runner.report import document, headline
from conftest import SCHEMA

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def fixture(name: str) -> dict[str, Any]:
    return json.loads((FIXTURES / "reports" / name / "report.json").read_text())


def region_of(name: str, index: int = 0) -> dict[str, Any]:
    return fixture(name)["regions"][index]


def test_a_target_says_the_verdict_then_the_recommended_mode_with_its_interval_and_compile() -> None:
    report = fixture("graphbreak-cpu")
    mode = report["modes"][0]
    mode["speedupInterval"] = {"low": 2.764, "high": 3.79}
    report["recommendation"] = {"mode": "default", "verdict": "compile", "reason": "Use default: …"}
    assert headline.target_headline(report) == (
        f"compile it: {mode['speedup']:.2f}× (default, next run 2.76–3.79×) · 6 graphs · 3 breaks · 2 recompiles · compile 3.4 s"
    )
    # no verdict: the fastest measured mode, its numbers without a verdict word
    report["recommendation"] = {"mode": None, "reason": "…"}
    del mode["speedupInterval"]
    assert headline.target_headline(report).startswith(f"{mode['speedup']:.2f}× (default) · ")


def test_a_target_with_nothing_measured_says_why_and_a_failed_run_its_error() -> None:
    assert headline.run_headline(fixture("counter-cpu")).startswith(
        "default: not measured: Dynamo ran the compiled calls eagerly"
    )
    failed = fixture("graphbreak-cpu")
    failed["modes"] = []
    failed["error"] = {"kind": "internal", "message": "It broke", "fix": "Run again."}
    assert headline.run_headline(failed) == "failed: It broke — Run again."
    failed["error"] = None
    assert headline.run_headline(failed) == "no mode finished"


def test_a_cancelled_run_is_said_so_on_every_surface() -> None:
    for name in ("graphbreak-cpu", "script-regions-cpu"):
        report = fixture(name)
        report["error"] = {"kind": "cancelled", "message": "The run was cancelled; …", "fix": "Run again."}
        assert headline.run_headline(report) == "cancelled"


def test_a_script_says_its_first_region_which_it_is_and_how_many_more() -> None:
    report = fixture("script-regions-cpu")
    assert headline.run_headline(report) == (
        "compile for longer runs: 1.84× (default) · 2 graphs · 1 recompile — r0 TinyTransformer, +3 more regions"
    )
    assert headline.run_headline({**report, "regions": []}) == "no torch.compile region ran"
    assert headline.run_headline(
        {
            **report,
            "regions": [],
            "status": "error",
            "error": {"kind": "user-code", "message": "The script exited with status 1.", "fix": "…"},
        }
    ) == ("failed: The script exited with status 1.")


def test_a_replayed_region_says_its_speedup_with_the_mode_as_written_its_graphs_and_why_not() -> None:
    regions = fixture("script-regions-cpu")["regions"]
    assert [headline.region_headline(r) for r in regions] == [
        "compile for longer runs: 1.84× (default) · 2 graphs · 1 recompile",
        "no verdict: 0.97× (default) · 8 graphs · 7 recompiles · 2 calls ran eagerly",
        "not replayable: mutates self.calls · 2 graphs · 1 break",
        "not measured: 2 calls (needs 3) · 1 graph",
    ]
    r0 = regions[0]
    r0["recommendation"] = {"mode": "default", "verdict": "compile", "reason": "Use default: …"}
    assert headline.region_headline({**r0, "options": {"mode": "max-autotune", "backend": "inductor"}}) == (
        "compile it: 1.84× (max-autotune) · 2 graphs · 1 recompile"
    )
    assert headline.region_headline({**r0, "options": {"backend": "aot_eager"}}).startswith(
        "compile it: 1.84× (default, backend aot_eager)"
    )
    assert (
        headline.region_headline({**r0, "callCount": 0, "calls": [], "compiler": None, "measurements": []})
        == "never called"
    )
    failed = {
        **r0["measurements"][0],
        "status": "error",
        "speedup": None,
        "error": {"kind": "out-of-memory", "message": "CUDA out of memory", "fix": "Use a smaller batch."},
    }
    # a failed measurement is no measurement: no verdict word
    assert headline.region_headline({**r0, "measurements": [failed]}) == (
        "measurement failed: CUDA out of memory — Use a smaller batch. · 2 graphs · 1 recompile"
    )


def test_recompiles_are_the_compilers_count_or_the_calls_where_there_is_no_compiler_record() -> None:
    r0 = region_of("script-kernels-cpu")
    r0["compiler"]["recompiles"] = [{"reason": f"r{n}", "compileId": f"0/{n}", "location": None} for n in (1, 2, 3)]
    assert "3 recompiles" in headline.region_headline(r0)
    r0["compiler"] = None
    r0["calls"] = [dict(c, event="recompiled") for c in r0["calls"][:2]] + r0["calls"][2:]
    assert "2 recompiles" in headline.region_headline(r0)


def test_in_situ_the_step_speedup_leads_and_the_verdict_decides_what_follows() -> None:
    region = region_of("script-in-situ-cpu")
    assert headline.region_headline(region) == "compile for runs > 19,467 steps: 1.22×/step in situ (ran 40)"
    stay = {**region, "recommendation": {"mode": None, "verdict": "stay-eager", "reason": "Stay eager: …"}}
    assert headline.region_headline(stay) == "stay eager: 1.22×/step in situ (0.87–1.32×)"
    paid = {
        **region,
        "recommendation": {"mode": "default", "verdict": "compile", "reason": "Use default: …"},
        "inSitu": {**region["inSitu"], "breakEvenSteps": 12, "paysBack": True},
    }
    assert headline.region_headline(paid) == "compile it: 1.22×/step in situ · compile 3.1 s · pays back at step 12"
    short = {**paid, "inSitu": {**region["inSitu"], "paysBack": False}}
    assert (
        headline.region_headline(short) == "compile it: 1.22×/step in situ · compile 3.1 s · needs 19,467 steps, ran 40"
    )
    call_only = {**stay, "inSitu": {**region["inSitu"], "step": None, "reason": "something compiled in every step"}}
    assert headline.region_headline(call_only) == "stay eager: 1.22×/call in situ · compile 3.1 s"
    two_calls = {
        **stay,
        "inSitu": {
            "pairs": 1,
            "step": None,
            "call": None,
            "reason": "every one of the script's 2 call(s) compiled",
            "regionSeconds": {"compiled": 3.9, "eager": 0.0016},
            "stepsMade": 2,
        },
    }
    assert headline.region_headline(two_calls) == "stay eager: no steady step in situ"  # never the totals
    nothing = {
        **stay,
        "inSitu": {
            "method": "interleaved",
            "pairs": 0,
            "step": None,
            "call": None,
            "regionSeconds": None,
            "reason": "no call of it ran compiled code (a graph break): every call ran eagerly",
        },
    }
    assert headline.region_headline(nothing) == "in situ: no compiled code ran"


def test_a_failed_compiled_call_and_a_region_that_ran_no_compiled_code_say_so_without_a_number() -> None:
    assert (
        headline.region_headline(region_of("script-in-situ-failure-cpu"))
        == "compiled call 3 fails at fails_at_serving.py:8 (in situ)"
    )
    region = json.loads((FIXTURES / "why" / "encoder_fastpath.rederived.report.json").read_text())["regions"][0]
    assert headline.region_headline(region) == region["noCompiledCode"]["headline"]


@pytest.mark.parametrize(
    "path",
    sorted(p for p in FIXTURES.rglob("*.json") if p.name == "report.json" or p.name.endswith(".report.json")),
    ids=lambda p: str(p.relative_to(FIXTURES)),
)
def test_a_headline_with_a_number_says_its_verdict_first(path: Path) -> None:
    report = json.loads(path.read_text())
    pairs = [(r.get("recommendation"), headline.region_headline(r)) for r in report.get("regions") or []]
    if report["target"]["kind"] != "script":
        pairs.append((report["recommendation"], headline.target_headline(report)))
    for recommendation, line in pairs:
        verdict = (recommendation or {}).get("verdict")
        if verdict and "×" in line and not line.startswith("compile for runs >"):
            assert line.startswith(f"{headline.VERDICT_WORDS[verdict]}: "), line


def test_every_report_written_carries_its_headlines(tmp_path: Path) -> None:
    report = fixture("script-regions-cpu")
    for region in report["regions"]:
        del region["headline"]
    del report["headline"]
    path = os.path.join(tmp_path, "report.json")
    document.write(path, copy.deepcopy(report))
    written = document.read(path)
    assert written is not None
    jsonschema.validate(written, SCHEMA)
    assert written["headline"] == headline.run_headline(report)
    assert [r["headline"] for r in written["regions"]] == [headline.region_headline(r) for r in report["regions"]]
