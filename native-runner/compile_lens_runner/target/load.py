"""Loads what to profile (a built-in sample or the user's FILE:FN) and says how to call it eagerly and compiled."""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..errors import RunnerError, classify
from ..shapes.report import Target as TargetEntry
from .samples import NAMES as SAMPLE_NAMES

GRAD_MODES = ("inference", "no_grad", "grad")
TARGET_KEYS = {
    "model",
    "inputs",
    "warmup_inputs",
    "compile_attr",
    "grad_mode",
    "warmup_grad_mode",
    "train",
    "loss_fn",
    "optimizer",
    "dynamic",
    "backend",
}


@dataclass
class Target:
    kind: str
    name: str
    file: str | None
    function: str | None
    line: int | None
    model: Any
    inputs: tuple[Any, ...]
    warmup_inputs: tuple[Any, ...] | None = None
    compile_attr: str | None = None
    grad_mode: str = "inference"
    warmup_grad_mode: str | None = None
    train: bool = False
    loss_fn: Callable[[Any], Any] | None = None
    optimizer: Any = None
    overrides: dict[str, Any] = field(default_factory=dict)  # the target's own torch.compile options (dynamic, backend)

    def describe(self) -> TargetEntry:
        return {"kind": self.kind, "name": self.name, "file": self.file, "function": self.function, "line": self.line}


def _module_to(obj: Any, device: str) -> Any:
    import torch

    if isinstance(obj, torch.nn.Module):
        return obj.to(device)
    return obj


def _inputs_to(inputs: tuple[Any, ...], device: str) -> tuple[Any, ...]:
    import torch
    from torch.utils._pytree import tree_map

    moved: tuple[Any, ...] = tree_map(lambda v: v.to(device) if isinstance(v, torch.Tensor) else v, inputs)
    return moved


def _as_tuple(value: Any, what: str) -> tuple[Any, ...]:
    if value is None:
        raise RunnerError(
            "bad-target",
            f"The target returned no {what}.",
            "Return (model, example_inputs) or a dict with 'model' and 'inputs'.",
        )
    return value if isinstance(value, tuple) else tuple(value) if isinstance(value, list) else (value,)


def _from_returned(value: Any, base: dict[str, Any], device: str, moved: bool) -> Target:
    if isinstance(value, dict):
        unknown = set(value) - TARGET_KEYS
        if unknown:
            raise RunnerError(
                "bad-target",
                f"The target's dict has unknown keys: {', '.join(sorted(unknown))}.",
                f"Use only: {', '.join(sorted(TARGET_KEYS))}.",
            )
        spec = dict(value)
    elif isinstance(value, tuple) and len(value) == 2:
        spec = {"model": value[0], "inputs": value[1]}
    else:
        raise RunnerError(
            "bad-target",
            f"The target returned {type(value).__name__}, not (model, example_inputs) or a dict.",
            "Return (model_or_callable, example_inputs_tuple) or {'model': ..., 'inputs': (...)}.",
        )
    model = spec.get("model")
    if model is None or not callable(model):
        raise RunnerError(
            "bad-target",
            "The target's model is missing or not callable.",
            "Return an nn.Module or a function as the model.",
        )
    inputs = _as_tuple(spec.get("inputs"), "inputs")
    warmup = _as_tuple(spec["warmup_inputs"], "warmup inputs") if spec.get("warmup_inputs") is not None else None
    if not moved:
        model = _module_to(model, device)
        inputs = _inputs_to(inputs, device)
        warmup = _inputs_to(warmup, device) if warmup is not None else None
    train = bool(spec.get("train", False))
    # numpy code compiled under inference_mode fails Dynamo's own guard check (torch 2.13: "Guard failed on the
    # same frame it was created"), so numpy targets default to no_grad.
    takes_numpy = any(type(v).__module__ == "numpy" for v in inputs)
    grad_mode = spec.get("grad_mode", "grad" if train else "no_grad" if takes_numpy else "inference")
    for key in ("grad_mode", "warmup_grad_mode"):
        if spec.get(key) is not None and spec[key] not in GRAD_MODES:
            raise RunnerError("bad-target", f"{key} is {spec[key]!r}.", f"Use one of: {', '.join(GRAD_MODES)}.")
    compile_attr = spec.get("compile_attr")
    if compile_attr is not None:
        _resolve_attr(model, compile_attr)
    overrides = {k: spec[k] for k in ("dynamic", "backend") if k in spec}
    return Target(
        model=model,
        inputs=inputs,
        warmup_inputs=warmup,
        compile_attr=compile_attr,
        grad_mode=grad_mode,
        warmup_grad_mode=spec.get("warmup_grad_mode"),
        train=train,
        loss_fn=spec.get("loss_fn"),
        optimizer=spec.get("optimizer"),
        overrides=overrides,
        **base,
    )


def _resolve_attr(root: Any, path: str) -> tuple[Any, str]:
    *parents, last = path.split(".")
    obj = root
    try:
        for name in parents:
            obj = getattr(obj, name)
        getattr(obj, last)
    except AttributeError as exc:
        raise RunnerError(
            "bad-target",
            f"compile_attr {path!r} does not exist on the model: {exc}.",
            "Name an attribute path of the model object, e.g. 'transformer' for pipe.transformer.",
        ) from None
    return obj, last


