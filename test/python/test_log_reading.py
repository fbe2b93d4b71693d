"""Reading a structured log (TORCH_TRACE) from its bytes, on the project's real fixture logs: the same records whatever
the block size (a record longer than a block included) and gzipped or not; compile-phase events read by shape say
what their JSON says; truncated records, malformed lines, blank payload lines and unusual envelopes are read as
JSON would read them, and what is not a record is counted, with the first such line's number."""

from __future__ import annotations

import functools
import gzip
import json
import os
import time
from pathlib import Path
from typing import Any

import pytest
from compile_lens_runner.compiler import torch_trace as tt
from compile_lens_runner.compiler import trace_scan
from compile_lens_runner.logs import files, forked, inspect
from conftest import REPO

FIXTURES = REPO / "test" / "fixtures"
LOGS = [
    p
    for p in sorted((FIXTURES / "logs").glob("*.log"))
    + sorted((FIXTURES / "tlparse").rglob("*.log*"))
    + sorted((FIXTURES / "attach-2x2").rglob("*.log"))
    if p.stat().st_size
]
HEADER = "V1124 12:00:00.000000 1 x.py:1] "


def _facts(records: list[tt.Record], parser: tt.Parser) -> tuple[Any, ...]:
    return (
        [(r.kind, r.meta, r.payload, r.compile_id, r.attempt, r.mode, r.phase) for r in records],
        parser.unreadable,
        parser.first_unreadable,
        sorted(parser.ranks),
        parser.marked,
        dict(parser.strings),
    )


def _text(path: Path) -> bytes:
    return gzip.decompress(path.read_bytes()) if path.name.endswith(".gz") else path.read_bytes()


def _read(text: str, tmp_path: Path) -> tuple[list[tt.Record], tt.Parser]:
    path = tmp_path / "t.log"
    path.write_text(text)
    return files.read(str(path))


@pytest.mark.parametrize("log", LOGS, ids=lambda p: str(p.relative_to(FIXTURES)))
def test_blocks_of_any_size_give_the_same_records(log: Path) -> None:
    whole = tt.Parser()
    expected = _facts(whole.feed_bytes(_text(log)), whole)
    assert expected[0], "a fixture log with records"
    for block in (64, 4099):  # far smaller than one record: each is carried across many blocks
        assert _facts(*files.read(str(log), block)) == expected


def test_a_gzipped_log_reads_as_the_plain_one(tmp_path: Path) -> None:
    plain = FIXTURES / "logs" / "h100-recompile-cold.log"
    packed = tmp_path / "h100.log.gz"
    packed.write_bytes(gzip.compress(plain.read_bytes()))
    assert _facts(*files.read(str(packed), 1000)) == _facts(*files.read(str(plain)))


def test_events_read_by_shape_say_what_their_json_says() -> None:
    events = [r for log in LOGS for r in files.read(str(log))[0] if r.kind == "chromium_event"]
    by_shape = [r for r in events if r._event is not tt._UNPARSED]  # read while the log was, from the event's layout
    assert len(by_shape) >= len(events) * 0.9, "most events have torch's layout"
    for r in events:
        parsed = r.payload_json()
        assert r.event() == trace_scan.event_from_json(parsed)
        if isinstance(parsed, dict):
            assert (r.event().name, r.event().ph) == (parsed["name"], parsed["ph"])


def test_the_first_event_of_a_real_log() -> None:
    records, parser = files.read(str(FIXTURES / "logs" / "h100-recompile-cold.log"))
    first = records[0]
    assert (first.kind, first.compile_id, first.meta) == ("chromium_event", "0/0", {})
    assert first.event() == trace_scan.ChromiumEvent("entire_frame_compile", "B", 1795343151365747.2, "0/0")
    assert first.payload.startswith('{\n"name": "entire_frame_compile",') and first.payload.endswith("}")
    assert parser.strings[1] == "/root/demo/anchors.py" and parser.unreadable == 0


