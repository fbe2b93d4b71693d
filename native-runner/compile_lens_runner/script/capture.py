"""What replaying a region after the script needs, gathered while it runs: its inputs (aliases, for a few
signatures only) and evidence that a call leaves the script's state alone.

A region may be replayed only if timing it again cannot change or misread the script's world: its calls must not
change parameters, buffers or input tensors in place (`_version` moves), nor plain Python attributes of its
modules, nor step an optimizer; and its inputs must be values that can be passed again (tensors, numbers, strings,
dtypes ...), not iterators, generators or caches. The first CHECKED_CALLS calls of each region are checked; a region
that mutates state does so from its first calls.
"""
from __future__ import annotations

import contextlib
import weakref
from dataclasses import dataclass
from typing import Any, Callable, Iterator, Mapping

from ..measure.grad_mode import grad_context

CHECKED_CALLS = 16
# Inputs are held for at most this many signatures per region: the two most frequent so far and the last.
MAX_CAPTURES = 3

_optimizers: "weakref.WeakSet[Any]" = weakref.WeakSet()


def _reusable(value: Any) -> bool:
    import numpy as np
    import torch

    return value is None or isinstance(value, (torch.Tensor, np.ndarray, np.generic, bool, int, float, complex, str, bytes,
                                               torch.dtype, torch.device, torch.layout, torch.memory_format))


@dataclass
class Capture:
    """One call's inputs as aliases (`detach()`: same storage, no autograd graph kept alive) and their
    requires_grad flags, restored when replayed."""

    signature: str
    grad_mode: str
    autocast: str | None  # e.g. "cuda float16"
    inputs: tuple[tuple, dict[str, Any]]
    requires_grad: list[bool]

    @contextlib.contextmanager
    def context(self) -> Iterator[None]:
        """The grad mode and autocast the script's call ran under."""
        import torch

        with grad_context(self.grad_mode), contextlib.ExitStack() as stack:
            if self.autocast:
                device_type, dtype = self.autocast.split(" ")
                stack.enter_context(torch.autocast(device_type, dtype=getattr(torch, dtype)))
            yield

    def arguments(self) -> tuple[tuple, dict[str, Any]]:
        import torch
        from torch.utils._pytree import tree_map

        flags = iter(self.requires_grad)

        def restore(value: Any) -> Any:
            if isinstance(value, torch.Tensor):
                wanted = next(flags)
                if value.requires_grad != wanted and (value.is_floating_point() or value.is_complex()):
                    value.requires_grad_(wanted)
            return value
        args, kwargs = tree_map(restore, self.inputs)
        return args, kwargs


def capture(signature: str, grad: str, amp: str | None, args: tuple, kwargs: dict[str, Any]) -> Capture:
    import torch
    from torch.utils._pytree import tree_map

    flags: list[bool] = []

    def alias(value: Any) -> Any:
        if isinstance(value, torch.Tensor):
            flags.append(value.requires_grad)
            return value.detach()
        return value
    return Capture(signature, grad, amp, tree_map(alias, (args, kwargs)), flags)


def _named_state(owner: Any) -> Iterator[tuple[str, Any]]:
    """Parameters and buffers of the modules a region runs (its module, a bound method's module, modules a
    function closes over), tensors held by a method's plain `self`, and those of every optimizer the script made."""
    import torch

    for opt in list(_optimizers):  # first: a changed parameter that an optimizer holds is named as its step
        for group in opt.param_groups:
            for tensor in group["params"]:
                yield f"optimizer:{type(opt).__name__}", tensor
    modules: list[tuple[str, Any]] = []
    if isinstance(owner, torch.nn.Module):
        modules.append(("", owner))
    elif not callable(owner):  # the `self` of a compiled method on a plain class
        for key, value in vars(owner).items() if hasattr(owner, "__dict__") else ():
            if isinstance(value, torch.Tensor):
                yield f"attribute {key}", value
    else:
        bound = getattr(owner, "__self__", None)
        if isinstance(bound, torch.nn.Module):
            modules.append(("", bound))
        for cell in getattr(owner, "__closure__", None) or ():
            try:
                value = cell.cell_contents
            except ValueError:
                continue
            if isinstance(value, torch.nn.Module):
                modules.append((f"{type(value).__name__}.", value))
    for prefix, module in modules:
        for name, tensor in module.named_parameters():
            yield f"parameter {prefix}{name}", tensor
        for name, tensor in module.named_buffers():
            yield f"buffer {prefix}{name}", tensor


