"""Graph breaks users actually hit, in their terms: what broke (the operator, function or library call, even inside a
library's frame), why Dynamo stopped there, and the fix. Matched on PyTorch's graph-break id (GBxxxx, stable across
versions: torch/_dynamo/graph_break_registry.json) and on the break's own text. The runner owns these texts; the
editor and the CLI only display them. docs/GRAPH-BREAKS.md lists the same table (test_break_patterns checks both
agree), and test/fixtures/break_patterns/ holds a script per pattern that makes the break on a CPU."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from .. import formats
from ..shapes.compiler import BreakExplanation, GraphBreak
from . import quick_fixes


@dataclass(frozen=True)
class Pattern:
    id: str
    gb_ids: tuple[str, ...]
    # when set, the break's text must match too (one GB id covers several patterns, e.g. GB0007 skipped functions)
    text: re.Pattern[str] | None
    title: str
    what: str  # "{broke}": what broke, as found in the break's text
    fix: str
    # the setting the editor can insert as a Quick Fix (quick_fixes.py): None where the fix needs judgement
    quick_fix: str | None = None

    def said_fix(self, condition: str | None = None) -> str:
        """The fix, quoting the user's own condition where it has a place for one (item-branch: "keep the condition a
        tensor (`h.mean() > 0`, without .item())"); generic words where the line could not be read."""
        return self.fix.format(condition=f"`{condition}`" if condition else "x.sum() > 0")


def _re(text: str) -> re.Pattern[str]:
    return re.compile(text, re.I | re.S)


# the user's `if h.mean().item() > 0:` in the break's text (PyTorch quotes the line): its condition, quoted in the fix
_ITEM_CONDITION = re.compile(r"^\s*(?:if|elif|while)\b\s*([^\n]*\.item\(\)[^\n]*?)\s*:?\s*$", re.M)

_EAGER = "Dynamo stops the graph there, runs that call in Python (eagerly) and starts a new graph after it"

