"""What the compiler did in one mode, from its structured-log records: graphs, breaks, recompiles, guards,
compile-time phases, caches, CUDA graphs, and which ATen ops and user lines each generated kernel covers."""

from __future__ import annotations

import functools
import os
import re
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

from ..shapes.common import SourceLocation
from ..shapes.compiler import (
    BrokeAt,
    CacheCounts,
    CompiledFrame,
    CompilerInsight,
    GraphBreak,
    KernelProvenance,
    Recompile,
)
from . import break_patterns, explain, made_for, perf_hints, recompile_sites
from .cudagraphs import cuda_graphs
from .restarts import completed
from .torch_trace import Record
from .user_code import innermost_user, is_user_file, library_place, location, parse_frames

_GB_ID = re.compile(r"/gb/(gb\d+)\.html", re.I)
_URL = re.compile(r"https?://\S+?\.html")
_POST_GRAD_NODE = re.compile(
    r"^\s*(\w+): \"[^\"]*\" = torch\.ops\.([\w.]+?)(?:\.default|\.Tensor|\.Scalar|\.int|\.dim|\.self)?\("
)
MAX_KERNELS = 200
_AUTOTUNE = re.compile(r"autotun|benchmark_all_configs", re.I)
TIMED_PHASES = ("timed", "retimed")


def limit_hits(failures: list[dict[str, Any]]) -> None:
    """A failed compile that was the recompile limit, marked (schema 1.32: `recompileLimitHit`): it made no graph,
    and report/compile_names.py names it as that, never as one more recompile."""
    for failure in failures:
        if explain.is_recompile_limit(str(failure.get("reason") or "")):
            failure["recompileLimitHit"] = True


def _section(text: str, start: str) -> str:
    """The block after a heading line, up to the first blank line or the compiler's own traceback."""
    if start not in text:
        return ""
    body = text.split(start, 1)[1]
    return re.split(r"\n\s*\n|\nTraceback \(most recent call last\)", body, maxsplit=1)[0]


def graph_break(record: Record) -> GraphBreak:
    text = record.payload_once()
    message = text.split("User code traceback:", 1)[0]
    lines = [line.rstrip() for line in message.split("\n")]
    where = re.search(r"Graph break in user code at (.+):(\d+)", text)
    headline = next((line.strip() for line in lines[2:] if line.strip() and not line.startswith(" ")), None)
    explanation = next((line.split("Explanation:", 1)[1].strip() for line in lines if "Explanation:" in line), None)
    reason = ": ".join(p for p in (headline, explanation) if p) or (lines[1] if len(lines) > 1 else text[:200])
    hints = list(
        dict.fromkeys(
            line.split("Hint:", 1)[1].strip()
            for line in lines
            if "Hint:" in line and "Please report an issue" not in line
        )
    )
    url = _URL.search(text)
    gb = _GB_ID.search(text)
    frames = parse_frames(_section(text, "User code traceback:"))
    stack = [f for f in frames if is_user_file(f["file"])]
    loc = innermost_user(stack)
    if loc is None and where and is_user_file(where[1]):
        loc = location(where[1], int(where[2]), None)
    broke_at = _broke_at(where, frames, text)
    gb_id = gb[1].upper() if gb else None
    # the user's line and the line that broke are part of the text a pattern is matched on (np.random at the user's line)
    code = "\n".join(str(f.get("code") or "") for f in (loc, broke_at) if f)
    return {
        "reason": reason,
        "hint": " ".join(hints) or None,
        "gbId": gb_id,
        "docUrl": url[0] if url else None,
        "location": loc,
        "userStack": stack,
        "compileId": record.compile_id,
        "brokeAt": broke_at,
        "explanation": break_patterns.explain(gb_id, f"{message}\n{code}"),
    }


def _broke_at(where: re.Match[str] | None, frames: list[SourceLocation], text: str) -> BrokeAt | None:
    """The frame Dynamo stopped in (`Graph break in user code at FILE:LINE`), a library's as well as the user's, with
    its code line from the log's traceback when the file is not on this machine."""
    if where is None:
        return None
    file, line = where[1], int(where[2])
    found = next(
        (f for f in reversed(frames) if f["file"] == location(file, line, None)["file"] and f["line"] == line), None
    )
    frame: BrokeAt = {**(found or location(file, line, None))}
    if not frame.get("code"):
        quoted = re.search(rf'File "{re.escape(file)}", line {line}, in (\S+)\n\s*(.+)', text)
        if quoted:
            frame["function"], frame["code"] = frame.get("function") or quoted[1], quoted[2].strip()
    frame["library"] = not is_user_file(file)
    return frame


