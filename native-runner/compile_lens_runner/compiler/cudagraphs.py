"""CUDA graphs per compiled graph: captured, or skipped with PyTorch's reason put in the user's terms (the line that
caused it, the tensors, what it costs, the fix), or unknown where the log cannot say.

Inductor decides some skips while compiling (a CPU tensor, an incompatible op: the compile's metrics carry the
reason) and some at the graph's first run (inputs the graph mutates: cudagraph_trees checks them then, outside any
compile). The runner copies every skip warning into the log (torch_trace.CudagraphSkipRecorder), those made at run
time without a compile id; they are given to the compile whose graph holds the line the warning names, else to the
compile that ran last before it. A log made without the runner has only the compile-time reasons: there a graph set
up for CUDA graphs that no capture names is `unknown`, and the reason says why.
"""

from __future__ import annotations

import re
from typing import Any

from .. import formats
from ..shapes.common import SourceLocation
from ..shapes.compiler import CudaGraphSkip, CudaGraphStatus
from .restarts import completed
from .torch_trace import CUDAGRAPH_SKIP, Record
from .user_code import innermost_user, location

_FOUND_FROM = re.compile(r'File "([^"]+)", line (\d+), in (\S+)\n\s*(.*)')
_FILE_COMMENT = re.compile(r"^\s*# File: (.+):(\d+) in (\S+), code: (.*)$", re.M)
_INPLACE = re.compile(r"\b([A-Za-z_][\w.]*?)\.(\w+_)\(")  # kc.index_copy_(...): the tensor and the in-place method
_SETITEM = re.compile(r"\b([A-Za-z_][\w.]*)\s*\[[^\]]*\]\s*=(?!=)")
_COST = (
    'Every call of this graph launches its kernels one by one, as mode="default" does: the launch overhead '
    "CUDA graphs remove (what reduce-overhead is for) stays"
)

_MANY_SIZES_COST = "Each new size stops to record a graph (a warm-up run and a capture) and keeps GPU memory for it."
# (kind, PyTorch's text, what happened, fix): first match wins
_REASONS: tuple[tuple[str, re.Pattern[str], str, str], ...] = (
    (
        "many-sizes",
        re.compile(r"observed (\d+) distinct sizes", re.I),
        "CUDA graphs record one graph per input size, and {count} sizes have been seen: each new size records another "
        "graph (a pause, and GPU memory kept for it)",
        "Pad inputs to a few fixed sizes (buckets), or keep the size fixed from your side; or set "
        "torch._inductor.config.triton.cudagraph_skip_dynamic_graphs = True to run graphs compiled for dynamic shapes "
        "without CUDA graphs.",
    ),
    (
        "mutated-inputs",
        re.compile(r"mutated inputs \((\d+) instances?\)|mutated inputs", re.I),
        "The compiled graph writes in place into {count} of its inputs{at}{tensors}. A CUDA graph replays fixed memory "
        "addresses, so a tensor it writes into must keep its address across calls (a parameter or buffer of the compiled "
        "module); these are ordinary arguments, so Inductor ran the graph without CUDA graphs",
        # checked on an H100 with torch 2.11 (docs/BENCHMARKS.md): caches made buffers of the compiled module are
        # captured; the same caches passed as arguments and marked with torch._dynamo.mark_static_address are still skipped
        "Make the mutated tensors buffers of the compiled module (self.register_buffer(...), written in forward) and compile "
        "the module, or return the new values instead of writing into the inputs. If the loop feeds a compiled output back "
        "in, call torch.compiler.cudagraph_mark_step_begin() before each call (or clone the output): the next replay "
        "overwrites it.",
    ),
    (
        "input-storage-mutation",
        re.compile(r"input storage mutation", re.I),
        "The compiled graph replaces the storage of an input (Tensor.set_){at}, which a CUDA graph cannot replay",
        "Allocate the tensor once at its final size and copy into it (t.copy_(new)) instead of set_ / resize.",
    ),
    (
        "cpu-device",
        re.compile(r"cpu device \(([^)]*)\)", re.I),
        "Part of the graph runs on the CPU ({node}){at}; a CUDA graph can only hold GPU work",
        'Create that tensor on the GPU (device="cuda", or .to(device) once outside the compiled function), or move the '
        "CPU work out of the compiled function.",
    ),
    (
        "multiple-devices",
        re.compile(r"multiple devices", re.I),
        "The graph uses more than one device{at}; a CUDA graph holds one GPU's work",
        "Keep one compiled function's tensors on one GPU; move the cross-device step out of it.",
    ),
    (
        "dynamic-shapes",
        re.compile(r"symbolic shapes|dynamic shape|cudagraph_skip_dynamic_graphs", re.I),
        "The graph was compiled for dynamic shapes and torch._inductor.config.triton.cudagraph_skip_dynamic_graphs is on{at}",
        "Mark sizes static (compile with dynamic=False and warm up at the sizes you use, or pad to a few bucket sizes), "
        "or turn cudagraph_skip_dynamic_graphs off so one CUDA graph is recorded per size.",
    ),
    (
        "incompatible-op",
        re.compile(r"incompatible op ([\w.:]+)", re.I),
        "The graph contains {op}{at}, which cannot be captured in a CUDA graph (it synchronizes with the CPU or allocates "
        "by the data)",
        "Set torch._inductor.config.graph_partition = True so Inductor captures the rest of the graph around that op, or "
        "move the op out of the compiled function.",
    ),
    (
        "rerecord-limit",
        re.compile(r"re-record(?:ing)? limit", re.I),
        "The CUDA graph had to be re-recorded more times than the limit allows{at} (inputs arrived at new addresses or "
        "in new shapes each call), so Inductor gave up on CUDA graphs for it",
        "Pass the same input tensors every call (copy new data into them: static.copy_(new)) and keep shapes fixed; or "
        "raise torch._inductor.config.triton.cudagraph_unexpected_rerecord_limit if the variants are few.",
    ),
    (
        "control-flow",
        re.compile(r"control flow operator", re.I),
        "The graph contains torch.cond / torch.while_loop with GPU work{at}, which CUDA-graph trees do not capture",
        "Set torch._inductor.config.graph_partition = True, or make the branch branchless (torch.where).",
    ),
    (
        "boolean-index-put",
        re.compile(r"index_put_ fallback with boolean indexing", re.I),
        "Assignment through a boolean mask (x[mask] = v){at} falls back to an op whose work depends on the data",
        "Write it as x = torch.where(mask, v, x) (or x.masked_fill_(mask, v)).",
    ),
    (
        "uncached-allocator",
        re.compile(r"caching allocator", re.I),
        "The CUDA caching allocator is off (PYTORCH_NO_CUDA_MEMORY_CACHING), which CUDA-graph capture needs",
        "Run without PYTORCH_NO_CUDA_MEMORY_CACHING / torch.cuda.caching_allocator_enable(False).",
    ),
)


