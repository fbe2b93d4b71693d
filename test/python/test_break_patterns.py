"""The graph-break pattern table against real breaks: every script in test/fixtures/break_patterns/ is run on this CPU
in one process under TORCH_TRACE (backend="eager": the breaks are Dynamo's, no kernels need compiling), and each
break the log holds must be explained by the pattern the script is about, naming what broke, with the runner's fix.
The transformer fast path breaks only on CUDA (torch 2.11, fp16, dynamic=True): its H100 log is read instead."""

from __future__ import annotations

import glob
import gzip
import importlib.util
import json
import os
import re

import pytest
from compile_lens_runner import formats
from compile_lens_runner.compiler import break_patterns
from compile_lens_runner.compiler import torch_trace as tt
from compile_lens_runner.compiler.insight import compiler_insight, graph_break
from conftest import run_python

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPTS = os.path.join(ROOT, "test", "fixtures", "break_patterns")
H100 = os.path.join(ROOT, "test", "fixtures", "why")
# script -> (pattern of its first break, what PyTorch's text must name as what broke; None: the pattern needs no name)
# script -> the condition of its `if` its fix quotes (item_branch.py: `if x.sum().item() > 0:`)
CONDITIONS = {"item_branch": "x.sum() > 0"}
EXPECTED = {
    "autograd_function": ("autograd-function", "ctx.mark_dirty"),
    "backward_inside": ("backward-inside", "Tensor.backward"),
    "c_extension": ("c-extension", "zlib.crc32"),
    "compiler_disable": ("compiler-disable", "helper"),
    "data_branch": ("data-dependent-branch", None),
    "ddp_forward": ("ddp-internals", "Logger.set_runtime_stats_and_log"),
    "deepcopy_tensor": ("deepcopy-tensor", "copy.deepcopy"),
    "explicit_break": ("explicit-break", None),
    "item_branch": ("item-branch", "Tensor.item"),
    "item_call": ("item", "Tensor.item"),
    "logging_call": ("logging", "Logger.warning"),
    "no_fake_op": ("no-fake-kernel", "compile_lens_patterns.scale"),
    "nonzero_shape": ("dynamic-output-shape", "aten.nonzero"),
    "numpy_random": ("numpy-random", None),
    "numpy_roundtrip": ("numpy-roundtrip", "interp"),
    "print_call": ("print", "print"),
    "print_reordered": ("print-not-reorderable", None),
    "timing_call": ("host-timing", "time.perf_counter"),
    "tolist_call": ("tolist", "Tensor.tolist"),
}
_DRIVER = """
import glob, importlib.util, os, sys
import torch
from compile_lens_runner.compiler import torch_trace as tt
from compile_lens_runner import formats
for path in sorted(glob.glob(os.path.join(sys.argv[1], "*.py"))):
    name = os.path.basename(path)[:-3]
    tt.mark(name, "pattern")
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.main()
    torch._dynamo.reset()
"""


@pytest.fixture(scope="module")
def breaks(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[dict]]:
    pytest.importorskip("torch")
    trace = tmp_path_factory.mktemp("trace")
    env = dict(os.environ, TORCH_TRACE=str(trace), PYTHONPATH=os.path.join(ROOT, "native-runner"))
    driver = run_python("-c", _DRIVER, SCRIPTS, env=env)
    assert driver.returncode == 0, driver.stderr[-3000:]
    (log,) = glob.glob(str(trace / "*.log"))
    with open(log) as f:
        records = tt.parse(f.read())
    found: dict[str, list[dict]] = {}
    for record in records:
        if record.artifact == "dynamo_graph_break_reason":
            found.setdefault(str(record.mode), []).append(graph_break(record))
    return found


def test_the_table_has_every_script_and_more_than_fifteen_patterns() -> None:
    scripts = {os.path.basename(p)[:-3] for p in glob.glob(os.path.join(SCRIPTS, "*.py"))}
    assert scripts == set(EXPECTED)
    assert len(break_patterns.PATTERNS) >= 15
    assert len({p.id for p in break_patterns.PATTERNS}) == len(break_patterns.PATTERNS)


@pytest.mark.parametrize("script", sorted(EXPECTED))
def test_each_real_break_is_explained_by_its_pattern(breaks: dict[str, list[dict]], script: str) -> None:
    pattern, broke = EXPECTED[script]
    first = breaks[script][0]
    explanation = first["explanation"]
    assert explanation is not None, first["reason"]
    assert explanation["pattern"] == pattern
    assert explanation["fix"] == formats.fix_words(break_patterns.get(pattern).said_fix(CONDITIONS.get(script)))
    if broke is not None:
        assert explanation["broke"] == broke
        assert broke.rsplit(".", 1)[-1].lower() in explanation["what"].lower()  # the sentence names it too
    # the user's line in the script is where the finding goes (DDP and deepcopy break inside a library's frame)
    assert first["location"] is not None and first["location"]["file"].endswith(f"{script}.py")
    assert first["brokeAt"] is not None


