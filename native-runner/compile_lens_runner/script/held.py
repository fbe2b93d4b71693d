"""What a region holds of the script's objects (the callable torch.compile returned, the original, its module), and
for how long: only while the script holds them too.

A region needs its callable and module after the script ends, to replay them; but a sweep or a notebook that builds
models one after another and drops each must get their memory back as it would without Compile Lens. So the
references are strong (a model built in `main()` is still there to measure when the script returns) until a release
point: each time the script calls torch.compile (the sweep's next model) every region's strong references are let
go, a garbage collection runs, and what survived (the script still holds it) is held again. What the script dropped
is freed then, with its captured inputs; such a region says why it was not replayed. After a region is measured,
mode.py releases it for good.
"""
from __future__ import annotations

import gc
import weakref
from typing import Any, Callable

FREED = "the script let go of it before the end, and Compile Lens keeps no model or function alive that the script dropped"


def _weak(value: Any) -> Callable[[], Any]:
    """A weak reference (WeakMethod for a bound method, which is made afresh on each attribute access); a value that
    takes none (a builtin) is held strongly: it is no user's model."""
    try:
        return weakref.WeakMethod(value) if hasattr(value, "__self__") and hasattr(value, "__func__") else weakref.ref(value)
    except TypeError:
        return lambda: value


class Held:
    """A region's references to the script's objects by name (compiled, eager, owner), strong until released."""

    def __init__(self, **values: Any) -> None:
        self._strong: dict[str, Any] | None = dict(values)
        self._weak = {name: _weak(value) for name, value in values.items()}
        self.released = False

    def get(self, name: str) -> Any:
        return self._strong[name] if self._strong is not None else self._weak[name]()

    def loosen(self) -> None:
        self._strong = None

    def retake(self) -> bool:
        """Holds strongly again what is still alive; False (and released for good) when any of it was freed."""
        values = {name: ref() for name, ref in self._weak.items()}
        if any(value is None for value in values.values()):
            self.release()
            return False
        self._strong = values
        return True

    def release(self) -> None:
        self._strong = None
        self.released = True


def release_dropped(held: list[Held]) -> list[Held]:
    """Lets go of every strong reference, collects garbage (models in reference cycles too), and holds again what
    the script still holds; returns those that were freed."""
    live = [h for h in held if not h.released]
    if not live:
        return []
    for h in live:
        h.loosen()
    gc.collect()
    return [h for h in live if not h.retake()]
