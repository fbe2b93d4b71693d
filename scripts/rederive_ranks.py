"""A torchrun job's counts and compile phases per rank, as ranks/merge.py gives them now, from the rank reports kept
beside the job's. A part of rederive_fixtures.py (which puts the runner on the path)."""

from __future__ import annotations

import json
import os
from typing import Any

from compile_lens_runner.ranks import merge


def rank_counts(report: dict[str, Any], folder: str | None) -> None:
    """A torchrun job recorded before schema 1.35: what each region compiled on each rank (its rank row's `regions`)
    and each merged graph break's count on each rank (`rankCounts`), counted as ranks/merge.py counts them now, from
    the rank's own report beside the job's; the headline rank's (its report is the job's) from the merged records'
    items it had, and its own row counted so too (a runner before breaks were counted as they add up wrote 2 there
    for a region that says 3). A rank whose report was not kept keeps what it recorded, and is counted on no break."""
    script = next((m.get("compiler") for m in report["modes"] if m["mode"] == "script"), None)
    merged = {"script": script, **{r["id"]: r.get("compiler") for r in report.get("regions") or []}}
    own_by_rank: dict[int, dict[str, Any]] = {}
    for entry in report.get("ranks") or []:
        path, rank = entry.get("report"), entry["rank"]
        if path == "report.json":
            own = {key: merge.headline_rank_record(c, rank) for key, c in merged.items() if c}
            if "script" in own:
                entry["graphCount"], entry["graphBreaks"], entry["recompiles"] = merge.counted(own["script"])
        elif path and folder and os.path.exists(os.path.join(folder, path)):
            with open(os.path.join(folder, path), encoding="utf-8") as f:
                stored = json.load(f)
            own = {m["mode"]: m["compiler"] for m in stored["modes"] if m["mode"] == "script" and m.get("compiler")}
            own.update({r["id"]: r["compiler"] for r in stored.get("regions") or [] if r.get("compiler")})
        else:
            continue
        own_by_rank[rank] = own
        for region in entry.get("regions") or []:
            if region["id"] in own and "graphCount" not in region:
                region["graphCount"], region["graphBreaks"], region["recompiles"] = merge.counted(own[region["id"]])
    for key, compiler in merged.items():
        breaks = (compiler or {}).get("graphBreaks") or []
        if own_by_rank and any("rankCounts" not in b for b in breaks):
            merge.rank_counts(breaks, [(r, own[key]["graphBreaks"]) for r, own in own_by_rank.items() if key in own])


def rank_phases(report: dict[str, Any], folder: str | None) -> None:
    """A torchrun job recorded before schema 1.38: each rank's compile phases, ranks alike one group, as ranks/merge.py
    groups them now, from each rank's own report beside the job's (the headline rank's: the merged record's own
    phases, its breaks and recompiles those it had). Where a rank's report was not kept, what was recorded stays."""
    script = next((m.get("compiler") for m in report["modes"] if m["mode"] == "script"), None)
    entries = report.get("ranks") or []
    if script is None or len(entries) < 2 or folder is None:
        return
    insights, regions = [], {}
    for entry in entries:
        path, rank = entry.get("report"), entry["rank"]
        if path == "report.json":
            insights.append((rank, merge.headline_rank_record(script, rank)))
            regions[rank] = report.get("regions") or []
            continue
        if not path or not os.path.exists(os.path.join(folder, path)):
            return
        with open(os.path.join(folder, path), encoding="utf-8") as f:
            stored = json.load(f)
        own = next((m.get("compiler") for m in stored["modes"] if m["mode"] == "script"), None)
        if own:
            insights.append((rank, own))
        regions[rank] = stored.get("regions") or []
    script["rankPhases"] = merge.rank_phases(insights, regions)
