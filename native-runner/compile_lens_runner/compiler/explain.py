"""Guard failures in the user's terms: what the user's code or calls did, and the fix (recompile_sites.py groups them
into findings). Also names why Dynamo ran a compiled frame eagerly (recompile limit, failed compile)."""

from __future__ import annotations

import ast
import re

from .. import formats
from ..shapes.compiler import CompilerInsight, Explanation, Recompile
from ..shapes.mode import Fallback
from . import quick_fixes

_NUMBER_AFTER = re.compile(r"(==|!=|<=|>=|<|>|expected|actual)(\s*)-?\d+(?:\.\d+)?")
_HINT = re.compile(r"\(HINT: (.+?)\)\s*(?:$|\n)", re.S)
# A guarded tensor's name may hold quotes of its own (a keyword argument: "tensor 'kwargs['input_ids']' size
# mismatch", an HF generate() loop's forward), so it runs to the quote before the guard's words.
KEYS_GUARD = re.compile(
    r"tensor '(.+?)' dispatch key set mismatch\. expected DispatchKeySet\(([^)]*)\), actual DispatchKeySet\(([^)]*)\)"
)
SIZE_GUARD = re.compile(r"tensor '(.+?)' (size|stride) mismatch at index (\d+)\. expected (\d+), actual (\d+)")
DTYPE_GUARD = re.compile(r"tensor '(.+?)' dtype mismatch\. expected (\w+), actual (\w+)")
REQUIRES_GRAD_GUARD = re.compile(r"tensor '(.+?)' requires_grad mismatch")
_WRAPPED = re.compile(r"\b(?:L|kwargs)\['([^']+)'\]")
VALUE_GUARD = re.compile(r"^(?P<expr>[\w.\[\]'\"]+) == (?P<value>-?\d+)\b")
GUARD_FROM = re.compile(r"\(guard from: (?P<code>.+)\)\s*$")
DYNAMO_NAME = re.compile(r"___\w+")  # names Dynamo makes up for values on its stack (___stack0): not the user's
LEN_GUARD = re.compile(r"len\((?P<expr>[^)]+)\) == (?P<value>\d+)")
AUTOGRAD_ONLY = re.compile(r"^(Autograd\w*|ADInplaceOrView)$")
WARMUP_FIX = (
    "Warm up under the same grad mode you serve with: make the warmup calls and the real calls inside the same "
    "torch.inference_mode() (or torch.no_grad()) context, and create their inputs the same way."
)


def pattern(reason: str) -> str:
    """The guard with its numbers abstracted, so `self.calls == 90` and `self.calls == 91` are one pattern."""
    return _NUMBER_AFTER.sub(lambda m: f"{m[1]}{m[2]}N", reason)


def pytorch_hint(text: str) -> str | None:
    """PyTorch's own hint, when the guard failure carries one: `... (HINT: torch.compile considers ...)`."""
    match = _HINT.search(text)
    return re.sub(r"\s+", " ", match[1]).strip() if match else None


def user_expr(name: str) -> str:
    """A guarded name as the user's code says it: `L['x']` -> `x`, `kwargs['past_key_values'].layers[0]` ->
    `past_key_values.layers[0]` (Dynamo's locals and a wrapper's **kwargs are not the user's words)."""
    return _WRAPPED.sub(lambda m: m[1], name)


def user_name(name: str) -> str:
    """`x`, `L['x']` or `kwargs['x']` -> `input 'x'`; `args[0]` -> `the call's 1st argument`: a positional argument
    Dynamo knows no name for (a wrapper's *args), said without Dynamo's `args[0]` (review 4B D21: the raw guard says
    it)."""
    argument = argument_name(name)
    return f"the call's {argument}" if argument else f"input '{user_expr(name)}'"


def argument_name(name: str) -> str | None:
    """ "1st argument" for Dynamo's `args[0]`; None for any other name."""
    match = re.fullmatch(r"args\[(\d+)\]", name)
    if not match:
        return None
    n = int(match[1]) + 1
    return f"{n}{'st' if n == 1 else 'nd' if n == 2 else 'rd' if n == 3 else 'th'} argument"


_ARGS = re.compile(r"tensor 'args\[(\d+)\]'")


