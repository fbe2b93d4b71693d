"""CUDA graphs skipped, from logs recorded on an H100 (test/fixtures/why/README.md): a static-KV-cache decoder compiled
with mode="reduce-overhead", fullgraph=True whose caches are arguments mutated by index_copy_. PyTorch decides the skip
at the graph's first run, outside any compile: the runner's copy of the warning carries no compile id, and a plain
TORCH_TRACE log never sees it. Each skip must reach its compile (and so its region), the user's line and tensors, the
cost and the fix; where the log cannot say, the status says so."""

from __future__ import annotations

import gzip
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from compile_lens_runner.compiler import cudagraphs
from compile_lens_runner.compiler import torch_trace as tt
from compile_lens_runner.compiler.insight import compiler_insight
from compile_lens_runner.script.region_entry import RegionRecords
from conftest import REPO
from test_inspect import inspect

WHY = REPO / "test" / "fixtures" / "why"


def _records(name: str) -> list[tt.Record]:
    with gzip.open(WHY / name, "rt") as f:
        return tt.parse(f.read())


def _compile_ids(records: list[tt.Record]) -> list[str]:
    return [
        str(r.meta["compile_id"]) for r in records if r.kind == "compilation_metrics" and r.meta.get("graph_op_count")
    ]


def test_each_run_time_skip_goes_to_its_own_compile_and_the_mutating_line() -> None:
    records = _records("decode_static.runner.log.gz")
    skips = [r for r in records if r.artifact == tt.CUDAGRAPH_SKIP]
    assert skips and all((r.payload_json() or {}).get("compileId") is None for r in skips)  # as recorded: no compile id
    cudagraphs.attribute(records)
    compiled = _compile_ids(records)
    # one warning per compiled graph (cudagraph_trees warns once per function), each after its own compile
    assert sorted(str(r.compile_id) for r in skips) == sorted(compiled)
    statuses = compiler_insight(records, lambda record: None, cudagraphs=True)["cudaGraphs"]
    assert [s["status"] for s in statuses] == ["skipped"] * len(compiled)
    skip = statuses[0]["explanation"]
    assert skip["kind"] == "mutated-inputs"
    assert Path(skip["location"]["file"]).name == "decode_static.py"
    source = (WHY / "decode_static.py").read_text().split("\n")
    assert source[skip["location"]["line"] - 1].strip() == skip["location"]["code"] == "kc.index_copy_(2, pos, k)"
    assert skip["tensors"] == ["kc"]
    assert (
        "4 of its inputs" in skip["what"]
        and "register_buffer" in skip["fix"]
        and "mark_static_address" not in skip["fix"]
    )
    assert "launches its kernels one by one" in skip["cost"]


def test_the_region_of_those_compiles_sees_the_skip() -> None:
    """Before: the region's own records held no skip (no compile id), so it read not-captured with no reason."""
    records = _records("decode_static.runner.log.gz")
    region = SimpleNamespace(compile_ids=_compile_ids(records))
    own = RegionRecords(region, records)  # type: ignore[arg-type]
    statuses = compiler_insight(own.records, lambda record: None, cudagraphs=True)["cudaGraphs"]
    assert {s["status"] for s in statuses} == {"skipped"} and all(
        s["explanation"]["kind"] == "mutated-inputs" for s in statuses
    )


def test_a_log_that_never_saw_the_warning_says_it_cannot_say() -> None:
    statuses = compiler_insight(_records("decode_static.plain.log.gz"), lambda record: None, cudagraphs=True)[
        "cudaGraphs"
    ]
    assert statuses and {s["status"] for s in statuses} == {"unknown"}
    assert all("cannot say" in s["reason"] and "TORCH_LOGS=cudagraphs" in s["reason"] for s in statuses)
    # the console of that run had it: the log is what lacks it
    assert "skipping cudagraphs due to mutated inputs" in (WHY / "decode_static.stderr.txt").read_text()


def _graphs(report: dict[str, Any]) -> list[dict[str, Any]]:
    return [g for mode in report["modes"] for g in (mode["compiler"] or {}).get("cudaGraphs") or []]


def test_inspect_of_both_logs(tmp_path: Path) -> None:
    runner = inspect(WHY / "decode_static.runner.log.gz", out=tmp_path / "runner")
    assert {g["status"] for g in _graphs(runner)} == {"skipped"}
    assert {g["explanation"]["location"]["line"] for g in _graphs(runner)} == {21}
    plain = inspect(WHY / "decode_static.plain.log.gz", out=tmp_path / "plain")
    assert {g["status"] for g in _graphs(plain)} == {"unknown"}
    # a CPU log (no CUDA graphs set up) lists none rather than "unknown"
    cpu = inspect(REPO / "test" / "fixtures" / "logs" / "ddp-diverge-rank0.log", out=tmp_path / "cpu")
    assert _graphs(cpu) == []


