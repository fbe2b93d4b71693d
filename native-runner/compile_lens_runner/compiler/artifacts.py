"""What the compiler made, saved where the editor can open it: per compile id, the code Inductor generated, Dynamo's
guards (and which one failed before a recompile) and the FX graph Dynamo captured, written into the report directory
and referenced from the mode's `compiler` block; every generated kernel gains its line in that code and its time
per profiled step; and the compile phases of every graph (chromium_event spans of the structured log) become spans
of a compile timeline."""

from __future__ import annotations

import functools
import os
import re
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from ..measure.profiling import kernel_us_per_step
from ..shapes.compiler import CompileArtifacts, CompilePhase, CompilerInsight, KernelProvenance, StepSpan
from .insight import MAX_KERNELS
from .phase_names import PHASE_LABELS, label_phases
from .restarts import completed
from .torch_trace import Record

ARTIFACT_DIR = "compiler"
MAX_PHASES = 2000
# `name = async_compile.triton('name', '''` (Triton), `name = async_compile.cpp_pybinding([...], r'''` (C++), ...
_KERNEL_DEF = re.compile(r"\n(\w+) = async_compile\.\w+\(")  # after a line break: found by its first character
_HANDLE = re.compile(
    r"# \[Provenance debug handles\] (\S+)[^\S\n]*$", re.M
)  # alone on its line (checked): found by its text
_GUARD = re.compile(r"^[\s|]*\+- ([A-Z][A-Z_]+): (.*)$")
_GUARD_MANAGER = re.compile(
    r"^(?P<indent>[\s|]*\+- )\w*GuardManager: source=(?P<source>.+?), accessed_by=.*?, type=<class '(?P<type>[^']+)'>.*$"
)
_TENSOR_REASON = re.compile(r"^tensor '(?P<name>.+?)' \w+ mismatch")
_SOURCE_EXPR = re.compile(r"[LG]\['[^']+'\](?:\.\w+|\[[^\]]+\])*")
_REASON_PREFIX = re.compile(r"^(?P<cid>\d+/\d+): ")

# a span not named in the one table of phase labels (phase_names.PHASE_LABELS) is not shown (Inductor has hundreds
# of passes). A cache hit's "load from cache" still loads, and may compile the cached kernels' C++ again (the span
# holds those compiles); codegen's two parts are the kernels' code, with each C++ compile inside it (its time between
# them is generating code, which a cold first compile on CPU spends seconds on: review 25 N1), then loading the
# generated module, which waits for the compiles still running.
_AUTOTUNE = re.compile(r"autotun|benchmark_all_configs", re.I)
_CACHE_EVENT = re.compile(r"^(fx_graph|aotautograd|autograd)_cache_(hit|miss|bypass)$")


def safe_name(compile_id: str | None) -> str:
    return re.sub(r"[^\w.-]", "_", compile_id or "unknown")


# -- generated code ----------------------------------------------------------------------------------------------


def _numbered(code: str, matches: Iterable[re.Match[str]]) -> Iterator[tuple[int, re.Match[str]]]:
    """Each match with its 1-based line, lines counted on from the previous match (a module has thousands)."""
    line, counted = 1, 0
    for match in matches:
        line, counted = line + code.count("\n", counted, match.start()), match.start()
        yield line, match


def kernel_lines(code: str) -> dict[str, int]:
    """1-based line of each provenance handle ("name:N") and kernel name in one output-code module: a generated
    kernel's definition (`name = async_compile...`), else the call after its `[Provenance debug handles]` comment
    (extern kernels such as extern_kernels.mm have no definition)."""
    lines = code.split("\n")
    text = "\n" + code  # a definition on the first line too
    found: dict[str, int] = {match[1]: line for line, match in _numbered(text, _KERNEL_DEF.finditer(text))}
    for line, handle in _numbered(code, _HANDLE.finditer(code)):
        if lines[line - 1][: handle.start() - code.rfind("\n", 0, handle.start()) - 1].strip():
            continue
        name = handle[1].rsplit(":", 1)[0]
        call = next((j for j in range(line, len(lines)) if not lines[j].lstrip().startswith("#")), line - 1)
        found[handle[1]] = found.get(name, call + 1)
    return found


