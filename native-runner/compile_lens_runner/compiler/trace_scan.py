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
from typing import Any, NamedTuple

_STR = rb'"[^"\\\n]*"'  # a JSON string without escapes: anything else goes to the JSON parser
_VALUE = rb'(?:-?\d+|' + _STR + rb'|null|true|false)'
CONTEXT_KEYS = ("frame_id", "frame_compile_id", "attempt", "has_payload", "rank", "stack", "compiled_autograd_id")
# A record: its line, then its payload's tab-indented lines. The envelopes of most records have one of two shapes, read
# here whole: a kind with no metadata ({"chromium_event": {}, "frame_id": 0, ...}) or an artifact's name and encoding,
# then context keys as torch writes them (rank, frame_id, frame_compile_id in that order, others after, none twice).
# Groups: 1 (empty) where the line starts, 2 the kind, 3 and 4 an artifact's name and encoding, 5 the rank, 6 and 7
# the frame and attempt of the compile id; else 8 the envelope (parsed as JSON); 9 the payload's lines (each after its
# line break).
_RECORD = (rb'()[VIWEC]\d{4} [\d:.]+ +\d+ [^\]\n]*\] (?:\{"(?!(?:' + "|".join(CONTEXT_KEYS).encode() + rb')")(\w+)": '
           rb'(?:\{\}|\{"name": (' + _STR + rb'), "encoding": (' + _STR + rb')\})(?:, "rank": (\d+))?'
           rb'(?:, "frame_id": (\d+), "frame_compile_id": (\d+))?'
           rb'(?:, "(?!(?:rank|frame_id|frame_compile_id|\2)")\w+": ' + _VALUE + rb')*\}[ \t\r]*|(\{[^\n]*))$'
           rb'((?:\n\t[^\n]*)*)')
FIRST = re.compile(_RECORD, re.M)  # at the start of the data
HEADER = re.compile(rb"\n" + _RECORD, re.M)  # after a line break: a literal first character is found much faster
_LITERALS: dict[bytes, Any] = {b"null": None, b"true": True, b"false": False}

_NUMBER = rb'-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?'
_SCALAR = rb'(?:' + _NUMBER + rb'|' + _STR + rb'|null|true|false)'
# a chromium event as torch logs it, one key per line, with flat args (a nested value goes to the JSON parser).
# Groups: 1 name, 2 ts, 3 the args' lines, 4 ph
_EVENT = re.compile(rb'\t\{\n\t"name": "([^"\\\n]*)",\n\t"ts": (' + _NUMBER + rb'),\n\t"args": (?:\{\}|null|\{\n((?:\t' + _STR
                    + rb': ' + _SCALAR + rb',\n)*\t' + _STR + rb': ' + _SCALAR + rb')\n\t\}),\n\t"ph": "(\w+)",\n\t"cat": ' + _STR
                    + rb',\n\t"tid": -?\d+,\n\t"pid": -?\d+\n\t\}')
_EVENT_ID = re.compile(rb'(?:^|\n)\t"compile_id": (' + _VALUE + rb')(?:,|$)')


class ChromiumEvent(NamedTuple):
    """What readers use of a compile-phase event: name, phase (B, E, i...), time in µs (None: not a number) and
    args.compile_id (None: absent)."""
    name: str
    ph: Any
    ts: float | None
    compile_id: Any


def _value(raw: bytes) -> Any:
    if raw[:1] == b'"':
        return raw[1:-1].decode("utf-8", errors="replace")
    return _LITERALS[raw] if raw in _LITERALS else int(raw)


# What a record's envelope says: its kind, the kind's value (bytes: its JSON, parsed when read), its compile id
# ("frame/attempt", else the value's compile_id), its rank
Envelope = tuple[str, Any, Any, Any]
# Any other envelope whose kind comes first with an object as its value, then context keys as torch writes them: the
# value (a tensor's description, a compile's metrics...) is located, its JSON parsed only when a reader asks for it.
_KIND_FIRST = re.compile(rb'\{"(?!(?:' + "|".join(CONTEXT_KEYS).encode() + rb')")(\w+)": (?=\{)')
_CONTEXT = re.compile(rb'(?:, "rank": (\d+))?(?:, "frame_id": (\d+), "frame_compile_id": (\d+))?'
                      rb'(?:, "(?!(?:rank|frame_id|frame_compile_id)")\w+": (?:-?\d+|"[^"\\\n{}]*"|null|true|false))*\}[ \t\r]*')
_STRING = re.compile(rb'\{"str": \[(' + _STR + rb'), (\d+)\]\}[ \t\r]*')  # a file name interned
_DECODER = json.JSONDecoder()
_KINDS: dict[bytes, str] = {}  # kinds and compile ids decoded once
_IDS: dict[bytes, str] = {}
_NAMES: dict[bytes, str] = {}