def test_a_break_inside_a_library_names_the_library_frame(breaks: dict[str, list[dict]]) -> None:
    ddp = breaks["ddp_forward"][0]
    assert ddp["brokeAt"]["library"] is True and ddp["brokeAt"]["file"].endswith("distributed.py")
    assert "set_runtime_stats_and_log" in (ddp["brokeAt"]["code"] or "")
    assert breaks["print_call"][0]["brokeAt"]["library"] is False


def test_a_break_outside_the_table_has_no_explanation_rather_than_a_guess() -> None:
    assert break_patterns.explain("GB0092", "Reconstruction failure: Dynamo has no bytecode reconstruction") is None
    assert break_patterns.explain(None, "something entirely new") is None


def test_the_ddp_breaks_of_a_torchrun_job_say_to_compile_the_model_inside_ddp() -> None:
    """torch.compile(DDP(model)) breaks inside DDP's forward, on both ranks of a torchrun job (bench/scripts/ddp_train.py
    recorded, its paths named from the repository): the fix is PyTorch's documented one, compiling the module DDP
    wraps, not the wrapper the script already compiled. The lines the report quotes are the script's as it is."""
    with open(os.path.join(ROOT, "test", "fixtures", "reports", "ddp-ranks-cpu", "report.json")) as f:
        region = json.load(f)["regions"][0]
    with open(os.path.join(ROOT, region["location"]["file"])) as f:
        script = f.read().splitlines()
    assert "torch.compile(DDP(" in region["location"]["code"]
    assert region["location"]["code"] == script[region["location"]["line"] - 1].strip()
    breaks = region["compiler"]["graphBreaks"]
    assert [gb["ranks"] for gb in breaks] == [[0, 1], [0, 1]]
    assert {script[gb["location"]["line"] - 1].strip() for gb in breaks} == {"loss = train_model(x).square().mean()"}
    explained = [gb["explanation"] for gb in breaks]
    assert {e["pattern"] for e in explained} == {"ddp-internals"}
    assert {e["broke"] for e in explained} == {
        "Logger.set_runtime_stats_and_log",
        "DistributedDataParallel._inside_ddp_forward",
    }
    assert all(
        e["fix"].startswith("compile the model inside DDP, not DDP itself, with model.compile()") for e in explained
    )


def _h100(name: str) -> list[tt.Record]:
    with gzip.open(os.path.join(H100, name), "rt") as f:
        return tt.parse(f.read())


def test_the_transformer_fast_path_break_recorded_on_the_h100() -> None:
    insight = compiler_insight(_h100("encoder_fastpath.plain.log.gz"), lambda record: None, cudagraphs=False)
    (gb,) = insight["graphBreaks"]
    assert gb["gbId"] == "GB0090"
    assert gb["explanation"]["pattern"] == "transformer-fast-path"
    assert gb["explanation"]["broke"] == "aten._transformer_encoder_layer_fwd"
    assert gb["explanation"]["quickFix"]["kind"] == "fastpath-off"
    assert gb["explanation"]["quickFix"]["statement"] == "torch.backends.mha.set_fastpath_enabled(False)"
    assert "torch.backends.mha.set_fastpath_enabled(False)" in gb["explanation"]["fix"]
    # the frame that broke is torch's own TransformerEncoderLayer.forward; the user's line is the call
    assert gb["brokeAt"]["library"] is True and gb["brokeAt"]["code"].startswith(
        "return torch._transformer_encoder_layer_fwd("
    )
    assert gb["location"]["file"].endswith("encoder_fastpath.py")
    assert insight["graphCount"] == 0


def test_the_docs_page_is_the_runners_table() -> None:
    """docs/GRAPH-BREAKS.md's table is written from break_patterns.py (scripts/graph_breaks_doc.py): the page and the
    texts in reports cannot drift apart, and every pattern names the script that makes it."""
    spec = importlib.util.spec_from_file_location(
        "graph_breaks_doc", os.path.join(ROOT, "scripts", "graph_breaks_doc.py")
    )
    assert spec is not None and spec.loader is not None
    doc = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(doc)
    with open(os.path.join(ROOT, "docs", "GRAPH-BREAKS.md"), encoding="utf-8") as f:
        page = f.read()
    table = doc.table()
    assert table in page, "run python3 scripts/graph_breaks_doc.py"
    assert table.count("\n| `") == len(break_patterns.PATTERNS)
    scripted = {EXPECTED[name][0] for name in EXPECTED}
    assert all(f"break_patterns/{name}.py" in table for name in EXPECTED)
    assert {p.id for p in break_patterns.PATTERNS} - scripted == {
        "transformer-fast-path",
        "data-dependent-scalar",
        "skipped-function",
    }


