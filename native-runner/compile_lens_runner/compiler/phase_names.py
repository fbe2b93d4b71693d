"""The compile phases' names: the one table of labels (phase_labels.json, which the timeline's words read too:
extension/shared/trace/compilePhaseWords.ts), each label's short name, and each bar's names told apart from its
compile's other phases of its name ("Inductor (backward)", "C++ compile (backward, 1 of 2)", "trace bytecode
(again)"): the runner words them, the compile-phases chart draws them (schema 1.40 `labels`, 1.44
`uncountedLabels`), and of a phase's several bars their count and time in all (1.51 `countedText`)."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable

from .. import formats
from ..shapes.compiler import CompilePhase

with open(os.path.join(os.path.dirname(__file__), "phase_labels.json"), encoding="utf-8") as _labels:
    _TABLE: dict[str, dict[str, str]] = json.load(_labels)
# chromium_event span name -> phase label (compiler/artifacts.phases): a span not named there is not shown
PHASE_LABELS = _TABLE["labels"]
# a phase label -> its bar's label on a CPU run, where Inductor generates C++ functions, no kernels (review 22X X3:
# "Inductor: kernel codegen" under a legend that says "C++ compile"); the phase keeps its label as its name
CPU_LABELS = {PHASE_LABELS[span]: label for span, label in _TABLE["onCpu"].items()}
# AOT Autograd's backward compile: the phases under it are the backward's
BACKWARD_COMPILE = PHASE_LABELS["compile_fx.<locals>.bw_compiler"]
# Dynamo's trace of a frame: a compile traces it again only where Dynamo restarted its analysis (convert_frame's
# attempts, the timeline's "compile_attempt_N")
TRACE = PHASE_LABELS["bytecode_tracing"]
# a phase label -> the short name its bar is labelled by where the label has no room ("guards 209 ms", the last of
# its `labels`); a label with none is short already, or said by its part ("codegen")
SHORT_NAMES = {
    "Dynamo: whole frame": "Dynamo",
    "Dynamo: trace bytecode": "trace",
    "Dynamo: build guards": "guards",
    "backend compile": "backend",
    "AOT Autograd": "AOT",
    BACKWARD_COMPILE: "backward",
    "Inductor: kernel codegen": "codegen",
    CPU_LABELS["Inductor: kernel codegen"]: "codegen",
    "Inductor: load module": "load",
    "kernel compile": "kernels",
    "C++ compile": "C++",
}
_PART = re.compile(r"^[^:]+: (.+)$")


def _said(name: str, on_cpu: bool) -> str:
    """A phase's label as its bar says it: on a CPU run in the CPU's words ("Inductor: C++ codegen")."""
    return CPU_LABELS.get(name, name) if on_cpu else name


def _names(label: str) -> list[str]:
    """A phase's names, longest first: its label, its label less the compiler part it is of ("codegen" of "Inductor:
    codegen": the bar's colour and the bar it lies under say the part), its short name."""
    part = _PART.match(label)
    short = SHORT_NAMES.get(label)
    return list(dict.fromkeys([label, *([part[1]] if part else []), *([short] if short else [])]))


def _told(name: str, said: list[str]) -> str:
    return f"{name} ({', '.join(said)})" if said else name


def _attempt(nth: int, of: int) -> tuple[str, str | None]:
    """A trace's attempt and, among several restarts, its count: "given up, restarted", "again", ("again", "2 of 3").
    Dynamo restarts a frame's analysis (torch/_dynamo/convert_frame.py, a RestartAnalysis) where its trace met what it
    must do another way, a graph break mostly, or a float to specialise: it gives that trace up (its graph is never
    compiled) and traces the frame again from its start with what it learnt, so the first trace is one given up and
    the next the frame's trace again (review 19Y Y5: "(first attempt)" said neither what was attempted nor why a
    second came; review 13 O7: "trace bytecode (1 of 2)" said nothing of the restart)."""
    if nth == 1:
        return "given up, restarted", None
    return "again", f"{nth - 1} of {of - 1}" if of > 2 else None


