"""A replay runs in the state the script's call ran in (module.training per submodule, grad mode, autocast), and a
region whose calls change the script's state where no version counter shows it (through `.data`, in modules reached
as globals, BatchNorm statistics, optimizer steps) is not replayed, with the reason (capture.py, in-process)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import torch
from compile_lens_runner.compiler import compiled_runs
from compile_lens_runner.compiler import torch_trace as tt
from compile_lens_runner.script.regions import RegionRecorder

WATCHER = tt.install_watcher()
RUNS = compiled_runs.install(WATCHER)
SUFFIX = ", so running it again would change the script's state"


class Counter(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.register_buffer("steps", torch.zeros(()))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        self.steps += 1
        return x + 1


GLOBAL_COUNTER = Counter()


def through_a_global(x: torch.Tensor) -> torch.Tensor:
    return GLOBAL_COUNTER(x) * 2  # the module is reached as a global: no closure, no argument


@pytest.fixture
def recorder() -> Iterator[RegionRecorder]:
    torch._dynamo.reset()
    rec = RegionRecorder(WATCHER, RUNS)
    with rec.installed():
        yield rec


def _calls(fn: Any, *args: Any, n: int = 3) -> None:
    for _ in range(n):
        fn(*args)


def _reason(recorder: RegionRecorder) -> str | None:
    return (recorder.regions[-1].replay.unsafe or "").removesuffix(SUFFIX) or None


def test_an_ema_updated_through_data_is_caught(recorder: RegionRecorder) -> None:
    model = torch.nn.Linear(4, 4)
    ema = torch.nn.Linear(4, 4)

    def step(x: torch.Tensor) -> torch.Tensor:
        y = model(x)
        with torch.no_grad():
            for e, p in zip(ema.parameters(), model.parameters(), strict=True):
                e.data.mul_(0.9).add_(p.data, alpha=0.1)  # `.data` has a version counter of its own
        return y

    versions = [p._version for p in ema.parameters()]
    _calls(torch.compile(step, backend="eager"), torch.randn(2, 4))
    assert [p._version for p in ema.parameters()] == versions  # what the check used to read did not move
    assert _reason(recorder) == (
        "it changes its parameter Linear.weight in place (through .data or in compiled code: no "
        "version counter shows it)"
    )
    assert recorder.regions[-1].replay.captures == {}


def test_a_module_reached_as_a_global_is_checked(recorder: RegionRecorder) -> None:
    _calls(torch.compile(through_a_global, backend="eager"), torch.zeros(2))
    assert _reason(recorder) == "it changes its buffer global GLOBAL_COUNTER.steps in place"


def test_batchnorm_in_train_mode_is_not_replayed_and_in_eval_mode_is(recorder: RegionRecorder) -> None:
    bn = torch.nn.BatchNorm1d(4)
    _calls(torch.compile(bn, backend="eager"), torch.randn(8, 4))
    reason = _reason(recorder)
    assert reason is not None and reason.startswith("it changes its buffer running_mean in place")
    frozen = torch.nn.BatchNorm1d(4).eval()
    _calls(torch.compile(frozen, backend="eager"), torch.randn(8, 4))
    assert _reason(recorder) is None


class Modal(torch.nn.Module):
    """Computes differently in train and eval mode, at the top and in a submodule (as dropout and BatchNorm do)."""

    def __init__(self) -> None:
        super().__init__()
        self.inner = torch.nn.Identity()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x * (2 if self.training else 3) + (1 if self.inner.training else 0)


def test_a_replay_restores_module_training_per_submodule(recorder: RegionRecorder) -> None:
    model = Modal()
    compiled = torch.compile(model, backend="eager")
    x = torch.ones(2)
    _calls(compiled, x)  # trained (train mode) ...
    model.eval()  # ... then switched to eval, as a script does after training
    model.inner.train()  # a submodule left in another mode
    region = recorder.regions[-1]
    [capture] = region.replay.captures.values()
    args, kwargs = capture.arguments()
    with capture.context():
        assert model.training and model.inner.training
        assert region.eager(*args, **kwargs).tolist() == [3.0, 3.0]  # x * 2 + 1: as the script's calls computed
    assert not model.training and model.inner.training  # the script's own modes again
    assert region.eager(*args, **kwargs).tolist() == [4.0, 4.0]


def test_a_tie_of_one_call_signatures_replays_one_that_ran_compiled(recorder: RegionRecorder) -> None:
    """Every call at its own size, the first ones compiled and the rest past the recompile limit (eagerly): the
    replay takes inputs the script's compiled code ran on, held though newer sizes came after it, and leaves out the
    last size, which ran eagerly (its replay would time eager code twice)."""
    from compile_lens_runner.script.replay import chosen_signatures

    step = torch.compile(lambda x: x * 2, dynamic=False, backend="eager")
    with torch._dynamo.config.patch(recompile_limit=2):
        for n in (1, 2, 3, 4):
            step(torch.ones(n))
    region = recorder.regions[-1]
    assert [call.ran_compiled for call in region.calls] == [True, True, False, False]
    [(signature, why)] = chosen_signatures(region)
    assert (signature, why) == (region.calls[1].signature, "most-frequent")
    assert signature in region.replay.captures
