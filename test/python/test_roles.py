"""A measured number's role in words, in one place (report/roles.py, code read 35 item 7): each replay's `roleText`
and its region's `rolesText`, which the CLI's line and the panel's table both show, and the in-situ per-call line's
words for evidence."""

from __future__ import annotations

import copy
import json
from pathlib import Path

from compile_lens_runner.report import answer, in_situ_text, roles

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def _report(name: str) -> dict:
    return json.loads((FIXTURES / name / "report.json").read_text())


def test_a_replay_is_the_answers_speedup_only_where_the_answer_rests_on_it() -> None:
    """Review H4: serve_script's replay, beside its in-situ answer, is evidence; explore's, where the replay decides,
    is the answer's speedup; each region's title is its replays' one role (the runner's, re-derived fixtures)."""
    for name, role in (("recorded/serve_script-cpu", roles.EVIDENCE), ("recorded/explore-cpu", roles.ANSWER)):
        report = copy.deepcopy(_report(name))
        for region in report["regions"]:
            for m in region["measurements"]:
                m.pop("roleText", None)
            region.pop("rolesText", None)
        answer.attach(report)
        r0 = report["regions"][0]
        assert [m["roleText"] for m in r0["measurements"]] == [role], name
        assert r0["rolesText"] == role


def test_a_table_of_both_roles_is_titled_by_neither_and_a_failed_replay_has_none() -> None:
    assert roles.roles_title([roles.ANSWER, roles.EVIDENCE, roles.EVIDENCE]) == "speedup or evidence"
    assert roles.roles_title([roles.EVIDENCE]) == "evidence, not the answer"
    assert roles.roles_title([]) is None
    report = copy.deepcopy(_report("reports/script-in-situ-failure-cpu"))
    answer.attach(report)
    failed = [m for r in report["regions"] for m in r["measurements"] if m["status"] == "error"]
    assert failed and all("roleText" not in m for m in failed)


def test_the_in_situ_per_call_line_says_evidence_in_the_same_words() -> None:
    assert in_situ_text.CALLS_ALONE.endswith(f"({roles.EVIDENCE})")
