"""Is compiled as correct as eager? Judged the way PyTorch's own accuracy check does (torch._dynamo.utils.same):

1. outputs within the dtype's tolerance of eager pass;
2. otherwise both eager and compiled are compared with a higher-precision reference - an fp64 copy of the model
   (inputs that are integers, such as token ids, stay integers), else eager with TF32 off - and compiled fails only
   if its error (RMSE against the reference) exceeds `multiplier` x eager's error + tol/10. Eager itself moves that
   far from an exact result under TF32 and cuDNN's algorithm choice, so that is not a compiler bug.

`judge` works on any callable: the target flow passes the model, script regions the region's original callable.
"""

from __future__ import annotations

import contextlib
import copy
import math
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from ..shapes.mode import Correctness, PrecisionSettings
from .grad_mode import grad_context

# (atol, rtol) by dtype name; Inductor reorders float math, so low-precision types get looser bounds.
TOLERANCES = {"float64": (1e-7, 1e-7), "float32": (1e-4, 1e-3), "float16": (1e-2, 1e-2), "bfloat16": (5e-2, 5e-2)}
FP64_MEMORY_SHARE = 0.5  # an fp64 copy may use at most this share of the free GPU memory


def seed_everything() -> None:
    import numpy as np
    import torch

    random.seed(0)
    np.random.seed(0)
    torch.manual_seed(0)


def precision_settings() -> PrecisionSettings:
    """The float32 precision settings in force: TF32 lets matmuls/convolutions round inputs to 10 mantissa bits."""
    import torch

    def read(get: Callable[[], Any]) -> Any:
        try:
            return get()
        except Exception:  # a torch without the setting, or one that refuses the legacy getter
            return None

    return {
        "cudaMatmulAllowTf32": read(lambda: bool(torch.backends.cuda.matmul.allow_tf32)),
        "cudnnAllowTf32": read(lambda: bool(torch.backends.cudnn.allow_tf32)),
        "float32MatmulPrecision": read(torch.get_float32_matmul_precision),
    }


@contextlib.contextmanager
def tf32_off() -> Iterator[None]:
    import torch

    saved = (
        torch.backends.cuda.matmul.allow_tf32,
        torch.backends.cudnn.allow_tf32,
        torch.get_float32_matmul_precision(),
    )
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    torch.set_float32_matmul_precision("highest")
    try:
        yield
    finally:
        torch.backends.cuda.matmul.allow_tf32, torch.backends.cudnn.allow_tf32 = saved[0], saved[1]
        torch.set_float32_matmul_precision(saved[2])


def _leaves(value: Any) -> list[Any]:
    """Output leaves; mappings and sequences pytree does not know (e.g. a model-output class) are opened too."""
    from collections.abc import Mapping

    from torch.utils._pytree import tree_leaves

    out: list[Any] = []
    for leaf in tree_leaves(value):
        if isinstance(leaf, Mapping):
            out.extend(_leaves(list(leaf.values())))
        else:
            out.append(leaf)
    return out


def _as_array(value: Any) -> Any:
    import numpy as np
    import torch

    if isinstance(value, torch.Tensor):
        value = value.detach()
        if value.dtype == torch.bfloat16 or value.dtype == torch.float16:
            value = value.float()
        return value.to("cpu").numpy()
    return np.asarray(value)


def _dtype_name(value: Any) -> str:
    import torch

    if isinstance(value, torch.Tensor):
        return str(value.dtype).removeprefix("torch.")
    return str(getattr(value, "dtype", type(value).__name__))


@dataclass
class Leaf:
    index: int
    dtype: str
    eager: Any  # numpy arrays, float64 for floating leaves
    compiled: Any
    floating: bool


def _pair_leaves(eager: Any, compiled: Any) -> tuple[list[Leaf], str | None]:
    import numpy as np

    left, right = _leaves(eager), _leaves(compiled)
    if len(left) != len(right):
        return [], f"eager returned {len(left)} values, compiled {len(right)}"
    leaves = []
    for i, (a, b) in enumerate(zip(left, right, strict=True)):
        xa, xb = _as_array(a), _as_array(b)
        if xa.shape != xb.shape:
            return [], f"output {i}: shape {list(xa.shape)} eager vs {list(xb.shape)} compiled"
        if not np.issubdtype(xa.dtype, np.number) and xa.dtype != np.bool_:
            continue
        floating = bool(np.issubdtype(xa.dtype, np.floating) or np.issubdtype(xa.dtype, np.complexfloating))
        leaves.append(
            Leaf(
                i,
                _dtype_name(a),
                xa.astype(np.float64) if floating else xa,
                xb.astype(np.float64) if floating else xb,
                floating,
            )
        )
    return leaves, None