def named_input(reason: str, call_code: str | None) -> str:
    """A guard on a wrapper's `args[N]` (DDP's forward, nn.Module's call) with the name the user's call gave that
    argument, where the user's line (call_code: the recompile's innermost user frame) makes exactly one call with that
    many positional arguments, the argument a plain name: `train_model(x)` -> "tensor 'x'"; else as it was."""
    match = _ARGS.search(reason)
    if not match or not call_code:
        return reason
    try:
        tree = ast.parse(call_code.strip())
    except SyntaxError:
        return reason
    n = int(match[1])
    calls = [c for c in ast.walk(tree) if isinstance(c, ast.Call) and len(c.args) > n]
    if len(calls) != 1 or any(isinstance(a, ast.Starred) for a in calls[0].args[: n + 1]):
        return reason
    arg = calls[0].args[n]
    if not isinstance(arg, ast.Name | ast.Attribute):
        return reason
    return reason[: match.start()] + f"tensor '{ast.unparse(arg)}'" + reason[match.end() :]


_ARGUMENT = re.compile(r"(?:L|kwargs)\['(?P<quoted>\w+)'\]|args\[\d+\]|(?P<plain>\w+)")
_TENSOR_NAME = re.compile(r"tensor '(.+?)' \w+ mismatch")


def guards_an_argument(reason: str) -> bool:
    """Whether a tensor guard is on an argument of its frame itself (`x`, `L['x']`, `kwargs['input_ids']`,
    `args[0]`), not on a module's attribute (`L['self']._buffers['cache']`) or a part of an argument."""
    name = _TENSOR_NAME.search(without_compile_id(reason))
    argument = _ARGUMENT.fullmatch(name[1]) if name else None
    return argument is not None and "self" not in (argument["quoted"], argument["plain"])


# library functions of Hugging Face generation, where a static KV cache keeps the cache's size fixed
_GENERATION = re.compile(r"^(?:generate|_sample|_beam_search|_assisted_decoding|prepare_inputs_for_generation) in ")


def _library_fix(library_frame: str) -> str:
    static = (
        ', use a static KV cache (cache_implementation="static" in generate())'
        if _GENERATION.match(library_frame)
        else ""
    )
    return (
        f"Keep that size fixed from your side: pad your inputs to one length (or a few bucket lengths){static}, or "
        "compile with dynamic=True so one graph serves every size."
    )


def _size_fix(code: str, dim: int, was: str, cost: str) -> str:
    """The fix for a size change of the user's input; from a size of 1, which Dynamo always specialises (marking it
    dynamic, or dynamic=True, compiles it apart all the same: 2 graphs for calls at 1 then 32, 4, 8 on torch 2.13), a
    warm-up at a size the real calls use where the call at 1 is one."""
    if was == "1":
        return (
            "A size of 1 is always compiled apart (specialised): marking that dimension dynamic, or dynamic=True, "
            "spares no compile at 1. If the call at size 1 is a warm-up, warm up at a size the real calls use instead, "
            f"with that dimension marked dynamic (torch._dynamo.mark_dynamic({code}, {dim})) or dynamic=True: one "
            "compile then serves every size."
        )
    return (
        f"If that dimension varies in use, mark it dynamic (torch._dynamo.mark_dynamic({code}, {dim}) before the "
        f"first call), or compile with dynamic=True. One graph then serves every size, at some per-call cost ({cost}). "
        "If only a few sizes occur, warm up with each of them instead."
    )


def _code_name(name: str) -> str:
    """A name to put in a code suggestion: the argument's own name, else `x`."""
    match = re.fullmatch(r"(?:L|kwargs)\['([^']+)'\]", name)
    return match[1] if match and match[1].isidentifier() else name if name.isidentifier() else "x"


def _keys(text: str) -> set[str]:
    return {k.strip() for k in text.split(",") if k.strip()}


def explain(
    reason: str,
    raw: str = "",
    library_frame: str | None = None,
    cuda_graphs: bool = False,
    call_code: str | None = None,
    on_cpu: bool = False,
) -> Explanation | None:
    """{what, fix} for a guard failure, or None when it is not one Compile Lens knows how to put in words.
    library_frame: the compiled frame is library code the user called (e.g. "forward in modeling_llama.py", reached
    from the user's `model.generate(...)`), so its tensors are not ones the user holds: the fix is at the user's level.
    cuda_graphs: the run recorded CUDA graphs, whose one graph per size a fix by dynamic shapes does not spare.
    call_code: the user's line that made the call (named_input).
    on_cpu: the run was on a CPU, where Inductor generates C++ functions, not kernels."""
    found = _explain(named_input(reason, call_code), raw, library_frame, cuda_graphs, on_cpu)
    if found:
        found["what"] = found["what"][:1].upper() + found["what"][1:]
        found["fix"] = formats.fix_words(found["fix"])  # said after "Fix:" on every surface
    return found


