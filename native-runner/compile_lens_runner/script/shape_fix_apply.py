"""The shape fix as the fix run applies it (script/shape_fix.py runs the script once more with it; never the user's
measured run): torch.compile's arguments (`dynamic`: dynamic=True), the inputs of each call (`mark-dynamic`:
torch._dynamo.mark_dynamic on the dimensions that changed, on the script's own inputs at the compiled call), the
warm-up call (`warmup-shape`: its changed dimension at the real calls' size), and the compiled call itself (`buckets`:
the changed dimension padded with zeros up to the next of a few sizes, the outputs cut back to the call's own size).

Buckets are applied only while they change nothing the script sees: at each size's first padded call the region's
eager code runs on the call's own inputs and on the padded ones, and where the outputs cut back differ (a call that
mixes rows: a mean over the batch, attention over a padded cache) beyond floating-point tolerance, the region's calls
run unpadded from then on and the fix is refused, with what differed."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from typing import Any, TypedDict

DYNAMIC, MARK, WARMUP, BUCKETS = "dynamic", "mark-dynamic", "warmup-shape", "buckets"
CHECKS = "buckets.json"  # in the fix run's folder: per region, whether its buckets held (Buckets.to_json)


class _ShapeFixPlan(TypedDict):
    region: str
    file: str
    line: int
    kind: str  # DYNAMIC | MARK | WARMUP | BUCKETS


class ShapeFixPlan(_ShapeFixPlan, total=False):
    """The fix a fix run applies to one region: the runner's own, no part of the report."""

    # warmup-shape: the warm-up's input and dimension, its size, the size it is made at instead, the first real call,
    # and whether that dimension is marked dynamic too (calls whose size follows traffic)
    input: str
    dim: int
    warmupSize: int
    warmupTo: int
    realCall: int
    markDynamic: bool
    # mark-dynamic, buckets: [leaf, dimension] of the inputs whose size changed (leaves in calls.flatten's order) and
    # their names as the shape facts say them
    dims: list[list[int]]
    names: list[str]
    buckets: list[int]  # the sizes padded to, ascending


class BucketRefusal(TypedDict):
    size: int  # the call's own size
    bucket: int  # the size it was padded to
    maxDiff: float | None  # the largest difference of an output cut back (None: the outputs' shapes differ)


def compile_kwargs(fix: ShapeFixPlan | None, kwargs: dict[str, Any]) -> dict[str, Any]:
    """torch.compile's arguments with a `dynamic` fix applied."""
    return {**kwargs, "dynamic": True} if fix is not None and fix["kind"] == DYNAMIC else kwargs


def _split(args: tuple[Any, ...], kwargs: dict[str, Any], method: bool) -> tuple[tuple[Any, ...], list[Any], Any]:
    """A call's input leaves in calls.flatten's order (a method's `self` apart), and how to put them back."""
    from torch.utils._pytree import tree_flatten

    head, rest = (args[:1], args[1:]) if method and args else ((), args)
    leaves, spec = tree_flatten((rest, kwargs))
    return head, leaves, spec


def _join(head: tuple[Any, ...], leaves: list[Any], spec: Any) -> tuple[tuple[Any, ...], dict[str, Any]]:
    from torch.utils._pytree import tree_unflatten

    rest, kwargs = tree_unflatten(leaves, spec)
    return (*head, *rest), dict(kwargs)


def warmed_inputs(
    fix: ShapeFixPlan | None, args: tuple[Any, ...], kwargs: dict[str, Any]
) -> tuple[tuple[Any, ...], dict[str, Any]]:
    """The warm-up call's inputs with its first tensor of the warm-up's size in the changed dimension made at the size the
    fix warms up to (zeros: a compiled graph does not depend on the values), that dimension marked dynamic where the real
    calls' sizes vary (markDynamic); others as they were."""
    if fix is None or fix["kind"] != WARMUP:
        return args, kwargs
    import torch

    dim, was, now = fix["dim"], fix["warmupSize"], fix["warmupTo"]
    head, leaves, spec = _split(args, kwargs, False)
    for i, leaf in enumerate(leaves):
        if isinstance(leaf, torch.Tensor) and leaf.dim() > dim and leaf.shape[dim] == was:
            shape = list(leaf.shape)
            shape[dim] = now
            made = torch.zeros(shape, dtype=leaf.dtype, device=leaf.device)
            if leaf.dim() == 4 and not leaf.is_contiguous() and leaf.is_contiguous(memory_format=torch.channels_last):
                # its layout kept (timm's server passes channels_last images): another layout is another graph
                made = made.contiguous(memory_format=torch.channels_last)
            leaves[i] = made.requires_grad_(leaf.requires_grad)
            if fix.get("markDynamic"):
                torch._dynamo.mark_dynamic(leaves[i], dim)
            break
    return _join(head, leaves, spec)


def _marked(fix: ShapeFixPlan, leaves: list[Any]) -> list[tuple[int, int]]:
    """The fix's (leaf, dimension) pairs that are tensors of this call with that dimension."""
    import torch

    return [
        (leaf, dim)
        for leaf, dim in fix.get("dims") or []
        if leaf < len(leaves) and isinstance(leaves[leaf], torch.Tensor) and leaves[leaf].dim() > dim
    ]