def test_pytorchs_other_skip_messages_in_the_users_terms() -> None:
    """Messages as torch/_inductor/{cudagraph_utils,compile_fx,cudagraph_trees}.py format them."""
    where = ' Found from : \n   File "/home/u/serve.py", line 9, in forward\n    mask = torch.ones(4).bool()\n'
    cases = {
        "skipping cudagraphs due to cpu device (arg1_1)." + where: "cpu-device",
        "disabling cudagraphs due to incompatible op aten._local_scalar_dense.default Found from"
        + where: "incompatible-op",
        "skipping cudagraphs due to graph with symbolic shapes inputs and config.triton.cudagraph_skip_dynamic_graphs=True.": "dynamic-shapes",
        "skipping cudagraph due to function 3 exceeding max re-recording limit (=128) on cudagraph node 2 due to static input data pointer changed.": "rerecord-limit",
        "skipping cudagraphs due to multiple devices: device(type='cuda', index=0), device(type='cuda', index=1)": "multiple-devices",
        "skipping cudagraphs due to index_put_ fallback with boolean indexing is not compatible with CUDA graphs": "boolean-index-put",
        "skipping cudagraphs due to something new": "other",
    }
    many = (
        "CUDAGraph supports dynamic shapes by recording a new graph for each distinct input size. Recording too many "
        "CUDAGraphs may lead to extra overhead. We have observed 9 distinct sizes. Please consider the following options "
        "for better performance: a) padding inputs to a few fixed number of shapes; or b) set "
        "torch._inductor.config.triton.cudagraph_skip_dynamic_graphs=True."
    )
    cases[many] = "many-sizes"
    for message, kind in cases.items():
        skip = cudagraphs.explain(message)
        assert skip["kind"] == kind, message
        assert skip["cost"]
        assert (skip["fix"] is None) == (kind == "other")
    cpu = cudagraphs.explain("skipping cudagraphs due to cpu device (arg1_1)." + where)
    assert cpu["location"]["line"] == 9 and "arg1_1" in cpu["what"] and "serve.py:9" in cpu["what"]
    assert (
        "aten._local_scalar_dense.default"
        in cudagraphs.explain("disabling cudagraphs due to incompatible op aten._local_scalar_dense.default")["what"]
    )


def test_a_warning_that_is_not_a_skip_is_a_hint_on_its_graph() -> None:
    """The runner copies every cudagraphs warning: "observed N distinct sizes" is advice about a captured graph, not a skip."""
    records = _records("decode_static.runner.log.gz")
    for i, r in enumerate(records):
        if r.artifact == tt.CUDAGRAPH_SKIP:
            records[i] = tt.Record(
                r.kind,
                r.meta,
                r.payload.replace(
                    "skipping cudagraphs due to mutated inputs (4 instances)",
                    "CUDAGraph supports dynamic shapes. We have observed 9 distinct sizes",
                ),
                r.compile_id,
                r.mode,
                r.phase,
                r.strings,
            )
    statuses = compiler_insight(records, lambda record: None, cudagraphs=True)["cudaGraphs"]
    assert {s["status"] for s in statuses} == {"not-captured"}
    assert statuses[0]["hints"][0]["kind"] == "many-sizes" and "9 sizes" in statuses[0]["hints"][0]["what"]


def test_a_region_sees_the_graphs_recorded_at_its_calls() -> None:
    """reduce-overhead over 6 batch sizes, profiled as a script on an H200 (bench/shapes/cudagraphs.py, 2026-11-30):
    each graph is recorded at a call, outside any compile, so its CUDAGraphNode.record event has no compile id in
    its log line, only in its args. The region's own records dropped them, and its report said "0 of 6 graphs
    captured" beside "reduce-overhead recorded a CUDA graph for each of 6 batch sizes, holding 156 MiB"."""
    records = _records("cudagraphs_sizes.runner.log.gz")
    compiled = _compile_ids(records)
    assert len(compiled) == 6
    own = RegionRecords(SimpleNamespace(compile_ids=compiled), records)  # type: ignore[arg-type]
    statuses = compiler_insight(own.records, lambda record: None, cudagraphs=True)["cudaGraphs"]
    assert [s["status"] for s in statuses] == ["captured"] * 6


def test_a_default_mode_run_on_cuda_says_no_cuda_graphs_in_its_fixes() -> None:
    """Whether a run used CUDA graphs is read from its log, not its device: an H200 fine-tuning loop compiled with
    torch.compile's defaults was told "CUDA graphs still record one graph per size" in its recompile's fix (session 31,
    bench/scripts/hf_train.py), while a reduce-overhead decode loop's log says it used them."""
    assert cudagraphs.used(_records("decode_static.runner.log.gz"))
    log = REPO / "test" / "fixtures" / "logs" / "h200-hf-train-parts.log"
    records = tt.parse(log.read_text())
    assert not cudagraphs.used(records)
    insight = compiler_insight(records, lambda record: None, cudagraphs=cudagraphs.used(records))
    fixes = [r["explanation"]["fix"] for r in insight["recompiles"] if r.get("explanation")]
    assert fixes and not any("CUDA graph" in f for f in fixes)
