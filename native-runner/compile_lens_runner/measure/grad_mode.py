"""The autograd mode a call runs in, by name: "inference", "no_grad" or "grad"."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator


@contextlib.contextmanager
def grad_context(mode: str) -> Iterator[None]:
    import torch

    ctx = {"inference": torch.inference_mode, "no_grad": torch.no_grad, "grad": torch.enable_grad}[mode]()
    with ctx:
        yield
