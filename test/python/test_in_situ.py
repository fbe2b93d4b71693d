"""In situ, end to end on CPU (supervisor + observed worker, real torch.compile): the observed run switches the stance
between blocks of the script's own calls and compares its steps per region, where a replay cannot. Only what no
faster test proves (the recorded-call rules are in test_in_situ_interleaved.py); nothing here times this host."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path
from typing import Any

import pytest
from compile_lens_runner.measure import interleaved, schedule, step_work
from compile_lens_runner.report import step_work_text
from compile_lens_runner.script.window import STEPS as window_steps
from conftest import marker_line, run_runner

TRAIN = textwrap.dedent("""
    import torch
    from torch import nn

    torch.manual_seed(0)


    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2d(3, 8, 3, padding=1)
            self.bn = nn.BatchNorm2d(8)
            self.head = nn.Linear(8 * 16 * 16, 10)

        def forward(self, x):
            return self.head(torch.relu(self.bn(self.conv(x))).flatten(1))


    model = Net()
    cmodel = torch.compile(model)  # MARK: compile
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    data, labels = torch.randn(232, 3, 16, 16), torch.randint(0, 10, (232,))
    for epoch in range(2):
        for i in range(0, 232, 16):  # a short last batch each epoch
            loss = nn.functional.cross_entropy(cmodel(data[i:i + 16]), labels[i:i + 16])
            opt.zero_grad()
            loss.backward()
            opt.step()
