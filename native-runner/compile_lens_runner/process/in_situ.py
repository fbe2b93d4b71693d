"""How a script is measured in situ, and the separate in-situ runs for a torch without `torch.compiler.set_stance`.

With torch >= 2.6 the observed run is the measurement (`interleaved`: measure/interleaved.py), and nothing runs here.
On an older torch (`separate-runs`, labelled so in the report): before the observed run, the unmodified script
runs as separate worker processes, once as written ("compiled") and once with compiling turned off ("eager"), with
the same argv, environment and seeds (script/in_situ_run.py). When a region's step speedup from that pair cannot
support a verdict yet (measure/in_situ.needs_another_pair), the pair runs again, the order alternating (eager first in
even pairs); up to in_situ.MAX_PAIRS while too few pairs ran both of their runs at the host CPU's fastest state.
Each --modes mode other than the script's own runs once more as a compiled run with every torch.compile set to it.

The runs write `in_situ/<side>-<pair>[-<mode>].json` in the report directory; the observed worker reads them
(script/in_situ_report.py). Imports no torch.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable
from typing import Any

from ..measure import in_situ
from ..report import document

FOLDER = "in_situ"
# With --timeout T, the in-situ runs stop once they have used this share of T: a script that hangs must leave the
# observed run the time to say where (its ranks' stacks under torchrun).
TIMEOUT_SHARE = 0.5
# Run with the same hash seed both ways (the script's own seeds are its own): set iff the user did not set one.
HASH_SEED = "0"

# torch.compiler.set_stance came with torch 2.6
STANCE_TORCH = (2, 6)


def _torch_version() -> tuple[int, int] | None:
    """The installed torch's (major, minor), read from its package metadata (the supervisor imports no torch)."""
    from importlib import metadata

    try:
        major, minor = metadata.version("torch").split(".")[:2]
        return int(major), int(minor)
    except (metadata.PackageNotFoundError, ValueError):
        return None


def method(spec: dict[str, Any]) -> str | None:
    """ "interleaved", "separate-runs", or None (not a script, or --no-in-situ)."""
    if "script" not in spec["target"] or not spec.get("inSituRuns", True):
        return None
    version = _torch_version()
    return "separate-runs" if version is not None and version < STANCE_TORCH else "interleaved"


class OutOfTime(Exception):
    """The in-situ runs used their share of --timeout: the run in progress was ended, no more are started."""


Spawn = Callable[[list[str], dict[str, str], str], "int | None"]  # (command, env, label) -> exit code, None if stopped


def run_file(folder: str, side: str, pair: int, mode: str | None = None) -> str:
    return os.path.join(folder, f"{side}-{pair}" + (f"-{mode}" if mode else "") + ".json")


def env_for(env: dict[str, str]) -> dict[str, str]:
    """The worker's environment without the compiler's log (it slows compiling and is read from the observed run)."""
    out = {k: v for k, v in env.items() if k not in ("TORCH_TRACE", "INDUCTOR_PROVENANCE")}
    out.setdefault("PYTHONHASHSEED", HASH_SEED)
    return out


def _spawn_one(
    spec: dict[str, Any],
    folder: str,
    side: str,
    pair: int,
    mode: str | None,
    label: str,
    command: Callable[[str], list[str]],
    env: dict[str, str],
    spawn: Spawn,
) -> int | None:
    out = run_file(folder, side, pair, mode)
    spec_path = out.replace(".json", ".spec.json")
    nproc = int(spec.get("nprocPerNode") or 1)
    job = out.replace(".json", ".job")  # a torchrun job's rank folders, for this run only
    light = dict(spec, inSitu={"side": side, "pair": pair, "mode": mode, "out": out, "label": label})
    if nproc > 1:
        light["workdir"] = job
        os.makedirs(job, exist_ok=True)
    with open(spec_path, "w", encoding="utf-8") as f:
        json.dump(light, f)
    try:
        return spawn(command(spec_path), env, label)
    finally:
        os.remove(spec_path)
        if nproc > 1:
            _merge_ranks(out, nproc)
            shutil.rmtree(job, ignore_errors=True)