def _beyond_tolerance(leaf: Leaf) -> bool:
    import numpy as np

    if not leaf.floating:
        return bool(np.any(leaf.eager != leaf.compiled))
    atol, rtol = TOLERANCES.get(leaf.dtype, (0.0, 0.0))
    nan_mismatch = bool(np.any(np.isnan(leaf.eager) != np.isnan(leaf.compiled)))
    return nan_mismatch or bool(np.any(np.abs(leaf.eager - leaf.compiled) > atol + rtol * np.abs(leaf.eager)))


def _max_abs(leaf: Leaf) -> float:
    import numpy as np

    diff = np.abs(leaf.eager.astype(np.float64) - leaf.compiled.astype(np.float64))
    return float(np.nanmax(diff)) if diff.size and not np.all(np.isnan(diff)) else 0.0


def _rmse(reference: Any, value: Any) -> float:
    import numpy as np

    return float(np.sqrt(np.mean(np.square(reference - value)))) if reference.size else 0.0


def multiplier(dtype: str, numel: int) -> float:
    """torch._dynamo.utils.same: 2x eager's error (3x for fp16/bf16 and for small tensors, where noise dominates)."""
    if dtype in ("float16", "bfloat16") or numel < 1000:
        return 3.0
    return 2.0


# -- the reference ---------------------------------------------------------------------------------------------------
def _to_fp64(value: Any) -> Any:
    import numpy as np
    import torch
    from torch.utils._pytree import tree_map

    def one(v: Any) -> Any:
        if isinstance(v, torch.Tensor) and v.is_floating_point():
            return v.to(torch.float64)
        if isinstance(v, np.ndarray) and np.issubdtype(v.dtype, np.floating):
            return v.astype(np.float64)
        return v

    return tree_map(one, value)


def _fp64_fits(module: Any, device: str) -> str | None:
    """None when an fp64 copy of `module` should fit, else why not."""
    if device != "cuda":
        return None
    import torch

    tensors = list(module.parameters()) + list(module.buffers())
    need = sum(t.numel() * 8 for t in tensors if t.is_floating_point())
    free, _ = torch.cuda.mem_get_info()
    if need > free * FP64_MEMORY_SHARE:
        return f"an fp64 copy of the model ({need / 2**30:.1f} GiB) would not fit in free GPU memory ({free / 2**30:.1f} GiB)"
    return None


def _call(fn: Callable[..., Any], inputs: tuple[Any, ...], grad_mode: str) -> Any:

    seed_everything()
    with grad_context(grad_mode):
        return fn(*inputs)


def _fp64_reference(
    original: Callable[..., Any], inputs: tuple[Any, ...], grad_mode: str, device: str
) -> tuple[Any, str | None]:
    import torch

    if isinstance(original, torch.nn.Module):
        why_not = _fp64_fits(original, device)
        if why_not:
            return None, why_not
        model: Callable[..., Any] = copy.deepcopy(original).to(torch.float64)
    else:
        model = original
    try:
        out = _call(model, _to_fp64(inputs), grad_mode)
    except Exception as exc:  # the model cannot run in fp64 (a dtype it fixes, an op without fp64, out of memory)
        return (
            None,
            f"the model did not run in fp64: {type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}".rstrip(
                ": "
            ),
        )
    finally:
        del model
        if device == "cuda":
            torch.cuda.empty_cache()
    floats = [v for v in _leaves(out) if isinstance(v, torch.Tensor) and v.is_floating_point()]
    if any(v.dtype != torch.float64 for v in floats):
        return None, "in fp64 the model still returned lower-precision outputs (it fixes its own dtypes)"
    return out, None


def reference_outputs(
    original: Callable[..., Any], inputs: tuple[Any, ...], grad_mode: str, device: str
) -> tuple[Any, str, str | None]:
    """(outputs, kind, note): an fp64 run when possible, else eager with TF32 off; note says why fp64 was not used."""
    out, why_not = _fp64_reference(original, inputs, grad_mode, device)
    if out is not None:
        return out, "fp64", None
    try:
        with tf32_off():
            return _call(original, inputs, grad_mode), "eager-tf32-off", why_not
    except Exception as exc:
        return None, "unavailable", f"{why_not}; eager with TF32 off raised {type(exc).__name__}"


