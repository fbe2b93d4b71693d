"""Library frames are never taken for the user's code, wherever pip, conda or a distribution put them."""

from __future__ import annotations

import os
import runpy
import sys
import sysconfig
from pathlib import Path

import pytest
from compile_lens_runner.compiler.failure import compile_failure
from compile_lens_runner.compiler.user_code import innermost_user, is_user_file


@pytest.mark.parametrize(
    "path",
    [
        "/usr/lib/python3/dist-packages/transformers/modeling_utils.py",  # Debian/Ubuntu's pip and apt
        "/usr/local/lib/python3.11/dist-packages/timm/models/vit.py",
        "/home/me/proj/.venv/lib/python3.12/site-packages/einops/einops.py",  # a virtualenv
        "/opt/conda/envs/train/lib/python3.10/site-packages/accelerate/hooks.py",  # conda
        "/opt/conda/lib/python3.10/functools.py",  # conda's standard library
        "/usr/lib/python3.11/contextlib.py",  # another interpreter's standard library
        "/home/me/.pyenv/versions/3.12.1/lib/python3.12/threading.py",
        "/usr/lib64/python3.13t/functools.py",
        "/home/me/.local/lib/python3.12/site-packages/lightning/trainer.py",  # pip install --user
        "/home/me/proj/__pypackages__/3.12/lib/rich/console.py",
        os.path.join(sysconfig.get_paths()["stdlib"], "functools.py"),  # this interpreter's own
        os.path.join(sysconfig.get_paths()["purelib"], "somepkg", "mod.py"),
        "/tmp/torchinductor_me/m6/cm6aqqpn2cmivcpf6ai7zoq4nthwcaeh7ssuqyswxj3uhtm3adqi.py",  # code Inductor generated
        "/home/me/.triton/cache/4f/triton_poi_fused_0.py",
        "<frozen runpy>",
        "",
    ],
)
def test_library_and_synthetic_frames_are_not_the_users(path: str) -> None:
    assert not is_user_file(path)


@pytest.mark.parametrize(
    "path",
    [
        "/home/me/proj/train.py",
        "/home/me/proj/lib/models.py",  # a project's own lib/ folder
        "/home/me/python3.12-experiments/lib/model.py",
        "/home/me/site/packages/model.py",
    ],
)
def test_the_users_files_are_the_users(path: str) -> None:
    assert is_user_file(path)


def test_innermost_user_frame_skips_a_dist_packages_frame(tmp_path: Path) -> None:
    user = str(tmp_path / "train.py")
    frames = [{"file": user, "line": 3}, {"file": "/usr/lib/python3/dist-packages/timm/layers.py", "line": 9}]
    assert innermost_user(frames) == frames[0]


def test_a_package_pip_installed_into_a_folder_on_the_path_is_a_library(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`pip install --target DIR` and PYTHONPATH=DIR: no site-packages in the path, but pip's RECORD lists the file."""
    target = tmp_path / "deps"
    (target / "transformers" / "utils").mkdir(parents=True)
    (target / "transformers" / "utils" / "generic.py").write_text("")
    (target / "transformers-5.0.dist-info").mkdir()
    (target / "transformers-5.0.dist-info" / "RECORD").write_text("transformers/utils/generic.py,sha256=x,1\n")
    project = tmp_path / "proj"
    (project / "proj.egg-info").mkdir(parents=True)  # `setup.py develop` lists the project's own sources: not pip's
    (project / "proj.egg-info" / "SOURCES.txt").write_text("gen.py\n")
    (project / "gen.py").write_text("")
    monkeypatch.setattr(sys, "path", [str(project), str(target), *sys.path])
    assert not is_user_file(str(target / "transformers" / "utils" / "generic.py"))
    assert is_user_file(str(project / "gen.py"))
    assert is_user_file(str(target / "mine.py"))  # a file of the folder that pip did not install


def test_a_frame_in_a_file_not_on_this_disk_keeps_the_code_its_stack_printed(tmp_path: Path) -> None:
    """A kernel's provenance from a compile cache filled by a checkout that is gone names that checkout's file: its
    code is the line the stack printed, so the kernel still maps to this run's traced line by its code (a warm-cache
    run once lost every kernel's source lines)."""
    from compile_lens_runner.compiler.user_code import parse_frames

    gone = tmp_path / "gone" / "mlp.py"
    here = tmp_path / "here.py"
    here.write_text("x = 1\ny = x + 1\n")
    text = (
        f'  File "{gone}", line 14, in forward\n    return self.output(self.relu(x))\n           ^^^^^^^^\n'
        f'  File "{here}", line 2, in <module>\n    something the stack printed\n'
    )
    frames = parse_frames(text)
    assert [f["code"] for f in frames] == ["return self.output(self.relu(x))", "y = x + 1"]
    assert parse_frames(f'  File "{gone}", line 3, in f\n  File "{gone}", line 4, in g\n')[0]["code"] is None


def test_a_cuda_graph_overwrite_is_said_at_the_users_call_with_pytorchs_fix(tmp_path: Path) -> None:
    """As on the H100 (transformers' static cache under reduce-overhead): the error is raised in Inductor's generated
    code, below the user's call; the finding names the user's line and the fix PyTorch's message gives."""
    generated = tmp_path / "torchinductor_me" / "m6" / "cm6aq.py"
    generated.parent.mkdir(parents=True)
    generated.write_text(
        "def call(args):\n    raise RuntimeError('Error: accessing tensor output of CUDAGraphs that has been "
        "overwritten by a subsequent run. To prevent overwriting, clone the tensor outside of "
        "torch.compile() or call torch.compiler.cudagraph_mark_step_begin() before each model invocation.')\n"
    )
    user = tmp_path / "decode.py"
    user.write_text("import runpy\n\ndef step(path):\n    return runpy.run_path(path)['call'](())  # the user's call\n")
    with pytest.raises(RuntimeError) as caught:
        runpy.run_path(str(user))["step"](str(generated))
    failure = compile_failure(caught.value)
    assert (
        failure["location"] is not None
        and failure["location"]["file"] == str(user)
        and failure["location"]["line"] == 4
    )
    assert failure["what"].startswith("a CUDA graph's output was read after a later replay had overwritten it")
    assert "torch.compiler.cudagraph_mark_step_begin()" in failure["fix"] and "fullgraph" not in failure["fix"]