""")


def _region(report: dict[str, Any]) -> dict[str, Any]:
    [region] = report["regions"]
    return region


def _profiled(tmp_path: Path, name: str, source: str) -> dict[str, Any]:
    """The region of a one-region script profiled (in situ included) that ran to its end."""
    script = tmp_path / name
    script.write_text(source)
    run = run_runner("--script", str(script), "--out", str(tmp_path / "out"), "--quick")
    assert run.code == 0, run.stderr[-3000:]
    return _region(run.report)


@pytest.fixture(scope="module")
def training(tmp_path_factory: pytest.TempPathFactory) -> Any:
    folder = tmp_path_factory.mktemp("train")
    script = folder / "train_bn.py"
    script.write_text(TRAIN)
    return run_runner("--script", str(script), "--out", str(folder / "out"), "--quick")


def test_a_training_loop_is_its_own_in_situ_measurement(training: Any) -> None:
    run = training
    assert run.code == 0, run.stderr[-3000:]
    region = _region(run.report)
    assert region["replay"]["replayable"] is False  # BatchNorm in train mode, AdamW: a replay cannot answer
    assert run.report["inSitu"]["method"] == "interleaved" and not run.report["inSitu"]["runs"]
    schedule = run.report["inSitu"]["schedule"]
    calls = region["calls"]
    assert len(calls) == 30 and region["callCount"] == 30
    # the stance switched at block boundaries only, and the script got its own stance back at its end
    for c in calls:  # block 0: the warm-up, and a signature's first call at the compiled stance (the short batch's)
        assert c["side"] == (
            "compiled" if c["block"] == 0 else ("eager", "compiled", "compiled", "eager")[(c["block"] - 1) % 4]
        )
    assert all(c["block"] == 0 for c in calls if c["index"] < schedule["startCall"])
    assert {c["side"] for c in calls} == {"compiled", "eager"}
    assert all(c["ranCompiled"] is None for c in calls if c["side"] == "eager")
    # a step runs from a call's start to the next one's: it holds the call
    assert all(c["stepMs"] >= c["ms"] for c in calls if c["stepMs"] is not None and c["ms"] is not None)
    situ = region["inSitu"]
    step = situ["step"]
    assert (
        step["eagerMs"] > 0
        and step["compiledMs"] > 0
        # the report rounds to 4 decimals: a small speedup (0.0362 against 0.036246) is within that, not 1e-3 of it
        and step["speedup"] == pytest.approx(step["eagerMs"] / step["compiledMs"], rel=1e-3, abs=5e-5)
    )
    assert step["low"] <= step["speedup"] <= step["high"] and step["pairs"] == len(step["pairRatios"]) >= 1
    # the short last batch (8) came once per epoch: each side's first call of it is no steady step, so only 16 compares
    assert step["comparedBy"] == "signature" and [s["signature"] for s in step["signatures"]] == [
        "float32[16, 3, 16, 16]; grad"
    ]
    assert situ["dropped"]["switch"] >= 1 and situ["compileSeconds"] > 0 and situ["stepsMade"] == 30
    assert "not measured" not in region["recommendation"]["reason"]
    reason = region["recommendation"]["reason"]
    assert "pays back after" not in reason or "made 30" in reason or "this run made 30" in reason, reason


def test_each_side_profiles_a_window_of_its_own_steps_and_says_why_per_step(training: Any) -> None:
    """Why, per step: one profiled window per side in the interleaved run; its steps are never timed steps, and the
    work per step is what the trace the run wrote holds."""
    run = training
    region = _region(run.report)
    calls = region["calls"]
    windows = run.report["inSitu"]["windows"]
    for side, block in schedule.PROFILED_BLOCKS.items():
        window = windows[side]
        assert window["region"] == region["id"] and window["skipped"] is None and window["steps"] == window_steps
        inside = [
            c
            for c in calls
            if c.get("profiled") and window["fromCall"] <= c["index"] <= window["fromCall"] + window_steps + 1
        ]
        # the window opens at its side's first block and runs to the call that closes it (which exports the trace)
        assert [c["index"] for c in inside] == list(range(window["fromCall"], window["fromCall"] + window_steps + 2))
        assert {(c["side"], c["block"]) for c in inside} <= {(side, block), ("compiled", 0)}
    assert run.report["inSitu"]["schedule"]["heldCalls"] == 2 * (window_steps + 1)
    # no step that starts or ends at a profiled call is a timed (steady) step
    split = interleaved.split([interleaved.Call.from_json(c) for c in calls])
    for side in ("eager", "compiled"):
        assert split.steps[side], side
        for i in split.steps[side]:
            assert not calls[i].get("profiled") and not calls[i + 1].get("profiled")
        assert not any(calls[i].get("profiled") for i in split.calls[side])
    assert region["inSitu"]["dropped"]["observer"] >= 2 * window_steps
    # the work per step comes from the trace the run wrote: on CPU, its outermost ops (no separate GPU)
    work = region["inSitu"]["work"]
    for side in ("eager", "compiled"):
        mine = work[side]
        assert mine["device"] == "cpu" and mine["launchBound"] is False
        events = step_work.read_trace(str(run.report_dir / windows[side]["trace"]))
        steps = sorted(int(e["name"].split("#")[1]) for e in events if e["name"].startswith("ProfilerStep#"))
        assert steps == list(range(1, window_steps + 1))
        # a step whose call compiled (the short batch's first compiled call) is left out of the count
        compiled_steps = {
            n
            for n in steps
            if calls[windows[side]["fromCall"] + n]["compileIds"]
            or calls[windows[side]["fromCall"] + n]["stepCompiles"]
        }
        assert mine["steps"] == len(steps) - len(compiled_steps)
        assert mine == dict(
            step_work.side_work(events, compiled_steps) or {},
            wallMs=mine["wallMs"],
            wallFrom="profiled steps",
            busyPct=mine["busyPct"],
            launchBound=False,
        )
        # on a CPU the ops' times carry the profiler's overhead: set against the profiled steps, not the steady ones
        assert mine["kernelsPerStep"] > 0 and mine["wallMs"] == mine["profiledStepMs"]
        assert 0 < mine["busyPct"] <= 100
    assert work["text"] == step_work_text.text(
        work, region["inSitu"]["step"], step_work_text.replay_ops(region["measurements"])
    )
    assert work["text"].startswith(
        f"{work['eager']['kernelsPerStep']:.0f} → {work['compiled']['kernelsPerStep']:.0f} ops per step"
    )


DECODE = textwrap.dedent("""
    import torch
    from torch import nn

    torch.manual_seed(0)
    D, VOCAB = 64, 100


    class Decoder(nn.Module):
        def __init__(self):
            super().__init__()
            self.embed = nn.Embedding(VOCAB, D)
            self.qkv = nn.Linear(D, 3 * D)
            self.out = nn.Linear(D, VOCAB)

        def forward(self, token, cache):
            h = self.embed(token)
            q, k, v = self.qkv(h).chunk(3, dim=-1)
            keys = torch.cat([cache["k"], k], dim=1)
            values = torch.cat([cache["v"], v], dim=1)
            att = torch.softmax(q @ keys.transpose(1, 2) / D ** 0.5, dim=-1)
            return self.out(att @ values), {"k": keys, "v": values}


    step = torch.compile(Decoder().eval(), backend="eager")  # MARK: decoder
    with torch.no_grad():
        cache = {"k": torch.zeros(2, 0, D), "v": torch.zeros(2, 0, D)}
        token = torch.zeros(2, 1, dtype=torch.long)
        for _ in range(48):  # generate: each step passes the cache it got back
            logits, cache = step(token, cache)
            token = logits.argmax(-1)
