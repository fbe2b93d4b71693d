"""Finds a structured log's (TORCH_TRACE) records in its bytes without decoding what no reader asks for.

A record is a glog prefix, `] `, a JSON object on one line; its payload follows on tab-indented lines. Most of a big
log is compile-phase events (`chromium_event`) and artifacts whose envelope has one of a few fixed shapes: those are
read with one regular expression each, checked whole (every other envelope is parsed as JSON), and their payloads are
located, not copied: a reader decodes one when it asks. A chromium event's name, phase, time and compile id are read
from its payload's fixed layout when the payload is a flat one (else from its JSON, when asked).
"""

from __future__ import annotations

import json
import re
import sys
from typing import Any, NamedTuple

_STR = rb'"[^"\\\n]*"'  # a JSON string without escapes: anything else goes to the JSON parser
_VALUE = rb"(?:-?\d+|" + _STR + rb"|null|true|false)"
CONTEXT_KEYS = ("frame_id", "frame_compile_id", "attempt", "has_payload", "rank", "stack", "compiled_autograd_id")
_NUMBER = rb"-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?"
_SCALAR = rb"(?:" + _NUMBER + rb"|" + _STR + rb"|null|true|false)"
# A chromium event as torch logs it, one key per line, with flat args (a nested value goes to the JSON parser); an
# args.compile_id that is not a string, an integer or a literal goes to it too. Groups (from 1): name, ts, the last
# args.compile_id (a group in a repeat keeps its last match, as JSON keeps a repeated key's last value), ph; then an
# empty one where it ends.
_ARG = rb'\t(?:"compile_id": (' + _VALUE + rb')|(?!"compile_id")' + _STR + rb": " + _SCALAR + rb")"
_EVENT = (
    rb'\n\t\{\n\t"name": "([^"\\\n]*)",\n\t"ts": ('
    + _NUMBER
    + rb'),\n\t"args": (?:\{\}|null|\{\n(?:'
    + _ARG
    + rb'(?:,\n|(?=\n\t\})))+\n\t\}),\n\t"ph": "(\w+)",\n\t"cat": '
    + _STR
    + rb',\n\t"tid": -?\d+,\n\t"pid": -?\d+(?:,\n\t"s": "\w+")?\n\t\}$()'
)  # "s": an instant event's scope
# A record: its line, then its payload's tab-indented lines. Most envelopes have one of three shapes, read here whole:
# - a kind with no metadata ({"chromium_event": {}, "frame_id": 0, ...}) or an artifact's name and encoding, then
#   context keys as torch writes them (rank, frame_id, frame_compile_id in that order, others after, none twice);
# - a kind with an object value (a tensor's description, a compile's metrics...), then the context keys with the
#   compile id (no brace in them, so the value ends at the last brace but one): the value is located, its JSON parsed
#   only when a reader asks for it;
# - a file name interned;
# - else the envelope is parsed as JSON.
# Groups: 1 (empty) where the line starts, 2 (empty) where the envelope starts; the first shape's kind 3, artifact
# name 4 and encoding 5, rank 6, compile id 7 (its frame, compile and attempt at it: `0, "frame_compile_id": 1,
# "attempt": 0`, the attempt when logged); the second shape's
# kind 8, value 9, rank 10, compile id 11; a file name interned ({"str": [name, id]}) 12 and 13; 14 (empty) where the
# header line ends; 15 to 19 a payload laid out as a chromium event (_EVENT's groups: it is the event only if the
# payload ends where it does); the payload's other lines follow, each after its line break.
_KIND = rb'\{"(?!(?:' + "|".join(CONTEXT_KEYS).encode() + rb')")(\w+)": '
_RECORD = (
    rb"()[VIWEC]\d{4} [\d:.]++ ++\d++ [^\]\n]*+\] ()(?:"
    + _KIND
    + rb'(?:\{\}|\{"name": ('
    + _STR
    + rb'), "encoding": ('
    + _STR
    + rb')\})(?:, "rank": (\d+))?'
    rb'(?:, "frame_id": (\d+, "frame_compile_id": \d+(?:, "attempt": \d+)?))?'
    rb'(?:, "(?!(?:rank|frame_id|frame_compile_id|attempt|\3)")\w+": ' + _VALUE + rb")*\}[ \t\r]*"
    rb"|"
    + _KIND
    + rb'(\{[^\n]*\})(?:, "rank": (\d+))?, "frame_id": (\d+, "frame_compile_id": \d+(?:, "attempt": \d+)?)'
    rb'(?:, "(?!(?:rank|frame_id|frame_compile_id|attempt)")\w+": (?:-?\d+|"[^"\\\n{}]*"|null|true|false))*\}[ \t\r]*'
    rb'|\{"str": \[(' + _STR + rb"), (\d+)\]\}[ \t\r]*"
    rb"|\{[^\n]*)$()(?:" + _EVENT + rb")?(?:\n\t[^\n]*+)*+"
)  # possessive: nothing to backtrack into
FIRST = re.compile(_RECORD, re.M)  # at the start of the data
HEADER = re.compile(rb"\n" + _RECORD, re.M)  # after a line break: a literal first character is found much faster
_LITERALS: dict[bytes, Any] = {b"null": None, b"true": True, b"false": False}