def _module_header(index: int, count: int, source: str | None) -> str:
    return (
        f"# ---- Compile Lens: Inductor output code {index} of {count}" + (f" ({source})" if source else "") + " ----"
    )


# -- guards ------------------------------------------------------------------------------------------------------


def readable_guards(tree: str) -> str:
    """Dynamo's guard tree with each GuardManager line shortened to what it guards ("L['x']  (torch.Tensor)")."""
    out = []
    for line in tree.strip("\n").split("\n"):
        manager = _GUARD_MANAGER.match(line)
        out.append(f"{manager['indent']}{manager['source']}  ({manager['type']})" if manager else line.rstrip())
    return "\n".join(out)


def guard_lines(text: str) -> list[tuple[int, str]]:
    """(1-based line, "KIND: check") of every guard in a readable guard text."""
    return [(i, f"{m[1]}: {m[2]}") for i, line in enumerate(text.split("\n"), 1) if (m := _GUARD.match(line))]


def failed_guard(reason: str, guards_text: str) -> tuple[int, str] | None:
    """The guard line a recompile reason names: Dynamo reports a failed guard's own check, or for a tensor the
    mismatch ("tensor 'x' size mismatch at index 0...") of a TENSOR_MATCH guard on that tensor."""
    guards = guard_lines(guards_text)
    text = _REASON_PREFIX.sub("", reason.strip().split("\n", 1)[0]).split("  #", 1)[0].strip()
    if not text or not guards:
        return None
    # the reason may name a frame local bare ("n == 3") where the guard says L['n']
    for check in (text, re.sub(r"^([A-Za-z_]\w*)\b(?!\[)", r"L['\1']", text)):
        exact = next((g for g in guards if check in g[1]), None)
        if exact:
            return exact
    tensor = _TENSOR_REASON.match(text)
    if tensor:
        name = tensor["name"]
        source = name if "[" in name else f"L['{name}']"
        hit = next((g for g in guards if g[1].startswith("TENSOR_MATCH:") and f"({source}," in g[1]), None)
        if hit:
            return hit
    for source in sorted(_SOURCE_EXPR.findall(text), key=len, reverse=True):
        hit = next((g for g in guards if source in g[1]), None)
        if hit:
            return hit
    return None


_GUARD_KINDS = ("dynamo_cpp_guards_str", "dynamo_guards")


def _guard_text(record: Record) -> str:
    if record.kind == "dynamo_cpp_guards_str":
        return readable_guards(record.payload)
    guards = record.payload_json() or []  # dynamo_guards, older torch: a JSON list of {"code": ...}
    return "\n".join(f"+- GUARD: {g.get('code')}" for g in guards if isinstance(g, dict) and g.get("code"))


# -- compile phases ----------------------------------------------------------------------------------------------


@functools.lru_cache(maxsize=4096)
def _phase_name(name: str) -> str | None:
    if name in PHASE_LABELS:
        return PHASE_LABELS[name]
    return "autotune" if _AUTOTUNE.search(name) else None