""")


def test_a_generate_loop_passing_its_growing_cache_is_compared_pooled(tmp_path: Path) -> None:
    region = _profiled(tmp_path, "decode.py", DECODE)
    situ = region["inSitu"]
    assert len({c["signature"] for c in region["calls"]}) == 48  # a signature of its own at every call
    # after its first 10 calls (each new signature compiled as written) the region counts as changing: its new
    # signatures run at either stance, carry no input capture, and its steps are pooled
    assert situ["step"]["comparedBy"] == "pooled" and situ["step"]["pairs"] >= 1
    # the observer's work in the interleaved blocks: the sampled state checks (calls 2^k - 1), or an input capture of a
    # new signature before the region counts as changing (which calls those are depends on when this host's warm-up let
    # the switching start); once it is changing, no capture
    from compile_lens_runner.script.regions import CHANGING_AFTER_CALLS

    assert all(
        (c["index"] + 1) & c["index"] == 0 or c["index"] < CHANGING_AFTER_CALLS
        for c in region["calls"]
        if c["block"] and c.get("observer")
    ), [c["index"] for c in region["calls"] if c.get("observer")]
    assert situ["stepsPerSecond"]["eager"] > 0 and situ["stepsPerSecond"]["compiled"] > 0
    assert "not measured" not in region["recommendation"]["reason"]


WARMUP = textwrap.dedent("""
    import torch
    from torch import nn

    model = torch.compile(nn.Sequential(nn.Linear(32, 64), nn.GELU(), nn.Linear(64, 32)), backend="eager")  # MARK: compile
    with torch.inference_mode():
        model(torch.randn(1, 32))  # warm up at batch 1
        model(torch.randn(5, 32))  # the one real call
""")


def test_a_two_call_warmup_script_says_one_thing_about_its_calls(tmp_path: Path) -> None:
    """Called twice, both before the interleaving could begin: no in-situ number, and no verdict quoting one."""
    region = _profiled(tmp_path, "warmup.py", WARMUP)
    situ = region["inSitu"]
    assert (
        situ["step"] is None
        and situ["regionSeconds"] is None
        and "before Compile Lens began running its calls alternately compiled and eager" in situ["reason"]
    )
    assert [c["side"] for c in region["calls"]] == ["compiled", "compiled"]
    assert region["recommendation"]["verdict"] == "none"
    assert "in situ its calls took" not in region["recommendation"]["reason"]


FAILS = textwrap.dedent("""
    import torch


    @torch.compile(fullgraph=True, backend="eager")
    def serve(x):
        y = x * 2
        if x.shape[0] >= 4:
            if y.sum() > 0:  # MARK: branch
                return y + 1
        return y - 1


    for batch in (2, 2, 2, 4):  # the branch is traced only at batch 4
        serve(torch.ones(batch, 8))
""")


def test_a_fullgraph_failure_is_a_finding_at_the_users_line(tmp_path: Path) -> None:
    script = tmp_path / "fails_at_serving.py"
    script.write_text(FAILS)
    line = marker_line(script, "MARK: branch")
    run = run_runner("--script", str(script), "--out", str(tmp_path / "out"), "--quick")
    report = run.report
    assert report["error"]["kind"] == "compile"
    assert f"fails_at_serving.py:{line}: a branch on a tensor's value" in report["error"]["message"]
    assert (
        "torch.where" in report["error"]["fix"]
        and "torch.cond" in report["error"]["fix"]
        and "fullgraph" in report["error"]["fix"]
    )
    region = _region(report)
    failure = region["inSitu"]["failure"]
    assert failure["location"]["line"] == line and failure["index"] == 3
    assert region["recommendation"]["verdict"] != "compile" and report["recommendation"]["verdict"] != "compile"
    assert f"fails_at_serving.py:{line}" in report["recommendation"]["reason"]
    text = json.dumps(report)
    assert "other modes" not in text and "another mode" not in text.lower()


NESTED = textwrap.dedent("""
    import torch
    from torch import nn

    inner = torch.compile(nn.Linear(8, 8), backend="eager")  # MARK: inner


    @torch.compile(backend="eager")  # MARK: outer
    def outer(x):
        return torch.relu(inner(x)) * 2


    other = torch.compile(lambda x: torch.sin(x) + 1, backend="eager")  # MARK: other
    x = torch.randn(4, 8)
    for _ in range(40):
        outer(x)
        other(x)