# the library frame a recompile was compiled in, as explain() named it: a report keeps the sentence, not the frame
LIBRARY_SAID = re.compile(r"inside library code you called \((.+?)\) changed ")


WARMUP_SAID = "The warm-up call at line "  # how script/warmup_shape.py's sentences begin
WARMUP = "warmup-shape"  # a warm-up's explanation's kind (schema 1.42)
GRAD_SWITCH = "grad-switch"  # a loop's switch of grad mode, said from its calls (script/grad_switch.py, schema 1.47)


def region_said(explanation: Explanation | None) -> bool:
    """Whether a recompile's explanation was said from the region's calls or the script's source (a warm-up's, a grad
    mode's switch), which the log alone cannot say again: kept as recorded, shared with the script's own insight."""
    return warmup_said(explanation) or bool(explanation and explanation.get("kind") == GRAD_SWITCH)


def warmup_said(explanation: Explanation | None) -> bool:
    """Whether a recompile's explanation is a warm-up's (script/warmup_shape.py), said from the script's source: its
    kind; in a report before schema 1.42, its Quick Fix's kind, or its words where it has none (a warm-up before calls
    whose size follows traffic)."""
    if explanation is None:
        return False
    if "kind" in explanation:
        return explanation["kind"] == WARMUP
    fix = explanation.get("quickFix")
    return (fix is not None and fix["kind"] == WARMUP) or explanation["what"].startswith(WARMUP_SAID)


def explain_recorded(recompile: Recompile, cuda_graphs: bool, on_cpu: bool = False) -> Explanation | None:
    """A recorded recompile said in today's words, for a report an older runner wrote (an attached job's folder read
    by `inspect`): from its guard failure as recorded, in the frame the recorded sentence named. A warm-up's sentence
    (script/warmup_shape.py) was said from the script's source, which a report does not keep: kept as recorded, but
    for what the recompile was made for, said again (made_for.fill)."""
    recorded = recompile.get("explanation")
    if recorded and region_said(recorded):
        kept: Explanation = {**recorded, "fix": formats.fix_words(recorded["fix"])}  # as today's fixes are said
        kept.pop("madeFor", None)
        return kept
    library = LIBRARY_SAID.search(recorded["what"]) if recorded else None
    # PyTorch's hint decides some sentences (an nn.Module's integer attribute): recorded apart from the first line
    hint = recompile.get("hint")
    raw = (recompile.get("allReasons") or [""])[0] + (f"\n(HINT: {hint})" if hint else "")
    location = recompile.get("location")
    code = location["code"] if location else None
    return explain(recompile["reason"], raw, library[1] if library else None, cuda_graphs, code, on_cpu)