def _found_from(message: str) -> SourceLocation | None:
    """The user's line PyTorch names ("Found from: File ..., line N"), with its code as the message quotes it."""
    frames: list[SourceLocation] = [
        {**location(m[1], int(m[2]), m[3]), "code": m[4].strip() or None} for m in _FOUND_FROM.finditer(message)
    ]
    return innermost_user(frames) or (frames[-1] if frames else None)


def _tensors(code: str | None) -> list[str]:
    if not code:
        return []
    found = [m[1] for m in _INPLACE.finditer(code)] + [m[1] for m in _SETITEM.finditer(code)]
    return list(dict.fromkeys(found))


def explain(message: str) -> CudaGraphSkip:
    """{kind, what, fix, cost, location, tensors} for one of PyTorch's "skipping cudagraphs due to ..." messages."""
    where = _found_from(message)
    code = where.get("code") if where else None
    tensors = _tensors(code)
    at = (
        f" at {where['file'].replace(chr(92), '/').rsplit('/', 1)[-1]}:{where['line']} (`{code}`)"
        if where and code
        else ""
    )
    for kind, pattern, what, fix in _REASONS:
        match = pattern.search(message)
        if match:
            first = match.group(1) if match.groups() else None
            text = what.format(
                count=first or "some",
                tensors=f", `{'`, `'.join(tensors)}` among them" if tensors else "",
                at=at,
                node=first or "a node",
                op=f"`{first}`" if first else "an op",
            )
            cost = _MANY_SIZES_COST if kind == "many-sizes" else _COST + "."
            said = formats.fix_words(fix)  # said after "Fix:" on every surface
            return {"kind": kind, "what": text + ".", "fix": said, "cost": cost, "location": where, "tensors": tensors}
    head = message.split("Found from", 1)[0].strip().rstrip(".")
    return {
        "kind": "other",
        "what": f"PyTorch skipped CUDA graphs: {head}{at}.",
        "fix": None,
        "cost": _COST + ".",
        "location": where,
        "tensors": tensors,
    }


def _graph_lines(records: list[Record]) -> dict[str | None, set[tuple[str, int]]]:
    """The user lines in each compile's graph, its last attempt's (an attempt Dynamo restarted made a graph never run)."""
    lines: dict[str | None, set[tuple[str, int]]] = {}
    for r in completed(records):
        if r.kind == "dynamo_output_graph":
            lines.setdefault(r.compile_id, set()).update((m[1], int(m[2])) for m in _FILE_COMMENT.finditer(r.payload))
    return lines