def _envelope(entry: dict[str, Any]) -> Envelope:
    kind = next((k for k in entry if k not in CONTEXT_KEYS), "unknown")
    value, frame, attempt = entry.get(kind), entry.get("frame_id"), entry.get("frame_compile_id")
    compile_id = (f"{frame}/{attempt}" if frame is not None and attempt is not None
                  else value.get("compile_id") if isinstance(value, dict) else None)
    return kind, value, compile_id, entry.get("rank")


def _located(line: bytes) -> Envelope | None:
    """An envelope whose value is left unparsed: its kind first, its object value, then the context keys (no brace in
    them, so the value ends at the last brace before the envelope's own). None when it is not so, or when the value
    is needed for the compile id."""
    kind = _KIND_FIRST.match(line)
    end = line.rstrip().rfind(b"}")
    value_end = line.rfind(b"}", 0, end) + 1
    if not kind or value_end <= kind.end() or kind[1] == b"artifact":  # an artifact's name is read at once
        return None
    context = _CONTEXT.fullmatch(line, value_end)
    # the value may be followed by more keys before the context ones: none may be one read here (nor be inside the
    # value: then JSON decides), nor the kind again (JSON keeps a repeated key's last value)
    value = line[kind.end():value_end]
    if (not context or context[2] is None or b'"' + kind[1] + b'"' in line[kind.end():]
            or any(key in value for key in (b'"rank"', b'"frame_id"', b'"frame_compile_id"'))):
        return None
    key = context[2] + b"/" + context[3]
    return (_KINDS.get(kind[1]) or _KINDS.setdefault(kind[1], kind[1].decode()), value,
            _IDS.get(key) or _IDS.setdefault(key, key.decode()), None if context[1] is None else int(context[1]))


def envelope(header: re.Match[bytes]) -> Envelope | None:
    """The envelope of a HEADER match: read by shape when it has one of the common ones, else parsed (ValueError when
    it does not parse, None when it is JSON but not an object)."""
    kind = header[2]
    if kind is None:
        string = _STRING.fullmatch(header[8])
        if string:
            return "str", [_value(string[1]), int(string[2])], None, None
        located = _located(header[8])
        if located:
            return located
        entry = json.loads(header[8].decode("utf-8", errors="replace"))
        return _envelope(entry) if isinstance(entry, dict) else None
    compile_id = None
    if header[6] is not None:
        key = header[6] + b"/" + header[7]
        compile_id = _IDS.get(key) or _IDS.setdefault(key, key.decode())
    value = {"name": _value(header[3]), "encoding": _value(header[4])} if header[3] is not None else {}
    return (_KINDS.get(kind) or _KINDS.setdefault(kind, kind.decode()), value, compile_id,
            None if header[5] is None else int(header[5]))


def value_of(value: bytes) -> Any:
    """A located envelope value: its first JSON object (other keys may follow it). ValueError when damaged."""
    return _DECODER.raw_decode(value.decode("utf-8", errors="replace"))[0]


def payload_text(raw: bytes) -> str:
    """A payload's text from its lines as logged (each but a blank one starts with a tab)."""
    return raw[1:].replace(b"\n\t", b"\n").decode("utf-8", errors="replace")


def event_of(raw: bytes) -> ChromiumEvent | None:
    """A chromium event read from its payload's fixed layout (name, ts, flat args, ph, cat, tid, pid, one per line);
    None when the payload is laid out otherwise (nested args, escapes, damage): then its JSON decides."""
    event = _EVENT.fullmatch(raw)
    if not event:
        return None
    compile_id = None
    if event[3] and b'"compile_id"' in event[3]:
        found = _EVENT_ID.findall(event[3])
        if not found:
            return None
        compile_id = _IDS.get(found[-1]) or _value(found[-1])  # JSON keeps a repeated key's last value
        if isinstance(compile_id, str):
            compile_id = _IDS.setdefault(found[-1], compile_id)
    # names, phases and compile ids repeat: each is kept once
    name = _NAMES.get(event[1]) or _NAMES.setdefault(event[1], event[1].decode("utf-8", errors="replace"))
    return ChromiumEvent(name, _NAMES.get(event[4]) or _NAMES.setdefault(event[4], event[4].decode()), float(event[2]),
                         compile_id)


def event_from_json(event: Any) -> ChromiumEvent | None:
    if not isinstance(event, dict):
        return None
    ts = event.get("ts")
    args = event.get("args")
    return ChromiumEvent(str(event.get("name", "")), event.get("ph"),
                         float(ts) if isinstance(ts, (int, float)) else None,
                         args.get("compile_id") if isinstance(args, dict) else None)