def _explain(
    reason: str, raw: str, library_frame: str | None, cuda_graphs: bool, on_cpu: bool = False
) -> Explanation | None:
    reason = without_compile_id(reason)
    text = f"{reason}\n{raw}"
    hint = pytorch_hint(text)
    keys = KEYS_GUARD.search(text)
    if keys:
        expected, actual = _keys(keys[2]), _keys(keys[3])
        diff = expected ^ actual
        name = user_name(keys[1])
        if grad_mode_guard(text):
            if expected > actual:
                what = (
                    f"The compiled code was made for calls outside torch.inference_mode() (warmup with normal tensors, "
                    f"under torch.no_grad() or with grad), and {name} then arrived under torch.inference_mode() (or was "
                    "created there): only the autograd dispatch key differs, so the warmup and the real calls differ in grad mode."
                )
            else:
                what = (
                    f"The compiled code was made under torch.inference_mode(), and {name} then arrived outside it (under "
                    "torch.no_grad() or with grad): only the autograd dispatch key differs, so the warmup and the real calls "
                    "differ in grad mode."
                )
            return {"what": what, "fix": WARMUP_FIX}
        return {
            "what": f"{name} arrived with different dispatch keys ({', '.join(sorted(diff))}): another device, "
            "a tensor subclass or a different autograd state than the compiled call.",
            "fix": "Call the compiled code with the same kind of tensors you warmed it up with.",
        }
    if grad_mode_guard(text):
        return {
            "what": "Grad mode differed from the compiled call: one ran with gradients enabled, the other under "
            "torch.no_grad() or torch.inference_mode().",
            "fix": WARMUP_FIX,
        }
    size = SIZE_GUARD.search(text)
    if size and library_frame and size[2] == "size":
        return {
            "what": (
                f"A tensor made inside library code you called ({library_frame}) changed size in dimension "
                f"{size[3]} from {size[4]} to {size[5]}; the compiled code had been specialised to {size[4]}, so it was "
                f"recompiled for {size[5]}. You do not hold "
                "this tensor, so marking it dynamic is not yours to do."
            ),
            "fix": _library_fix(library_frame),
        }
    if size:
        name, code, kind, dim, was, now = (
            user_name(size[1]),
            _code_name(size[1]),
            size[2],
            int(size[3]),
            size[4],
            size[5],
        )
        if kind == "stride":
            return {
                "what": f"{name} arrived with a different memory layout (the stride of dimension {dim} went from {was} "
                f"to {now}), "
                "e.g. a transposed or sliced tensor.",
                "fix": f"Pass a contiguous tensor ({code}.contiguous()), or warm up with the layout you will use.",
            }
        # what Inductor generates, as every surface of the device says it (review 20X X4: "kernels" on a CPU page
        # whose code is "fused C++ function 1")
        generated = "generated code" if on_cpu else "kernels"
        cost = f"shape arithmetic, {generated} not tuned to one size" + (
            "; CUDA graphs still record one graph per size" if cuda_graphs else ""
        )
        said: Explanation = {
            # "had been … so it was recompiled": "was specialised to 8" after a timing of the 16-recompile read as the code
            # timed (review 9D D9)
            "what": f"{name} changed size in dimension {dim} from {was} to {now}; the compiled code had been "
            f"specialised to {was}, so it was recompiled for {now}.",
            "fix": _size_fix(code, dim, was, cost),
        }
        if was != "1":  # dynamic=True compiles a size of 1 apart as well: no one-click fix for it
            said["quickFix"] = quick_fixes.compile_dynamic()
        return said
    dtype = DTYPE_GUARD.search(text)
    if dtype:
        name = user_name(dtype[1])
        return {
            "what": f"{name} arrived as {dtype[3]} after the code was compiled for {dtype[2]}.",
            "fix": f"Cast {name} to one dtype before the call, or warm up with each dtype you use.",
        }
    grad = REQUIRES_GRAD_GUARD.search(text)
    if grad:
        name = user_name(grad[1])
        return {
            "what": f"The requires_grad of {name} differed from the compiled call.",
            "fix": "Warm up with inputs whose requires_grad matches the real calls (and the same grad mode).",
        }
    value = VALUE_GUARD.search(reason)
    if value and DYNAMO_NAME.fullmatch(value["expr"]):
        source = GUARD_FROM.search(reason)
        where = f"`{source['code'].strip()}`" if source else "a line of the compiled code"
        return {
            "what": (
                f"A Python number computed at {where} changed ({value['value']} when compiled); Dynamo "
                "specialises on Python numbers, so each new value compiles a new graph."
            ),
            "fix": (
                "Compute that number as a tensor (e.g. torch.randint instead of random / numpy, x.size() kept as a "
                "tensor), or compute it outside the compiled code and pass it in as a tensor."
            ),
        }
    if value:
        expr = value["expr"].replace("L['self']", "self")
        if hint and "nn.Module" in hint:
            return {
                "what": (
                    f"The integer attribute {expr} of the module changes between calls; torch.compile treats "
                    "integer attributes of an nn.Module as constants, so every new value compiles a new graph."
                ),
                "fix": (
                    "Set torch._dynamo.config.allow_unspec_int_on_nn_module = True (PyTorch's hint), keep the value in "
                    "a tensor (e.g. a registered buffer), or move the bookkeeping out of forward."
                ),
            }
        return {
            "what": f"The Python value {expr} changed; Dynamo specialises on Python numbers, so each new value compiles a new graph.",
            "fix": f"Keep {expr} constant across calls, or pass it as a tensor.",
        }
    length = LEN_GUARD.search(reason)
    if length:
        return {
            "what": f"{length['expr']} changed length; Dynamo specialises on the length of lists and tuples.",
            "fix": "Pass a fixed number of items, or stack them into one tensor.",
        }
    if re.search(r"___check_obj_id|ID_MATCH|id\(", text):
        return {
            "what": "A different Python object (a new module, function or constant) reached the compiled code.",
            "fix": "Compile once per object and reuse it, or pass the changing value as a tensor argument.",
        }
    if re.search(r"___check_type_id|TYPE_MATCH", text):
        return {"what": "An argument changed type between calls.", "fix": "Pass arguments of one type each call."}
    return None