def rank_file(out: str, rank: int) -> str:
    return out.replace(".json", f".rank{rank}.json")


def _merge_ranks(out: str, nproc: int) -> None:
    """A torchrun run's ranks wrote one file each: the run is their slowest rank, call by call."""
    ranks = [document.read(rank_file(out, k)) for k in range(nproc)]
    if any(not isinstance(r, dict) for r in ranks):
        return  # a rank wrote nothing: the run counts as not completed
    with open(out, "w", encoding="utf-8") as f:
        json.dump(in_situ.slowest_rank([r for r in ranks if isinstance(r, dict)]), f)
    for k in range(nproc):
        os.remove(rank_file(out, k))


def _read(folder: str, side: str, pair: int, mode: str | None = None) -> dict[str, Any] | None:
    """A run's timings file (script/in_situ_run.py): the runner's own, no part of the report."""
    data = document.read(run_file(folder, side, pair, mode))
    return data if isinstance(data, dict) else None


def another_pair(folder: str, pairs: int) -> str | None:
    """Why another pair is needed (the first region that needs one), from the pairs run so far; None if none is."""
    compiled = [_read(folder, "compiled", k) for k in range(1, pairs + 1)]
    eager = [_read(folder, "eager", k) for k in range(1, pairs + 1)]
    if any(r is None for r in compiled + eager):
        return None  # a run wrote nothing (it was killed): the report says so, repeating would not help
    for region_id, result in in_situ.compare_runs(
        [c for c in compiled if c is not None], [e for e in eager if e is not None]
    ).items():
        why = in_situ.needs_another_pair(result)
        if why:
            return f"{region_id}: {why}"
    return None


def run(
    spec: dict[str, Any], workdir: str, command: Callable[[str], list[str]], env: dict[str, str], spawn: Spawn
) -> bool:
    """Runs the in-situ runs; False when the job was stopped (cancel, timeout) meanwhile."""
    folder = os.path.join(workdir, FOLDER)
    os.makedirs(folder, exist_ok=True)
    try:
        return _run(spec, folder, command, env, spawn)
    except OutOfTime as out:
        _write_plan(folder, [], None, str(out))
        return True


def _write_plan(folder: str, order: list[tuple[str, int]], repeat_why: str | None, stopped: str | None = None) -> None:
    with open(os.path.join(folder, "plan.json"), "w", encoding="utf-8") as f:
        json.dump(
            {"order": [f"{s}-{p}" for s, p in order], "repeatedBecause": repeat_why, "stoppedBecause": stopped}, f
        )


def _run(
    spec: dict[str, Any], folder: str, command: Callable[[str], list[str]], env: dict[str, str], spawn: Spawn
) -> bool:
    light_env = env_for(env)
    order = [("compiled", 1), ("eager", 1)]
    repeat_why = None
    done = 0
    while done < len(order):
        side, pair = order[done]
        label = f"{side}, pair {pair}" + (" (compiling off)" if side == "eager" else " (as written)")
        if _spawn_one(spec, folder, side, pair, None, label, command, light_env, spawn) is None:
            return False
        done += 1
        if done == len(order) and pair < in_situ.MAX_PAIRS:
            repeat_why = another_pair(folder, pair)
            if repeat_why:  # alternate the order: eager first in even pairs
                sides = ["eager", "compiled"] if pair % 2 else ["compiled", "eager"]
                order += [(s, pair + 1) for s in sides]
    own = {r["options"]["mode"] for r in (_read(folder, "compiled", 1) or {}).get("regions") or []}
    for mode in spec.get("whatIfModes") or []:
        if own == {mode}:
            continue  # every region's own mode: the pair measured it
        if (
            _spawn_one(spec, folder, "compiled", 1, mode, f"compiled with mode={mode}", command, light_env, spawn)
            is None
        ):
            return False
    _write_plan(folder, order, repeat_why)
    return True