def phases(records: Iterable[Record], on_cpu: bool = False) -> list[CompilePhase]:
    """Compile-phase spans per compile id, ms from the mode's first span; `depth` nests them (0: outermost shown).
    Cache lookups are zero-length entries with `cache` hit/miss/bypass; `cacheHit` marks a hit. on_cpu: the run was
    on a CPU (its bars labelled in the CPU's words, phase_names.label_phases)."""
    out: list[CompilePhase] = []
    began: list[float] = []  # each entry's start (µs): made relative to the first span's once all are read
    shown = (
        0  # entries measured or cache lookups: once MAX_PHASES are, a later entry would not be shown, so none is made
    )
    origin: float | None = None
    cid: str | None = None
    # per compile id: (name, ts, index in out, how many shown spans are open up to it)
    open_spans: dict[str, list[tuple[str, float, int | None, int]]] = {}
    for r in records:
        if r.kind != "chromium_event":
            continue
        event = r.event()
        if event is None or (ts := event.ts) is None:
            continue
        name, ph, _, own = event
        own = own or r.compile_id
        # work done off the compile's thread (C++ compiles in a pool) is logged without an id: it belongs to the
        # compile that is running
        if own and own != "None":
            cid = str(own)
        elif cid is None:
            continue
        if origin is None or ts < origin:
            origin = ts
        stack = open_spans.get(cid)
        if stack is None:
            stack = open_spans[cid] = []
        depth = stack[-1][3] if stack else 0
        if ph == "B":
            label = _phase_name(name) if shown < MAX_PHASES else None
            if label:
                stack.append((name, ts, len(out), depth + 1))
                out.append({"compileId": cid, "name": label, "startMs": 0.0, "durMs": 0.0, "depth": depth})
                began.append(ts)
            else:
                stack.append((name, ts, None, depth))
        elif ph == "E":
            at = len(stack) - 1
            while at >= 0 and stack[at][0] != name:
                at -= 1
            if at < 0:
                continue
            _, start, index, _ = stack[at]
            del stack[at:]
            if index is not None:
                out[index]["durMs"] = round((ts - start) / 1000, 3)
                shown += out[index]["durMs"] > 0
        elif ph == "i" and shown < MAX_PHASES and (cache := _CACHE_EVENT.match(name)):
            label = "FX graph cache" if cache[1] == "fx_graph" else "AOT autograd cache"
            out.append(
                {
                    "compileId": cid,
                    "name": label,
                    "startMs": 0.0,
                    "durMs": 0.0,
                    "depth": depth,
                    "cache": cache[2],
                    "cacheHit": cache[2] == "hit",
                }
            )
            began.append(ts)
            shown += 1
    # spans still open (the log ended mid-compile) keep durMs 0: they are not measured, so they are dropped
    measured = [(entry, ts) for entry, ts in zip(out, began, strict=True) if entry["durMs"] > 0 or "cache" in entry]
    kept = measured[:MAX_PHASES]
    for entry, ts in kept:
        entry["startMs"] = round((ts - (origin or 0.0)) / 1000, 3)
    shown_phases = [entry for entry, _ in kept]
    label_phases(shown_phases, on_cpu)
    return shown_phases


# -- the whole mode ----------------------------------------------------------------------------------------------


class _Writer:
    def __init__(self, workdir: str, label: str) -> None:
        self.workdir = workdir
        self.base = os.path.join(ARTIFACT_DIR, safe_name(label))
        self.triton = False  # some generated code written is Triton's: the log was written on a GPU

    def write(self, compile_id: str, filename: str, parts: Iterable[str], generated: bool = False) -> str:
        """Writes the text made of `parts` one after the other (a compile logged again and again has hundreds of
        megabytes of code: one part is held at a time), ending with a line break; `generated`: Inductor's code."""
        relative = os.path.join(self.base, safe_name(compile_id), filename)
        path = os.path.join(self.workdir, relative)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            last = ""
            for part in parts:
                if part:
                    f.write(part)
                    last = part
                    self.triton = self.triton or (generated and "triton" in part)
            if not last.endswith("\n"):
                f.write("\n")
        return relative.replace(os.sep, "/")


@dataclass
class _Compiles:
    """What the log says per compile id, in the order the compiles started."""

    order: dict[str, None] = field(default_factory=dict)  # the ids, in order (a dict: looked up per record)
    modules: dict[str, list[tuple[Record, str | None]]] = field(
        default_factory=dict
    )  # [(output code, its original path)]
    before: dict[str, int] = field(default_factory=dict)  # lines of the saved file before the latest module's code
    code_lines: dict[tuple[str | None, str, int], int] = field(default_factory=dict)  # (id, kernel, nth) -> saved line
    guards: dict[str, str] = field(default_factory=dict)
    graphs: dict[str, list[Record]] = field(default_factory=dict)
    reasons: dict[str, list[str]] = field(default_factory=dict)