def grad_mode_guard(reason: str) -> bool:
    """Whether a failed guard is the grad mode's (explained with WARMUP_FIX): PyTorch's "GLOBAL_STATE changed:
    grad_mode", or a tensor's dispatch keys that differ in autograd's alone (torch.inference_mode() on one side). Read
    from the guard, never from the explanation's words (script/grad_switch.py)."""
    text = without_compile_id(reason)
    keys = KEYS_GUARD.search(text)
    if keys:
        diff = _keys(keys[2]) ^ _keys(keys[3])
        return bool(diff) and all(AUTOGRAD_ONLY.match(k) for k in diff)
    return "GLOBAL_STATE changed" in text and "grad_mode" in text


def without_compile_id(reason: str) -> str:
    """A recompile reason less the cache entry's compile id recompile_reasons prefix it with ("0/0: tensor 'x' ...")."""
    return re.sub(r"^\d+/\d+: ", "", reason.strip())


def guard_sentence(reason: str, call_code: str | None = None) -> str | None:
    """A failed guard in a few words of the user's: the first clause of its explanation, as its finding says it
    ("input 'x' changed size in dimension 0 from 8 to 16", "input 'x' arrived as float16 after the code was compiled
    for float32": one wording of one change, review 25 D6); None where Compile Lens has no words for it (the guard as
    PyTorch says it stays beside it). call_code: the user's line that made the call (named_input)."""
    text = without_compile_id(reason)
    found = explain(text, call_code=call_code)
    if not found:
        return None
    if found["fix"] == WARMUP_FIX:  # its explanation says how the grad modes differed, at length
        return "the call's grad mode differed from the compiled one's"
    first = found["what"].split("; ", 1)[0].rstrip(".")
    return first[:1].lower() + first[1:]


_GRAD_SAID = {"inference": "under torch.inference_mode()", "no_grad": "under torch.no_grad()", "grad": "with grad"}
_WITH_GRAD_MODE = re.compile(r"^(.*) \((inference|no_grad|grad)\)$")


def voided_tail(guard: str, explained: Explanation) -> str:
    """What a voided timing's cause adds of its first failed guard's explanation: what the guard's sentence before it
    (guard_sentence) has not said, then the fix, said as every fix ("Fix: …")."""
    what = explained["what"]
    first, _, rest = what.partition("; ")
    if rest and first.lower() == (guard_sentence(guard) or "").lower():
        what = rest[:1].upper() + rest[1:]
    return f"{what} {formats.fix(explained['fix'])}"


def timing_cause(timed: str, warm: str) -> str:
    """Why the timed calls compiled: they ran on other inputs than warm-up did, else took a path it had not. Each side
    as the runner names it, "float32[8, 64] (inference)": its grad mode said in PyTorch's terms where the sides' differ,
    else left out (the same on both sides, it is not why)."""
    if timed == warm:
        return "a timed call took a path warm-up had not compiled"
    w, t = _WITH_GRAD_MODE.match(warm), _WITH_GRAD_MODE.match(timed)
    if w and t:
        same = w[2] == t[2]
        warm, timed = (w[1], t[1]) if same else (f"{w[1]} {_GRAD_SAID[w[2]]}", f"{t[1]} {_GRAD_SAID[t[2]]}")
    return f"warm-up ran on {warm}, the timed calls on {timed}"


def voided_timing(compiles: int, said: list[str], cause: str) -> str:
    """A timing voided by compiles inside it, from each failed guard as a sentence: "input 'x' changed size in
    dimension 0 from 8 to 16, so 1 compile ran while timing: warm-up ran on float32[8, 64], the timed calls on
    float32[16, 64]." """
    ran = f"{compiles} compile{'' if compiles == 1 else 's'} ran while timing: {cause}"
    why = "; ".join(dict.fromkeys(said))
    text = f"{why}, so {ran}" if why else ran
    return text if text.endswith(".") else text + "."