def mark(fix: ShapeFixPlan | None, args: tuple[Any, ...], kwargs: dict[str, Any], method: bool) -> None:
    """A `mark-dynamic` fix: torch._dynamo.mark_dynamic on each changed dimension of this call's inputs, as the
    Quick Fix's line before the call does."""
    if fix is None or fix["kind"] != MARK:
        return
    import torch

    _, leaves, _ = _split(args, kwargs, method)
    for leaf, dim in _marked(fix, leaves):
        torch._dynamo.mark_dynamic(leaves[leaf], dim)


# outputs cut back from a padded call agree with the call's own within these (rtol, atol): float32 and wider, 16-bit
_TOLERANCE = {"wide": (1e-4, 1e-4), "half": (1e-2, 1e-2)}


def _differs(want: Any, got: Any) -> BucketRefusal | None:
    """None where the outputs agree (tensors within tolerance, other leaves equal); else what differed (size and bucket
    filled in by the caller)."""
    import torch
    from torch.utils._pytree import tree_flatten

    (a_leaves, a_spec), (b_leaves, b_spec) = tree_flatten(want), tree_flatten(got)
    if a_spec != b_spec:
        return {"size": 0, "bucket": 0, "maxDiff": None}
    worst = 0.0
    for a, b in zip(a_leaves, b_leaves, strict=True):
        if isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor):
            if a.shape != b.shape or a.dtype != b.dtype:
                return {"size": 0, "bucket": 0, "maxDiff": None}
            if not (a.is_floating_point() or a.is_complex()):
                if not torch.equal(a, b):
                    return {"size": 0, "bucket": 0, "maxDiff": float((a.double() - b.double()).abs().max())}
                continue
            rtol, atol = _TOLERANCE["half" if a.element_size() <= 2 else "wide"]
            diff = float((a.double() - b.double()).abs().max()) if a.numel() else 0.0
            worst = max(worst, diff)
            if not torch.allclose(a, b, rtol=rtol, atol=atol, equal_nan=True):
                return {"size": 0, "bucket": 0, "maxDiff": diff}
        elif isinstance(a, (int, float, bool, str, type(None))) and a == b:
            continue
        else:  # an object (a cache): whether it holds the same cannot be told here
            return {"size": 0, "bucket": 0, "maxDiff": None}
    return None


def _cut(out: Any, dim: int, bucket: int, size: int) -> Any:
    """The outputs of a padded call cut back to the call's own size in the padded dimension."""
    import torch
    from torch.utils._pytree import tree_map

    return tree_map(
        lambda t: (
            t.narrow(dim, 0, size) if isinstance(t, torch.Tensor) and t.dim() > dim and t.shape[dim] == bucket else t
        ),
        out,
    )


class Buckets:
    """A `buckets` fix of one region in the fix run: pads each compiled-side call, checked once per size."""

    def __init__(self, fix: ShapeFixPlan) -> None:
        self.fix = fix
        self.checked: set[int] = set()
        self.refused: BucketRefusal | None = None
        self.padded = 0  # calls made padded

    def prepare(
        self, eager: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any], method: bool
    ) -> tuple[tuple[Any, ...], dict[str, Any], Callable[[Any], Any] | None, bool]:
        """(the call's inputs, padded where the fix pads them; how to cut its outputs back, or None; whether the
        region's eager code ran here to check the padding: the call is then no plain step)."""
        if self.refused is not None:
            return args, kwargs, None, False
        import torch

        head, leaves, spec = _split(args, kwargs, method)
        marked = _marked(self.fix, leaves)
        if not marked:
            return args, kwargs, None, False
        first, dim = marked[0]
        size = int(leaves[first].shape[dim])
        bucket = next((b for b in self.fix.get("buckets") or [] if b >= size), None)
        if bucket is None or bucket == size:
            return args, kwargs, None, False
        padded = list(leaves)
        for leaf, d in marked:
            t = leaves[leaf]
            if t.shape[d] == size:
                extra = list(t.shape)
                extra[d] = bucket - size
                padded[leaf] = torch.cat([t, t.new_zeros(extra)], d)
        padded_args, padded_kwargs = _join(head, padded, spec)

        def cut(out: Any) -> Any:
            return _cut(out, dim, bucket, size)

        checking = size not in self.checked
        if checking:
            self.checked.add(size)
            with torch.no_grad():
                differs = _differs(eager(*args, **kwargs), cut(eager(*padded_args, **padded_kwargs)))
            if differs is not None:
                self.refused = {**differs, "size": size, "bucket": bucket}
                return args, kwargs, None, True
        self.padded += 1
        return padded_args, padded_kwargs, cut, checking

    def to_json(self) -> dict[str, Any]:
        return {"refused": self.refused, "padded": self.padded}


def write(workdir: str, buckets: dict[str, Buckets]) -> None:
    with open(os.path.join(workdir, CHECKS), "w", encoding="utf-8") as f:
        json.dump({region: b.to_json() for region, b in buckets.items()}, f)