PATTERNS: tuple[Pattern, ...] = (
    Pattern(
        "transformer-fast-path",
        ("GB0090", "GB0087"),
        _re(r"_transformer_encoder_layer_fwd|_native_multi_head_attention|_masked_softmax"),
        "nn.TransformerEncoder / MultiheadAttention inference fast path",
        "{broke} is the fused inference fast path nn.TransformerEncoderLayer and nn.MultiheadAttention take in eval "
        "mode without gradients (inference_mode or no_grad); Dynamo cannot trace through it, so nothing of the "
        "layer is compiled and it runs eagerly",
        "Turn the fast path off before compiling by calling torch.backends.mha.set_fastpath_enabled(False) once, "
        "before torch.compile; the layer then runs its ordinary ops, which Inductor compiles and fuses.",
        "fastpath-off",
    ),
    Pattern(
        "print",
        ("GB0059",),
        _re(r"`print`|builtin print"),
        "print() in compiled code",
        "a print() call needs the real values while the graph is traced, so {_eager}",
        "Move the print out of the compiled function (print what it returns), or call "
        "torch._dynamo.config.reorderable_logging_functions.add(print) once, so that Dynamo defers the print until "
        "the graph has run.",
        "move-print",
    ),
    Pattern(
        "print-not-reorderable",
        ("GB0296",),
        None,
        "print() set to run after the graph, with arguments it cannot keep",
        "print() is in torch._dynamo.config.reorderable_logging_functions, so Dynamo tries to run it after the graph, "
        "but its arguments are not only tensors, constants and format strings (a torch.Size, a list, an object), "
        "so {_eager}",
        "Print only tensors, constants and f-strings of them from compiled code (print(y) rather than print(y.shape)), "
        "or print what the compiled function returns, outside it.",
    ),
    Pattern(
        "logging",
        ("GB0291",),
        None,
        "logging call in compiled code",
        "the logging call {broke} cannot be traced, so {_eager}",
        "Log outside the compiled function (log what it returns), or add the method to "
        "torch._dynamo.config.ignore_logging_functions to drop it from compiled code.",
    ),
    Pattern(
        # before "item": a branch on the number wants the branch's fix, not x / x.max() (review 3A M11)
        "item-branch",
        ("GB0124",),
        _ITEM_CONDITION,
        "Tensor.item() in an if's condition",
        "Tensor.item() turns a tensor into a Python number for the branch to test, which exists only when the call "
        "runs, so {_eager}",
        "Make it branchless by keeping the condition a tensor ({condition}, without .item()) and picking with "
        "torch.where(cond, a, b), or express it with torch.cond(cond, true_fn, false_fn, (x,)).",
    ),
    Pattern(
        "item",
        ("GB0124",),
        None,
        "Tensor.item() in compiled code",
        "Tensor.item() turns a tensor into a Python number, which exists only when the call runs, so {_eager}",
        "Keep the value a tensor (x / x.max() instead of x / x.max().item(); torch.where for choices), or set "
        "torch._dynamo.config.capture_scalar_outputs = True so the number stays in the graph.",
    ),
    Pattern(
        "tolist",
        ("GB0109",),
        None,
        "Tensor.tolist() in compiled code",
        "Tensor.tolist() makes Python values of a float tensor's data, which exist only when the call runs, so {_eager}",
        "Keep the values in tensors (index and reduce with torch ops), or call tolist() after the compiled function returns.",
    ),
    Pattern(
        "data-dependent-branch",
        ("GB0170", "GB0035"),
        None,
        "if on a tensor's value",
        "a Python `if` on a tensor's value: which way it goes is known only when the call runs, so Dynamo splits "
        "the graph at the branch and runs the condition eagerly",
        "Make it branchless by computing both sides and picking with torch.where(cond, a, b) (clamp, nan_to_num "
        "and where cost little on ordinary inputs), or express it with torch.cond(cond, true_fn, false_fn, (x,)).",
    ),
    Pattern(
        "numpy-random",
        ("GB0033",),
        _re(r"np\.random|numpy\.random|random\."),
        "numpy / random choice in compiled code",
        "a random number drawn on the host (numpy or random) becomes a Python value the graph depends on, so {_eager}",
        "Draw it with torch (torch.randint(0, n, ()) on the tensors' device), or draw it outside the compiled "
        "function and pass it in as a tensor.",
    ),
    Pattern(
        "data-dependent-scalar",
        ("GB0033",),
        None,
        "value read from a tensor's data",
        "{broke} reads a Python number out of a tensor's data, known only when the call runs, so {_eager}",
        "Keep the value a tensor, or set torch._dynamo.config.capture_scalar_outputs = True so it stays in the graph.",
    ),
    Pattern(
        "dynamic-output-shape",
        ("GB0036", "GB0037"),
        None,
        "op whose output shape depends on the data",
        "{broke} returns a tensor whose shape depends on the input's values (nonzero, boolean masks, unique), so {_eager}",
        "Keep shapes fixed, with torch.where(mask, x, 0) instead of x[mask], or set "
        "torch._dynamo.config.capture_dynamic_output_shape_ops = True to keep such ops in the graph.",
    ),
    Pattern(
        "numpy-roundtrip",
        ("GB0294", "GB0293", "GB0105", "GB0290"),
        None,
        "numpy round trip",
        "the tensor goes to numpy and through {broke}, which PyTorch has no version of, so {_eager}",
        "Do it with torch ops on the tensor (torch has equivalents for most numpy math), or do the numpy step "
        "before or after the compiled function.",
    ),
    Pattern(
        "ddp-internals",
        ("GB0156", "GB0007"),
        _re(r"set_runtime_stats_and_log|DistributedDataParallel|_DDPSink|reducer"),
        "DistributedDataParallel internals traced",
        "the compiled code calls the DistributedDataParallel wrapper, and Dynamo cannot trace DDP's own bookkeeping "
        "({broke}), so {_eager}",
        # PyTorch's docs (compile/programming_model.where_to_apply_compile): torch.compile does not handle wrappers
        # like DDP or FSDP well, apply it to the module passed to the wrapper
        "Compile the model inside DDP, not DDP itself, with model.compile() before DistributedDataParallel(model, "
        "...), as PyTorch's docs advise. DDP's bookkeeping then runs outside the "
        "compiled graphs, and Dynamo still splits them at DDP's gradient buckets (torch._dynamo.config.optimize_ddp).",
    ),
    Pattern(
        "host-timing",
        ("GB0007",),
        _re(r"time\.(?:perf_counter|time|monotonic|process_time)"),
        "timing with time.* in compiled code",
        "{broke} reads the host clock, a builtin Dynamo cannot trace, so {_eager}; the time it measures is not the "
        "GPU's anyway (kernels run asynchronously)",
        "Time outside the compiled function (around the call, after torch.cuda.synchronize()), or with "
        "torch.cuda.Event(enable_timing=True) / torch.profiler.",
    ),
    Pattern(
        "c-extension",
        ("GB0007",),
        _re(r"builtin `|C extension|C/C\+\+"),
        "builtin or C-extension call",
        "{broke} is a builtin or C-extension function Dynamo cannot look inside, so {_eager}",
        "Call it outside the compiled function; for your own C++/CUDA code, register it as a custom op "
        "(torch.library.custom_op with a register_fake) or, if it is pure, mark it torch.compiler.allow_in_graph.",
    ),
    Pattern(
        "skipped-function",
        ("GB0007", "GB0008", "GB0009"),
        None,
        "call into code Dynamo skips",
        "{broke} is in a module Dynamo does not trace (a library on its skip list), so {_eager}",
        "Call it outside the compiled function, or compile the part that calls it separately.",
    ),
    Pattern(
        "compiler-disable",
        ("GB0098", "GB0099"),
        None,
        "torch.compiler.disable'd function",
        "{broke} is wrapped in torch.compiler.disable, so Dynamo runs it eagerly between two graphs",
        "Remove torch.compiler.disable from it if it can compile now, or call it outside the compiled function.",
    ),
    Pattern(
        "explicit-break",
        ("GB0025",),
        None,
        "torch._dynamo.graph_break()",
        "a torch._dynamo.graph_break() call in the code splits the graph on purpose",
        "Remove the torch._dynamo.graph_break() call if it is left over from debugging.",
    ),
    Pattern(
        "no-fake-kernel",
        ("GB0090", "GB0087", "GB4315"),
        None,
        "operator without a fake (meta) kernel",
        "{broke} has no fake-tensor (meta) implementation, so Dynamo cannot know its output's shape while tracing; "
        "{_eager}",
        "Give the operator a fake implementation (torch.library.register_fake, or @my_op.register_fake for a "
        "torch.library.custom_op), or call it outside the compiled function.",
    ),
    Pattern(
        "autograd-function",
        (
            "GB2019",
            "GB2464",
            "GB0138",
            "GB0139",
            "GB0140",
            "GB0085",
            "GB0144",
            "GB0145",
            "GB0346",
            "GB0348",
            "GB0352",
            "GB4372",
        ),
        None,
        "torch.autograd.Function Dynamo cannot trace",
        "the custom torch.autograd.Function uses what Dynamo does not support ({broke}), so the Function runs eagerly",
        "Return every tensor passed to ctx.mark_dirty from forward, save only tensors with ctx.save_for_backward "
        "(keep other values as ctx attributes), keep forward/backward plain staticmethods; or, for an in-place "
        "Function, write it out-of-place.",
    ),
    Pattern(
        "backward-inside",
        ("GB0123",),
        None,
        "loss.backward() inside compiled code",
        "a loss.backward() call inside the compiled function cannot be traced, so {_eager}",
        "Compile the forward (and loss) only and call backward() outside it, as in compiled_loss = "
        "torch.compile(loss_fn); compiled_loss(x).backward(). Compiled autograd (torch._dynamo.config.compiled_autograd) compiles the backward too.",
    ),
    Pattern(
        "deepcopy-tensor",
        ("GB4198",),
        None,
        "copy.deepcopy of a tensor",
        "a copy.deepcopy of a tensor inside compiled code cannot be traced, so {_eager}",
        "Use x.clone() (x.detach().clone() for a copy outside autograd) instead of copy.deepcopy.",
    ),
)