def recompiled_while_timing(compiles: int, guards: list[str], cause: str) -> str:
    """A target mode's timing voided by compiles inside it, and why (voided_timing). Each failed guard as a sentence
    (PyTorch's words quoted where Compile Lens has none), never with its compile id."""
    said = [guard_sentence(g) or f'the guard "{without_compile_id(g)}" failed' for g in guards]
    return voided_timing(compiles, said, cause)


_LIMIT = re.compile(
    r"(?:recompile_limit|cache_size_limit)(?: cache size limit)? \((?:currently set to )?(\d+)(?: compiles)?\)"
)


def recompile_limit(text: str) -> int | None:
    """The limit a frame hit, from Dynamo's message (torch 2.6+: `recompile_limit cache size limit (currently set
    to 8)`; older: `cache_size_limit (8)`) or a runner's fallback reason before schema 1.25 (`recompile_limit (8
    compiles)`: scripts/rederive_fixtures.py), or None when the text is not about it."""
    match = _LIMIT.search(text)
    return int(match[1]) if match else None


def is_recompile_limit(text: str) -> bool:
    """Whether Dynamo's (or an older runner's) text says a frame hit torch._dynamo.config.recompile_limit."""
    return recompile_limit(text) is not None or bool(
        re.search(r"recompile limit|cache_size_limit|recompile_limit", text, re.I)
    )


def _frame_name(insight: CompilerInsight | None, compile_id: str | None) -> str:
    frame = (compile_id or "").split("/")[0]
    for f in insight.get("frames", []) if insight else []:
        if str(f.get("compileId") or "").split("/")[0] == frame and f.get("function"):
            return str(f["function"])
    return "a compiled frame"


def fallback_cause(insight: CompilerInsight | None, ran_compiled: bool | None, eager_frames: int) -> Fallback:
    """{cause, fix} for compiled calls that Dynamo ran eagerly, from what the compiler log says happened."""
    failures = (insight.get("compileFailures") if insight else None) or []
    sites = (insight.get("recompileSites") if insight else None) or []
    for failure in failures:
        reason = str(failure.get("reason") or "")
        if not is_recompile_limit(reason):
            continue
        limit = recompile_limit(reason)
        frame = str(failure.get("compileId") or "").split("/")[0]
        name = _frame_name(insight, failure.get("compileId"))
        mine = [s for s in sites if any(str(c or "").split("/")[0] == frame for c in s.get("compileIds", []))]
        site = max(mine, key=lambda s: s["count"], default=None)
        every = site is not None and len(mine) == 1
        guard = site["pattern"].split(" (guard from:", 1)[0] if site else ""
        limit_text = f" ({limit})" if limit is not None else ""
        cause = f"{name} hit the recompile limit{limit_text}" + (
            f" after recompiling on every call: guard {guard}"
            if every and site
            else f" after {site['count']} recompiles at one site: guard {guard}"
            if site
            else ""
        )
        explanation = site.get("explanation") if site else None
        fix = (explanation["fix"] if explanation else None) or (
            "Remove what changes between calls (see the recompiles), or raise "
            "torch._dynamo.config.recompile_limit if the variants are expected."
        )
        return {"cause": cause, "fix": fix}
    if failures:
        failure = failures[0]
        lines = [line.strip() for line in str(failure.get("reason") or "").splitlines() if line.strip()] or [
            "no reason given"
        ]
        first = " ".join(lines[:2]) if lines[0].endswith(":") else lines[0]
        name = _frame_name(insight, failure.get("compileId"))
        return {
            "cause": f"Dynamo could not compile {name} ({failure.get('failType') or 'error'}: {first}) and ran it eagerly",
            "fix": (
                "Make it compile: set torch._dynamo.config.suppress_errors = False to see the error where it "
                "happens, then fix or report it."
            ),
        }
    if ran_compiled is None:
        return {
            "cause": "no compiled frame was entered during the timed calls: Dynamo skipped the code (torch._dynamo.disable, "
            "a suppressed compile error, or a frame it does not trace)",
            "fix": "Check that the compiled callable is the one being called and that its frames compile (TORCH_LOGS=graph_breaks).",
        }
    return {
        "cause": f"{eager_frames} frame entries found no compiled code that matched and did not recompile",
        "fix": "See the recompiles and guard failures of this mode (TORCH_LOGS=recompiles).",
    }
