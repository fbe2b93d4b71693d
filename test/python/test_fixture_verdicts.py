"""The fixture reports say what the current runner derives from their numbers (scripts/rederive_fixtures.py): their
verdicts and headlines are read by every surface test as the runner's words, so a fixture recorded by an older runner
must not keep a wording the runner no longer writes ("stay eager (best 1.22x)", "Don't compile this")."""

from __future__ import annotations

import copy
import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("rederive_fixtures", ROOT / "scripts" / "rederive_fixtures.py")
assert _spec is not None and _spec.loader is not None
rederive_fixtures = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(rederive_fixtures)
FILES = rederive_fixtures.fixture_reports()


def test_every_report_fixture_is_checked() -> None:
    assert len(FILES) >= 18, FILES


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(Path(p).relative_to(ROOT / "test" / "fixtures")))
def test_a_fixtures_verdicts_and_headlines_are_the_current_runners(path: str) -> None:
    report = json.loads(Path(path).read_text())
    fresh = rederive_fixtures.rederive_at(path, report)
    stale = [f"{where}: {old!r} -> {new!r}" for where, old, new in _differences(report, fresh)]
    assert not stale, "run python3 scripts/rederive_fixtures.py\n" + "\n".join(stale)


def test_a_verdict_an_older_runner_wrote_fails_the_check() -> None:
    path = next(p for p in FILES if "script-in-situ-cpu" in p)
    report = json.loads(Path(path).read_text())
    old = copy.deepcopy(report)
    old["recommendation"] = {"mode": None, "verdict": "stay-eager", "reason": "act (line 4): stay eager (best 1.22x)."}
    assert [where for where, _, _ in _differences(old, rederive_fixtures.rederive(old))] == ["/recommendation"]
    old["regions"][0]["headline"] = "stay eager: 1.22×/step in situ (0.87–1.32×)"
    assert "/regions/0/headline" in [where for where, _, _ in _differences(old, rederive_fixtures.rederive(old))]


def test_a_break_even_an_older_estimator_left_is_rederived_from_the_times_beside_it() -> None:
    """graphbreak-cpu kept the median estimator's 536.6 calls beside 8.25 vs 6.37 ms/call (3.4 s: 1,834.5 calls)."""
    path = next(p for p in FILES if "graphbreak-cpu" in p)
    old = json.loads(Path(path).read_text())
    old["modes"][0]["breakEvenCalls"] = 536.6
    assert rederive_fixtures.rederive(old)["modes"][0]["breakEvenCalls"] == 1834.5


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(Path(p).relative_to(ROOT / "test" / "fixtures")))
def test_no_fixture_carries_a_range_reaching_zero_or_below(path: str) -> None:
    """reportC D2: explore-cpu's first recording carried 10.33× with a low of −3.99, serve_script-cpu's steps 0.94× with
    −0.35 (an older runner widened them as a difference; scripts/rederive_fixtures.py widens them as the runner does
    now)."""
    lows = [(where, low) for where, low in _lows(json.loads(Path(path).read_text())) if low <= 0]
    assert not lows, lows


def _lows(value: Any, where: str = "") -> list[tuple[str, float]]:
    """Every range's low in a report, with its JSON pointer."""
    if isinstance(value, dict):
        own = [(where, value["low"])] if isinstance(value.get("low"), (int, float)) else []
        return own + [low for key, v in value.items() for low in _lows(v, f"{where}/{key}")]
    if isinstance(value, list):
        return [low for i, v in enumerate(value) for low in _lows(v, f"{where}/{i}")]
    return []


def _differences(old: Any, new: Any, where: str = "") -> list[tuple[str, Any, Any]]:
    """Where two JSON values differ, as JSON pointers: a recommendation is one value."""
    if isinstance(old, dict) and isinstance(new, dict) and not where.endswith("recommendation"):
        return [
            d for key in sorted(set(old) | set(new)) for d in _differences(old.get(key), new.get(key), f"{where}/{key}")
        ]
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        return [d for i, (a, b) in enumerate(zip(old, new, strict=True)) for d in _differences(a, b, f"{where}/{i}")]
    return [] if old == new else [(where, old, new)]


def test_a_torchrun_jobs_rank_0_row_says_its_regions_steady_state_as_rederived() -> None:
    """ddp-ranks-cpu's rank 0 row is of the merged report's own regions (ranks/merge.py): re-derived, its region's steady
    state starts after call 1, still warming up (region_entry.steady_state), and so does the row's."""
    path = next(p for p in FILES if p.endswith("ddp-ranks-cpu/report.json"))
    old = json.loads(Path(path).read_text())
    old["ranks"][0]["regions"][0]["steadyState"]["fromCall"] = 1
    fresh = rederive_fixtures.rederive_at(path, old)
    assert fresh["ranks"][0]["regions"][0]["steadyState"] == fresh["regions"][0]["steadyState"]
    assert fresh["ranks"][0]["regionsText"] == [
        "DistributedDataParallel: 6 calls, 0.612 ms per call (median, steady from call 2)"
    ]