def _start_frames(record: Record) -> list[SourceLocation]:
    frames = []
    for frame in record.meta.get("stack", []) or []:
        file = record.strings.get(frame.get("filename"), str(frame.get("filename")))
        frames.append(location(file, int(frame.get("line") or 1), frame.get("name")))
    return frames


def _frame(m: dict[str, Any], start: Record | None) -> CompiledFrame:
    """A compiled frame: its user location, or for a frame outside the user's files (PyTorch's wrappers a module's
    call goes through, a library's forward) where it is, in words (schema 1.31: `library`), and the user's line whose
    call led there (schema 1.35: `calledFrom`, the innermost user frame of the stack its compile started from)."""
    file = str(m.get("co_filename") or "")
    user = is_user_file(file)
    frame: CompiledFrame = {
        "compileId": m.get("compile_id"),
        "function": m.get("co_name"),
        "location": location(file, int(m.get("co_firstlineno") or 1), m.get("co_name")) if user else None,
        "seconds": round(float(m.get("entire_frame_compile_time_s") or 0.0), 4),
    }
    if isinstance(m.get("graph_op_count"), int):  # 0: captured nothing (broke or returned first): no graph (1.36)
        frame["graphOps"] = m["graph_op_count"]
    if file and not user:
        frame["library"] = library_place(file)
        caller = innermost_user(_start_frames(start)) if start is not None else None
        if caller is not None:
            frame["calledFrom"] = caller
    return frame


def library_frame(frames: list[SourceLocation]) -> str | None:
    """ "forward in modeling_llama.py" when the compiled frame (`frames`: the stack its compile started from) is
    library code the user's code called (its innermost frame is not a user file, and a user frame called it); None for
    the user's own code or when unknown."""
    if not frames or is_user_file(frames[-1]["file"]) or innermost_user(frames) is None:
        return None
    file = frames[-1]["file"].replace("\\", "/")
    if file.endswith("/_dynamo/external_utils.py") and frames[-1].get("function") == "inner":
        # torch.compile's wrapper around a torch.nn module (nn.Sequential, DDP): it passes the user's call on as is,
        # so its `args` are the user's own inputs
        return None
    # PyTorch's own wrappers (`inner`, `_fn`): their names mean nothing to the user. Asked of the path below
    # site-packages: a virtualenv at /opt/torch/.venv holds transformers too (an HF generate() on the H200 read
    # "library code you called (PyTorch code)" for transformers' `wrapper`)
    if library_place(file).startswith("PyTorch's "):
        return "PyTorch code"
    # the library function the user's line called, the first of the library's frames under it (HF's `generate`, not
    # the `wrapper` it reaches through nn.Module and the runner's observer), else the compiled frame
    below = frames[max(i for i, f in enumerate(frames) if is_user_file(f["file"])) + 1 :]
    called = next((f for f in below if _outside_torch_and_runner(f["file"])), frames[-1])
    name = os.path.basename(called["file"].replace("\\", "/"))
    return f"{called.get('function') or 'a function'} in {name}"


def entered(frames: list[SourceLocation]) -> bool:
    """Whether the compiled frame (`frames`: the stack its compile started from) is the one the user's call entered:
    called by torch.compile's own wrapper (eval_frame.py), so its arguments are the call's. A frame a library's code
    reached after a graph break (GPT-2's inner forward under transformers' `wrapper`, behind nn.Module's call) or a
    frame Dynamo resumed after one is not: its tensors are the library's. Nor is a frame a library's code called
    through the wrapper (HF's generate() calling `model.forward = torch.compile(model.forward)` passes the
    attention_mask it built): the first frame above the wrapper outside PyTorch and the runner must be the user's."""
    if len(frames) < 2 or str(frames[-1].get("function") or "").startswith("torch_dynamo_resume_in_"):
        return False
    if not frames[-2]["file"].replace("\\", "/").endswith("/_dynamo/eval_frame.py"):
        return False
    # a built-in sample is a user file inside the runner's folder
    above = (f for f in reversed(frames[:-2]) if is_user_file(f["file"]) or _outside_torch_and_runner(f["file"]))
    caller = next(above, None)
    return caller is not None and is_user_file(caller["file"])


def _outside_torch_and_runner(file: str) -> bool:
    return not library_place(file).startswith("PyTorch's ") and __package__.split(".")[0] not in file


