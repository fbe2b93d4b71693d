"""The compile phases' names: the one table of labels (phase_labels.json, which the timeline's words read too:
extension/shared/trace/compilePhaseWords.ts), each label's short name, and each bar's names told apart from its
compile's other phases of its name ("Inductor (backward)", "C++ compile (backward, 1 of 2)"): the runner words them,
the compile-phases chart draws them (schema 1.40 `labels`)."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable

from ..shapes.compiler import CompilePhase

# chromium_event span name -> phase label (compiler/artifacts.phases): a span not named there is not shown
with open(os.path.join(os.path.dirname(__file__), "phase_labels.json"), encoding="utf-8") as _labels:
    PHASE_LABELS: dict[str, str] = json.load(_labels)
# AOT Autograd's backward compile: the phases under it are the backward's
BACKWARD_COMPILE = PHASE_LABELS["compile_fx.<locals>.bw_compiler"]
# a phase label -> the short name its bar is labelled by where the label has no room ("guards 209 ms", schema 1.38
# shortName); a label with none is short already, or said by its part ("codegen")
SHORT_NAMES = {
    "Dynamo: whole frame": "Dynamo",
    "Dynamo: trace bytecode": "trace",
    "Dynamo: build guards": "guards",
    "backend compile": "backend",
    "AOT Autograd": "AOT",
    BACKWARD_COMPILE: "backward",
    "Inductor: kernel codegen": "codegen",
    "Inductor: load module": "load",
    "kernel compile": "kernels",
    "C++ compile": "C++",
}
_PART = re.compile(r"^[^:]+: (.+)$")


def short_name(label: str) -> str | None:
    """The short name a phase's bar is labelled by where its label has no room, or None (short already)."""
    return SHORT_NAMES.get(label)


def _names(label: str) -> list[str]:
    """A phase's names, longest first: its label, its label less the compiler part it is of ("codegen" of "Inductor:
    codegen": the bar's colour and the bar it lies under say the part), its short name."""
    part = _PART.match(label)
    short = short_name(label)
    return list(dict.fromkeys([label, *([part[1]] if part else []), *([short] if short else [])]))


def _told(name: str, part: str | None, nth: int | None, of: int) -> str:
    """ "Inductor (backward)", "C++ compile (backward, 2 of 2)", "Dynamo: trace bytecode (1 of 2)": how many, so a
    label whose mate has no room still says it has one (review 12 N3: "(1st)" with no 2nd in sight)."""
    said = [s for s in (part, f"{nth} of {of}" if nth is not None else None) if s]
    return f"{name} ({', '.join(said)})" if said else name


def _labelled_compile(bars: list[CompilePhase]) -> None:
    backwards = [b for b in bars if b["name"] == BACKWARD_COMPILE]
    # each bar's part of its compile: the backward's where it lies under its backward compile
    part_of = [
        "backward"
        if any(b["depth"] < p["depth"] and b["startMs"] <= p["startMs"] < b["startMs"] + b["durMs"] for b in backwards)
        else "forward"
        for p in bars
    ]
    # a shorter name two phases of the compile are both said by labels neither ("codegen" is Inductor: codegen's
    # less its part and Inductor: kernel codegen's short name)
    said_by: dict[str, set[str]] = {}
    for p in bars:
        for n in _names(p["name"]):
            said_by.setdefault(n, set()).add(p["name"])
    by_label: dict[str, list[int]] = {}
    for k in sorted(range(len(bars)), key=lambda k: bars[k]["startMs"]):
        by_label.setdefault(bars[k]["name"], []).append(k)
    for label, same in by_label.items():
        parts = {part_of[k] for k in same}
        # the part's (or the compile's) bars of this name, in order: counted once, not per bar
        mates = {part: [k for k in same if len(parts) == 1 or part_of[k] == part] for part in parts}
        names = [n for i, n in enumerate(_names(label)) if i == 0 or len(said_by[n]) == 1]
        for k in same:
            part = part_of[k] if len(parts) > 1 else None
            own = mates[part_of[k]]
            nth = own.index(k) + 1 if len(own) > 1 else None
            bars[k]["labels"] = [_told(n, part, nth, len(own)) for n in names]


def label_phases(phases: Iterable[CompilePhase]) -> None:
    """Each bar's `labels` (a cache lookup is a marker, not a bar): its names, longest first, each told apart from its
    compile's other phases of its name (review 11K K6 / 11J J7: two bars "Inductor", three "C++ compile"): a compile
    that compiled its backward with it has an Inductor of each part, the backward's under its backward compile; a
    part's several (the backward's two C++ compiles, Dynamo's two traces of one frame) by their order."""
    by_compile: dict[str, list[CompilePhase]] = {}
    for p in phases:
        if "cache" not in p:
            by_compile.setdefault(p["compileId"], []).append(p)
    for bars in by_compile.values():
        _labelled_compile(bars)
