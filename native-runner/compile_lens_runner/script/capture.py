"""What replaying a region after the script needs, gathered while it runs: its inputs (aliases, for a few
signatures only) and evidence that a call leaves the script's state alone.

A region may be replayed only if timing it again cannot change or misread the script's world: its calls must not
change parameters, buffers or input tensors in place (`_version` moves; through `.data`, which has a version of its
own, a sample of the tensor's values moves), nor plain Python attributes of its modules, nor step an optimizer; the
modules it reaches (its own, a closure's, the globals its code names) are checked; and its inputs must be values
that can be passed again (tensors, numbers, strings, dtypes ...), not iterators, generators or caches.

Observer work is kept off the calls whose durations are shown: a call is checked only when it is sampled (the first
FIRST_CHECKED calls, then calls 8, 16, 32, ...: a region that mutates state does so from its first calls), inputs are
captured only on a signature's first call (or when its capture was dropped), and regions.py marks those calls so
the steady state leaves them out. Captures hold aliases of the script's tensors within CAPTURE_BUDGET_BYTES (all
regions together); a capture over it is dropped, and the region says so when it is not measured for it.
"""

from __future__ import annotations

import contextlib
import weakref
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from ..measure.grad_mode import grad_context

FIRST_CHECKED = 4
# Inputs are held for at most this many signatures per region: the two most frequent so far and the last.
MAX_CAPTURES = 3
# Aliased input storages held for replays, all regions together (a storage shared by captures counts once each).
CAPTURE_BUDGET_BYTES = 512 * 1024 * 1024
_SAMPLED_VALUES = 16  # values of a state tensor compared before and after a checked call (changes through .data)

_optimizers: weakref.WeakSet[Any] = weakref.WeakSet()


def _reusable(value: Any) -> bool:
    import numpy as np
    import torch

    return value is None or isinstance(
        value,
        (
            torch.Tensor,
            np.ndarray,
            np.generic,
            bool,
            int,
            float,
            complex,
            str,
            bytes,
            torch.dtype,
            torch.device,
            torch.layout,
            torch.memory_format,
        ),
    )


@dataclass
class Capture:
    """One call's inputs as aliases (`detach()`: same storage, no autograd graph kept alive), their requires_grad
    flags, and the train/eval mode of every module the call ran, restored when replayed. A compiled method's `self`
    is held weakly: the capture never keeps the script's object alive."""

    signature: str
    grad_mode: str
    autocast: str | None  # e.g. "cuda float16"
    inputs: tuple[tuple[Any, ...], dict[str, Any]]
    requires_grad: list[bool]
    training: list[tuple[weakref.ref[Any], bool]]
    nbytes: int = 0
    method_self: Callable[[], Any] | None = None  # a weak reference to a compiled method's `self`

    @contextlib.contextmanager
    def context(self) -> Iterator[None]:
        """The grad mode, autocast and module.training (per submodule) the script's call ran under; the modules'
        own modes are put back after."""
        import torch

        modules = [(module, training) for ref, training in self.training if (module := ref()) is not None]
        before = [module.training for module, _ in modules]
        try:
            for module, training in modules:
                module.training = training
            with grad_context(self.grad_mode), contextlib.ExitStack() as stack:
                if self.autocast:
                    device_type, dtype = self.autocast.split(" ")
                    stack.enter_context(torch.autocast(device_type, dtype=getattr(torch, dtype)))
                yield
        finally:
            for (module, _), training in zip(modules, before, strict=True):
                module.training = training

    def gone(self) -> str | None:
        """Why the capture can no longer be replayed: the object its method ran on, or a module, was freed."""
        if self.method_self is not None and self.method_self() is None:
            return "the object its method ran on was freed by the script"
        if any(ref() is None for ref, _ in self.training):
            return "a module it ran was freed by the script"
        return None

    def arguments(self) -> tuple[tuple[Any, ...], dict[str, Any]]:
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
        if self.method_self is not None:
            args = (self.method_self(), *args)
        return args, kwargs


