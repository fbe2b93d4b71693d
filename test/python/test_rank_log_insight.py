"""A rank stopped before its report is read from its compiler log, by the rule a script's and `inspect`'s insight
use (compiler/cudagraphs.used): an older runner read every such rank as if it had made no CUDA graphs."""

from __future__ import annotations

from pathlib import Path

from compile_lens_runner.ranks.merge import Job, _log_insight

LOGS = Path(__file__).resolve().parents[1] / "fixtures" / "logs"
MARK = (
    'V1130 13:22:04.000000 533 compile_lens_runner/compiler/torch_trace.py:505] {"artifact": {"name": '
    '"compile_lens_marker", "encoding": "json"}, "has_payload": "0"}\n\t{\n\t"mode": "script",\n\t"phase": "script"\n\t}\n'
)


def test_a_stopped_ranks_log_says_the_cuda_graphs_it_skipped(tmp_path: Path) -> None:
    log = (LOGS / "h200-timm-warmup-1.log").read_text()
    skipped = '"fail_reason": null, "cudagraph_skip_reason": "skipping cudagraphs due to mutated inputs (1 instances)"}'
    trace = tmp_path / "ranks" / "rank1" / "torch_trace"
    trace.mkdir(parents=True)
    (trace / "rank1.log").write_text(MARK + log.replace('"fail_reason": null}', skipped))
    insight = _log_insight(Job(dir=str(tmp_path), out=str(tmp_path)), 1)
    assert insight is not None and len(insight["recompiles"]) == 1  # the rank's script records, read
    assert insight["cudaGraphs"], "the CUDA graphs its log recorded"
