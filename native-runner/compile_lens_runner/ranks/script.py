"""Script mode on one rank of a torchrun job (a script.mode.RankObserver): no replay (a rank replaying alone would
wait in its collectives for ranks that do not run them), a profiler window over the script's own calls instead
(script/window.py), the rank's facts in `report["rank"]`, and the report a rank writes when stopped (stop.py)."""

from __future__ import annotations

import os

from ..compiler import torch_trace as tt
from ..compiler.cudagraphs import used as cuda_graphs_used
from ..compiler.insight import compiler_insight
from ..report import reason_text
from ..run import Run
from ..script import region_entry
from ..script.calls import resolve_all
from ..script.regions import RegionRecorder
from ..script.window import ProfileWindow
from ..shapes.mode import ModeResult
from ..shapes.ranks import RankSelf
from ..shapes.report import Report
from . import stop
from .paths import RankInfo, trace_name


class RankScript:
    def __init__(self, info: RankInfo) -> None:
        self.info = info
        self.trace_path = os.path.join(info.dir, trace_name(info.rank))
        self.window = ProfileWindow(self.trace_path)
        self.no_replay = reason_text.TORCHRUN_RANK
        self.script_ended = False

    @property
    def world_size(self) -> int:
        return self.info.world_size

    def arm(self, run: Run, entry: ModeResult, recorder: RegionRecorder, mode: str) -> None:
        stop.set_snapshot(lambda: self.stopped_report(run, entry, recorder, mode))

    def ended(self, run: Run) -> None:
        self.window.finish()
        self.script_ended = True
        run.report["rank"] = self.facts()

    def facts(self) -> RankSelf:
        """report["rank"]: who this rank was and its profiler trace (relative to this report's directory)."""
        trace = os.path.relpath(self.trace_path, self.info.worker_dir) if os.path.exists(self.trace_path) else None
        facts: RankSelf = {
            "rank": self.info.rank,
            "localRank": self.info.local_rank,
            "worldSize": self.info.world_size,
            "trace": trace,
            "window": self.window.describe(),
        }
        if self.info.attached:
            facts["host"], facts["nodeRank"] = self.info.host, self.info.node_rank
        return facts

    def stopped_report(self, run: Run, entry: ModeResult, recorder: RegionRecorder, mode: str) -> Report:
        """The rank's report when SIGTERM stops it before the worker finished: the compiler's log so far, the calls
        recorded so far (a CUDA call whose end has not run yet has no duration), nothing measured."""
        records = [r for r in tt.LogFollower(run.trace_dir).read() if r.mode == mode]
        cudagraphs = run.device == "cuda" and cuda_graphs_used(records)
        insight = compiler_insight(
            records, lambda record: "a call made by the script", cudagraphs=cudagraphs, on_cpu=run.device == "cpu"
        )
        insight["torchTraceLog"] = run.trace_log_relpath()
        script: ModeResult = {**entry, "compiler": insight, "compileSeconds": insight["compileSeconds"]["total"]}
        if not self.script_ended:
            script.update(
                {
                    "status": "error",
                    "error": {
                        "kind": "cancelled",
                        "message": f"Rank {self.info.rank} was stopped (SIGTERM) before its script ended.",
                        "fix": "torchrun stops every rank once one fails; see the failing rank. A cancel or --timeout stops them too.",
                        "traceback": None,
                    },
                }
            )
        regions = []
        for region in list(recorder.regions):
            resolve_all(list(region.calls), wait=False)
            entry_json = region_entry.region_json(
                region, region_entry.RegionRecords(region, records), cudagraphs, on_cpu=run.device == "cpu"
            )
            entry_json["replay"] = {"replayable": False, "reason": self.no_replay}
            regions.append(entry_json)
        out: Report = {
            **run.report,
            "modes": [script],
            "regions": regions,
            "rank": self.facts(),
            "error": script["error"],
        }
        out["status"] = "error" if script["error"] else "ok"
        return out
