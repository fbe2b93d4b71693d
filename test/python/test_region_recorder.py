"""regions.py in-process (real Dynamo, backend="eager" so nothing waits on a C++ compiler): what the script gets
back from the patched torch.compile behaves as torch's own result, and every call is recorded."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator
from typing import Any

import pytest
import torch
from compile_lens_runner.compiler import compiled_runs
from compile_lens_runner.compiler import torch_trace as tt
from compile_lens_runner.script.region_entry import RegionRecords, calls_json
from compile_lens_runner.script.regions import RegionRecorder, ScriptStopped
from torch._dynamo.eval_frame import OptimizedModule

WATCHER = tt.install_watcher()
RUNS = compiled_runs.install(WATCHER)


class Mlp(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.lin = torch.nn.Linear(4, 4)
        self.scale = 2.0

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.lin(x) * self.scale


@pytest.fixture
def recorder() -> Iterator[RegionRecorder]:
    torch._dynamo.reset()
    rec = RegionRecorder(WATCHER, RUNS)
    original = torch.compile
    with rec.installed():
        yield rec
    assert torch.compile is original  # the runner's own code sees torch's torch.compile again


def test_compiled_module_is_torchs_optimized_module(recorder: RegionRecorder) -> None:
    model = Mlp()
    compiled = torch.compile(model, backend="eager")
    assert type(compiled) is OptimizedModule and isinstance(compiled, torch.nn.Module)
    assert compiled._orig_mod is model and compiled.lin is model.lin and compiled.scale == 2.0
    assert list(compiled.state_dict()) == ["_orig_mod.lin.weight", "_orig_mod.lin.bias"]
    x = torch.randn(3, 4)
    torch.testing.assert_close(compiled(x), model(x))
    compiled(x)
    [region] = recorder.regions
    assert (region.kind, region.name, region.call_count) == ("module", "Mlp", 2)
    assert region.location is not None and region.location["code"] == 'compiled = torch.compile(model, backend="eager")'
    first, second = region.calls
    assert first.compile_ids and not second.compile_ids and second.ran_compiled is True
    assert first.signature == "float32[3, 4]; grad"


def test_decorators_methods_and_module_compile(recorder: RegionRecorder) -> None:
    @torch.compile(backend="eager", dynamic=False)
    def double(x: torch.Tensor) -> torch.Tensor:
        return x * 2

    class Net(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.lin = torch.nn.Linear(4, 4)

        @torch.compile(backend="eager")
        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return self.lin(x).relu()

    net = Net()
    with torch.no_grad():
        double(torch.randn(2))
        net(torch.randn(5, 4))
        inplace = Mlp()
        inplace.compile(backend="eager")
        inplace(torch.randn(1, 4))
        held = Mlp()
        called = torch.compile(held.__call__, backend="eager")  # as transformers' generate() compiles a model
        called(torch.randn(1, 4))
    by_name = {r.name: r for r in recorder.regions}
    assert by_name["Mlp.__call__"].kind == "function", "named by the module's class, not Module._wrapped_call_impl"
    assert by_name["test_decorators_methods_and_module_compile.<locals>.double"].options["dynamic"] is False
    forward = by_name["test_decorators_methods_and_module_compile.<locals>.Net.forward"]
    assert forward.kind == "function" and forward.method
    assert forward.calls[0].signature == "float32[5, 4]; no_grad"  # `self` is state, not an input
    assert forward.replay.unsafe is None
    compiled_in_place = by_name["Mlp"]
    assert compiled_in_place.kind == "module-compile" and compiled_in_place.call_count == 1
    # Module.compile compiles nn.Module._call_impl, a code object every module shares: Dynamo numbers this first
    # compile as a recompile of it; for the region it is still its first compile
    records = RegionRecords(compiled_in_place, [])
    assert calls_json(compiled_in_place, records)[0]["event"] == "compiled"


def _compiled_files() -> list[str]:
    return [m.co_filename or "" for m in torch._dynamo.utils.get_compilation_metrics()]


def test_region_called_eagerly_from_another_region_is_recorded_and_never_traced(recorder: RegionRecorder) -> None:
    def inner(x: torch.Tensor) -> torch.Tensor:
        y = torch.sin(x)
        print("graph break inside the inner region")
        return y + 1

    fast_inner = torch.compile(inner, backend="eager")

    @torch.compile(backend="eager")
    def outer(x: torch.Tensor) -> torch.Tensor:
        return fast_inner(torch.cos(x)) * 2  # the break inside `inner` makes Dynamo run this call eagerly

    torch._dynamo.utils.clear_compilation_metrics()
    outer(torch.randn(4))
    outer(torch.randn(4))
    regions = {r.name.rsplit(".", 1)[-1]: r for r in recorder.regions}
    assert regions["outer"].call_count == 2 and regions["inner"].call_count == 2
    files = _compiled_files()
    assert files and not [f for f in files if "compile_lens_runner" in f], files
    # compile ids started inside the inner call belong to it, not also to the outer call
    outer_ids = set(regions["outer"].compile_ids)
    assert outer_ids and not outer_ids & set(regions["inner"].compile_ids)


def _reason(recorder: RegionRecorder, fn: Any, *args: Any) -> str | None:
    for _ in range(2):
        fn(*args)
    return (recorder.regions[-1].replay.unsafe or "").removesuffix(
        ", so running it again would change the script's state"
    ) or None


class Counting(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.calls = 0

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        self.calls += 1
        return x + 1


def test_state_changes_make_a_region_unsafe_to_replay(recorder: RegionRecorder) -> None:
    def add_in_place(x: torch.Tensor) -> torch.Tensor:
        return x.add_(1)

    assert (
        _reason(recorder, torch.compile(add_in_place, backend="eager"), torch.zeros(3))
        == "it changes its input 1 in place"
    )
    assert (
        _reason(recorder, torch.compile(Counting(), backend="eager"), torch.zeros(3))
        == "it changes the Python attribute self.calls (0 → 1)"
    )

    model = torch.nn.Linear(2, 2)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)

    def train_step(x: torch.Tensor) -> torch.Tensor:
        loss = model(x).sum()
        loss.backward()
        opt.step()
        return loss

    reason = _reason(recorder, torch.compile(train_step, backend="eager"), torch.randn(4, 2))
    assert reason is not None and reason.startswith("it runs an optimizer step (SGD")

    def takes_iterator(x: torch.Tensor, it: Any) -> torch.Tensor:
        return x + 1

    reason = _reason(recorder, torch.compile(takes_iterator, backend="eager"), torch.zeros(2), iter([1]))
    assert reason == "an input is a list_iterator, which cannot be safely passed again"
    pure = torch.compile(lambda x: x * 3, backend="eager")
    assert _reason(recorder, pure, torch.zeros(2)) is None
    assert list(recorder.regions[-1].replay.captures) == ["float32[2]; grad"]


def test_a_lazy_module_runs_and_is_checked_once_its_parameters_exist(recorder: RegionRecorder) -> None:
    """A LazyLinear's parameters are uninitialized before its first call: the state check must not touch them."""
    model = torch.nn.Sequential(torch.nn.LazyLinear(8), torch.nn.ReLU())
    compiled = torch.compile(model, backend="eager")
    for _ in range(4):
        out = compiled(torch.randn(2, 3))
    [region] = recorder.regions
    assert out.shape == (2, 8) and region.call_count == 4 and region.replay.unsafe is None