def capture(
    signature: str, grad: str, amp: str | None, args: tuple[Any, ...], kwargs: dict[str, Any], owner: Any, method: bool
) -> Capture:
    """method: args[0] is a compiled method's `self`, held weakly (a plain object that takes no weak reference is
    not kept either: its capture is then never replayable)."""
    import torch
    from torch.utils._pytree import tree_map

    flags: list[bool] = []
    storages: dict[tuple[int, int], int] = {}

    def alias(value: Any) -> Any:
        if isinstance(value, torch.Tensor):
            flags.append(value.requires_grad)
            if not value.is_meta:
                storage = value.untyped_storage()
                storages[(value.device.index or 0, storage.data_ptr())] = storage.nbytes()
            return value.detach()
        return value

    method_self: Callable[[], Any] | None = None
    if method and args:
        try:
            method_self = weakref.ref(args[0])
        except TypeError:  # no weak reference to it: never replayable
            method_self = _freed
        args = args[1:]
    training = [(weakref.ref(module), module.training) for module in _modules(owner)]
    inputs = tree_map(alias, (args, kwargs))
    return Capture(signature, grad, amp, inputs, flags, training, sum(storages.values()), method_self)


def _freed() -> None:
    return None


def _modules(owner: Any) -> list[Any]:
    """Every module (submodules included) a region's calls run (_region_modules)."""
    seen: dict[int, Any] = {}
    for _, root in _region_modules(owner):
        for sub in root.modules():
            seen.setdefault(id(sub), sub)
    return list(seen.values())


def _code_globals(fn: Any) -> Iterator[tuple[str, Any]]:
    """The globals a function's code (and the code nested in it) names: a model or an EMA reached as a global."""
    import types

    code, namespace = getattr(fn, "__code__", None), getattr(fn, "__globals__", None)
    if code is None or not isinstance(namespace, dict):
        return
    stack, names = [code], set()
    while stack:
        current = stack.pop()
        names.update(current.co_names)
        stack.extend(c for c in current.co_consts if isinstance(c, types.CodeType))
    for name in sorted(names):
        if name in namespace:
            yield name, namespace[name]


def _region_modules(owner: Any) -> list[tuple[str, Any]]:
    """(prefix, module) for every module a region runs on: its module (and the globals its forward names), a bound
    method's module, a method's `self`, modules a function closes over or names as globals."""
    import torch

    modules: list[tuple[str, Any]] = []
    functions: list[Any] = []
    if isinstance(owner, torch.nn.Module):
        modules.append(("", owner))
        functions.append(getattr(type(owner).forward, "__func__", type(owner).forward))
    elif callable(owner):
        bound = getattr(owner, "__self__", None)
        if isinstance(bound, torch.nn.Module):
            modules.append(("", bound))
        functions.append(getattr(owner, "__func__", owner))
        for cell in getattr(owner, "__closure__", None) or ():
            try:
                value = cell.cell_contents
            except ValueError:
                continue
            if isinstance(value, torch.nn.Module):
                modules.append((f"{type(value).__name__}.", value))
    for function in functions:
        for name, value in _code_globals(function):
            if isinstance(value, torch.nn.Module):
                modules.append((f"global {name}.", value))
    return modules


def _named_state(owner: Any) -> Iterator[tuple[str, Any]]:
    """Parameters and buffers of the modules a region runs (_region_modules), tensors held by a method's plain
    `self` and tensors its code names as globals, and those of every optimizer the script made."""
    import torch

    for opt in list(_optimizers):  # first: a changed parameter that an optimizer holds is named as its step
        for group in opt.param_groups:
            for tensor in group["params"]:
                yield f"optimizer:{type(opt).__name__}", tensor
    if not isinstance(owner, torch.nn.Module) and not callable(
        owner
    ):  # the `self` of a compiled method on a plain class
        for key, value in vars(owner).items() if hasattr(owner, "__dict__") else ():
            if isinstance(value, torch.Tensor):
                yield f"attribute {key}", value
    elif callable(owner) and not isinstance(owner, torch.nn.Module):
        for name, value in _code_globals(getattr(owner, "__func__", owner)):
            if isinstance(value, torch.Tensor):
                yield f"global {name}", value
    for prefix, module in _region_modules(owner):
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
        # as the user's code and Dynamo's guards name them, "self.calls", "self.encoder.calls" (review 10 F7:
        # "Counter.calls" beside the guard's "self.calls", one attribute)
        objects = [(f"self.{name}" if name else "self", sub) for name, sub in module.named_modules()]
    elif not callable(owner) and hasattr(owner, "__dict__"):
        objects = [(type(owner).__name__, owner)]
    else:
        return {}
    return {
        (name, key): value
        for name, obj in objects
        for key, value in vars(obj).items()
        if not key.startswith("_") and isinstance(value, (bool, int, float, str, type(None)))
    }


