"""The runner's layout is its architecture: subpackages by job, imports pointing one way, no cycle (imports inside
functions count)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2] / "native-runner" / "compile_lens_runner"

# What each part may import besides itself, lowest layer first. Top-level modules are parts of their own.
ALLOWED: dict[str, set[str]] = {
    "__init__": set(),
    "shapes": set(),
    "errors": {"shapes"},
    "progress": set(),
    "formats": set(),
    "measure": {"formats", "shapes"},
    "compiler": {"formats", "measure", "shapes"},
    "report": {"__init__", "formats", "measure", "shapes"},
    "run": {"compiler", "errors", "measure", "progress", "report", "shapes"},
    "target": {"compiler", "errors", "formats", "measure", "report", "run", "shapes"},
    "script": {"compiler", "errors", "formats", "measure", "report", "run", "shapes"},
    "ranks": {"compiler", "errors", "formats", "measure", "progress", "report", "run", "script", "shapes"},
    "logs": {"compiler", "errors", "measure", "ranks", "report", "shapes"},
    "worker": {"errors", "progress", "ranks", "report", "run", "script", "target", "shapes"},
    "process": {"compiler", "errors", "logs", "measure", "progress", "ranks", "report", "shapes"},
    "cli": {"errors", "process", "ranks", "target", "worker"},
    "__main__": {"cli"},
}


def _module(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts) or "__init__"


def _imports(path: Path) -> set[str]:
    return _imports_of(path.read_text(), _module(path), path.name == "__init__.py")


def _imports_of(source: str, module: str, is_package: bool) -> set[str]:
    """Modules of the runner that this source imports (anywhere in it), as dotted names relative to the package."""
    package = [] if module == "__init__" else module.split(".") if is_package else module.split(".")[:-1]
    out = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
            elif (node.module or "").startswith("compile_lens_runner"):
                base = []
                node_module = (node.module or "").removeprefix("compile_lens_runner").lstrip(".")
                out.add(node_module or "__init__")
                continue
            else:
                continue
            target = ".".join(base + ([node.module] if node.module else []))
            for alias in node.names:
                full = f"{target}.{alias.name}" if target else alias.name
                out.add(
                    full
                    if (ROOT / (full.replace(".", "/") + ".py")).exists() or (ROOT / full.replace(".", "/")).is_dir()
                    else (target or "__init__")
                )
    return out


def _part(module: str) -> str:
    return module.split(".")[0]


MODULES = {_module(p): p for p in ROOT.rglob("*.py") if "samples" not in p.parts}


def test_every_subpackage_says_what_it_owns_and_few_modules_stay_on_top() -> None:
    packages = [p for p in ROOT.iterdir() if p.is_dir() and (p / "__init__.py").exists()]
    assert {p.name for p in packages} == {
        "compiler",
        "logs",
        "measure",
        "process",
        "ranks",
        "report",
        "script",
        "shapes",
        "target",
    }
    for package in packages:
        assert ast.get_docstring(ast.parse((package / "__init__.py").read_text())), package.name
    assert len(list(ROOT.glob("*.py"))) <= 10


@pytest.mark.parametrize("module", sorted(MODULES))
def test_imports_point_down_the_layers(module: str) -> None:
    part = _part(module)
    wrong = {m for m in _imports(MODULES[module]) if _part(m) not in ALLOWED[part] | {part}}
    assert not wrong, f"{module} imports {sorted(wrong)}, above or beside its layer"


def test_no_import_cycle() -> None:
    graph = {m: {t for t in _imports(p) if t in MODULES and t != m} for m, p in MODULES.items()}
    state: dict[str, int] = {}

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for nxt in graph[node]:
            if state.get(nxt) == 1:
                raise AssertionError(
                    "import cycle: " + " -> ".join([*path[path.index(nxt) :], nxt]) if nxt in path else nxt
                )
            if nxt not in state:
                visit(nxt, [*path, nxt])
        state[node] = 2

    for module in graph:
        if module not in state:
            visit(module, [module])


def test_a_layering_breach_is_caught() -> None:
    """The checks can fail: measure/ importing script/ inside a function is seen, and so is a cycle."""
    source = "def f():\n    from ..script import regions\n    from . import estimator\n"
    assert _imports_of(source, "measure.timing", False) == {"script.regions", "measure.estimator"}
    assert not {"script.regions"} <= ALLOWED["measure"]