_BY_ID = {p.id: p for p in PATTERNS}
_GB = re.compile(r"\bGB\d{4}\b", re.I)
# where PyTorch's text names what broke, most specific first
_BROKE = (
    re.compile(r"unsupported operator: ([\w.:]+)"),
    re.compile(r"Operator `([\w.:]+)`"),
    re.compile(r"builtin operator `(\w+)`"),
    re.compile(r"the builtin `([\w.]+?)\.?`"),
    re.compile(r"method `(\w+)` of class `(\w+)`"),
    re.compile(r"module: ([\w.]+), qualname: ([\w.<>]+)"),
    re.compile(r"Skip calling function `<function ([\w.<>]+) at"),
    re.compile(r"numpy function <function (\w+) at"),
    re.compile(r"method: <(Logger) [^>]*>\.(\w+)"),
    re.compile(r"(copy\.deepcopy)\("),
    re.compile(r"the function `([\w.]+)`"),
    re.compile(r"(ctx\.\w+)"),
    re.compile(r"(Tensor\.\w+)\(\)"),
)


def _broke(text: str) -> str | None:
    for pattern in _BROKE:
        match = pattern.search(text)
        if match:
            groups = [g for g in match.groups() if g]
            if pattern.pattern.startswith("method `"):
                groups = groups[::-1]  # `Logger.set_runtime_stats_and_log`
            if pattern.pattern.startswith("module: ") and groups[0].startswith("torch."):
                groups = groups[1:]  # DistributedDataParallel._inside_ddp_forward, not its module path
            name = ".".join(groups)
            return re.sub(r"\.default$", "", name)
    return None