def _labelled_compile(bars: list[CompilePhase], said_by: dict[str, set[str]], on_cpu: bool) -> None:
    backwards = [b for b in bars if b["name"] == BACKWARD_COMPILE]
    # each bar's part of its compile: the backward's where it lies under its backward compile
    part_of = [
        "backward"
        if any(b["depth"] < p["depth"] and b["startMs"] <= p["startMs"] < b["startMs"] + b["durMs"] for b in backwards)
        else "forward"
        for p in bars
    ]
    by_label: dict[str, list[int]] = {}
    for k in sorted(range(len(bars)), key=lambda k: bars[k]["startMs"]):
        by_label.setdefault(bars[k]["name"], []).append(k)
    for label, same in by_label.items():
        parts = {part_of[k] for k in same}
        # the part's (or the compile's) bars of this name, in order: counted once, not per bar
        mates = {part: [k for k in same if len(parts) == 1 or part_of[k] == part] for part in parts}
        names = [n for i, n in enumerate(_names(_said(label, on_cpu))) if i == 0 or len(said_by[n]) == 1]
        for k in same:
            own = mates[part_of[k]]
            nth = own.index(k) + 1
            said = [part_of[k]] if len(parts) > 1 else []
            count = f"{nth} of {len(own)}" if len(own) > 1 else None
            attempt = None
            if label == TRACE and len(own) > 1:
                attempt, count = _attempt(nth, len(own))
            kept = [*said, *([attempt] if attempt else [])]
            bars[k]["labels"] = [_told(n, [*kept, *([count] if count else [])]) for n in names]
            # without its count where a mate is unlabelled (review 13 P6); a trace keeps its attempt, the one word that
            # says Dynamo traced the frame again where its restart is too narrow to name (review 15U R4)
            if count:
                bars[k]["uncountedLabels"] = [_told(n, kept) for n in names]
            # a phase's several bars, their count and time in all: the row's hover says it where some are bare, their
            # total said nowhere else (review 17X X4: 13 C++ builds, one labelled "C++ (12 of 13)")
            if count and label != TRACE:
                total = sum(bars[j]["durMs"] for j in own)
                counted = _told(_said(label, on_cpu), said)
                bars[k]["countedText"] = f"{len(own)} × {counted}, {formats.ms(total)} in all"


def label_phases(phases: Iterable[CompilePhase], on_cpu: bool = False) -> None:
    """Each bar's `labels` (a cache lookup is a marker, not a bar): its names, longest first, each told apart from its
    compile's other phases of its name (review 11K K6 / 11J J7: two bars "Inductor", three "C++ compile"): a compile
    that compiled its backward with it has an Inductor of each part, the backward's under its backward compile; a
    part's several (the backward's two C++ compiles) by their order, "(1 of 2)", and where that count is said its
    `uncountedLabels`, the same names without it, which the chart shows where a mate has no label (review 13 P6);
    Dynamo's traces of one frame by its restart, "(given up, restarted)", "(again)" (review 13 O7, 19Y Y5), kept in their
    `uncountedLabels` (review 15U R4: without it nothing said Dynamo traced twice). A shorter name two
    phases of the record share is left out of both ("codegen" is Inductor: codegen's less its part and Inductor: kernel
    codegen's short name), so every bar of a phase has the same names, one chart saying a phase one way (review 13
    O5). on_cpu: the run was on a CPU (the report's environment.device, as the chart's legend decides its "C++
    compile"): its bars in the CPU's words (CPU_LABELS)."""
    bars = [p for p in phases if "cache" not in p]
    said_by: dict[str, set[str]] = {}
    for p in bars:
        for n in _names(_said(p["name"], on_cpu)):
            said_by.setdefault(n, set()).add(p["name"])
    by_compile: dict[str, list[CompilePhase]] = {}
    for p in bars:
        p.pop("labels", None)
        p.pop("uncountedLabels", None)
        p.pop("countedText", None)
        by_compile.setdefault(p["compileId"], []).append(p)
    for compile_bars in by_compile.values():
        _labelled_compile(compile_bars, said_by, on_cpu)