def _call_builder(fn: Callable[..., Any], device: str) -> tuple[Any, bool]:
    """Calls the user's builder, passing `device` when it takes one (then it places tensors itself)."""
    takes_device = "device" in inspect.signature(fn).parameters
    return (fn(device=device) if takes_device else fn()), takes_device


def load_sample(name: str, device: str) -> Target:
    if name not in SAMPLE_NAMES:
        raise RunnerError("bad-target", f"Unknown sample {name!r}.", f"Use one of: {', '.join(SAMPLE_NAMES)}.")
    module = importlib.import_module(f"{__package__}.samples.{name}")
    value = module.build(device)
    cls = type(value["model"])
    file = inspect.getsourcefile(cls) or str(module.__file__)
    line = inspect.getsourcelines(cls)[1]
    base = {"kind": "sample", "name": name, "file": os.path.abspath(file), "function": cls.__name__, "line": line}
    return _from_returned(value, base, device, moved=True)


def parse_target_spec(spec: str) -> tuple[str, str]:
    path, sep, fn = spec.rpartition(":")
    if not sep or not path or not fn.isidentifier():
        raise RunnerError(
            "bad-target", f"--target {spec!r} is not FILE:FUNCTION.", "Pass e.g. --target models/net.py:build"
        )
    return os.path.abspath(path), fn


def import_file(path: str, module_name: str) -> Any:
    if not os.path.isfile(path):
        raise RunnerError(
            "bad-target", f"Target file not found: {path}", "Check the path (relative to the working directory)."
        )
    sys.path.insert(0, os.path.dirname(path))
    spec = importlib.util.spec_from_file_location(module_name, path)
    if spec is None or spec.loader is None:
        raise RunnerError("bad-target", f"Cannot import {path} as Python.", "Point --target at a .py file.")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as exc:  # the user's module raised on import
        raise classify(exc, f"importing {os.path.basename(path)}") from None
    return module


def load_function_target(spec: str, device: str) -> Target:
    path, fn_name = parse_target_spec(spec)
    module = import_file(path, "compile_lens_target")
    fn = getattr(module, fn_name, None)
    if not callable(fn):
        raise RunnerError(
            "bad-target",
            f"{os.path.basename(path)} has no function {fn_name!r}.",
            f"Define def {fn_name}(): return model, (example_input,) in {path}.",
        )
    try:
        value, moved = _call_builder(fn, device)
    except Exception as exc:
        raise classify(exc, f"calling {fn_name}() to build the target") from None
    line = inspect.getsourcelines(fn)[1] if inspect.isfunction(fn) else None
    base = {
        "kind": "function",
        "name": f"{os.path.splitext(os.path.basename(path))[0]}-{fn_name}",
        "file": path,
        "function": fn_name,
        "line": line,
    }
    return _from_returned(value, base, device, moved)


class Variant:
    """One way to run the target: eagerly, or with `compiled` swapped in (whole model or one attribute)."""

    def __init__(self, target: Target, compiled: Any | None) -> None:
        self.target = target
        self.compiled = compiled
        self._optimizer = target.optimizer
        if target.compile_attr:
            self._parent, self._attr = _resolve_attr(target.model, target.compile_attr)
            self._original = getattr(self._parent, self._attr)

    def activate(self) -> None:
        """Installs this variant; called outside timed regions so swapping costs nothing per call."""
        if self.target.compile_attr:
            setattr(self._parent, self._attr, self.compiled if self.compiled is not None else self._original)

    def compile_target(self) -> Any:
        """What torch.compile is applied to: the model, or the original object at compile_attr."""
        return self._original if self.target.compile_attr else self.target.model

    def forward(self, inputs: tuple[Any, ...]) -> Any:
        if self.compiled is not None and not self.target.compile_attr:
            return self.compiled(*inputs)
        return self.target.model(*inputs)

    def call(self, inputs: tuple[Any, ...]) -> Any:
        """One timed call: the forward pass, or a whole training step when the target trains."""
        out = self.forward(inputs)
        if not self.target.train:
            return out
        loss = self.target.loss_fn(out) if self.target.loss_fn else _first_tensor(out).float().mean()
        loss.backward()
        if self._optimizer is None:
            import torch

            self._optimizer = torch.optim.SGD(self.target.model.parameters(), lr=1e-4)
        self._optimizer.step()
        self._optimizer.zero_grad(set_to_none=True)
        return loss


def _first_tensor(value: Any) -> Any:
    import torch
    from torch.utils._pytree import tree_leaves

    for leaf in tree_leaves(value):
        if isinstance(leaf, torch.Tensor):
            return leaf
    raise RunnerError(
        "bad-target",
        "Training step: the model's output holds no tensor to take a loss of.",
        "Return a tensor from the model, or give 'loss_fn' in the target dict.",
    )


def describe_inputs(inputs: tuple[Any, ...] | None) -> str:
    """Inputs in a few words: dtype and shape of each tensor or array, else its type."""
    import torch

    def one(value: Any) -> str:
        if isinstance(value, torch.Tensor):
            return f"{str(value.dtype).removeprefix('torch.')}{list(value.shape)}"
        if hasattr(value, "shape") and hasattr(value, "dtype"):
            return f"ndarray {value.dtype}{list(value.shape)}"
        return type(value).__name__

    return ", ".join(one(v) for v in inputs or ())
