"""Where a run's report folder goes: the default folder under .compile-lens/runs, and moving the finished work
directory into place."""
from __future__ import annotations

import datetime as dt
import os
import shutil
import tempfile


def default_out_dir(name: str) -> str:
    stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    return os.path.abspath(os.path.join(".compile-lens", "runs", f"{name}-{stamp}"))


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
    """A successful run replaces out_dir; a failed one never overwrites an existing report, it gets a new dir."""
    target = out_dir
    if os.path.exists(out_dir):
        if failed:
            stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
            target = f"{out_dir}-failed-{stamp}"
            n = 1
            while os.path.exists(target):
                n += 1
                target = f"{out_dir}-failed-{stamp}-{n}"
        else:
            old = tempfile.mkdtemp(prefix=f".{os.path.basename(out_dir)}.", suffix=".old", dir=os.path.dirname(out_dir))
            os.rename(out_dir, os.path.join(old, "previous"))
            os.rename(workdir, out_dir)
            shutil.rmtree(old, ignore_errors=True)
            return out_dir
    os.rename(workdir, target)
    return target
