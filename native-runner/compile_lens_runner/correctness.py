"""Compiled vs eager outputs: the largest absolute error and whether it is within the dtype's tolerance."""
from __future__ import annotations

from typing import Any

# (atol, rtol) by dtype name; Inductor reorders float math, so low-precision types get looser bounds.
TOLERANCES = {"float64": (1e-7, 1e-7), "float32": (1e-4, 1e-3), "float16": (1e-2, 1e-2), "bfloat16": (5e-2, 5e-2)}


def _leaves(value: Any) -> list[Any]:
    from torch.utils._pytree import tree_leaves

    return tree_leaves(value)


def _as_array(value: Any) -> Any:
    import numpy as np
    import torch

    if isinstance(value, torch.Tensor):
        return value.detach().to("cpu").numpy() if value.dtype != torch.bfloat16 else value.detach().float().cpu().numpy()
    return np.asarray(value)


def _dtype_name(value: Any) -> str:
    import torch

    if isinstance(value, torch.Tensor):
        return str(value.dtype).removeprefix("torch.")
    return str(getattr(value, "dtype", type(value).__name__))


def compare(eager: Any, compiled: Any) -> dict[str, Any]:
    import numpy as np

    left, right = _leaves(eager), _leaves(compiled)
    if len(left) != len(right):
        return {"ok": False, "maxAbsError": None, "dtype": None, "atol": None, "rtol": None,
                "message": f"eager returned {len(left)} values, compiled {len(right)}"}
    worst, worst_dtype, ok, message = 0.0, None, True, None
    atol = rtol = 0.0
    for i, (a, b) in enumerate(zip(left, right)):
        dtype = _dtype_name(a)
        xa, xb = _as_array(a), _as_array(b)
        if xa.shape != xb.shape:
            return {"ok": False, "maxAbsError": None, "dtype": dtype, "atol": None, "rtol": None,
                    "message": f"output {i}: shape {list(xa.shape)} eager vs {list(xb.shape)} compiled"}
        if not np.issubdtype(xa.dtype, np.number) and xa.dtype != np.bool_:
            continue
        tol_a, tol_r = TOLERANCES.get(dtype, (0.0, 0.0))
        xa64, xb64 = xa.astype(np.float64), xb.astype(np.float64)
        diff = np.abs(xa64 - xb64)
        err = float(np.nanmax(diff)) if diff.size else 0.0
        nan_mismatch = bool(np.any(np.isnan(xa64) != np.isnan(xb64)))
        bad = nan_mismatch or bool(np.any(diff > tol_a + tol_r * np.abs(xa64)))
        if err >= worst:
            worst, worst_dtype, atol, rtol = err, dtype, tol_a, tol_r
        if bad and ok:
            ok = False
            message = f"output {i} ({dtype}): max abs error {err:.3g} exceeds atol {tol_a:g} + rtol {tol_r:g}*|eager|"
    return {"ok": ok, "maxAbsError": worst, "dtype": worst_dtype, "atol": atol, "rtol": rtol, "message": message}