""")


def test_several_regions_and_a_nested_one_share_one_schedule(tmp_path: Path) -> None:
    script = tmp_path / "nested.py"
    script.write_text(NESTED)
    run = run_runner("--script", str(script), "--out", str(tmp_path / "out"), "--quick")
    assert run.code == 0, run.stderr[-3000:]
    regions = {r["location"]["line"]: r for r in run.report["regions"]}
    inner, outer, other = (regions[marker_line(script, f"MARK: {m}")] for m in ("inner", "outer", "other"))
    schedule = run.report["inSitu"]["schedule"]
    assert schedule["topLevelCalls"] == 80  # outer's and other's calls: inner's are part of outer's
    # a nested call runs in its caller's block; at the compiled stance the caller's graph inlined it (no call of it)
    assert [(c["side"], c["block"]) for c in inner["calls"]] == [
        (c["side"], c["block"]) for c in outer["calls"] if c["side"] == "eager"
    ]
    assert inner["inSitu"]["step"] is None and "inlined" in inner["inSitu"]["reason"]
    for region in (outer, other):  # blocks count both regions' calls: each block is one side for both
        sides: dict[int, set[str]] = {}
        for c in region["calls"]:
            sides.setdefault(c["block"], set()).add(c["side"])
        assert all(len(v) == 1 for v in sides.values()) and {"eager", "compiled"} <= set().union(*sides.values())
        assert region["inSitu"]["step"] is not None and region["inSitu"]["step"]["pairs"] >= 1


SERVICE = textwrap.dedent("""
    import torch

    handle = torch.compile(lambda x: torch.relu(x @ x.T).sum(1), backend="eager")  # MARK: service
    while True:  # a service: it never ends on its own
        handle(torch.randn(64, 64))
""")


def test_a_service_stopped_with_calls_n_stops_at_n(tmp_path: Path) -> None:
    script = tmp_path / "service.py"
    script.write_text(SERVICE)
    run = run_runner("--script", str(script), "--out", str(tmp_path / "out"), "--quick", "--calls", "12")
    assert run.code == 0, run.stderr[-3000:]
    region = _region(run.report)
    situ = region["inSitu"]
    assert region["callCount"] == 12 and situ["compiledCalls"] + situ["eagerCalls"] == 12 and situ["stepsMade"] == 12
    assert situ["eagerCalls"] >= 1  # the interleaving began before the stop


LIBRARY_FAILS = textwrap.dedent("""
    import sys
    import torch

    sys.path.insert(0, sys.argv[1])
    import decoderlib

    serve = torch.compile(decoderlib.serve, fullgraph=True, backend="eager")
    for batch in (2, 2, 2, 4):
        serve(torch.ones(batch, 8))  # MARK: call
""")


def test_a_failure_inside_a_librarys_code_is_said_at_the_users_call(tmp_path: Path) -> None:
    """The compiled function is a library's (as transformers' forward is): no frame of the failure is the user's, so
    the finding names the user's call of it."""
    library = tmp_path / "venv" / "lib" / "python3.12" / "site-packages"
    library.mkdir(parents=True)
    (library / "decoderlib.py").write_text(
        textwrap.dedent(FAILS.split('@torch.compile(fullgraph=True, backend="eager")\n', 1)[1].split("\n\n\n")[0])
    )
    script = tmp_path / "their_server.py"
    script.write_text(LIBRARY_FAILS)
    run = run_runner("--script", str(script), "--out", str(tmp_path / "out"), "--quick", "--", str(library))
    failure = _region(run.report)["inSitu"]["failure"]
    assert failure["location"]["file"] == str(script) and failure["location"]["line"] == marker_line(
        script, "MARK: call"
    )
    assert failure["what"].startswith("a branch on a tensor's value:")  # the user's call is where, not what broke
    assert f"their_server.py:{marker_line(script, 'MARK: call')}" in run.report["recommendation"]["reason"]