def _sample(tensor: Any) -> Any:
    """A few of a tensor's values, evenly spread, with where its data lives: a change through `.data` (an EMA, a
    hand-written update) moves no version counter the check could read."""
    import torch

    if tensor.layout != torch.strided or tensor.is_meta:
        return None
    try:
        with torch.no_grad():
            flat = tensor.detach().reshape(-1)
            step = max(1, flat.numel() // _SAMPLED_VALUES)
            return tensor.data_ptr(), tuple(tensor.shape), flat[::step][:_SAMPLED_VALUES].clone()
    except (RuntimeError, NotImplementedError):  # a tensor subclass without plain storage (DTensor ...)
        return None


def _same(before: Any, after: Any) -> bool:
    import torch

    if before is None or after is None:
        return before is after
    (ptr, shape, values), (ptr2, shape2, values2) = before, after
    return (
        ptr == ptr2
        and shape == shape2
        and bool(torch.equal(values, values2) or ((values == values2) | (values.isnan() & values2.isnan())).all())
    )


def _initializing(owner: Any) -> bool:
    """A lazy module before its first call: its parameters are not there yet (reading them raises), and the call that
    creates them changes its state once, as no later call does."""
    from torch.nn.parameter import is_lazy

    return any(is_lazy(t) for _, t in _named_state(owner))


class StateCheck:
    """Versions of everything a call could change, taken before the call and compared after it."""

    def __init__(self, owner: Any, inputs: list[tuple[str | None, Any]]) -> None:
        import torch

        self.owner = owner
        self.inputs = [
            (i, v, v._version)
            for i, (_, v) in enumerate(inputs)
            if isinstance(v, torch.Tensor) and not v.is_inference()
        ]
        self.state = [(name, t, t._version, _sample(t)) for name, t in _named_state(owner) if not t.is_inference()]
        self.attributes = _python_attributes(owner)

    def changes(self) -> str | None:
        """Why replaying is unsafe, from what this call changed; None when it changed nothing."""
        change = self._change()
        return f"{change}, so running it again would change the script's state" if change else None

    def _change(self) -> str | None:
        for name, tensor, version, sample in self.state:
            if tensor._version != version or not _same(sample, _sample(tensor)):
                if name.startswith("optimizer:"):
                    return f"it runs an optimizer step ({name.split(':', 1)[1]}'s parameters changed during a call)"
                how = (
                    ""
                    if tensor._version != version
                    else " (through .data or in compiled code: no version counter shows it)"
                )
                return f"it changes its {name} in place{how}"
        for index, tensor, version in self.inputs:
            if tensor._version != version:
                return f"it changes its input {index + 1} in place"
        after = _python_attributes(self.owner)
        for (module, key), value in self.attributes.items():
            if after.get((module, key), value) != value:
                return f"it changes the Python attribute {module}.{key} ({value!r} → {after[(module, key)]!r})"
        return None


def sampled(index: int) -> bool:
    """Whether call `index` of a region carries the state check: the first FIRST_CHECKED calls, then calls 8, 16,
    32, ... (index + 1 a power of two)."""
    return index < FIRST_CHECKED or (index + 1) & index == 0


@dataclass
class CaptureBudget:
    """Bytes of the script's storages that captures hold, all regions together."""

    limit: int = CAPTURE_BUDGET_BYTES
    used: int = 0


def megabytes(nbytes: int) -> str:
    return f"{nbytes / 2**20:.0f} MB" if nbytes >= 2**20 else f"{nbytes / 1024:.0f} KB"


class ReplayInputs:
    """Per region: the captured inputs of candidate signatures (the two most frequent so far and the last) and the
    first reason it cannot be replayed."""

    def __init__(self, budget: CaptureBudget | None = None) -> None:
        self.captures: dict[str, Capture] = {}
        self.frequent: list[str] = []  # the MAX_CAPTURES - 1 most frequent signatures so far
        self.ran_compiled: set[str] = set()  # signatures at which a call ran compiled code
        self.ran_eagerly: set[str] = set()  # signatures at which a call ran the region's code uncompiled
        self.unsafe: str | None = None
        self.over_budget: dict[str, int] = {}  # signature -> bytes of a capture dropped for the budget
        self.budget = budget or CaptureBudget()

    def check(self, owner: Any, leaves: list[tuple[str | None, Any]], index: int) -> StateCheck | None:
        """A StateCheck for a sampled call while nothing disqualified the region."""
        for name, value in leaves:
            if not _reusable(value) and self.unsafe is None:
                where = f"input {name}" if name else "an input"
                self.unsafe = f"{where} is a {type(value).__name__}, which cannot be safely passed again"
                self.release()
        if self.unsafe is not None or not sampled(index) or _initializing(owner):
            return None
        return StateCheck(owner, leaves)

    def after(self, check: StateCheck | None) -> None:
        if check is not None and self.unsafe is None:
            self.unsafe = check.changes()
            if self.unsafe is not None:
                self.release()

    def wants(self, signature: str) -> bool:
        """Whether this call's inputs are to be captured: its signature has none (and none was dropped for the
        budget): so only a signature's first call carries the capture."""
        return self.unsafe is None and signature not in self.captures and signature not in self.over_budget

    def note(self, counts: Mapping[str, int], signature: str, ran_compiled: bool | None) -> None:
        """After every call: the most frequent signatures so far, kept up to date in O(1) (only this signature's count
        changed), and captures no longer among the candidates dropped. Among equally frequent ones the first dropped
        is one no call ran compiled code at (past the recompile limit: replay.chosen_signatures passes it over), then
        the oldest."""
        if ran_compiled is not None:
            (self.ran_compiled if ran_compiled else self.ran_eagerly).add(signature)
        if signature not in self.frequent:
            self.frequent.append(signature)
            if len(self.frequent) > MAX_CAPTURES - 1:
                self.frequent.remove(min(self.frequent, key=lambda s: (counts[s], s in self.ran_compiled)))
        for old in [s for s in self.captures if s not in self.frequent and s != signature]:
            self._drop(old)

    def keep(self, new: Capture) -> None:
        """Holds `new` within the budget; over it, the capture is dropped and remembered (not_measured_reason says so)."""
        if self.unsafe is not None:
            return
        if self.budget.used + new.nbytes > self.budget.limit:
            self.over_budget[new.signature] = new.nbytes
            return
        self.budget.used += new.nbytes
        self.captures[new.signature] = new

    def missing(self, signature: str) -> str:
        """Why the inputs of `signature` are not held."""
        if signature in self.over_budget:
            return (
                f"the inputs of {signature} ({megabytes(self.over_budget[signature])}) were not kept: Compile Lens "
                f"holds at most {megabytes(self.budget.limit)} of the script's tensors for replays"
            )
        return f"the inputs of {signature} were not kept"

    def _drop(self, signature: str) -> None:
        self.budget.used -= self.captures.pop(signature).nbytes

    def only(self, signatures: list[str]) -> None:
        """Keeps the inputs of the signatures to be measured, drops the rest."""
        for signature in [s for s in self.captures if s not in signatures]:
            self._drop(signature)

    def release(self) -> None:
        """Drops every capture: the region was measured, cannot be, or the script let it go."""
        self.only([])

    def give_up(self, exc: Exception) -> None:
        """The observer could not check or capture a call (an input or state it cannot read): not replayed, said why."""
        if self.unsafe is None:
            first = str(exc).split("\n", 1)[0][:200]
            self.unsafe = f"Compile Lens could not check its calls' state ({type(exc).__name__}: {first}), so it does not replay them"
        self.release()


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
