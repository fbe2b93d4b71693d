"""Starts the runner's processes from one interpreter that has already imported torch: what a runner test costs
is its work, not torch's import.

`python -m compile_lens_runner profile` (the supervisor) and the worker it starts each begin with `import torch`,
Dynamo and Inductor: ~5 CPU-s a process, most of a runner test (docs/BENCHMARKS.md#test-time). Here one server per
pytest process imports them once and forks a supervisor per run. The supervisor forks a spare of itself first, before
anything of the run happens, and where it would execute `python -m compile_lens_runner _worker SPEC` the spare
becomes that worker: the supervisor's child, with the worker's pipes, environment, folder, arguments and signals, and
a normal interpreter exit. The runner's own code (supervisor, worker, timeouts, reports) runs unchanged.

What torch reads only when imported cannot change in a fork: a worker whose environment sets such a variable (other
than the ones set up again below), and a run whose import path shadows torch or adds a usercustomize, start the usual
way. A sitecustomize on a run's import path runs in its forks as at a process's start, but after torch's import (the
server's): a shim that patches torch (test_observer_footprint's older torch.compile) runs as it would; one that must
run before torch is imported has no place here. The server's frames are compiled under a name in <angle brackets>, as `python -m` runs under <frozen runpy>, so
the runner reads none of them as the user's. A test's own `python SCRIPT` or `python -c CODE`
(conftest.run_python) is forked the same way. The server's imported objects are frozen out of the garbage collector
(gc.freeze) before the first fork, so a fork's collections and its exit copy none of their pages. The node and
end-to-end suites start the runner as users do; COMPILE_LENS_TEST_FORK=0 makes these tests do the same.

A torchrun job (`--nproc-per-node N`) is forked the same way one level down: the supervisor's spare becomes
`python -m torch.distributed.run`, which forks a spare per rank before anything of its own happens, and each rank's
`python -u -m compile_lens_runner _rank SPEC` is one of them (in a session of its own, as torchrun starts it). A
test's own torchrun launchers (conftest.run_launchers: `attach` under torchrun) are forked the same way, all of one
job's at once, each rank's `attach` a spare. A `--shape-fix on` worker forks spares at its start, one for each fix
run's worker it may start (script/shape_fix.py). The server is its runs' subreaper: a process of a run still alive after the run is said in the reply (`left`), then
killed, so that a test can assert that nothing of a run outlived it (a fork's command line is the server's).
"""

from __future__ import annotations

import atexit
import contextlib
import gc
import inspect
import io
import json
import os
import select
import signal
import socket
import subprocess
import sys
import time
from typing import Any, ClassVar

# torch reads these at import; a forked worker sets them up again (_reset_imported_state). TORCHINDUCTOR_CACHE_DIR,
# TRITON_CACHE_DIR and TEARDOWN_CUPTI are read when used.
REREAD = {
    "TORCH_TRACE",
    "INDUCTOR_PROVENANCE",
    "TORCH_LOGS",
    "TORCHINDUCTOR_CACHE_DIR",
    "TRITON_CACHE_DIR",
    "TEARDOWN_CUPTI",
}
READ_AT_IMPORT = ("TORCH", "INDUCTOR", "TORCHINDUCTOR", "TORCHDYNAMO", "PYTORCH", "TRITON", "OMP", "MKL", "KMP", "CUDA")
SHADOWS = ("torch", "torch.py", "usercustomize.py")
SERVER_NAME = "<compile-lens test fork server>"
# the most fix runs a --shape-fix on profile makes: one per fix of the region with the most (mark_dynamic, dynamic=True,
# buckets); a later one starts as a process
SHAPE_FIX_RUNS = 3


# what torchrun sets for its ranks: read when the process group starts, not at import
SET_BY_TORCHRUN = ("TORCHELASTIC_", "TORCH_NCCL_")


def import_time_env(env: dict[str, str]) -> dict[str, str]:
    return {
        k: v
        for k, v in env.items()
        if k.startswith(READ_AT_IMPORT) and k not in REREAD and not k.startswith(SET_BY_TORCHRUN)
    }