def recompile(
    record: Record,
    starts: dict[str, Record],
    trigger: Callable[[Record], str | None],
    cudagraphs: bool,
    on_cpu: bool = False,
) -> Recompile:
    reasons = record.payload_json(keep=False) or [record.payload_once()]
    first = str(reasons[0]) if reasons else ""
    head = re.sub(r"^\d+/\d+: ", "", first.split("\n", 1)[0])
    guard, _, comment = head.partition("  #")
    reason = re.sub(r"\s+", " ", guard).strip()
    code = comment.split("  #", 1)[0].strip()
    if code and not reason.startswith(("tensor ", "size ")):
        reason = f"{reason} (guard from: {code})"
    start = starts.get(record.compile_id or "")
    start_frames = _start_frames(start) if start is not None else []
    loc = innermost_user(parse_frames(first)) or innermost_user(start_frames)
    # a guard on an argument of the frame the user's call entered is on the user's own input (timm's ResNet `forward`,
    # its `x`): said with the user's name and fix, never as a tensor the library made (the H200's timm profile)
    users_input = entered(start_frames) and explain.guards_an_argument(reason)
    library = None if users_input else library_frame(start_frames)
    return {
        "reason": reason,
        "allReasons": [re.sub(r"\s+", " ", str(r).split("\n", 1)[0]) for r in reasons],
        "compileId": record.compile_id,
        "location": loc,
        "trigger": trigger(record),
        "inTimedRegion": record.phase in TIMED_PHASES,
        "pattern": explain.pattern(reason),
        "hint": explain.pytorch_hint(first),
        "explanation": explain.explain(reason, first, library, cudagraphs, loc["code"] if loc else None, on_cpu),
    }


def _us(meta: dict[str, Any], key: str) -> float:
    value = meta.get(key)
    return float(value) / 1e6 if isinstance(value, (int, float)) else 0.0


def compile_seconds(
    metrics: list[dict[str, Any]], chromium: list[Record], backward: Iterable[dict[str, Any]] = ()
) -> dict[str, float]:
    """Phases are nested in torch's counters (dynamo ⊃ aot ⊃ inductor ⊃ codegen); report each one's own share.
    backward: AOT autograd's lazy compiles of a backward graph at its first backward (bwd_compilation_metrics, outside
    any frame's compile: a training loop's static graph pays it there, while a graph with symbolic sizes compiles its
    backward inside the frame's compile), in the total and in AOT autograd's, Inductor's and codegen's shares."""
    total = dynamo = aot = inductor = codegen = 0.0
    for m in backward:
        if m.get("backward_cumulative_compile_time_us") is not None:
            b, i = _us(m, "backward_cumulative_compile_time_us"), _us(m, "inductor_cumulative_compile_time_us")
            c = _us(m, "inductor_code_gen_cumulative_compile_time_us")
        else:  # torch < 2.6 logs Inductor's part only
            b = i = float(m.get("inductor_compile_time_s") or 0)
            c = float(m.get("code_gen_time_s") or 0)
        total += b
        aot += max(b - i, 0.0)
        inductor += max(i - c, 0.0)
        codegen += c
    for m in metrics:
        if "dynamo_cumulative_compile_time_us" in m:
            d, a = _us(m, "dynamo_cumulative_compile_time_us"), _us(m, "aot_autograd_cumulative_compile_time_us")
            i, c = _us(m, "inductor_cumulative_compile_time_us"), _us(m, "inductor_code_gen_cumulative_compile_time_us")
        else:
            d, a = float(m.get("entire_frame_compile_time_s") or 0), float(m.get("backend_compile_time_s") or 0)
            i, c = float(m.get("inductor_compile_time_s") or 0), float(m.get("code_gen_time_s") or 0)
        total += d
        dynamo += max(d - a, 0.0)
        aot += max(a - i, 0.0)
        inductor += max(i - c, 0.0)
        codegen += c
    out = {
        "total": total,
        "dynamo": dynamo,
        "aot": aot,
        "inductor": inductor,
        "codegen": codegen,
        "autotune": _span_seconds(chromium, _autotune),
    }
    return {k: round(v, 4) for k, v in out.items()}


@functools.lru_cache(maxsize=4096)
def _autotune(name: str) -> bool:
    """Whether a compile-phase span is autotuning (asked once per name: a log has thousands of spans of a few names)."""
    return _AUTOTUNE.search(name) is not None


def _span_seconds(chromium: list[Record], matches: Callable[[str], bool]) -> float:
    """Sums outermost B/E spans whose name matches (nested matches are not counted twice)."""
    total, depth, began = 0.0, 0, 0.0
    for record in chromium:
        event = record.event()
        if event is None or not matches(event.name):
            continue
        ts = event.ts or 0.0
        if event.ph == "B":
            if depth == 0:
                began = ts
            depth += 1
        elif event.ph == "E" and depth > 0:
            depth -= 1
            if depth == 0:
                total += (ts - began) / 1e6
    return total


