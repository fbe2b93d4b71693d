"""Runs the real runner (supervisor + worker, real torch.compile on CPU) and validates what it writes."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile
from collections.abc import Generator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from forked_runner import ForkServer

REPO = Path(__file__).resolve().parents[2]
RUNNER_DIR = REPO / "native-runner"
SCHEMA = json.loads((RUNNER_DIR / "compile_lens_runner" / "report" / "report.schema.json").read_text())
SAMPLES_DIR = RUNNER_DIR / "compile_lens_runner" / "target" / "samples"


sys.path.insert(0, str(RUNNER_DIR))

# Every runner, script and torch import of the tests runs one thread: Inductor's C++ kernels and eager's ops otherwise
# spin OpenMP threads for every core, and on a 2-core CI machine shared by two pytest workers and the node suite they
# busy-wait for each other (15 % more CPU per run, docs/BENCHMARKS.md §test suite). No test asserts a speed.
os.environ.setdefault("OMP_NUM_THREADS", "1")


def runner_env(extra_path: str | None = None) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (extra_path, str(RUNNER_DIR)) if p)
    return env


def runner_command(*args: str) -> list[str]:
    """A script's profile runs with --shape-fix off unless the test says otherwise: auto's fix run (the script once
    more, ~6 CPU-s) happens only when the host was quick enough, so no test can assert it; the fix run is asserted with
    --shape-fix on (test_shapes_profiles.py) and auto's choice in test_shape_facts.py."""
    own = args[: args.index("--")] if "--" in args else args  # the runner's own options, not the script's arguments
    shape_fix = ["--shape-fix", "off"] if "--script" in own and "--shape-fix" not in own else []
    return [sys.executable, "-m", "compile_lens_runner", "profile", *shape_fix, *args]


@dataclass
class Run:
    code: int
    lines: list[dict[str, Any]]
    stderr: str
    report: dict[str, Any] | None
    report_dir: Path | None
    # a forked run's processes still alive after it (forked_runner.py: a fork's command line is the server's, so a
    # search by command line misses them)
    left_running: list[int] = field(default_factory=list)


def parse_protocol(stdout: str) -> list[dict[str, Any]]:
    """Every stdout line must be a protocol JSON line; anything else fails the test."""
    lines = []
    for raw in stdout.splitlines():
        record = json.loads(raw)
        assert record["type"] in ("progress", "result"), raw
        lines.append(record)
    return lines


def validate(report: dict[str, Any]) -> None:
    jsonschema.Draft202012Validator(SCHEMA).validate(report)


def finish(code: int, stdout: str, stderr: str) -> Run:
    lines = parse_protocol(stdout)
    results = [line for line in lines if line["type"] == "result"]
    report = report_dir = None
    if results:
        assert len(results) == 1 and lines[-1] is results[0]
        path = Path(results[0]["report"])
        report = json.loads(path.read_text())
        validate(report)
        report_dir = path.parent
        assert results[0]["status"] == report["status"]
        keep_for_surfaces(path)
    return Run(code, lines, stderr, report, report_dir)


def keep_for_surfaces(path: Path) -> None:
    """With COMPILE_LENS_TEST_REPORTS set (a folder), each report a test's run wrote is kept there, for
    test/unit/surface*.test.ts (surfaces.ts) to say through every surface (COMPILE_LENS_TEST_REPORTS=DIR, the same folder)."""
    folder = os.environ.get("COMPILE_LENS_TEST_REPORTS")
    if folder:
        kept = Path(folder) / f"{path.parent.name}-{os.getpid()}-{len(list(Path(folder).glob('*')))}"
        kept.mkdir(parents=True, exist_ok=True)
        (kept / "report.json").write_text(path.read_text())


def run_runner(*args: str, extra_path: str | None = None, timeout: float = 300, cwd: str | None = None) -> Run:
    """The runner's `profile` as a process of its own would run it; forked from a server that imported torch once
    (forked_runner.py) unless COMPILE_LENS_TEST_FORK=0 or the run's environment needs a new process."""
    command, env = runner_command(*args), runner_env(extra_path)
    if os.environ.get("COMPILE_LENS_TEST_FORK") == "0" or not _fork_server().can_run(env):
        proc = subprocess.run(command, env=env, check=False, capture_output=True, text=True, timeout=timeout, cwd=cwd)
        return finish(proc.returncode, proc.stdout, proc.stderr)
    with tempfile.TemporaryDirectory() as folder:
        [(code, stdout, stderr)] = _fork_server().run([command[2:]], env, cwd, timeout, folder)
    run = finish(code, stdout, stderr)
    run.left_running = _fork_server().left
    return run


