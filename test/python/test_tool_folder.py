"""The default report folder .compile-lens/ is git-ignored when the runner creates it, and left alone when it exists."""

import os
from pathlib import Path

from compile_lens_runner.process.placement import default_out_dir, make_tool_folder


def test_a_new_tool_folder_is_git_ignored(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    make_tool_folder(default_out_dir("serve_script"))
    ignore = tmp_path / ".compile-lens" / ".gitignore"
    assert [line for line in ignore.read_text().splitlines() if not line.startswith("#")] == ["*"]


def test_an_existing_folder_and_an_explicit_out_are_left_alone(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".compile-lens").mkdir()
    make_tool_folder(default_out_dir("mlp"))
    assert os.listdir(tmp_path / ".compile-lens") == []
    make_tool_folder(str(tmp_path / "reports" / "run1"))
    assert not (tmp_path / "reports").exists()