# -- the judgement ---------------------------------------------------------------------------------------------------
def judge(
    original: Callable[..., Any],
    inputs: tuple[Any, ...],
    grad_mode: str,
    eager_out: Any,
    compiled_out: Any,
    device: str,
) -> Correctness:
    """Compares `compiled_out` with `eager_out` (both from `inputs`, seeded); when they differ beyond tolerance,
    runs `original` (the uncompiled callable) for a higher-precision reference and judges by each side's error."""
    result: Correctness = {
        "ok": True,
        "maxAbsError": None,
        "dtype": None,
        "atol": None,
        "rtol": None,
        "message": None,
        "reference": "none",
        "referenceNote": None,
        "precision": precision_settings(),
    }
    leaves, structural = _pair_leaves(eager_out, compiled_out)
    if structural:
        return {**result, "ok": False, "message": structural}
    worst = max(leaves, key=_max_abs, default=None)
    if worst is not None:
        atol, rtol = TOLERANCES.get(worst.dtype, (0.0, 0.0))
        result.update({"maxAbsError": _max_abs(worst), "dtype": worst.dtype, "atol": atol, "rtol": rtol})
    differing = [leaf for leaf in leaves if _beyond_tolerance(leaf)]
    if not differing:
        return result
    reference, kind, note = reference_outputs(original, inputs, grad_mode, device)
    result.update({"reference": kind, "referenceNote": note})
    if reference is None:
        leaf = differing[0]
        atol, rtol = TOLERANCES.get(leaf.dtype, (0.0, 0.0))
        return {
            **result,
            "ok": False,
            "message": (
                f"output {leaf.index} ({leaf.dtype}): max abs error {_max_abs(leaf):.3g} exceeds atol {atol:g} + rtol {rtol:g}*|eager| "
                "and no higher-precision reference could be computed to tell whether eager is as far off"
            ),
        }
    ref_leaves = [_as_array(v) for v in _leaves(reference)]
    checks = [
        _against_reference(leaf, ref_leaves[leaf.index] if leaf.index < len(ref_leaves) else None, kind, result)
        for leaf in differing
    ]
    failed = [c for c in checks if c.get("message")]
    shown = failed[0] if failed else max(checks, key=lambda c: c.get("compiledRmse") or 0.0)
    return {**shown, "ok": not failed}


def _against_reference(leaf: Leaf, reference: Any, kind: str, base: Correctness) -> Correctness:
    """`base` with each side's RMSE against the reference; `message` is None when compiled is about as close as eager is."""
    import numpy as np

    where = f"output {leaf.index} ({leaf.dtype})"
    out: Correctness = {**base, "message": None, "eagerRmse": None, "compiledRmse": None, "multiplier": None}
    if reference is None or reference.shape != leaf.eager.shape:
        return {**out, "message": f"{where}: differs from eager and the reference has no matching output"}
    ref = reference.astype(np.float64)
    if not leaf.floating:  # integers and booleans: compiled must equal eager or the reference
        ok = np.all((leaf.compiled == leaf.eager) | (leaf.compiled == ref))
        return (
            out
            if ok
            else {
                **out,
                "message": (
                    f"{where}: {int(np.sum(leaf.compiled != leaf.eager))} values differ from eager and from the {kind} reference"
                ),
            }
        )
    compiled_nan, eager_nan = np.isnan(leaf.compiled), np.isnan(leaf.eager)
    if np.any(compiled_nan & ~eager_nan & ~np.isnan(ref)):
        return {**out, "message": f"{where}: compiled has NaN where eager and the {kind} reference do not"}
    finite = ~(compiled_nan | eager_nan | np.isnan(ref))
    eager_err, compiled_err = _rmse(ref[finite], leaf.eager[finite]), _rmse(ref[finite], leaf.compiled[finite])
    atol, _ = TOLERANCES.get(leaf.dtype, (1e-4, 0.0))
    factor = multiplier(leaf.dtype, int(leaf.eager.size))
    out.update({"eagerRmse": eager_err, "compiledRmse": compiled_err, "multiplier": factor})
    if math.isnan(compiled_err) or compiled_err > factor * eager_err + atol / 10:
        out["message"] = (
            f"{where}: compiled is further from the {kind} reference than eager is: RMSE {compiled_err:.3g} vs "
            f"eager's {eager_err:.3g} (allowed {factor:g}x eager's + {atol / 10:g}); max abs difference from "
            f"eager {_max_abs(leaf):.3g}"
        )
    return out
