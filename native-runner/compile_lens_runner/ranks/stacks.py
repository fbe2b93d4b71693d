"""Where each rank was when the job hung: its Python stacks (faulthandler, dumped on SIGUSR1 — also while the rank is
blocked inside a collective) read into one sentence, e.g. "rank 1 is waiting in all_reduce at train.py:42; rank 0
never reached it (it is at train.py:50)"."""

from __future__ import annotations

import os
import re

from ..compiler.user_code import is_user_file, location
from ..formats import rank_list
from ..shapes.common import SourceLocation
from ..shapes.ranks import RankStack

_THREAD = re.compile(r"^(Current thread|Thread) 0x[0-9a-f]+")
_FRAME = re.compile(r'^\s*File "(?P<file>[^"]+)", line (?P<line>\d+) in (?P<fn>\S+)')
_DISTRIBUTED = f"{os.sep}torch{os.sep}distributed{os.sep}"
_GENERIC = {"wrapper", "inner", "_fn", "decorate_context", "__call__", "_call_impl", "_wrapped_call_impl"}


def threads(text: str) -> list[tuple[bool, list[SourceLocation]]]:
    """(is the current thread, frames most recent first) per thread of a faulthandler dump."""
    out: list[tuple[bool, list[SourceLocation]]] = []
    for line in text.splitlines():
        head = _THREAD.match(line)
        if head:
            out.append((head[1] == "Current thread", []))
            continue
        frame = _FRAME.match(line)
        if frame and out:
            out[-1][1].append({"file": frame["file"], "line": int(frame["line"]), "function": frame["fn"]})
    return out


def main_thread(text: str) -> list[SourceLocation]:
    """The main thread's frames: the one started by `python -m` (runpy at its bottom), else the current one."""
    found = threads(text)
    for _, frames in found:
        if frames and frames[-1].get("function") == "_run_module_as_main":
            return frames
    return next((frames for current, frames in found if current), found[0][1] if found else [])


def state(frames: list[SourceLocation]) -> RankStack:
    """{waitingIn: the torch.distributed call the rank is blocked in, or None; location: its innermost user line}."""
    user = next((f for f in frames if is_user_file(f["file"])), None)
    above_user = frames[: frames.index(user)] if user else frames
    dist = [f for f in above_user if _DISTRIBUTED in f["file"]]
    named = next(
        (f for f in reversed(dist) if (fn := f.get("function") or "") not in _GENERIC and not fn.startswith("_")), None
    )
    waiting = named or (dist[0] if dist else None)
    return {
        "waitingIn": waiting.get("function") if waiting else None,
        "location": location(user["file"], user["line"], user.get("function")) if user else None,
    }


def _at(loc: SourceLocation | None) -> str:
    return f"{os.path.basename(loc['file'])}:{loc['line']}" if loc else "an unknown line"


def hang_sentence(states: dict[int, RankStack | None]) -> str | None:
    """One sentence for the ranks' states (None: a rank whose stack could not be read)."""
    if not states:
        return None
    silent = [r for r, s in states.items() if s is None]
    known = {r: s for r, s in states.items() if s is not None}
    waiting = {r: s for r, s in known.items() if s["waitingIn"]}
    elsewhere = {r: s for r, s in known.items() if not s["waitingIn"]}
    parts: list[str] = []
    places: dict[tuple[str | None, str], list[int]] = {}  # (the call waited in, where)
    for rank, s in waiting.items():
        places.setdefault((s["waitingIn"], _at(s["location"])), []).append(rank)
    for (call, at), ranks in places.items():
        verb = "is" if len(ranks) == 1 else "are"
        parts.append(f"{rank_list(ranks)} {verb} waiting in {call} at {at}")
    if waiting and elsewhere:
        if len(elsewhere) == 1:
            where = f"it is at {_at(next(iter(elsewhere.values()))['location'])}"
        else:
            where = ", ".join(f"{rank_list([r])} is at {_at(s['location'])}" for r, s in sorted(elsewhere.items()))
        never = "never reached it" if len(places) == 1 else f"{'is' if len(elsewhere) == 1 else 'are'} in none of them"
        parts[-1] += f"; {rank_list(elsewhere)} {never} ({where})"
    elif waiting and len(places) > 1:
        parts[-1] += ": the ranks wait in different collectives"
    elif not waiting and elsewhere:
        parts.append(
            "no rank was waiting in a collective: "
            + "; ".join(f"{rank_list([r])} is at {_at(s['location'])}" for r, s in sorted(elsewhere.items()))
        )
    if silent:
        parts.append(f"{rank_list(silent)} did not answer the request for its Python stack")
    return "; ".join(parts) + "."