def run_python(*args: str, env: dict[str, str] | None = None, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """`python ARGS` (`-c CODE ...` or `SCRIPT.py ...`) as subprocess.run(capture_output=True, text=True) runs it;
    forked as run_runner's runs are (a script's plain run costs its work, not torch's import) where a fork can run it."""
    env = runner_env() if env is None else env
    command = [sys.executable, *args]
    if os.environ.get("COMPILE_LENS_TEST_FORK") == "0" or not _fork_server().can_run(env):
        return subprocess.run(command, env=env, check=False, capture_output=True, text=True, timeout=timeout)
    with tempfile.TemporaryDirectory() as folder:
        [(code, out, err)] = _fork_server().run([list(args)], env, None, timeout, folder)
    return subprocess.CompletedProcess(command, code, out, err)


def run_launchers(*launchers: list[str], timeout: float = 300) -> list[subprocess.CompletedProcess[str]]:
    """`python -m torch.distributed.run ARGS` for each ARGS, all at once (the launchers of one job), as
    subprocess.run(capture_output=True, text=True) would run each; forked as run_runner's runs are, their ranks too."""
    commands = [[sys.executable, "-m", "torch.distributed.run", *args] for args in launchers]
    env = runner_env()
    if os.environ.get("COMPILE_LENS_TEST_FORK") == "0" or not _fork_server().can_run(env):
        started = [
            subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            for command in commands
        ]
        outputs = [launcher.communicate(timeout=timeout) for launcher in started]
        return [
            subprocess.CompletedProcess(command, launcher.returncode, out, err)
            for command, launcher, (out, err) in zip(commands, started, outputs, strict=True)
        ]
    with tempfile.TemporaryDirectory() as folder:
        done = _fork_server().run([command[2:] for command in commands], env, None, timeout, folder)
    return [
        subprocess.CompletedProcess(command, code, out, err)
        for command, (code, out, err) in zip(commands, done, strict=True)
    ]


_FORK_SERVER: list[ForkServer] = []


def _fork_server() -> ForkServer:
    """This pytest process's runner fork server (forked_runner.py), started at its first run."""
    if not _FORK_SERVER:
        _FORK_SERVER.append(ForkServer(runner_env()))
    return _FORK_SERVER[0]


def pytest_sessionfinish(session: pytest.Session) -> None:
    for server in _FORK_SERVER:
        server.close()


def marker_line(path: Path, marker: str) -> int:
    """1-based line of the only line of `path` containing `marker`."""
    hits = [i for i, line in enumerate(path.read_text().splitlines(), 1) if marker in line]
    assert len(hits) == 1, (marker, hits)
    return hits[0]


@pytest.fixture(scope="session")
def outdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("runs")


# -- where the CPU goes: --cpu-durations=N prints the N tests (and files) that cost the most CPU seconds, their
# runners' and scripts' processes included. On a shared 2-core host a test's wall time swings with the others' load;
# its CPU time is what the suite costs (docs/BENCHMARKS.md#test-time).


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--cpu-durations", type=int, default=0, metavar="N", help="show the N costliest tests in CPU-s")


def _cpu_seconds() -> float:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    forked = sum(server.cpu_seconds for server in _FORK_SERVER)  # reaped by the fork server, not by pytest
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime + forked


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> Generator[None, None, None]:
    started = _cpu_seconds()
    yield
    item.user_properties.append(("cpu_s", _cpu_seconds() - started))  # module fixtures count where first set up


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, None, None]:
    started = _cpu_seconds()
    yield
    item.user_properties.append(("cpu_s", _cpu_seconds() - started))


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    shown = config.getoption("--cpu-durations")
    if not shown:
        return
    cpu: dict[str, float] = {}
    for reports in terminalreporter.stats.values():
        for report in reports:
            if isinstance(report, pytest.TestReport) and report.when == "call":  # a report's properties so far
                cpu[report.nodeid] = sum(v for k, v in report.user_properties if k == "cpu_s")
    files: dict[str, float] = {}
    for nodeid, seconds in cpu.items():
        files[nodeid.split("::")[0]] = files.get(nodeid.split("::")[0], 0.0) + seconds
    terminalreporter.write_sep("=", f"CPU seconds: all {sum(cpu.values()):.0f}; the {shown} costliest tests and files")
    for name, seconds in sorted([*cpu.items(), *files.items()], key=lambda kv: -kv[1])[: 2 * shown]:
        terminalreporter.write_line(f"{seconds:8.1f}  {name}")