class ChromiumEvent(NamedTuple):
    """What readers use of a compile-phase event: name, phase (B, E, i...), time in µs (None: not a number) and
    args.compile_id (None: absent)."""

    name: str
    ph: Any
    ts: float | None
    compile_id: Any


new_event = tuple.__new__  # a named tuple made without its Python-level __new__: a third of an event's reading


def _value(raw: bytes) -> Any:
    if raw[:1] == b'"':
        return raw[1:-1].decode("utf-8", errors="replace")
    return _LITERALS[raw] if raw in _LITERALS else int(raw)


# What a record's envelope says: its kind, the kind's value (a (start, end) span of the data: its JSON, parsed when
# read), its compile id ("frame/compile", else the value's compile_id), its rank, and which attempt at that compile
# logged it (0 when not logged: Dynamo restarts a compile's analysis, e.g. at a graph break in a nested call)
Envelope = tuple[str, Any, Any, Any, int]
_DECODER = json.JSONDecoder()
_KINDS: dict[bytes, str] = {}  # kinds, compile ids, event names and phases decoded once (they repeat)
_IDS: dict[bytes, str] = {}
_COMPILES: dict[bytes, tuple[str, int]] = {}  # an envelope's compile id and attempt, by RECORD's group of them
_NO_COMPILE = (None, 0)
_NAMES: dict[bytes, str] = {}


def _kind(raw: bytes) -> str:
    return _KINDS.get(raw) or _KINDS.setdefault(raw, raw.decode())


# Envelope values read by shape, one object per distinct value, shared by the records that have it (a large log has
# a million): readers only read a record's meta
_NO_META: dict[str, Any] = {}
_ARTIFACTS: dict[bytes, dict[str, Any]] = {}


def _artifact(name: bytes, encoding: bytes) -> dict[str, Any]:
    return _ARTIFACTS.setdefault(name + encoding, {"name": _value(name), "encoding": _value(encoding)})


def _compile(raw: bytes) -> tuple[str, int]:
    """("frame/compile", attempt) from RECORD's `frame, "frame_compile_id": compile[, "attempt": attempt]`."""
    known = _COMPILES.get(raw)
    if known is None:
        frame, compile_id, *attempt = (part.rpartition(b" ")[2].decode() for part in raw.split(b","))
        known = _COMPILES[raw] = (f"{frame}/{compile_id}", int(attempt[0]) if attempt else 0)
    return known


def _envelope(entry: dict[str, Any]) -> Envelope:
    kind = next((k for k in entry if k not in CONTEXT_KEYS), "unknown")
    value, frame, nth = entry.get(kind), entry.get("frame_id"), entry.get("frame_compile_id")
    compile_id = (
        f"{frame}/{nth}"
        if frame is not None and nth is not None
        else value.get("compile_id")
        if isinstance(value, dict)
        else None
    )
    attempt = entry.get("attempt")
    return kind, value, compile_id, entry.get("rank"), attempt if isinstance(attempt, int) else 0


def envelope(header: re.Match[bytes]) -> Envelope | None:
    """The envelope of a HEADER match: read by shape when it has one of the common ones, else parsed (ValueError when
    it does not parse, None when it is JSON but not an object)."""
    entry = by_shape(header)
    if entry is not None:
        return entry
    if (string := interned(header)) is not None:
        return "str", [string[1], string[0]], None, None, 0
    entry = json.loads(header.string[header.end(2) : header.start(14)].decode("utf-8", errors="replace"))
    return _envelope(entry) if isinstance(entry, dict) else None