class ForkServer:
    """The tests' side: one server per pytest process, started at its first run, one run at a time."""

    def __init__(self, env: dict[str, str]) -> None:
        boot = "import sys; exec(compile(open(sys.argv[1]).read(), sys.argv[2], 'exec'))"
        self._server = subprocess.Popen(
            [sys.executable, "-c", boot, os.path.abspath(__file__), SERVER_NAME],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env,
        )
        self._env = import_time_env(env)
        self._pending = b""
        self.cpu_seconds = 0.0  # the runs' processes' CPU time: the server reaps them, not pytest
        self.left: list[int] = []  # the last run's processes still alive after it (then killed)
        if self._reply(None) != {"ready": True}:
            raise RuntimeError("the runner's fork server did not start")

    def can_run(self, env: dict[str, str]) -> bool:
        """Whether a fork runs what a new process would: the same import-time settings, nothing shadowing torch."""
        extra = [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
        shadowed = any(os.path.exists(os.path.join(d, name)) for d in extra for name in SHADOWS)
        return not shadowed and import_time_env(env) == self._env

    def run(
        self, commands: list[list[str]], env: dict[str, str], cwd: str | None, timeout: float, folder: str
    ) -> list[tuple[int, str, str]]:
        """`python -m MODULE ARGS` for each [MODULE, *ARGS] of `commands`, all at once (the launchers of one job), as
        subprocess.run(capture_output=True, text=True, timeout=...) would run each. MODULE is compile_lens_runner or
        torch.distributed.run; ["-c", CODE, *ARGS] and [SCRIPT.py, *ARGS] are `python -c CODE ARGS` and `python
        SCRIPT.py ARGS`."""
        runs = [
            {
                "module": module,
                "args": args,
                "stdout": os.path.join(folder, f"{i}.out"),
                "stderr": os.path.join(folder, f"{i}.err"),
            }
            for i, (module, *args) in enumerate(commands)
        ]
        assert self._server.stdin is not None
        self._server.stdin.write((json.dumps({"runs": runs, "env": env, "cwd": cwd}) + "\n").encode())
        self._server.stdin.flush()
        pids = self._reply(None)["pids"]
        finished = self._reply(time.monotonic() + timeout)
        timed_out = finished is None
        if timed_out:  # as subprocess.run: the run is killed, then TimeoutExpired
            from compile_lens_runner.process.supervisor import kill_tree

            for pid in pids:
                kill_tree(pid)
            finished = self._reply(None)
        self.cpu_seconds += finished["cpu"]
        self.left = finished["left"]
        outputs = []
        for run in runs:
            with open(run["stdout"], encoding="utf-8") as o, open(run["stderr"], encoding="utf-8") as e:
                outputs.append((o.read(), e.read()))
        if timed_out:
            raise subprocess.TimeoutExpired(commands, timeout, *outputs[0])
        return [(code, out, err) for code, (out, err) in zip(finished["codes"], outputs, strict=True)]

    def _reply(self, deadline: float | None) -> Any:
        """The server's next line; None when the deadline passes first."""
        assert self._server.stdout is not None
        fd = self._server.stdout.fileno()
        while b"\n" not in self._pending:
            wait = None if deadline is None else max(0.0, deadline - time.monotonic())
            if not select.select([fd], [], [], wait)[0]:
                return None
            chunk = os.read(fd, 65536)
            if not chunk:
                raise RuntimeError("the runner's fork server exited")
            self._pending += chunk
        line, self._pending = self._pending.split(b"\n", 1)
        return json.loads(line)

    def close(self) -> None:
        assert self._server.stdin is not None
        self._server.stdin.close()
        self._server.wait(timeout=30)


# -- the server's side (run under SERVER_NAME) --

PR_SET_CHILD_SUBREAPER = 36
LEFT_GRACE_S = 2.0  # an orphan still exiting when its run ended (an unused spare told to go) is not left over


def _serve(requests: Any, replies: Any) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """One request at a time, its runs at once. Returns (the request, its run) in a forked run; None when the tests
    end."""
    import ctypes

    ctypes.CDLL(None).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)  # a run's orphans become this process's children
    for line in requests:
        request = json.loads(line)
        pids = []
        for run in request["runs"]:
            pid = os.fork()
            if pid == 0:
                return request, run
            pids.append(pid)
        replies.write(json.dumps({"pids": pids}) + "\n")
        replies.flush()
        codes, cpu = [], 0.0
        for pid in pids:
            _, status, usage = os.wait4(pid, 0)
            codes.append(os.waitstatus_to_exitcode(status))
            cpu += usage.ru_utime + usage.ru_stime
        orphans_cpu, left = _reap_left_over()
        replies.write(json.dumps({"codes": codes, "cpu": cpu + orphans_cpu, "left": left}) + "\n")
        replies.flush()
    return None