def test_an_observer_failure_never_reaches_the_scripts_call(
    recorder: RegionRecorder, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*_: Any) -> None:
        raise ValueError("cannot read this state\nmore")

    monkeypatch.setattr("compile_lens_runner.script.capture.StateCheck.__init__", broken)
    compiled = torch.compile(Mlp(), backend="eager")
    x = torch.randn(3, 4)
    torch.testing.assert_close(compiled(x), compiled._orig_mod(x))
    [region] = recorder.regions
    assert region.call_count == 1 and region.replay.captures == {}
    assert region.replay.unsafe == (
        "Compile Lens could not check its calls' state (ValueError: cannot read this state), so it does not replay them"
    )


def test_inputs_are_held_for_few_signatures_only(recorder: RegionRecorder) -> None:
    fn = torch.compile(lambda x: x + 1, backend="eager", dynamic=True)
    for n in (2, 2, 2, 3, 3, 4, 5, 6):
        fn(torch.zeros(n))
    region = recorder.regions[-1]
    # the two most frequent so far and the last one
    assert set(region.replay.captures) == {"float32[2]; grad", "float32[3]; grad", "float32[6]; grad"}
    assert region.last_signature == "float32[6]; grad"


def test_calls_limit_measures_then_stops_the_script() -> None:
    torch._dynamo.reset()
    seen: list[int] = []
    rec = RegionRecorder(WATCHER, RUNS, stop_after_calls=3, on_stop=lambda region: seen.append(region.call_count))
    with pytest.raises(ScriptStopped), rec.installed():
        fn = torch.compile(lambda x: x - 1, backend="eager")
        while True:
            fn(torch.zeros(2))
    [region] = rec.regions
    assert seen == [3] and region.stopped_after == 3 and region.call_count == 3


def test_autocast_is_part_of_the_signature_and_of_the_replay(recorder: RegionRecorder) -> None:
    matmul = torch.compile(lambda a, b: a @ b, backend="eager")
    with torch.autocast("cpu", dtype=torch.bfloat16):
        assert matmul(torch.randn(4, 4), torch.randn(4, 4)).dtype == torch.bfloat16
    region = recorder.regions[-1]
    [capture] = region.replay.captures.values()
    assert capture.signature == "float32[4, 4], float32[4, 4]; grad; autocast cpu bfloat16"
    args, kwargs = capture.arguments()
    assert region.eager(*args, **kwargs).dtype == torch.float32
    with capture.context():
        assert region.eager(*args, **kwargs).dtype == torch.bfloat16  # replays compute what the script computed