def attribute(records: list[Record]) -> list[Record]:
    """Gives each skip the runner recorded without a compile id (decided at a graph's first run) the compile it
    belongs to: the latest compile before it whose graph holds the line it names, else the latest compile before it;
    and each graph's recording (CUDAGraphNode.record) the compile its event names. Returns `records`, updated."""
    lines = _graph_lines(records)
    seen: list[str] = []
    for r in records:
        if r.kind in ("dynamo_start", "compilation_metrics") and r.compile_id and r.compile_id not in seen:
            seen.append(r.compile_id)
        elif r.kind == "chromium_event" and r.compile_id is None:
            # a graph's recording runs at its call, outside any compile: only the event's args name the compile
            event = r.event()
            if event is not None and event.name == "CUDAGraphNode.record":
                r.compile_id = event.compile_id
        elif r.artifact == CUDAGRAPH_SKIP and r.compile_id is None:
            skip = r.payload_json() or {}
            cid = skip.get("compileId")
            if not cid:
                where = _found_from(str(skip.get("message") or ""))
                key = (where["file"], where["line"]) if where else None
                cid = next(
                    (c for c in reversed(seen) if key and key in lines.get(c, set())), seen[-1] if seen else None
                )
            r.compile_id = cid
    return records


def used(records: list[Record]) -> bool:
    """Whether the run used CUDA graphs (otherwise every graph would read "not captured", and a recompile's fix would
    speak of CUDA graphs a default-mode run never made): a skip reason, a capture, a skip the runner recorded, or a graph
    PyTorch set up for CUDA graphs at its first run."""
    for r in records:  # one pass: most records are compile events
        if r.kind == "chromium_event":
            if (event := r.event()) is not None and event.name == "CUDAGraphNode.record":
                return True
        elif (
            (r.kind == "compilation_metrics" and r.meta.get("cudagraph_skip_reason"))
            or r.artifact == CUDAGRAPH_SKIP
            or (r.kind == "compilation_metrics_runtime" and r.meta.get("runtime_cudagraphify_time_us") is not None)
        ):
            return True
    return False


_SKIP = re.compile(r"^\s*(?:skipping|disabling) cudagraph", re.I)


def cuda_graphs(metrics: list[dict[str, Any]], records: list[Record]) -> list[CudaGraphStatus]:
    """Per compiled graph: captured (a CUDAGraphNode.record span names it), skipped (with PyTorch's reason and its
    explanation), unknown (set up for CUDA graphs, and the log holds no skip warnings to say what happened), or
    not-captured; `hints`: PyTorch's other CUDA-graph warnings about it (too many sizes recorded)."""
    attribute(records)
    recorded = set()
    skips: dict[str | None, list[str]] = {}
    hints: dict[str | None, list[str]] = {}
    cudagraphified = set()
    for r in records:
        if r.kind == "chromium_event":
            event = r.event()
            if event is not None and event.name == "CUDAGraphNode.record":
                recorded.add(event.compile_id)
        elif r.artifact == CUDAGRAPH_SKIP:
            message = str((r.payload_json() or {}).get("message")).strip()
            (skips if _SKIP.match(message) else hints).setdefault(r.compile_id, []).append(message)
        elif r.kind == "compilation_metrics_runtime" and r.meta.get("runtime_cudagraphify_time_us") is not None:
            cudagraphified.add(r.meta.get("compile_id"))
    for m in metrics:
        if m.get("cudagraph_skip_reason"):
            skips.setdefault(m.get("compile_id"), []).append(str(m["cudagraph_skip_reason"]).strip())
    # the runner marks its logs and copies skip warnings into them: without its marks, run-time skips never reached the log
    runner_log = any(r.mode is not None for r in records)
    out: list[CudaGraphStatus] = []
    for m in metrics:
        cid = m.get("compile_id")
        if not m.get("has_guarded_code", True) or m.get("graph_op_count") in (0, None):
            continue
        reasons = list(dict.fromkeys(skips.get(cid, [])))
        if cid in recorded:
            out.append({"compileId": cid, "status": "captured", "reason": None})
        elif reasons:
            skip = explain(reasons[0])
            out.append({"compileId": cid, "status": "skipped", "reason": " | ".join(reasons), "explanation": skip})
        elif cid in cudagraphified and not runner_log:
            out.append(
                {
                    "compileId": cid,
                    "status": "unknown",
                    "reason": (
                        "This log cannot say whether CUDA graphs ran: the graph was set up for them, but no capture is recorded and "
                        "PyTorch writes skips decided at the first call (e.g. mutated inputs) to the console only "
                        "(TORCH_LOGS=cudagraphs), not to this log. Profile the script with Compile Lens, or rerun with "
                        "TORCH_LOGS=cudagraphs to see them."
                    ),
                }
            )
        else:
            out.append({"compileId": cid, "status": "not-captured", "reason": None})
        if hints.get(cid):
            out[-1]["hints"] = [explain(h) for h in dict.fromkeys(hints[cid])]
    return out