def _python_attributes(owner: Any) -> dict[tuple[str, str], Any]:
    """Plain public attributes (numbers, strings, None) of the region's module and its submodules, or of a
    method's `self`: Dynamo specialises on them, so a call that changes one changes what the next call runs."""
    import torch

    module = owner if isinstance(owner, torch.nn.Module) else getattr(owner, "__self__", None)
    if isinstance(module, torch.nn.Module):
        objects = [(name or type(module).__name__, sub) for name, sub in module.named_modules()]
    elif not callable(owner) and hasattr(owner, "__dict__"):
        objects = [(type(owner).__name__, owner)]
    else:
        return {}
    return {(name, key): value for name, obj in objects for key, value in vars(obj).items()
            if not key.startswith("_") and isinstance(value, (bool, int, float, str, type(None)))}


class StateCheck:
    """Versions of everything a call could change, taken before the call and compared after it."""

    def __init__(self, owner: Any, inputs: list[tuple[str | None, Any]]) -> None:
        import torch

        self.owner = owner
        self.inputs = [(i, v, v._version) for i, (_, v) in enumerate(inputs)
                       if isinstance(v, torch.Tensor) and not v.is_inference()]
        self.state = [(name, t, t._version) for name, t in _named_state(owner) if not t.is_inference()]
        self.attributes = _python_attributes(owner)

    def changes(self) -> str | None:
        """Why replaying is unsafe, from what this call changed; None when it changed nothing."""
        change = self._change()
        return f"{change}, so running it again would change the script's state" if change else None

    def _change(self) -> str | None:
        for name, tensor, version in self.state:
            if tensor._version != version:
                if name.startswith("optimizer:"):
                    return f"it runs an optimizer step ({name.split(':', 1)[1]}'s parameters changed during a call)"
                return f"it changes its {name} in place"
        for index, tensor, version in self.inputs:
            if tensor._version != version:
                return f"it changes its input {index + 1} in place"
        after = _python_attributes(self.owner)
        for (module, key), value in self.attributes.items():
            if after.get((module, key), value) != value:
                return f"it changes the Python attribute {module}.{key} ({value!r} -> {after[(module, key)]!r})"
        return None


class ReplayInputs:
    """Per region: the captured inputs of candidate signatures and the first reason it cannot be replayed."""

    def __init__(self) -> None:
        self.captures: dict[str, Capture] = {}
        self.frequent: list[str] = []  # the MAX_CAPTURES - 1 most frequent signatures so far
        self.unsafe: str | None = None
        self.checked = 0

    def check(self, owner: Any, leaves: list[tuple[str | None, Any]]) -> StateCheck | None:
        """A StateCheck for this call while calls are still being checked and nothing disqualified the region."""
        for name, value in leaves:
            if not _reusable(value) and self.unsafe is None:
                where = f"input {name}" if name else "an input"
                self.unsafe = f"{where} is a {type(value).__name__}, which cannot be safely passed again"
        if self.unsafe is not None or self.checked >= CHECKED_CALLS:
            return None
        self.checked += 1
        return StateCheck(owner, leaves)

    def after(self, check: StateCheck | None) -> None:
        if check is not None and self.unsafe is None:
            self.unsafe = check.changes()

    def keep(self, counts: Mapping[str, int], new: Capture) -> None:
        """Holds `new` (the last call's inputs) and drops captures no longer among the candidates. Only the current
        signature's count changed since the last call, so the most frequent ones are kept up to date in O(1)."""
        if self.unsafe is not None:
            self.captures.clear()
            return
        if new.signature not in self.frequent:
            self.frequent.append(new.signature)
            if len(self.frequent) > MAX_CAPTURES - 1:
                self.frequent.remove(min(self.frequent, key=lambda s: counts[s]))
        self.captures[new.signature] = new
        for signature in [s for s in self.captures if s not in self.frequent and s != new.signature]:
            del self.captures[signature]

    def only(self, signatures: list[str]) -> None:
        """Keeps the inputs of the signatures to be measured, drops the rest."""
        for signature in [s for s in self.captures if s not in signatures]:
            del self.captures[signature]


def track_optimizers() -> Callable[[], None]:
    """Remembers every optimizer the script creates (for the optimizer-step check); returns the undo."""
    import torch

    original = torch.optim.Optimizer.__init__

    def init(self: Any, *args: Any, **kwargs: Any) -> None:
        original(self, *args, **kwargs)
        _optimizers.add(self)
    torch.optim.Optimizer.__init__ = init  # type: ignore[method-assign]

    def undo() -> None:
        torch.optim.Optimizer.__init__ = original  # type: ignore[method-assign]
    return undo