def test_a_record_cut_mid_payload_is_kept_with_what_it_has(tmp_path: Path) -> None:
    text = (FIXTURES / "logs" / "h100-recompile-cold.log").read_text()
    cut = text.index('"ph": "E"', len(text) // 2)  # inside a chromium event's payload
    records, parser = _read(text[:cut], tmp_path)
    last = records[-1]
    assert last.kind == "chromium_event" and last.event() is None and last.payload_json() is None
    assert last.payload.rstrip().endswith("},")  # up to the cut
    assert parser.unreadable == 0  # the lines it has are a record's: nothing is unreadable, the payload is damaged


def test_lines_that_are_not_records_are_counted_from_the_first(tmp_path: Path) -> None:
    lines = (FIXTURES / "logs" / "ddp-diverge-rank0.log").read_text().split("\n")
    whole = len(list(files.read(str(FIXTURES / "logs" / "ddp-diverge-rank0.log"))[0]))
    broken = [HEADER + '{"chromium_event": {}, "frame_id": 0, brok', "\t{", '\t"name": "x"', "\t}"]
    text = "\n".join([*lines[:5], "not a record", "", *broken, *lines[5:]])
    assert lines[5].startswith("V")  # inserted before a record, not inside a payload
    records, parser = _read(text, tmp_path)
    # the garbage line, the broken envelope and its 3 payload lines; the blank line is not counted
    assert (parser.unreadable, parser.first_unreadable, len(records)) == (5, 6, whole)


def test_blank_lines_inside_a_payload_are_the_payload_s(tmp_path: Path) -> None:
    text = (
        HEADER
        + '{"artifact": {"name": "exported_program", "encoding": "string"}, "frame_id": 3, "frame_compile_id": 1}\n'
        "\tdef forward(self, x):\n\n\t    return (x,)\n\n\n" + HEADER + '{"dynamo_start": {"stack": []}}\n'
    )
    records, parser = _read(text, tmp_path)
    assert [r.payload for r in records] == ["def forward(self, x):\n\n    return (x,)", ""]
    assert (records[0].artifact, records[0].compile_id, parser.unreadable) == ("exported_program", "3/1", 0)


def test_unusual_envelopes_read_as_json_reads_them(tmp_path: Path) -> None:
    envelopes = [
        '{"frame_id": 5, "dynamo_start": {"stack": []}, "frame_compile_id": 2, "attempt": 0}',  # the kind not first
        '{"compilation_metrics": {"compile_id": "7/1", "rank": 9, "frame_id": 8}}',  # ids inside the metadata only
        '{"artifact": {"name": "we\\"ird", "encoding": "json"}, "rank": 1}',  # an escaped name
        '{"chromium_event": {}, "chromium_event": {"x": 1}, "frame_id": 1, "frame_compile_id": 0}',  # a key twice
        '{"artifact": {"name": "a", "encoding": "string"}, "rank": 3, "frame_id": 4, "frame_compile_id": 0, "attempt": 1}',
        '{"describe_tensor": {"id": 1, "size": [2]}, "other": {"a": 1}, "frame_id": 0, "frame_compile_id": 0}',  # more keys
        '{"describe_source": {"rank": 7}, "frame_id": 1, "frame_compile_id": 0, "attempt": 0}',  # "rank" in the value
        '["not", "an", "object"]',
    ]
    records, parser = _read("".join(HEADER + e + "\n" for e in envelopes), tmp_path)
    assert [(r.kind, r.meta, r.compile_id, r.attempt) for r in records] == [
        ("dynamo_start", {"stack": []}, "5/2", 0),
        ("compilation_metrics", {"compile_id": "7/1", "rank": 9, "frame_id": 8}, "7/1", 0),
        ("artifact", {"name": 'we"ird', "encoding": "json"}, None, 0),
        ("chromium_event", {"x": 1}, "1/0", 0),
        ("artifact", {"name": "a", "encoding": "string"}, "4/0", 1),
        ("describe_tensor", {"id": 1, "size": [2]}, "0/0", 0),
        ("describe_source", {"rank": 7}, "1/0", 0),
    ]
    assert (sorted(parser.ranks), parser.unreadable, parser.first_unreadable) == ([1, 3], 1, 8)
    for envelope, record in zip(envelopes[:-1], records, strict=True):  # the same as parsing the whole envelope
        entry = json.loads(envelope)
        assert record.meta == entry[record.kind]


def test_bytes_that_are_not_utf8_are_replaced(tmp_path: Path) -> None:
    path = tmp_path / "bad.log"
    path.write_bytes((HEADER + '{"artifact": {"name": "x", "encoding": "json"}}\n\t{"a": "\xff"}\n').encode("latin-1"))
    records, _ = files.read(str(path))
    assert records[0].payload == '{"a": "\ufffd"}' and records[0].payload_json() == {"a": "\ufffd"}


def _report(paths: list[Path], workdir: Path) -> dict[str, Any]:
    report = inspect.inspect([str(p) for p in paths], str(workdir))
    report.pop("createdAt")  # the second it was made
    files_written = sorted(str(p.relative_to(workdir)) + ":" + p.read_text() for p in workdir.rglob("*") if p.is_file())
    return {"report": json.loads(json.dumps(report)), "files": files_written}


@pytest.mark.parametrize(
    "paths",
    [
        [FIXTURES / "logs" / "cpu-fused-recompile.log"],  # two modes, artifacts written
        [FIXTURES / "logs" / "ddp-diverge-rank0.log", FIXTURES / "logs" / "ddp-diverge-rank1.log"],
    ],
)
def test_a_log_read_by_two_processes_gives_the_same_report(
    paths: list[Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    alone = _report(paths, tmp_path / "alone")
    monkeypatch.setattr(inspect, "PARALLEL_RECORDS", 0)  # insight in a forked process, artifacts written here
    monkeypatch.setattr(inspect, "PARALLEL_BYTES", 0)  # one worker per core for the ranks
    monkeypatch.setattr(forked, "cores", lambda: 2)
    monkeypatch.setattr(forked, "others_running", lambda: 0.0)  # a busy host reads in one process
    assert _report(paths, tmp_path / "forked") == alone


def test_shared_tasks_run_once_each_in_either_process_and_come_back_in_order(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(forked, "cores", lambda: 2)
    monkeypatch.setattr(forked, "others_running", lambda: 0.0)
    ran = tmp_path / "ran"

    def task(index: int) -> tuple[int, int]:
        with open(ran, "a") as f:  # appended to by either process
            f.write(f"{index}\n")
        return index, os.getpid()

    def before() -> str:  # this process takes the tasks left only once the worker has taken one
        waited = time.monotonic() + 60
        while not ran.exists() and time.monotonic() < waited:
            time.sleep(0.01)
        return "before"

    results, last = forked.shared(
        [functools.partial(task, i) for i in range(8)], before, lambda first: f"{first}, after", True
    )
    assert [index for index, _ in results] == list(range(8)) and last == "before, after"
    assert sorted(int(line) for line in ran.read_text().split()) == list(range(8))  # each ran once
    assert any(pid != os.getpid() for _, pid in results)


def test_a_value_damaged_inside_is_a_record_without_metadata(tmp_path: Path) -> None:
    # read by its kind and context keys; its value is parsed only when a reader asks (then it does not parse)
    records, parser = _read(
        HEADER + '{"describe_tensor": {"id": 1, "si}, "frame_id": 0, "frame_compile_id": 0}\n', tmp_path
    )
    assert [(r.kind, r.compile_id, r.meta) for r in records] == [("describe_tensor", "0/0", {})]
    assert parser.unreadable == 0


def test_a_record_without_a_payload_reads_as_empty_from_a_file(tmp_path: Path) -> None:
    """torch 2.13 logs artifacts (inductor_provenance_tracking_node_mappings) with no payload: reading one back from
    the file gave pread a negative length."""
    path = tmp_path / "empty.log"
    path.write_text(
        HEADER + '{"artifact": {"name": "inductor_provenance_tracking_node_mappings", "encoding": "json"}, '
        '"frame_id": 0, "frame_compile_id": 0, "attempt": 0}\n'
        + HEADER
        + '{"dynamo_start": {"stack": []}, "frame_id": 0, "frame_compile_id": 0, "attempt": 0}\n'
    )
    records, _ = files.read(str(path))
    assert [r.kind for r in records] == ["artifact", "dynamo_start"]
    assert all(r.logged() == b"" and r.payload == "" and r.payload_json() is None for r in records)


@pytest.mark.parametrize(
    "log", [p for p in LOGS if not p.name.endswith(".gz")], ids=lambda p: str(p.relative_to(FIXTURES))
)
@pytest.mark.parametrize("parts", [2, 5])
def test_a_log_read_in_parts_at_once_gives_the_same_records(
    log: Path, parts: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A large log is read by one forked process per core, each from a record's line on: markers, file names and
    the first unreadable line's number carry across the parts as across blocks."""
    whole = tt.Parser()
    read_whole = whole.feed_bytes(_text(log))
    monkeypatch.setattr(files, "SPLIT_BYTES", 0)
    monkeypatch.setattr(forked, "cores", lambda: parts)
    monkeypatch.setattr(forked, "others_running", lambda: 0.0)
    records, parser = files.read(str(log), 4099)
    assert _facts(records, parser) == _facts(read_whole, whole)
    assert [r.event() for r in records] == [r.event() for r in read_whole]


def test_unreadable_lines_in_a_later_part_are_numbered_in_the_log(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = (FIXTURES / "logs" / "ddp-diverge-rank1.log").read_text().split("\n")
    at = next(i for i in range(len(lines) * 3 // 4, len(lines)) if lines[i].startswith("V"))
    path = tmp_path / "t.log"
    path.write_text("\n".join([*lines[:at], "not a record", *lines[at:]]))
    monkeypatch.setattr(files, "SPLIT_BYTES", 0)
    monkeypatch.setattr(forked, "cores", lambda: 2)
    monkeypatch.setattr(forked, "others_running", lambda: 0.0)  # a busy host reads in one process
    records, parser = files.read(str(path))
    assert (parser.unreadable, parser.first_unreadable) == (1, at + 1)
    assert len(records) == len(files.read(str(FIXTURES / "logs" / "ddp-diverge-rank1.log"))[0])


@pytest.mark.parametrize(
    "args",
    [
        '"compile_id": "3/1"',
        '"fn_name": "f",\n\t"compile_id": "0/0",\n\t"x": 1.5',
        '"compile_id": "0/0",\n\t"compile_id": "2/0"',
        '"compile_id": 7',
        '"compile_id": 1.5',
        '"note": "compile_id"',
        '"compile_id": null',
    ],
)
def test_an_event_s_compile_id_reads_as_its_json(args: str, tmp_path: Path) -> None:
    payload = (
        '{\n"name": "x",\n"ts": 1.0,\n"args": {\n' + args.replace("\n\t", "\n") + '\n},\n"ph": "B",\n"cat": "c",\n'
        '"tid": 0,\n"pid": 0\n}'
    )
    text = (
        HEADER
        + '{"chromium_event": {}, "frame_id": 0, "frame_compile_id": 0}\n'
        + "".join("\t" + line + "\n" for line in payload.split("\n"))
    )
    records, _ = _read(text, tmp_path)
    assert records[0].event() == trace_scan.event_from_json(json.loads(payload))