def find(gb_id: str | None, text: str) -> Pattern | None:
    """The pattern for a break: by its GB id (its text where one id covers several), else by text alone when the log
    carries no id (older torch)."""
    ids = {gb_id.upper()} if gb_id else {m.upper() for m in _GB.findall(text)}
    for pattern in PATTERNS:
        if ids and not ids.intersection(pattern.gb_ids):
            continue
        if not ids and pattern.text is None:
            continue
        if pattern.text is None or pattern.text.search(text):
            return pattern
    return None


def get(pattern_id: str) -> Pattern:
    return _BY_ID[pattern_id]


def explain(gb_id: str | None, text: str) -> BreakExplanation | None:
    """{pattern, title, what, broke, fix, quickFix} for a graph break's text, or None when it is none of the table's."""
    pattern = find(gb_id, text)
    if pattern is None:
        return None
    return _said(pattern, _broke(text), text)


def _condition(pattern: Pattern, text: str) -> str | None:
    """The condition of the user's line the pattern matched, without .item() ("h.mean() > 0"); None for other
    patterns, and where the line is not in the text."""
    if pattern.text is not _ITEM_CONDITION:
        return None
    match = _ITEM_CONDITION.search(text)
    if not match:
        return None
    # the condition alone: the line's comment and the colon before it are not (review 5A G1 quoted
    # "x.sum() > 0: # graph break: data-dependent", its comment's ".item()" cut too)
    line = match.group(1)
    for end in range(len(line), 0, -1):
        condition = line[:end].rstrip().removesuffix(":").strip()
        if condition and _expression(condition):
            break
    else:
        return None
    condition = condition.replace(".item()", "")
    if not _expression(condition):
        return None
    inner = condition[1:-1].strip()
    # one parenthesized expression said without its parentheses; "(a) and (b)" keeps them
    whole = condition.startswith("(") and condition.endswith(")") and _expression(inner)
    return (
        inner
        if whole and ast.dump(ast.parse(inner, mode="eval")) == ast.dump(ast.parse(condition, mode="eval"))
        else condition
    )


def _expression(text: str) -> bool:
    try:
        ast.parse(text, mode="eval")
    except SyntaxError:
        return False
    return True


def _said(pattern: Pattern, broke: str | None, text: str) -> BreakExplanation:
    what = pattern.what.format(broke=f"`{broke}`" if broke else "the call", _eager=_EAGER)
    return {
        "pattern": pattern.id,
        "title": pattern.title,
        "what": what[:1].upper() + what[1:] + ".",
        "broke": broke,
        # said after the editor's "Fix:" as every fix of a page is (formats.fix: lower case after the colon)
        "fix": formats.fix_words(pattern.said_fix(_condition(pattern, text))),
        "quickFix": quick_fixes.setting(pattern.quick_fix) if pattern.quick_fix else None,
    }


def explain_recorded(graph_break: GraphBreak) -> BreakExplanation | None:
    """A recorded graph break said in today's words, for a report an older runner wrote: from the pattern and the
    call it matched then; a break recorded before breaks were matched (no `explanation`), matched now on what the
    report kept of PyTorch's message (its reason and hint, the user's code lines) — less than the log's whole message,
    so a break the runner matched stays matched as it was."""
    frames = [graph_break.get("location"), *(graph_break.get("userStack") or [])]
    code = "\n".join(str(f.get("code") or "") for f in frames if f)
    kept = "\n".join([graph_break["reason"], graph_break.get("hint") or "", code])
    if "explanation" in graph_break:
        known = graph_break["explanation"]
        if not known or known["pattern"] not in _BY_ID:
            return known
        pattern = _BY_ID[known["pattern"]]
        # one matched on its id alone may have a finer pattern of that id now (item-branch on an `if`, before item)
        finer = find(graph_break.get("gbId"), kept) if pattern.text is None else None
        return _said(finer if finer is not None and finer.text is not None else pattern, known.get("broke"), kept)
    return explain(graph_break.get("gbId"), kept)