def test_inputs_over_the_capture_budget_are_dropped_and_the_region_says_so(recorder: RegionRecorder) -> None:
    from compile_lens_runner.script.replay import not_measured_reason

    recorder.budget.limit = 3 * 1024 * 1024  # a 4 MB input does not fit, a 1 MB one does
    big = torch.compile(lambda x: x * 2, backend="eager")
    small = torch.compile(lambda x: x * 3, backend="eager")
    for _ in range(3):
        big(torch.zeros(1024, 1024))
        small(torch.zeros(256, 1024))
    big_region, small_region = recorder.regions[-2:]
    assert big_region.replay.captures == {} and list(small_region.replay.captures) == ["float32[256, 1024]; grad"]
    assert recorder.budget.used == 1024 * 1024
    assert not_measured_reason(big_region, None) == (
        "the inputs of float32[1024, 1024]; grad (4 MB) were not kept: Compile Lens holds at most 3 MB of the "
        "script's tensors for replays"
    )
    assert not_measured_reason(small_region, None) is None
    small_region.replay.release()
    assert recorder.budget.used == 0


def test_a_dropped_handle_is_measured_at_once_then_released() -> None:
    torch._dynamo.reset()
    seen: list[tuple[str, bool]] = []
    rec = RegionRecorder(WATCHER, RUNS, on_drop=lambda region: seen.append((region.id, region.eager is not None)))
    with rec.installed():
        model = torch.nn.Linear(4, 4)
        fast = torch.compile(model, backend="eager")
        fast(torch.zeros(2, 4))
        kept = weakref.ref(model)
        del fast  # measured here, with the model still there to replay
        assert seen == [("r0", True)] and rec.regions[0].held.released
        del model
        assert kept() is None  # released: nothing of the observer's holds it
        double = torch.compile(lambda x: x * 2, backend="eager")
        double(torch.zeros(2))
        del double
        assert seen == [("r0", True), ("r1", True)]


def _dropping() -> tuple[RegionRecorder, list[str]]:
    """A recorder whose on_drop notes the regions it is given to measure, and that list."""
    torch._dynamo.reset()
    seen: list[str] = []
    return RegionRecorder(WATCHER, RUNS, on_drop=lambda region: seen.append(region.id)), seen


def test_a_drop_during_a_garbage_collection_waits_for_the_next_safe_point() -> None:
    rec, seen = _dropping()
    with rec.installed():
        fast = torch.compile(Mlp(), backend="eager")
        fast(torch.zeros(2, 4))
        cycle: list[Any] = [fast]
        cycle.append(cycle)
        del fast, cycle
        gc.collect()  # frees the handle inside the collection: no replay there
        assert seen == [] and rec.regions[0].held.dropped and rec.regions[0].eager is not None
        other = torch.compile(lambda x: x + 1, backend="eager")  # the next safe point
        assert seen == ["r0"] and rec.regions[0].held.released
        other(torch.zeros(2))


def test_a_failure_while_measuring_a_dropped_region_stays_out_of_the_script() -> None:
    torch._dynamo.reset()

    def broken(region: Any) -> None:
        raise RuntimeError("the observer's own defect")

    rec = RegionRecorder(WATCHER, RUNS, on_drop=broken)
    with rec.installed():
        model = torch.nn.Linear(4, 4)
        fast = torch.compile(model, backend="eager")
        fast(torch.zeros(2, 4))
        kept = weakref.ref(model)
        del fast, model  # the script's line goes on
        assert kept() is None and rec.regions[0].held.released


def test_module_compile_is_released_at_the_next_torch_compile() -> None:
    rec, seen = _dropping()
    with rec.installed():
        model = torch.nn.Linear(4, 4)
        model.compile(backend="eager")  # the module holds the compiled callable: its drop cannot be told
        model(torch.zeros(2, 4))
        kept = weakref.ref(model)
        del model
        assert kept() is not None and not rec.regions[0].held.released
        identity = torch.compile(lambda x: x, backend="eager")  # a release point
        assert kept() is None and rec.regions[0].held.released and seen == []
        assert identity(torch.ones(1)).item() == 1.0


def test_a_drop_under_a_mode_of_the_scripts_waits_until_the_mode_ends() -> None:
    rec, seen = _dropping()
    with rec.installed():
        fast = torch.compile(Mlp(), backend="eager")
        other = torch.compile(lambda x: x + 1, backend="eager")
        fast(torch.zeros(2, 4))
        with torch.autocast("cpu", dtype=torch.bfloat16):  # a replay here would run under the script's autocast
            del fast
            assert seen == []
            other(torch.zeros(2))  # not a safe point either
            assert seen == []
        other(torch.zeros(2))  # the next top-level call outside it is
        assert seen == ["r0"] and rec.regions[0].held.released