_CACHE_ARTIFACT = re.compile(r"(fx_graph|aotautograd)_cache_(hit|miss|bypass)")


def cache_summary(records: Iterable[Record]) -> CacheCounts:
    counts: dict[str, Counter[str]] = {"fxGraph": Counter(), "aotAutograd": Counter()}
    for r in records:
        match = r.artifact and _CACHE_ARTIFACT.match(r.artifact)
        if match:
            counts["fxGraph" if match[1] == "fx_graph" else "aotAutograd"][match[2]] += 1
    return {k: {s: v.get(s, 0) for s in ("hit", "miss", "bypass")} for k, v in counts.items()}


_FILE_COMMENT = re.compile(r"^\s*# File: (.+):(\d+) in (\S+), code: (.*)$")


def _graph_lines(payload: str) -> list[SourceLocation]:
    """User source lines named by a graph dump's `# File: path:line in fn, code: ...` comments."""
    found = []
    for line in payload.split("\n"):
        match = _FILE_COMMENT.match(line)
        if match and is_user_file(match[1]):
            found.append(location(match[1], int(match[2]), match[3]))
    return found


def _post_grad_ops(payload: str) -> dict[str, tuple[str, SourceLocation | None]]:
    nodes: dict[str, tuple[str, SourceLocation | None]] = {}
    current: SourceLocation | None = None
    for line in payload.split("\n"):
        src = _FILE_COMMENT.match(line)
        if src:
            current = location(src[1], int(src[2]), src[3]) if is_user_file(src[1]) else None
            continue
        match = _POST_GRAD_NODE.match(line)
        if match:
            nodes[match[1]] = (match[2], current)
    return nodes


def _fresh(frame: SourceLocation, traced: list[SourceLocation], at: set[tuple[str, int]]) -> SourceLocation | None:
    """Inductor's cache stores provenance with the paths of the run that filled it: on a cache hit, a kernel can
    name another file with the same code. Keep frames Dynamo traced in this run (`at`: their file and line); map
    others by their code text."""
    if not traced or (frame["file"], frame["line"]) in at:
        return frame
    return next((t for t in traced if frame.get("code") and t.get("code") == frame.get("code")), None)


class _CompileSources:
    """What a compile's kernels are traced back through, from its records: its post-grad graph's nodes, the lines
    Dynamo traced and Inductor's stack traces (JSON, as logged)."""

    def __init__(self, records: list[Record]) -> None:
        self.post_grad: dict[str, tuple[str, SourceLocation | None]] = {}
        self.traced: list[SourceLocation] = []
        stacks = [r for r in records if r.artifact == _STACKS]
        self.stacks: dict[str, Any] = (stacks[-1].payload_json(keep=False) or {}) if stacks else {}
        # a graph logged again (the same ids compiled again after a reset: a log of several runs) is read once: its
        # lines are already in `traced`, and its nodes, read from the last graph back, already in `post_grad`
        graphs: set[bytes | str] = set()
        for r in records:
            if r.kind == "dynamo_output_graph" and _first(r, graphs):
                self.traced.extend(_graph_lines(r.payload_once()))
        post_grad: set[bytes | str] = set()
        for r in reversed(records):  # a node named again keeps its last graph's op, as updating in log order would
            if r.kind != "dynamo_output_graph" and r.artifact != _STACKS and _first(r, post_grad):
                for node, op in _post_grad_ops(r.payload_once()).items():
                    self.post_grad.setdefault(node, op)
        self.traced_at = {(t["file"], t["line"]) for t in self.traced}


def _first(record: Record, seen: set[bytes | str]) -> bool:
    """Whether no record in `seen` has this one's payload (it is added)."""
    logged = record.same_payload()
    if logged in seen:
        return False
    seen.add(logged)
    return True


_STACKS, _MAPPINGS = "inductor_provenance_tracking_kernel_stack_traces", "inductor_provenance_tracking_node_mappings"