def by_shape(header: re.Match[bytes]) -> Envelope | None:
    """The envelope of a HEADER match read from its shape alone: a kind without metadata, an artifact's name and
    encoding, or a located value. None: a file name interned, or an envelope only JSON can read."""
    kind, name, encoding, rank, compile_id, other = header.group(3, 4, 5, 6, 7, 8)
    if kind is None:
        return None if other is None else located(header)
    meta = _NO_META if name is None else _ARTIFACTS.get(name + encoding) or _artifact(name, encoding)
    compile_id, attempt = _NO_COMPILE if compile_id is None else _COMPILES.get(compile_id) or _compile(compile_id)
    return _KINDS.get(kind) or _kind(kind), meta, compile_id, None if rank is None else int(rank), attempt


def interned(header: re.Match[bytes]) -> tuple[int, str] | None:
    """The id and file name of a HEADER match that interns one ({"str": [name, id]}) by shape."""
    string = header.group(12)
    return None if string is None else (int(header.group(13)), _value(string))


_CONTEXT_KEY = re.compile(rb'"(?:rank|frame_id|frame_compile_id)"')


def located(header: re.Match[bytes]) -> Envelope | None:
    """The envelope of a HEADER match of the second shape (a kind with an object value): its value located, not
    parsed. None when JSON must decide: an artifact (its name is read at once), the kind again after the value (JSON
    keeps a repeated key's last value), a context key in the value or between it and the context keys."""
    data, kind, (start, end) = header.string, header.group(8), header.span(9)
    if (
        kind == b"artifact"
        or data.find(b'"' + kind + b'"', start, header.start(14)) >= 0
        or _CONTEXT_KEY.search(data, start, end)
    ):
        return None
    rank, (compile_id, attempt) = header.group(10), _compile(header.group(11))
    return _kind(kind), (start, end), compile_id, None if rank is None else int(rank), attempt


def value_of(value: bytes) -> Any:
    """A located envelope value: its first JSON object (other keys may follow it), its keys one string each across
    records (a compile's metrics have a few dozen keys, and a log thousands of them: their copies took half their
    memory). ValueError when damaged."""
    parsed = _DECODER.raw_decode(value.decode("utf-8", errors="replace"))[0]
    return {sys.intern(key): item for key, item in parsed.items()} if isinstance(parsed, dict) else parsed


def payload_text(raw: bytes) -> str:
    """A payload's text from its lines as logged (each but a blank one starts with a tab)."""
    return raw[1:].replace(b"\n\t", b"\n").decode("utf-8", errors="replace")


def event(header: re.Match[bytes], payload_end: int) -> ChromiumEvent | None:
    """The chromium event of a HEADER match whose payload ends at `payload_end`, read from its fixed layout (name, ts,
    flat args, ph, cat, tid, pid, one per line); None when the payload is laid out otherwise (nested args, escapes,
    damage, more lines): then its JSON decides."""
    if header.end(19) != payload_end:  # not laid out as an event (-1), or more after it
        return None
    name, ts, raw, ph = header.group(15, 16, 17, 18)
    compile_id = None
    if raw is not None:
        compile_id = _IDS.get(raw)
        if compile_id is None:
            compile_id = _value(raw)
            if isinstance(compile_id, str):
                compile_id = _IDS.setdefault(raw, compile_id)
    return new_event(
        ChromiumEvent,
        (
            _NAMES.get(name) or _NAMES.setdefault(name, name.decode("utf-8", errors="replace")),
            _NAMES.get(ph) or _NAMES.setdefault(ph, ph.decode()),
            float(ts),
            compile_id,
        ),
    )


def event_from_json(event: Any) -> ChromiumEvent | None:
    if not isinstance(event, dict):
        return None
    ts = event.get("ts")
    args = event.get("args")
    return ChromiumEvent(
        str(event.get("name", "")),
        event.get("ph"),
        float(ts) if isinstance(ts, (int, float)) else None,
        args.get("compile_id") if isinstance(args, dict) else None,
    )