def _collect(records: list[Record]) -> _Compiles:
    found = _Compiles()
    kernel_at: Counter[tuple[str | None, str]] = Counter()
    listed = 0  # kernels named by the mappings so far: only the first MAX_KERNELS are listed (insight.kernels)
    guards: dict[str, Record] = {}
    for r in records:
        cid = r.compile_id
        if cid is None or r.kind == "chromium_event":  # most records of a log: none is saved
            continue
        if r.kind in (
            "dynamo_start",
            "inductor_output_code",
            "dynamo_cpp_guards_str",
            "dynamo_guards",
            "dynamo_output_graph",
        ):
            found.order.setdefault(cid)
        modules = found.modules.get(cid)
        if r.kind == "inductor_output_code":
            # the saved file has the modules one after another, a header line each
            found.before[cid] = found.before.get(cid, 0) + (modules[-1][0].payload_lines() + 2 if modules else 1)
            found.modules.setdefault(cid, []).append((r, r.meta.get("filename")))
        elif r.artifact == "inductor_provenance_tracking_node_mappings" and listed < MAX_KERNELS:
            handles = (r.payload_json(keep=False) or {}).get("cppCodeToPost") or {}
            listed += len(handles)
            if not modules:
                continue
            # the mapping follows the output code of the graph it describes: lines are in that (latest) module
            offset = found.before[cid]
            lines = kernel_lines(modules[-1][0].payload)
            for handle in handles:
                name = handle.rsplit(":", 1)[0]
                nth = kernel_at[(cid, name)]
                kernel_at[(cid, name)] += 1
                line = lines.get(handle) or lines.get(name)
                if line:
                    found.code_lines[(cid, name, nth)] = line + offset
        elif r.kind in _GUARD_KINDS:
            guards[cid] = r  # a compile's guards logged again replace the earlier ones: only the last is made readable
        elif r.kind == "dynamo_output_graph":
            found.graphs.setdefault(cid, []).append(r)
        elif r.artifact == "recompile_reasons":
            found.reasons[cid] = [str(x) for x in (r.payload_json(keep=False) or [r.payload_once()])]
    found.guards = {cid: _guard_text(r) for cid, r in guards.items()}
    return found


def _joined(parts: list[tuple[str, Record]], between: str) -> Iterator[str]:
    """Each (head, record) as the head then the record's payload, `between` between them: a payload is decoded when
    written, and not kept."""
    for i, (head, record) in enumerate(parts):
        yield (between if i else "") + head
        yield record.payload_once()


def _write_compiles(found: _Compiles, writer: _Writer) -> list[CompileArtifacts]:
    guard_paths = {
        cid: writer.write(
            cid,
            "guards.txt",
            [
                f"# Guards of compile {cid}: Dynamo checks these before each call; "
                f"when one fails it compiles again (a recompile).\n{text}"
            ],
        )
        for cid, text in found.guards.items()
    }
    compiles = []
    for cid in found.order:
        entry: CompileArtifacts = {
            "compileId": cid,
            "outputCode": None,
            "guards": guard_paths.get(cid),
            "guardCount": None,
            "fxGraph": None,
            "failedGuards": [],
        }
        if cid in found.modules:
            modules = found.modules[cid]
            heads = [(f"{_module_header(i, len(modules), src)}\n", code) for i, (code, src) in enumerate(modules, 1)]
            entry["outputCode"] = writer.write(cid, "output_code.py", _joined(heads, "\n"), generated=True)
        if cid in found.guards:
            entry["guardCount"] = len(guard_lines(found.guards[cid]))
        if cid in found.graphs:
            graphs = found.graphs[cid]
            heads = [
                (f"# The FX graph Dynamo captured for compile {cid}\n" if i == 0 else "", graph)
                for i, graph in enumerate(graphs)
            ]
            entry["fxGraph"] = writer.write(cid, "fx_graph.py", _joined(heads, "\n\n"))
        for reason in found.reasons.get(cid, []):
            failed = m["cid"] if (m := _REASON_PREFIX.match(reason)) else None
            hit = failed_guard(reason, found.guards[failed]) if failed in found.guards else None
            entry["failedGuards"].append(
                {
                    "compileId": failed,
                    "reason": _REASON_PREFIX.sub("", reason.split("\n", 1)[0]).strip(),
                    "guards": guard_paths.get(failed) if failed else None,
                    # +1: the file starts with a header line
                    "line": hit[0] + 1 if hit else None,
                    "guard": hit[1] if hit else None,
                }
            )
        compiles.append(entry)
    return compiles


@dataclass
class Saved:
    """A mode's artifacts as written: paths per compile id, compile phases, and each kernel's line in its saved code."""

    compiles: list[CompileArtifacts]
    phases: list[CompilePhase]
    code_lines: dict[tuple[str | None, str, int], int]
    triton: bool  # some of its generated code is Triton's: the log was written on a GPU


