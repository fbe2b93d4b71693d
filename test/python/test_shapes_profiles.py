"""Shapes that change, through the real runner on CPU (issue 43): a growing torch.cat cache decoder, a server with
changing batches under dynamic=False past the recompile limit, a warm-up at another shape (one script, one profile
with its shape fix measured), and transformers' generate() with its default DynamicCache (another). Behaviour only:
which calls a number rests on, the shape facts and the sentence the headline leads with, the eager share; never
speed. backend="eager": Dynamo's guards, recompiles, automatic dynamic and recompile limit are the same, and each
compile costs a fraction of Inductor's; the warm-up alone compiles with Inductor (three graphs of one extern addmm
each), for what its fix run's compile seconds rest on: Inductor's caches."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import pytest
from conftest import marker_line, run_runner

PATTERNS = textwrap.dedent(
    """
    import torch

    torch.manual_seed(0)
    D = 32


    class Decoder(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.emb = torch.nn.Embedding(50, D)
            self.kv = torch.nn.Linear(D, 2 * D)
            self.out = torch.nn.Linear(D, 50)

        def forward(self, tok, k_cache, v_cache):
            x = self.emb(tok)
            k, v = self.kv(x).chunk(2, dim=-1)
            k_cache = torch.cat([k_cache, k], dim=1)  # the cache grows a token a call
            v_cache = torch.cat([v_cache, v], dim=1)
            att = torch.softmax(x @ k_cache.transpose(1, 2), dim=-1)
            return self.out(att @ v_cache), k_cache, v_cache


    class Server(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = torch.nn.Linear(D, D)

        def forward(self, x):
            return torch.relu(self.fc(x))


    class Pooled(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = torch.nn.Linear(D, D)

        def forward(self, x):
            return self.fc(x - x.mean(0))  # mixes rows: padding the batch changes every row


    class Warm(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = torch.nn.Linear(D, D)

        def forward(self, x):
            return self.fc(x)  # Inductor calls addmm: no C++ kernel to build


    decoder = torch.compile(Decoder().eval(), backend="eager")  # MARK: decoder
    with torch.no_grad():
        for _ in range(3):
            tok, k, v = torch.zeros(1, 1, dtype=torch.long), torch.zeros(1, 0, D), torch.zeros(1, 0, D)
            for _ in range(32):
                logits, k, v = decoder(tok, k, v)
                tok = logits.argmax(-1)

    torch._dynamo.config.recompile_limit = 3  # each server's frame: 3 graphs, then its new sizes run eagerly
    server = torch.compile(Server().eval(), backend="eager", dynamic=False)  # MARK: server
    pooled = torch.compile(Pooled().eval(), backend="eager", dynamic=False)
    with torch.no_grad():
        for i in range(72):
            x = torch.randn((i * 5) % 6 + 2, D)
            server(x)  # MARK: server call
            pooled(x)

    warm = torch.compile(Warm().eval(), dynamic=False)  # Inductor: its fix run's compile cache is asserted
    with torch.no_grad():
        warm(torch.randn(1, D))  # MARK: warm-up
        warm(torch.randn(5, D))  # MARK: real call
    """
)

GENERATE = textwrap.dedent(
    """
    import torch
    from transformers import GPT2Config, GPT2LMHeadModel

    torch.manual_seed(0)
    config = GPT2Config(n_layer=1, n_head=2, n_embd=32, vocab_size=64, n_positions=64)
    model = GPT2LMHeadModel(config).eval()
    model.forward = torch.compile(model.forward, backend="eager")
    ids = torch.randint(0, 64, (1, 4))
    with torch.no_grad():
        for _ in range(4):
            model.generate(ids, max_new_tokens=16, do_sample=False, pad_token_id=0)
    """
)


@pytest.fixture(scope="module")
def patterns(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    """One profile of the three patterns, its shape fixes measured (--shape-fix on: whatever the host's speed), with
    an Inductor cache of its own, empty at the start (the script's run compiles cold whatever ran before)."""
    folder = tmp_path_factory.mktemp("shapes")
    script = folder / "patterns.py"
    script.write_text(PATTERNS)
    with pytest.MonkeyPatch.context() as env:
        env.setenv("TORCHINDUCTOR_CACHE_DIR", str(folder / "inductor-cache"))
        run = run_runner(
            "--script", str(script), "--device", "cpu", "--quick", "--shape-fix", "on", "--out", str(folder / "out")
        )
    assert run.report is not None and run.report["status"] == "ok", run.stderr[-3000:]
    return script, run.report


def _region(report: dict[str, Any], name: str) -> dict[str, Any]:
    return next(r for r in report["regions"] if r["name"] == name)


def test_a_growing_cache_has_a_number_per_token_over_the_lengths_one_dynamic_graph_served(
    patterns: tuple[Path, dict[str, Any]],
) -> None:
    script, report = patterns
    region = _region(report, "Decoder")
    assert region["location"]["line"] == marker_line(script, "MARK: decoder")
    situ = region["inSitu"]
    step = situ["step"]
    assert step is not None and step["comparedBy"] == "pooled" and step["pairs"] >= 1
    # pooled: only each side's first step is a first-call cost; the compiled side's new lengths are steady steps
    assert situ["dropped"].get("first on its signature", 0) <= 2 and situ["steadySteps"]["compiled"] >= 10
    assert situ["eagerFallback"] is None
    shapes = region["shapes"]
    assert shapes["loop"] == {"growsBy": 1, "repetitions": 3, "callsPerRepetition": 32}
    assert shapes["changed"][0]["input"] == "k_cache" and shapes["changed"][0]["count"] == 32
    auto = shapes["automaticDynamic"]
    assert auto is not None and auto["servedCalls"] >= 90  # one size-generic graph served the rest
    assert region["headline"].startswith(f"sizes changed at call {auto['call']}: one size-generic recompile")
    assert "per token in situ" in region["headline"]
    assert "compiles included" not in region["headline"]


def _fixes(region: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {f["kind"]: f for f in region["shapes"]["fixes"]}


def test_calls_past_the_recompile_limit_are_left_out_of_the_compiled_side_and_counted_in_the_headline(
    patterns: tuple[Path, dict[str, Any]],
) -> None:
    _, report = patterns
    region = _region(report, "Server")
    situ = region["inSitu"]
    fallback = situ["eagerFallback"]
    # each such call but the script's last left out one step (the last call starts no step: review 3C R9)
    last = region["calls"][-1]
    ends_eager = last.get("side") == "compiled" and last["ranCompiled"] is False
    assert fallback is not None and fallback["calls"] == situ["dropped"]["ran eagerly"] + ends_eager
    assert fallback["calls"] == sum(
        1 for c in region["calls"] if c.get("side") == "compiled" and c["ranCompiled"] is False
    )
    step = situ["step"]
    assert step is not None  # a number over the calls compiled code served
    served = {c["signature"] for c in region["calls"] if c.get("side") == "compiled" and c["ranCompiled"] is True}
    assert {s["signature"] for s in step["signatures"]} <= served
    limit = region["shapes"]["recompileLimit"]
    assert limit["limit"] == 3 and limit["graphs"] == 3 and limit["sizes"] == 6 and limit["eagerSizes"] == 3
    # its compile total counts the limit's attempt at its frame, which no call claims, as the compile phases draw it
    # (review 6B T: "530 ms compiling" beside rows adding up to 536.6 ms)
    compiler = region["compiler"]
    frame = compiler["frames"][0]["compileId"].split("/")[0]
    script = next(m for m in report["modes"] if m["mode"] == "script")["compiler"]
    drawn = [f["seconds"] for f in script["frames"] if f["compileId"].split("/")[0] == frame]
    assert len(drawn) == 4 and any(f.get("recompileLimitHit") for f in compiler["compileFailures"])
    assert compiler["compileSeconds"]["total"] == pytest.approx(sum(drawn), abs=0.002)
    assert region["headline"].startswith(
        f"6 sizes of x's dimension 0 hit the recompile limit (3): {limit['eagerCalls']} of 72 calls ran eagerly · "
    )
    assert region["answer"]["sentence"].startswith(
        "dynamic=False with 6 sizes of x's dimension 0: 3 compiled, then the recompile limit (3) ran "
        f"{limit['eagerCalls']} of 72 calls eagerly: "
    )


def test_past_the_recompile_limit_mark_dynamic_on_the_batch_dimension_is_measured_beside_dynamic_true_and_buckets(
    patterns: tuple[Path, dict[str, Any]],
) -> None:
    """Every fix a --shape-fix on profile plans for the server, each in a run of its own (one fix per region per run):
    mark_dynamic on the one dimension that changed, dynamic=True, and buckets (the server's rows are independent)."""
    script, report = patterns
    region = _region(report, "Server")
    fixes = _fixes(region)
    assert [f["kind"] for f in region["shapes"]["fixes"]] == ["mark-dynamic", "dynamic", "buckets"]
    marked = fixes["mark-dynamic"]
    assert (
        marked["measured"]
        and marked["fix"] == "x's dimension 0 marked dynamic (mark_dynamic)"
        and marked["graphs"] == 1
    )
    assert marked["eagerFallback"] is None and (marked["step"] or marked["call"]) is not None
    assert fixes["dynamic"]["measured"] and fixes["dynamic"]["graphs"] == 1
    buckets = fixes["buckets"]
    assert buckets["measured"] and buckets["fix"] == "buckets of 2, 4, 8" and buckets["eagerFallback"] is None
    assert buckets["graphs"] == 3  # one per bucket, every size served compiled
    # the sentence says each after the answer's own number, in the order measured (the headline is the verdict and
    # its number)
    sentence = region["answer"]["sentence"]
    said = [
        sentence.index(f" With {f}: ")
        for f in ("x's dimension 0 marked dynamic (mark_dynamic)", "dynamic=True", "buckets of 2, 4, 8")
    ]
    assert (
        said == sorted(said)
        and " With x's dimension 0 marked dynamic (mark_dynamic): 1 graph instead of 3, " in sentence
        and " · with " not in region["headline"]
    )
    assert region["shapes"].get("measure") is None  # --shape-fix on: nothing left out
    # where the editor offers the edits (Problems, the Quick Fix), the measurements are said too
    (site,) = region["compiler"]["recompileSites"]
    explanation = site["explanation"]
    assert (
        "Measured on this script's own calls with x's dimension 0 marked dynamic (mark_dynamic): 1 graph instead of 3"
        in explanation["fix"]
    )
    assert "Measured on this script's own calls with dynamic=True: 1 graph instead of 3" in explanation["fix"]
    assert explanation["quickFix"]["kind"] == "compile-dynamic" and "(measured: " in explanation["quickFix"]["title"]
    (mark,) = explanation["quickFixes"]
    line = marker_line(script, "MARK: server call")
    assert mark["kind"] == "mark-dynamic" and mark["title"].startswith(
        f"Compile Lens: Mark the dimension that changes dynamic before the call (line {line}: mark_dynamic(x, 0)) "
        "(measured: 1 graph instead of 3, "
    )
    assert mark["edits"] == [
        {
            "line": line,
            "column": 8,
            "endColumn": 17,
            "expect": "server(x)",
            "text": "torch._dynamo.mark_dynamic(x, 0)\n        server(x)",
        }
    ]
    # the script's own insight (the editor's findings) offers the same edit at that line
    script_sites = report["modes"][-1]["compiler"]["recompileSites"]
    offered = [q for s in script_sites for q in (s.get("explanation") or {}).get("quickFixes", [])]
    assert [q["edits"] for q in offered if q["edits"][0]["expect"] == "server(x)"] == [mark["edits"]]


def test_buckets_are_refused_for_a_call_that_mixes_rows_and_say_what_padding_changed(
    patterns: tuple[Path, dict[str, Any]],
) -> None:
    _, report = patterns
    region = _region(report, "Pooled")
    fixes = _fixes(region)
    assert fixes["mark-dynamic"]["measured"] and fixes["dynamic"]["measured"]
    refused = fixes["buckets"]
    assert refused["measured"] is False and refused["whyCode"] == "refused"
    assert "changes what it returns (its outputs cut back differ from the call's own by up to " in refused["why"]
    assert "Buckets of 2, 4, 8 not measured: padding a call of size " in region["answer"]["sentence"]


def test_a_warm_up_at_another_shape_leads_with_the_graph_no_real_call_used_and_its_fix_is_measured(
    patterns: tuple[Path, dict[str, Any]],
) -> None:
    script, report = patterns
    region = _region(report, "Warm")
    warm = region["shapes"]["warmup"]
    assert (warm["warmupSize"], warm["realSize"], warm["realCalls"]) == (1, 5, 1)
    assert warm["warmupLine"] == marker_line(script, "MARK: warm-up")
    assert warm["recompileSeconds"] is not None
    assert region["headline"].startswith(
        f"the warm-up at size 1 (line {warm['warmupLine']}) compiled a graph size 5 never used · "
    )
    # the call's whole time where it holds its recompile, as the measured fix says that call (review 3C R14)
    assert region["answer"]["sentence"].startswith(
        f"The warm-up at x's size 1 in dimension 0 (line {warm['warmupLine']}) compiled a graph the real call at size 5 "
        "never used; that call took "
    )
    (fix,) = region["shapes"]["fixes"]
    assert fix["measured"] and fix["fix"] == "a warm-up at size 5" and fix["graphs"] == 1
    # the script's run compiled the batch-5 graph into its cache; the fix run compiles it again, into an empty cache
    # of its own (gone after it): no hit, so its compile seconds are a cold compile's, as the script's run's are
    assert region["compiler"]["cache"]["fxGraph"] == {"hit": 0, "miss": 2, "bypass": 0}
    assert fix["compileCache"]["script"]["hits"] == 0 and fix["compileCache"]["fix"]["hits"] == 0
    assert fix["compileCache"]["fix"]["lookups"] >= 1 and fix["compileSeconds"] > 0
    fix_run = script.parent / "out" / "shape_fix"
    assert (fix_run / "report.json").exists() and not (fix_run / "compile-cache").exists()
    # the measured fix is the sentence's; both cold: the seconds are compared as they are
    sentence = region["answer"]["sentence"]
    assert "from a warm cache" not in sentence and "from a cold cache" not in sentence
    assert fix["realCallMs"] is not None and "With a warm-up at size 5: 1 graph instead of 2" in sentence
    quick = region["compiler"]["recompileSites"][0]["explanation"]["quickFix"]
    assert quick["kind"] == "warmup-shape" and "(measured: 1 graph instead of 2, the first real call " in quick["title"]


def test_generate_with_its_dynamic_cache_gets_a_number_per_token(tmp_path: Path) -> None:
    script = tmp_path / "generate.py"
    script.write_text(GENERATE)
    run = run_runner(
        "--script", str(script), "--device", "cpu", "--quick", "--shape-fix", "off", "--out", str(tmp_path / "out")
    )
    assert run.report is not None and run.report["status"] == "ok", run.stderr[-3000:]
    (region,) = run.report["regions"]
    # the cache's length is in each call's signature: it grows a token a call, 4 sequences
    assert any("DynamicCache[length " in c["signature"] for c in region["calls"])
    shapes = region["shapes"]
    assert shapes["loop"] is not None and shapes["loop"]["repetitions"] == 4 and shapes["loop"]["growsBy"] == 1
    step = region["inSitu"]["step"]
    # pooled or matched by signature: which, depends on how the host's timing cut the blocks (positions repeat per
    # generate()), so only that there is a number is asserted
    assert step is not None and step["comparedBy"] in ("pooled", "matched-mix", "signature")
    assert "per token in situ" in region["headline"] and "compiles included" not in region["headline"]
    assert "fixes" not in shapes  # --shape-fix off
