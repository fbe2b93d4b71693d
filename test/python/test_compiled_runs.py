"""compiled_runs: guard hits and misses tell compiled calls from calls Dynamo ran eagerly (real Dynamo, CPU)."""

from __future__ import annotations

import torch
from compile_lens_runner.compiler import compiled_runs
from compile_lens_runner.compiler import torch_trace as tt


class CountingModule(torch.nn.Module):
    """Changes a Python int attribute on every call: Dynamo specialises on it and recompiles every call."""

    def __init__(self) -> None:
        super().__init__()
        self.calls = 0
        self.linear = torch.nn.Linear(4, 4)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        self.calls += 1
        return self.linear(x) * self.calls


def test_recompile_limit_fallback_is_seen_as_eager() -> None:
    torch._dynamo.reset()
    watcher = tt.install_watcher()
    runs = compiled_runs.install(watcher)
    assert runs.available
    model = torch.compile(CountingModule(), backend="eager")
    x = torch.randn(2, 4)
    outcomes = []
    for _ in range(torch._dynamo.config.recompile_limit + 3):
        before = runs.snapshot()
        model(x)
        outcomes.append((runs.snapshot() - before).ran_compiled())
    limit = torch._dynamo.config.recompile_limit
    assert outcomes[:limit] == [True] * limit  # the first compile, then a recompile per call
    assert outcomes[limit:] == [False] * 3  # past the limit Dynamo runs forward eagerly, silently


def test_cached_calls_are_compiled() -> None:
    torch._dynamo.reset()
    runs = compiled_runs.install(tt.install_watcher())
    fn = torch.compile(lambda x: torch.sin(x) + 1, backend="eager")
    x = torch.randn(8)
    fn(x)
    before = runs.snapshot()
    for _ in range(3):
        fn(x)
    counts = runs.snapshot() - before
    assert (counts.hits, counts.misses, counts.compiles) == (3, 0, 0) and counts.ran_compiled() is True
    before = runs.snapshot()
    torch.sin(x)  # no compiled frame entered: nothing to say
    assert (runs.snapshot() - before).ran_compiled() is None
