"""What a region holds of the script's objects, and for how long: only while the script holds them too.

A region holds strongly only what replaying it needs: torch's compiled callable (for torch.compile(module), the
instance `forward` torch set on its OptimizedModule: exactly what the module's calls ran; for a function, torch's
compiled function), the original callable and its owner (the module or function whose state it runs on). The
*handle* (what torch.compile returned to the script: the OptimizedModule, or regions.py's wrapper of a function) is
held weakly, with a callback: when the script drops it (`del model, fast`, a sweep's next model, `main()` returning),
regions.py measures the region at once, at a safe point (or at the next one), then releases all of it, so the
script gets its memory back as it would without Compile Lens and the region is still measured.

A region whose handle the script cannot drop on its own is not told so: nn.Module.compile() stores the compiled
callable in the module itself, and a lazy module's OptimizedModule holds its own `forward`. Those, and any region
whose objects sit in a reference cycle with its handle, keep the release points: each time the script calls
torch.compile every region's strong references are let go, a garbage collection runs, and what survived (the script
still holds it) is held again; what the script dropped is freed then, with its captured inputs, and such a region
says why it was not replayed. After a region is measured it is released for good.
"""

from __future__ import annotations

import gc
import weakref
from collections.abc import Callable
from typing import Any

FREED = (
    "the script let go of it before the end, and Compile Lens keeps no model or function alive that the script dropped"
)


def _weak(value: Any) -> Callable[[], Any]:
    """A weak reference (WeakMethod for a bound method, which is made afresh on each attribute access); a value that
    takes none (a builtin) is held strongly: it is no user's model."""
    try:
        return (
            weakref.WeakMethod(value)
            if hasattr(value, "__self__") and hasattr(value, "__func__")
            else weakref.ref(value)
        )
    except TypeError:
        return lambda: value


class Held:
    """A region's references to the script's objects by name (compiled, eager, owner), strong until released, and
    (`watch`) the script's handle, weakly."""

    def __init__(self, **values: Any) -> None:
        self._strong: dict[str, Any] | None = dict(values)
        self._weak = {name: _weak(value) for name, value in values.items()}
        self.released = False
        self.dropped = False  # the script dropped its handle
        self._handle: weakref.ref[Any] | None = None

    def watch(self, handle: Any, on_drop: Callable[[], None]) -> None:
        """Runs on_drop when the script drops `handle` (what torch.compile returned to it), wherever that happens."""

        def dropped(_: Any) -> None:
            self.dropped = True
            on_drop()

        self._handle = weakref.ref(handle, dropped)

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
    """A release point: lets go of every strong reference, collects garbage (models in reference cycles too), and
    holds again what the script still holds; returns those that were freed."""
    live = [h for h in held if not h.released]
    if not live:
        return []
    for h in live:
        h.loosen()
    gc.collect()
    return [h for h in live if not h.retake()]