def test_an_item_branch_fix_quotes_the_user_s_own_condition() -> None:
    """Review 4C X5: the fix quoted a generic "x.sum() > 0" where explore.ipynb's line is `if h.mean().item() > 0:`;
    generic words only where the line is not in the break's text."""
    with open(os.path.join(ROOT, "test", "fixtures", "recorded", "explore-cpu", "report.json")) as f:
        report = json.load(f)
    gb = next(b for b in report["regions"][0]["compiler"]["graphBreaks"] if b.get("gbId") == "GB0124")
    said = break_patterns.explain_recorded(gb)
    assert said is not None and "keeping the condition a tensor (`h.mean() > 0`, without .item())" in said["fix"]
    bare = break_patterns.explain("GB0124", "Tensor.item()\n    if h.mean().item() > 0:")
    assert bare is not None and "(`h.mean() > 0`, without .item())" in bare["fix"]
    unread = break_patterns.get("item-branch").said_fix(None)
    assert "(x.sum() > 0, without .item())" in unread and "{" not in unread
    # the condition alone, not the line's colon and comment (review 5A G1: "x.sum() > 0: # graph break: …")
    commented = break_patterns.explain("GB0124", "Tensor.item()\n    if x.sum().item() > 0:  # graph break: .item()")
    assert commented is not None and "(`x.sum() > 0`, without .item())" in commented["fix"]
    both = break_patterns.explain("GB0124", "Tensor.item()\n    if (a.item()) and (b.item()):")
    assert both is not None and "(`(a) and (b)`, without .item())" in both["fix"]


def test_an_item_in_an_if_gets_the_branch_fix_also_where_an_older_runner_matched_it() -> None:
    """Review 3A M11: `if x.sum().item() > 0:` was told "x / x.max() instead of x / x.max().item()" (the item
    pattern's arithmetic fix); graphbreak-cpu recorded it so."""
    with open(os.path.join(ROOT, "test", "fixtures", "reports", "graphbreak-cpu", "report.json")) as f:
        (gb,) = [b for b in json.load(f)["modes"][0]["compiler"]["graphBreaks"] if b.get("gbId") == "GB0124"]
    recorded = {**gb, "explanation": {**gb["explanation"], "pattern": "item"}}
    said = break_patterns.explain_recorded(recorded)
    assert said is not None and said["pattern"] == "item-branch" and "torch.where" in said["fix"]
    assert "x.max()" not in said["fix"]
    assert (break_patterns.explain("GB0124", "Tensor.item()\n    scale = x.max().item()") or {}).get(
        "pattern"
    ) == "item"


def test_a_break_s_fix_reads_after_the_editor_s_fix_as_every_fix_of_a_page() -> None:
    """Review 22Y Y1: the panel's and the hover's "Fix: Move the print out …" beside the runner's "Fix: mark …": a
    break's fix is said as formats.fix says every fix, lower case after "Fix:", a name kept (DDP, torch.compile)."""
    printed = break_patterns.explain("GB0059", "Failed to trace builtin operator `print`")
    assert printed is not None and printed["fix"].startswith("move the print out of the compiled function")
    assert f"Fix: {printed['fix']}" == formats.fix(break_patterns.get("print").fix)
    branch = break_patterns.explain("GB0124", "Tensor.item()\n    if h.mean().item() > 0:")
    assert branch is not None and branch["fix"].startswith(
        "make it branchless by keeping the condition a tensor (`h.mean()"
    )
    for pattern in break_patterns.PATTERNS:
        said = formats.fix_words(pattern.said_fix())
        assert said.endswith(".") and not said.endswith("..") and not re.match(r"[A-Z][a-z]+ ", said), pattern.id
    # a region that ran no compiled code says its break's fix, re-derived from an older runner's capital too
    with open(os.path.join(ROOT, "test", "fixtures", "recorded", "encoder_fastpath-h200", "report.json")) as f:
        [region] = json.load(f)["regions"]
    assert region["noCompiledCode"]["fix"].startswith("turn the fast path off before compiling")
