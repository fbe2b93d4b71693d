"""--out never deletes or overwrites what the runner did not write (placement.py)."""

from __future__ import annotations

import json
import os
from pathlib import Path

from compile_lens_runner.process import placement
from conftest import run_runner


def _user_folder(folder: Path) -> dict[str, str]:
    folder.mkdir(parents=True, exist_ok=True)
    files = {"notes.txt": "my notes\n", "train.py": "print('training')\n"}
    for name, text in files.items():
        (folder / name).write_text(text)
    return files


def _unchanged(folder: Path, files: dict[str, str]) -> None:
    assert sorted(p.name for p in folder.iterdir()) == sorted(files)
    for name, text in files.items():
        assert (folder / name).read_text() == text


def test_a_folder_of_user_files_is_refused_before_anything_runs(tmp_path: Path) -> None:
    results = tmp_path / "results"
    files = _user_folder(results)
    run = run_runner("--sample", "mlp", "--quick", "--out", str(results))
    assert run.code == 2 and run.report is None  # a usage error: nothing ran, no report
    assert "is not a Compile Lens report folder" in run.stderr and "notes.txt, train.py" in run.stderr
    assert "Choose a new or empty folder" in run.stderr
    _unchanged(results, files)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["results"]  # no work folder left beside it


def test_out_dot_never_deletes_the_project(tmp_path: Path) -> None:
    files = _user_folder(tmp_path / "project")
    run = run_runner("--sample", "mlp", "--quick", "--out", ".", cwd=str(tmp_path / "project"))
    assert run.code == 2 and "is not a Compile Lens report folder" in run.stderr
    _unchanged(tmp_path / "project", files)


def test_a_report_folder_is_replaced_and_an_empty_one_used(tmp_path: Path) -> None:
    out = tmp_path / "empty"
    out.mkdir()
    # where the report goes is all this asserts: Dynamo's eager backend spares the runs Inductor's compiling
    profile = ("--sample", "mlp", "--quick", "--backend", "eager", "--out", str(out))
    first = run_runner(*profile)
    assert first.code == 0 and first.report_dir == out
    marker = json.loads((out / placement.MARKER).read_text())
    assert "report.json" in marker["entries"]
    second = run_runner(*profile)
    assert second.code == 0 and second.report_dir == out  # its own report: replaced
    # a file added to a report folder since is the user's: the folder is no longer replaced
    (out / "notes.txt").write_text("kept")
    third = run_runner(*profile)
    assert third.code == 2 and "with files the runner did not write (it holds notes.txt)" in third.stderr
    assert (out / "notes.txt").read_text() == "kept"


def test_refusal_names_files_and_symlinks(tmp_path: Path) -> None:
    assert placement.refusal(str(tmp_path / "absent")) is None
    file = tmp_path / "file.txt"
    file.write_text("x")
    assert "is not a folder" in (placement.refusal(str(file)) or "")
    link = tmp_path / "link"
    link.symlink_to(tmp_path)
    assert "is not a folder" in (placement.refusal(str(link)) or "")
    many = tmp_path / "many"
    many.mkdir()
    for i in range(5):
        (many / f"f{i}").write_text("")
    assert "f0, f1, f2 and 2 more" in (placement.refusal(str(many)) or "")
    forged = tmp_path / "forged"
    forged.mkdir()
    (forged / placement.MARKER).write_text("not json")
    (forged / "train.py").write_text("")
    assert "is not a Compile Lens report folder" in (placement.refusal(str(forged)) or "")


def test_a_folder_filled_during_the_run_gets_the_report_beside_it(tmp_path: Path) -> None:
    out = tmp_path / "results"
    work = tmp_path / ".results.tmp"
    work.mkdir()
    (work / "report.json").write_text("{}")
    files = _user_folder(out)  # the user filled it after the run started
    placed = Path(placement.place(str(work), str(out), failed=False))
    assert placed != out and placed.name.startswith("results-new-") and (placed / "report.json").exists()
    _unchanged(out, files)


def test_default_folders_never_collide(tmp_path: Path) -> None:
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        first = placement.default_out_dir("mlp")
        os.makedirs(first)
        second = placement.default_out_dir("mlp")
    finally:
        os.chdir(cwd)
    assert second != first and not os.path.exists(second)