def test_a_regions_grad_switch_reaches_the_scripts_own_finding_as_the_run_shares_it() -> None:
    """Code read 3 §7: re-derived, the region said the grad switch while the script's insight (the editor's finding at
    that line) kept the guard's warm-up advice: rederive shares the region's words as script/mode.py does."""
    path = next(p for p in FILES if p.endswith("train_small-cpu/report.json"))
    old = json.loads(Path(path).read_text())
    region = next(r for r in old["regions"] if r["id"] == "r0")
    script = next(m for m in old["modes"] if m["mode"] == "script")["compiler"]
    switched = next(r for r in region["calls"] if r["event"] == "recompiled")["index"]
    for call in region["calls"]:
        call["gradMode"] = "no_grad" if switched <= call["index"] < switched + 2 else "grad"
    recompile = region["compiler"]["recompiles"][0]
    for item in (recompile, next(r for r in script["recompiles"] if r["compileId"] == recompile["compileId"])):
        item["reason"] = "GLOBAL_STATE changed: grad_mode"
    fresh = rederive_fixtures.rederive_at(path, old)
    said = next(r for r in fresh["regions"] if r["id"] == "r0")["compiler"]["recompiles"][0]["explanation"]
    assert said["kind"] == "grad-switch"
    shared = next(m for m in fresh["modes"] if m["mode"] == "script")["compiler"]["recompiles"]
    assert next(r for r in shared if r["compileId"] == recompile["compileId"])["explanation"] == said


def _prose(o: Any) -> list[str]:
    """Every sentence but a call's or step's own on a chart ("compiling took 355 ms", the compile inside the call;
    "step 0: 69.0 s", the whole step)."""
    if isinstance(o, dict):
        return [s for k, v in o.items() if k not in ("calls", "compileSteps", "stepPoints") for s in _prose(v)]
    if isinstance(o, list):
        return [s for v in o for s in _prose(v)]
    return [o] if isinstance(o, str) else []


def test_one_cost_is_said_with_one_value_in_one_unit() -> None:
    """Review 3C R14/J9: "the first paid 355 ms recompiling" beside "the first real call … instead of 359 ms";
    "0.50 s compiling" beside "compile … instead of 501 ms"; "The 69.0 s its compiled warm-up took" beside "68.9 s
    compiling"; "0.78 s" beside "783 ms"."""
    said = {
        name: "\n".join(_prose(rederive_fixtures.rederive(json.loads(Path(path).read_text()))))
        for name in ("warmup_step-cpu-shape-fix-on", "gated_service-cpu", "encoder_fastpath-h200")
        for path in FILES
        if f"/{name}/report.json" in path
    }
    assert len(said) == 3, sorted(said)
    shape = said["warmup_step-cpu-shape-fix-on"]
    # the recompile within the call, labelled as its part (review 9E E6): never a second value of the call's cost
    assert "the first took 359 ms, 355 ms of it recompiling" in shape and "355 ms recompiling" not in shape
    assert "501 ms compiling in the script's own calls" in shape and "0.50 s" not in shape
    gated = said["gated_service-cpu"]
    assert "Its 68.9 s compile pays back after about 200,000 steps" in gated and "69.0 s" not in gated
    fastpath = said["encoder_fastpath-h200"]
    assert "783 ms trying to compile" in fastpath and "0.78 s" not in fastpath


def test_a_cold_compiles_pay_back_says_it_was_cold_to_two_digits() -> None:
    """Review 4C X2: "Its 68.9 s compile pays back after 168,037 steps" beside "(a cold compile cache: later runs load
    it)": a verdict on a cost later runs do not pay, to a precision its 1.34–1.50× range does not have."""
    path = next(p for p in FILES if "/gated_service-cpu/report.json" in p)
    region = rederive_fixtures.rederive(json.loads(Path(path).read_text()))["regions"][0]
    pays = next(r for r in region["answer"]["reasons"] if r["code"] == "pays-back-after")
    assert pays["text"] == (
        "Its 68.9 s compile pays back after about 200,000 steps with a cold compile cache, this run made 200; "
        "later runs load the cache, so it pays back sooner."
    )
    assert "with a cold compile cache" in region["answer"]["headline"]
