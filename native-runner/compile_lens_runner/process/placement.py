"""Where a run's report folder goes: the default folder under .compile-lens/runs, whether `--out` may be used, and
moving the finished work directory into place.

First, do no harm: a folder is replaced only when it is empty or is a report this runner wrote, told by the marker
file it writes into every report folder (MARKER: the names the folder held when it was placed). A folder holding
anything else (the user's files, or files added to a report since) is refused before the run starts, and a folder
that changed during the run gets the run in a new sibling folder instead.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import shutil
import tempfile

MARKER = ".compile-lens-report"
_MARKER_KIND = "compile-lens-report"
_NAMED = 3  # foreign names quoted in a refusal


def default_out_dir(name: str) -> str:
    stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    return _unused(os.path.abspath(os.path.join(".compile-lens", "runs", f"{name}-{stamp}")))


def _unused(path: str) -> str:
    target, n = path, 1
    while os.path.lexists(target):
        n += 1
        target = f"{path}-{n}"
    return target


def _marked_entries(folder: str) -> set[str] | None:
    """The names a report folder held when this runner placed it; None when it has no (valid) marker."""
    try:
        with open(os.path.join(folder, MARKER), encoding="utf-8") as f:
            marker = json.load(f)
    except (OSError, ValueError):
        return None
    if (
        not isinstance(marker, dict)
        or marker.get("kind") != _MARKER_KIND
        or not isinstance(marker.get("entries"), list)
    ):
        return None
    return {str(name) for name in marker["entries"]}


def refusal(out_dir: str) -> str | None:
    """Why `out_dir` must not be replaced by a report; None when it is absent, empty, or a report this runner wrote
    and nobody has added to since."""
    if not os.path.lexists(out_dir):
        return None
    if os.path.islink(out_dir) or not os.path.isdir(out_dir):
        return (
            f"--out {out_dir} exists and is not a folder: Compile Lens writes a report folder there and never "
            "replaces a file. Choose a new folder (or an empty one)."
        )
    entries = sorted(os.listdir(out_dir))
    if not entries:
        return None
    marked = _marked_entries(out_dir)
    foreign = [name for name in entries if marked is None or (name not in marked and name != MARKER)]
    if not foreign:
        return None
    shown = ", ".join(foreign[:_NAMED]) + (f" and {len(foreign) - _NAMED} more" if len(foreign) > _NAMED else "")
    what = (
        "is not a Compile Lens report folder"
        if marked is None
        else "is a Compile Lens report folder with files the runner did not write"
    )
    return (
        f"--out {out_dir} {what} (it holds {shown}): a run replaces its --out folder, and Compile Lens never "
        f"deletes files it did not write. Choose a new or empty folder, e.g. --out {os.path.join(out_dir, 'compile-lens-report')}."
    )


def _mark(workdir: str) -> None:
    entries = sorted(name for name in os.listdir(workdir) if name != MARKER)
    with open(os.path.join(workdir, MARKER), "w", encoding="utf-8") as f:
        json.dump({"kind": _MARKER_KIND, "entries": entries}, f)


TOOL_FOLDER = ".compile-lens"


def make_tool_folder(out_dir: str) -> None:
    """Creates the .compile-lens folder holding out_dir, git-ignored by a `.gitignore` of `*` inside it, when it does
    not exist yet; one that exists (the user's, maybe committed on purpose) is left as it is."""
    folder = os.path.dirname(os.path.dirname(out_dir))
    if os.path.basename(folder) != TOOL_FOLDER or os.path.exists(folder):
        return
    os.makedirs(folder)
    with open(os.path.join(folder, ".gitignore"), "w", encoding="utf-8") as f:
        f.write("# Compile Lens reports (written by the tool); delete this file to commit them.\n*\n")


def place(workdir: str, out_dir: str, failed: bool) -> str:
    """A successful run replaces out_dir when that is allowed (refusal); a failed one never replaces an existing
    report, and neither replaces a folder that is not one: they get a new sibling folder."""
    _mark(workdir)
    if not os.path.lexists(out_dir):
        os.rename(workdir, out_dir)
        return out_dir
    if failed or refusal(out_dir) is not None:
        stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
        target = _unused(f"{out_dir}-{'failed' if failed else 'new'}-{stamp}")
        os.rename(workdir, target)
        return target
    old = tempfile.mkdtemp(prefix=f".{os.path.basename(out_dir)}.", suffix=".old", dir=os.path.dirname(out_dir))
    os.rename(out_dir, os.path.join(old, "previous"))
    os.rename(workdir, out_dir)
    shutil.rmtree(old, ignore_errors=True)
    return out_dir