def save(records: list[Record], workdir: str, label: str, on_cpu: bool = False) -> Saved:
    """Writes the mode's artifacts under <workdir>/compiler/<label>/<compile id>/: each compile's graph, code and guards
    as its last attempt made them (an attempt Dynamo restarted made a graph that never ran)."""
    found, writer = _collect(completed(records)), _Writer(workdir, label)
    compiles = _write_compiles(found, writer)
    return Saved(compiles, phases(records, on_cpu), found.code_lines, writer.triton)


def attach(
    compiler: CompilerInsight,
    records: list[Record],
    workdir: str,
    label: str,
    trace: str | None,
    steps: int,
    saved: Saved | None = None,
    on_cpu: bool = False,
) -> None:
    """Writes the mode's artifacts (unless `saved` already) and adds to `compiler`: `compiles` (paths per compile id),
    `phases`, and per kernel `codeLine` and `usPerStep` (from the profile `trace`, relative to workdir, of `steps`
    steps); on_cpu: the run was on a CPU (its phases in the CPU's words)."""
    saved = saved or save(records, workdir, label, on_cpu)
    compiler["compiles"], compiler["phases"] = saved.compiles, saved.phases
    kernels = compiler.get("kernels") or []
    seen: Counter[tuple[str | None, str]] = Counter()
    for k in kernels:
        key = (k.get("compileId"), k["name"])
        k["codeLine"] = saved.code_lines.get((key[0], key[1], seen[key]))
        seen[key] += 1
    path = os.path.join(workdir, trace) if trace else None
    time_kernels(compiler, path if path and os.path.exists(path) else None, steps)


def time_kernels(
    compiler: CompilerInsight, trace_path: str | None, steps: int, compile_ids: set[str] | None = None
) -> StepSpan | None:
    """Each kernel's `usPerStep` from the profile at `trace_path` (of `steps` profiled steps), and the steps it is the
    mean of (`kernelSteps`, schema 1.43: the steps compared, measure/compared_steps.py); None where the kernel did not
    run there. compile_ids: only the kernels those compiles made (a script's region's, from that region's profile),
    each with its own steps (schema 1.49: the record's are the steps of every region timed alike,
    script/kernel_times.py; the code read's item 4: the last region timed said its steps for every kernel); the
    steps are returned."""
    times = kernel_us_per_step(trace_path, steps) if trace_path else None
    kernels = [k for k in compiler.get("kernels") or [] if compile_ids is None or k.get("compileId") in compile_ids]
    names = Counter(k["name"] for k in kernels)
    listed = {str(f["compileId"]) for f in compiler.get("frames") or [] if f.get("compileId")}
    said: StepSpan | None = (
        {"first": times["steps"][0], "last": times["steps"][1]} if times and times["steps"] else None
    )
    for k in kernels:
        k["usPerStep"] = _time_of(k, times["us"] if times else {}, names[k["name"]] == 1, listed)
        if compile_ids is not None and said is not None:
            k["kernelSteps"] = {**said}
    if said is not None and compile_ids is None:
        compiler["kernelSteps"] = said
    return said


def _compile_of(event_compile: str | None, listed: set[str]) -> str | None:
    """The compile a profiler event ran in, as the record lists it: a compile the record does not list (a script
    region's profile on a CPU runs a copy compiled for it, script/replay._profiled_copy, which Dynamo counts as its
    frame's next compile, "0/1") is its frame's first (review 15 V6: b_item's kernel, run in "0/1", was timed for
    none; webview tracedCompileName names it so)."""
    if event_compile is None or not listed or event_compile in listed:
        return event_compile
    return re.sub(r"/.*", "/0", event_compile)


def _time_of(
    kernel: KernelProvenance, times: dict[tuple[str | None, str], float], unique: bool, listed: set[str]
) -> float | None:
    """A kernel's µs per step: profiler events named as the kernel (or `graph_<n>_<kernel>`: Inductor's C++ kernels
    on CPU) that ran in its compile's region (_compile_of). Events outside a known region count only for a name no
    other kernel of the mode has. None: the kernel did not run in the profile (or cannot be told apart)."""
    name = kernel["name"]
    total = [
        us
        for (cid, event), us in times.items()
        if (event == name or re.fullmatch(rf"graph_\d+_{re.escape(name)}", event))
        and ((at := _compile_of(cid, listed)) == kernel.get("compileId") or (at is None and unique))
    ]
    return round(sum(total), 3) if total else None