def _reap_left_over() -> tuple[float, list[int]]:
    """The run's orphans (this process is their subreaper): waits LEFT_GRACE_S for them to end, kills the rest;
    returns their CPU seconds and the pids that were still running."""
    cpu, deadline, killed = 0.0, time.monotonic() + LEFT_GRACE_S, []
    while True:
        try:
            pid, _, usage = os.wait4(-1, os.WNOHANG)
        except ChildProcessError:
            return cpu, killed
        if pid:
            cpu += usage.ru_utime + usage.ru_stime
        elif time.monotonic() < deadline:
            time.sleep(0.05)
        elif not killed:
            with open(f"/proc/{os.getpid()}/task/{os.getpid()}/children", encoding="utf-8") as f:
                killed = [int(child) for child in f.read().split()]
            for child in killed:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(child, signal.SIGKILL)
        else:
            time.sleep(0.05)


def _become(
    args: list[str],
    env: dict[str, str],
    cwd: str | None,
    fds: tuple[int, int, int],
    keep: int = -1,
    unbuffered: bool = False,
) -> None:
    """This forked process takes a new process's standard streams, environment, folder, arguments, signals and
    import path, as `python [-u] -m MODULE ARGS` starts with them."""
    for target, fd in enumerate(fds):
        os.dup2(fd, target)
    for fd in map(int, os.listdir("/proc/self/fd")):  # as Popen's close_fds
        if fd > 2 and fd != keep:
            with contextlib.suppress(OSError):  # the listing's own
                os.close(fd)
    os.environ.clear()
    os.environ.update(env)
    if cwd:
        os.chdir(cwd)
    for signum in (signal.SIGTERM, signal.SIGUSR1, signal.SIGCHLD):
        signal.signal(signum, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.default_int_handler)  # as Python sets them at start
    signal.signal(signal.SIGPIPE, signal.SIG_IGN)
    extra = [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
    sys.path[:] = [os.getcwd(), *extra, *(p for p in _SERVER_PATH if p not in extra)]
    _run_sitecustomize(extra)
    sys.argv = ["-m", *args]  # runpy puts the module's file first
    unbuffered = unbuffered or bool(env.get("PYTHONUNBUFFERED"))
    sys.stdin = io.TextIOWrapper(io.BufferedReader(io.FileIO(0, "r", closefd=False)))
    for name, fd in (("stdout", 1), ("stderr", 2)):
        raw = io.FileIO(fd, "w", closefd=False)
        binary = raw if unbuffered else io.BufferedWriter(raw)
        errors = "backslashreplace" if fd == 2 else "strict"
        setattr(sys, name, io.TextIOWrapper(binary, errors=errors, write_through=unbuffered, line_buffering=fd == 2))  # type: ignore[arg-type]


_SITECUSTOMIZED = [False]  # a fork of a process that ran it has its effects already


def _run_sitecustomize(extra: list[str]) -> None:
    """The first sitecustomize.py on the run's own import path, as Python's start imports it."""
    if _SITECUSTOMIZED[0]:
        return
    import runpy

    for folder in extra:
        if os.path.exists(os.path.join(folder, "sitecustomize.py")):
            _SITECUSTOMIZED[0] = True
            runpy.run_path(os.path.join(folder, "sitecustomize.py"), run_name="sitecustomize")
            return


def _run_module(module: str) -> None:
    import runpy

    runpy.run_module(module, run_name="__main__", alter_sys=True)


def _run_python(first: str, args: list[str]) -> None:
    """`python -c CODE ARGS` (first "-c", args [CODE, *ARGS]) or `python SCRIPT ARGS` (first SCRIPT, args ARGS), with
    the argv and first import path Python gives them."""
    import builtins
    import runpy

    if first == "-c":
        sys.argv, sys.path[0] = ["-c", *args[1:]], ""
        exec(compile(args[0], "<string>", "exec"), {"__name__": "__main__", "__builtins__": builtins})
    else:
        sys.argv, sys.path[0] = [first, *args], os.path.dirname(os.path.abspath(first))
        runpy.run_path(first, run_name="__main__")


def _start(request: dict[str, Any], run: dict[str, Any]) -> None:
    """A forked run: the runner's supervisor, which forks its spare (its worker, or torchrun) first, a torchrun
    launcher of the test's own, or a test's own `python -c CODE` or `python SCRIPT`."""
    out = os.open(run["stdout"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    err = os.open(run["stderr"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    fds = (os.open(os.devnull, os.O_RDONLY), out, err)
    if run["module"] == "-c" or run["module"].endswith(".py"):
        _become(run["args"], request["env"], request["cwd"], fds)
        _reset_imported_state()
        _run_python(run["module"], run["args"])
        return
    if run["module"] == "torch.distributed.run":
        _become(run["args"], request["env"], request["cwd"], fds)
        _reset_imported_state()
        _launch(run["args"])
        return
    spares = _fork_spares(1)
    if spares is None:
        return
    _become(run["args"], request["env"], request["cwd"], fds, keep=spares[0][1].fileno())
    _SparePopen.take(spares, (("compile_lens_runner", "_worker"), ("torch.distributed.run", None)))
    _run_module("compile_lens_runner")


def _launch(torchrun_args: list[str]) -> None:
    """torchrun, with a spare for each rank it starts, forked before it starts a thread."""
    spares = _fork_spares(_ranks(torchrun_args))
    if spares is None:
        return
    _SparePopen.take(spares, (("compile_lens_runner", "_rank"), ("compile_lens_runner", "attach")))
    _run_module("torch.distributed.run")


def _fork_spares(count: int) -> list[tuple[int, socket.socket]] | None:
    """Forks `count` spares, each waiting for the command it becomes. Returns them; None in a spare, once it ran."""
    spares: list[tuple[int, socket.socket]] = []
    for _ in range(count):
        mine, theirs = socket.socketpair()
        pid = os.fork()
        if pid == 0:
            mine.close()
            for _, channel in spares:
                channel.close()
            _wait_for_order(theirs)
            return None
        theirs.close()
        spares.append((pid, mine))
    return spares


def _release_spares() -> None:
    """At its parent's exit: each unused spare ends, and is reaped."""
    for pid, channel in _SparePopen.spares:
        channel.close()
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, 0)
    _SparePopen.spares = []


def _wait_for_order(order: socket.socket) -> None:
    """A spare: waits until its parent starts the command it is for, then is that process; ends if it never does."""
    message, fds, _, _ = socket.recv_fds(order, 1 << 20, 3)
    order.close()
    if not message:
        os._exit(0)
    command = json.loads(message)
    if command["newSession"]:
        os.setsid()
    args, module = command["args"], command["module"]
    _become(args, command["env"], command["cwd"], (fds[0], fds[1], fds[2]), unbuffered=command["unbuffered"])
    _reset_imported_state()
    if module == "torch.distributed.run":
        _launch(args)
        return
    if args[:1] in (["_rank"], ["attach"]):
        _reset_at_worker_start()
    if module == "compile_lens_runner" and args[:1] == ["_worker"] and _measures_shape_fixes(args[1]):
        spares = _fork_spares(SHAPE_FIX_RUNS)  # each fix run's `_worker` is one (script/shape_fix.py)
        if spares is None:
            return
        _SparePopen.take(spares, (("compile_lens_runner", "_worker"),))
    _run_module(module)


def _measures_shape_fixes(spec_path: str) -> bool:
    """A script's worker that may run the script again with a shape fix (--shape-fix on), not a fix run itself."""
    with open(spec_path, encoding="utf-8") as f:
        spec = json.load(f)
    return spec.get("shapeFixRun") == "on" and not spec.get("shapeFix")


def _ranks(torchrun_args: list[str]) -> int:
    """How many ranks this torchrun starts on this host, restarts included."""

    def option(name: str, default: int) -> int:
        for i, arg in enumerate(torchrun_args):
            if arg in (f"--{name}", f"--{name.replace('-', '_')}") and i + 1 < len(torchrun_args):
                return int(torchrun_args[i + 1])
        return default

    return option("nproc-per-node", 1) * (1 + option("max-restarts", 0))


def _reset_imported_state() -> None:
    """What torch read from the environment when the server imported it, read again from this process's."""
    import torch._inductor.config as inductor_config
    import torch._logging._internal as torch_logging

    torch_logging.LOG_TRACE_HANDLER = None
    torch_logging._init_logs()
    inductor_config.trace.provenance_tracking_level = int(os.environ.get("INDUCTOR_PROVENANCE", "0"))


def _reset_at_worker_start() -> None:
    """A rank sets TORCH_TRACE (its own log) and INDUCTOR_PROVENANCE before its worker imports torch: read them
    again when the worker starts."""
    import compile_lens_runner.worker as worker

    own = worker.main

    def main(spec_path: str) -> int:
        _reset_imported_state()
        return own(spec_path)

    worker.main = main


_PARAMETERS = list(inspect.signature(subprocess.Popen._execute_child).parameters)
_NEW_SESSION = _PARAMETERS.index("start_new_session") - _PARAMETERS.index("errwrite") - 1  # its place after errwrite


class _SparePopen(subprocess.Popen):  # type: ignore[type-arg]
    """subprocess.Popen whose `python [-u] -m MODULE ARGS` (one of `commands`) is a spare while one is left; other
    commands, or a process whose import-time environment differs from the server's, start as usual."""

    spares: ClassVar[list[tuple[int, socket.socket]]] = []
    commands: ClassVar[tuple[tuple[str, str | None], ...]] = ()

    @classmethod
    def take(cls, spares: list[tuple[int, socket.socket]], commands: tuple[tuple[str, str | None], ...]) -> None:
        cls.spares, cls.commands = spares, commands
        atexit.register(_release_spares)
        subprocess.Popen = cls  # type: ignore[misc]

    def _execute_child(self, args: Any, executable: Any, preexec_fn: Any, close_fds: Any, pass_fds: Any, cwd: Any,
                       env: Any, startupinfo: Any, creationflags: Any, shell: Any, p2cread: int, p2cwrite: int,
                       c2pread: int, c2pwrite: int, errread: int, errwrite: int, *rest: Any) -> None:  # fmt: skip
        environment = dict(env if env is not None else os.environ)
        command = [str(a) for a in args] if isinstance(args, (list, tuple)) else []
        unbuffered = command[1:2] == ["-u"]
        flag, module, *module_args = command[1 + unbuffered :] or [""]  # `-m MODULE ARGS`
        if (
            not self.spares
            or command[:1] != [sys.executable]
            or flag != "-m"
            or not any(module == m and (a is None or module_args[:1] == [a]) for m, a in self.commands)
            or import_time_env(environment) != _SERVER_ENV
        ):
            super()._execute_child(  # type: ignore[misc]
                args, executable, preexec_fn, close_fds, pass_fds, cwd, env, startupinfo, creationflags, shell,
                p2cread, p2cwrite, c2pread, c2pwrite, errread, errwrite, *rest,
            )  # fmt: skip
            return
        pid, channel = self.spares.pop(0)
        fds = [
            given if given != -1 else inherited
            for given, inherited in zip((p2cread, c2pwrite, errwrite), (0, 1, 2), strict=True)
        ]
        order = {
            "module": module,
            "args": module_args,
            "env": environment,
            "cwd": cwd,
            "unbuffered": unbuffered,
            "newSession": bool(rest[_NEW_SESSION]),
        }
        socket.send_fds(channel, [json.dumps(order).encode()], fds)
        channel.close()
        self.pid = pid
        self._child_created = True
        self._close_pipe_fds(p2cread, p2cwrite, c2pread, c2pwrite, errread, errwrite)  # type: ignore[attr-defined]


_SERVER_ENV = import_time_env(dict(os.environ))
_SERVER_PATH = [p for p in sys.path if p]  # without -c's ''

if __name__ == "__main__":
    # the imports every runner process makes; nothing runs (no thread, no OpenMP pool) before the first fork
    import compile_lens_runner.cli
    import compile_lens_runner.worker  # noqa: F401
    import torch
    import torch._dynamo
    import torch._inductor.compile_fx  # noqa: F401

    # The imports' objects out of the collector's reach: a fork's garbage collections and its interpreter exit would
    # otherwise touch (and so copy) every page of them, ~1.1 CPU-s a process (docs/BENCHMARKS.md#test-time)
    gc.freeze()
    print(json.dumps({"ready": True}), flush=True)
    forked = _serve(sys.stdin, sys.stdout)
    if forked is not None:
        _start(*forked)