def kernels(records: list[Record]) -> list[KernelProvenance]:
    """Per generated kernel, the first MAX_KERNELS: the ATen ops it fused and the user source lines they came from
    (INDUCTOR_PROVENANCE). A compile's graphs are parsed only when one of its kernels is listed (a long run's log has
    thousands of compiles)."""
    by_compile: dict[str | None, list[Record]] = {}
    mappings: list[Record] = []  # parsed one at a time below: a large log's mappings parsed at once took 0.1x its size
    for r in records:
        if r.kind in ("inductor_post_grad_graph", "dynamo_output_graph") or r.artifact in (
            "inductor_post_grad_graph",
            _STACKS,
        ):
            by_compile.setdefault(r.compile_id, []).append(r)
        elif r.artifact == _MAPPINGS:
            mappings.append(r)
    out: list[KernelProvenance] = []
    sources: dict[str | None, _CompileSources] = {}
    for record in mappings:
        if len(out) >= MAX_KERNELS:
            break
        cid, mapping = record.compile_id, record.payload_json(keep=False) or {}
        found = sources.get(cid) or sources.setdefault(cid, _CompileSources(by_compile.get(cid, [])))
        nodes = found.post_grad
        for handle, post_nodes in (mapping.get("cppCodeToPost") or {}).items():
            ops = sorted({nodes[n][0] for n in post_nodes if n in nodes})
            frames = [node_frame for n in post_nodes if n in nodes and (node_frame := nodes[n][1])]
            frames += [
                f for text in found.stacks.get(handle, []) for f in parse_frames(text) if is_user_file(f["file"])
            ]
            lines: dict[tuple[str, int], SourceLocation] = {}
            for frame in frames:
                fresh = _fresh(frame, found.traced, found.traced_at)
                if fresh:
                    lines.setdefault((fresh["file"], fresh["line"]), fresh)
            out.append(
                {
                    "name": handle.rsplit(":", 1)[0],
                    "compileId": cid,
                    "atenOps": ops,
                    "sourceLines": sorted(lines.values(), key=lambda loc: (loc["file"], loc["line"])),
                }
            )
    return out[:MAX_KERNELS]


def compiler_insight(
    records: list[Record], trigger: Callable[[Record], str | None], cudagraphs: bool, on_cpu: bool = False
) -> CompilerInsight:
    """What the compiler did, from its log (records); on_cpu: the run was on a CPU (its recompiles' fixes say
    generated code, not kernels)."""
    metrics = [r.meta for r in records if r.kind == "compilation_metrics"]
    starts = {r.compile_id: r for r in records if r.kind == "dynamo_start" and r.compile_id}
    breaks: dict[tuple[str | None, int | None, str], GraphBreak] = {}
    sites: dict[
        bytes | str, tuple[str | None, int | None, str]
    ] = {}  # a break's payload -> its site: a break hit again logs the same text
    for r in records:
        if r.artifact == "dynamo_graph_break_reason":
            site = sites.get(logged := r.same_payload())  # a break's text is decoded once
            if site is None:
                gb = graph_break(r)
                loc = gb["location"]
                site = sites[logged] = (loc["file"] if loc else None, loc["line"] if loc else None, gb["reason"])
                breaks.setdefault(site, {**gb, "count": 0})
            breaks[site]["count"] = breaks[site].get("count", 0) + 1
    guards = [m["guard_count"] for m in metrics if isinstance(m.get("guard_count"), int)]
    failures = [
        {
            "compileId": r.meta.get("compile_id") or r.compile_id,
            "failType": r.meta.get("fail_type"),
            "reason": r.meta.get("fail_reason"),
        }
        for r in records
        if r.kind == "compilation_metrics" and r.meta.get("fail_type")
    ]
    limit_hits(failures)
    # Dynamo restarted the analysis of a frame (a graph break found mid-trace): the frame is traced again up to it
    restarts = [
        {"compileId": r.meta.get("compile_id") or r.compile_id, "reason": str(reason)}
        for r in records
        if r.kind == "compilation_metrics"
        for reason in r.meta.get("restart_reasons") or []
    ]
    recompiles = [
        recompile(r, starts, trigger, cudagraphs, on_cpu) for r in records if r.artifact == "recompile_reasons"
    ]
    made_for.fill(recompiles)
    sites_found = recompile_sites.group_sites(recompiles)
    made = completed(records)  # a graph an attempt Dynamo restarted logged was never compiled: not counted, not read
    return {
        "graphCount": sum(1 for r in made if r.kind == "dynamo_output_graph"),
        "graphBreaks": list(breaks.values()),
        "recompiles": recompiles,
        "recompileSites": sites_found,
        "guardCount": sum(guards) if guards else None,
        "compileSeconds": compile_seconds(
            metrics,
            [r for r in records if r.kind == "chromium_event"],
            [r.meta for r in records if r.kind == "bwd_compilation_metrics"],
        ),
        "compiledFrames": len(starts),
        "frames": [_frame(m, starts.get(m.get("compile_id") or "")) for m in metrics],
        "cache": cache_summary(records),
        "cudaGraphs": cuda_graphs(metrics, records) if cudagraphs else [],
        "kernels": kernels(made),
        "compileFailures": failures,
        "restarts": restarts,
        "perfHints": perf_hints.hints(records),
    }
