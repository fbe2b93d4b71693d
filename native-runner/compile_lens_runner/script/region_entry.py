"""A region's report entry (schema `$defs/region`): its calls with what each compiled, its signatures, the
compiler's insight for its own compile ids, and the steady state of the script's own calls."""

from __future__ import annotations

import statistics
from collections import Counter
from typing import TYPE_CHECKING, Any

from .. import formats
from ..compiler import cudagraphs, explain, recompile_sites
from ..compiler import torch_trace as tt
from ..compiler.insight import compile_seconds, compiler_insight, recompile
from ..compiler.no_compiled import no_compiled_code
from ..measure import timing
from ..report import shape_text
from ..shapes.region import Region as RegionEntry
from ..shapes.region import RegionCall, RegionSignature, SteadyState
from . import grad_switch, mark_dynamic_edit, shape_facts, warmup_shape

if TYPE_CHECKING:
    from .calls import CallRecord
    from .regions import Region


def _frame(compile_id: str) -> tuple[str, int]:
    frame, _, attempt = compile_id.partition("/")
    return frame, int(attempt) if attempt.isdigit() else 0


def _limit_attempts(compile_ids: list[str], records: list[tt.Record]) -> set[str]:
    """The recompile limit's attempts at the region's frames: Dynamo refuses such a frame before its compile starts,
    so no call claims the attempt (the watcher counts compiles as they start), yet it is timed and drawn as that
    frame's compile row ("step: hit the recompile limit, made no graph · 6.48 ms"), and the region's compile total counts it
    (review 6B T: "530 ms compiling" beside rows adding up to 536.6 ms)."""
    frames = {cid.split("/")[0] for cid in compile_ids}
    return {
        r.compile_id
        for r in records
        if r.kind == "compilation_metrics"
        and r.compile_id
        and r.compile_id.split("/")[0] in frames
        and explain.is_recompile_limit(str(r.meta.get("fail_reason") or ""))
    }


class RegionRecords:
    """The structured-log records of one region's compiles (the script's phase only: replays and what-if
    compiles are marked apart, and compile ids restart after torch._dynamo.reset())."""

    def __init__(self, region: Region, script_records: list[tt.Record]) -> None:
        self.limit = _limit_attempts(region.compile_ids, script_records)
        ids = set(region.compile_ids) | self.limit
        # CUDA-graph skips decided at a graph's first run carry no compile id until attributed; a limit attempt's guard
        # failure is no recompile (it compiled nothing): its calls' fallback says it, as the recompile limit
        self.records = [
            r
            for r in cudagraphs.attribute(script_records)
            if r.compile_id in ids and not (r.compile_id in self.limit and r.artifact == "recompile_reasons")
        ]
        self.metrics = {r.compile_id: r.meta for r in self.records if r.compile_id and r.kind == "compilation_metrics"}
        self.starts = {r.compile_id: r for r in self.records if r.compile_id and r.kind == "dynamo_start"}
        self.recompiles = {r.compile_id: r for r in self.records if r.compile_id and r.artifact == "recompile_reasons"}

    def seconds(self, ids: list[str]) -> float | None:
        known = [self.metrics[cid] for cid in ids if cid in self.metrics]
        return compile_seconds(known, [])["total"] if known else None

    def failure(self, ids: list[str] | None = None) -> str | None:
        """Why a compile (of `ids`, else of any of the region's) failed: Dynamo then ran the frame eagerly."""
        for cid, m in self.metrics.items():
            if m.get("fail_type") and (ids is None or cid in ids) and cid not in self.limit:
                lines = [line.strip() for line in str(m.get("fail_reason") or "").split("\n") if line.strip()]
                # "backend='x' raised:" is followed by the exception that says what happened
                reason = " ".join(lines[:2]) if lines and lines[0].endswith(":") else (lines[0] if lines else "")
                return f"compiling {cid} failed: {m['fail_type']}" + (f" ({reason})" if reason else "")
        return None

    def limit_hit(self) -> tuple[str | None, int] | None:
        """The function (its name where a record has it) that reached torch._dynamo.config.recompile_limit, and the
        limit; None when none did."""
        import torch

        limit = int(torch._dynamo.config.cache_size_limit)
        per_frame: dict[str, int] = {}
        for cid in self.starts:
            frame, attempt = _frame(cid)
            per_frame[frame] = max(per_frame.get(frame, 0), attempt + 1)
        for frame, count in per_frame.items():
            if count >= limit:
                name = next((m.get("co_name") for cid, m in self.metrics.items() if _frame(cid)[0] == frame), None)
                return name, limit
        return None


def fallback_reason(records: RegionRecords) -> tuple[str, int | None]:
    """Why Dynamo ran a call eagerly, in words, and the recompile limit where that is why."""
    failed = records.failure()
    if failed:
        return failed, None
    hit = records.limit_hit()
    if hit is not None:
        return shape_text.recompile_limit_reached(*hit), hit[1]
    return "Dynamo found no compiled graph whose guards matched and compiled none (a skipped or run-only frame)", None


def all_calls_eager(calls: list[RegionCall], records: RegionRecords, compiled_anything: bool) -> str | None:
    """Why no call of the region ran compiled code; None when some did (or it cannot be told). Calls made at the
    eager stance (interleaved in situ) ran eagerly on purpose and say nothing about it."""
    calls = [c for c in calls if c.get("side") != "eager"]
    if not calls or any(c.get("ranCompiled") is True for c in calls):
        return None
    fallback = next((c.get("fallbackReason") for c in calls if c.get("ranCompiled") is False), None)
    if fallback:
        return fallback
    return None if compiled_anything else "nothing was compiled: Dynamo skipped every frame of it"


def _outcome(call: CallRecord, records: RegionRecords) -> tuple[bool | None, str | None, int | None]:
    """Did the call run compiled code, and if not, why (and the recompile limit where that is why). A compile that
    failed (suppress_errors) ran eagerly even though Dynamo counts it as a compile."""
    failed = records.failure(call.compile_ids)
    if failed:
        return False, failed, None
    if call.ran_compiled is False:
        return False, *fallback_reason(records)
    return call.ran_compiled, None, None


def _event(ids: list[str], compiled_before: bool) -> str:
    """The region's first compile is `compiled` (even when Dynamo numbers it as a recompile of a shared code object
    such as nn.Module._call_impl); later a compile of a frame that had code is `recompiled`."""
    if not ids:
        return "cached"
    return "recompiled" if compiled_before and any(_frame(cid)[1] > 0 for cid in ids) else "compiled"


def _recompile_reason(ids: list[str], records: RegionRecords) -> tuple[str, str | None] | None:
    """The call's failed guard: its first recompiled frame's, but the user's own frame's where a library frame (DDP's
    forward, on its args[0]) saw the same change (recompile_sites.seen_through_library): the change the user's finding says."""
    found = [
        recompile(records.recompiles[cid], records.starts, lambda r: None, False)
        for cid in ids
        if cid in records.recompiles
    ]
    said = [r for r in found if not recompile_sites.seen_through_library(r, found)]
    if not said:
        return None
    location = said[0].get("location")
    return str(said[0]["reason"]), location.get("code") if location else None


def calls_json(region: Region, records: RegionRecords) -> list[RegionCall]:
    out: list[RegionCall] = []
    compiled_before = False
    for call in region.calls:
        ran, fallback, limit = _outcome(call, records)
        event = _event(call.compile_ids, compiled_before)
        compiled_before = compiled_before or bool(call.compile_ids)
        guard = _recompile_reason(call.compile_ids, records)
        reason, call_code = guard if guard else (None, None)
        entry: RegionCall = {
            "index": call.index,
            "ms": None if call.ms is None else round(call.ms, 4),
            "clock": call.clock.name,
            "signature": call.signature,
            "gradMode": call.grad_mode,
            "event": event,
            "compileIds": call.compile_ids,
            "compileSeconds": records.seconds(call.compile_ids),
            "recompileReason": reason,
            "ranCompiled": ran,
            "fallbackReason": fallback,
        }
        if limit is not None:
            entry["recompileLimit"] = limit
        host = call.clock.host_ms
        if host is not None:
            entry["hostMs"] = round(host, 4)
        if call.graph_bytes is not None:
            entry["cudaGraphBytes"] = call.graph_bytes
        if reason:  # the failed guard as a sentence (the story and the chart's tooltip say it)
            entry["recompileWhy"] = explain.guard_sentence(reason, call_code)
        if call.profiled:
            entry["profiled"] = True
        if call.observer:
            entry["observer"] = True
        if call.side is not None and call.block is not None:  # set together (Interleaver.before_call)
            entry["side"], entry["block"] = call.side, call.block
        entry["stepMs"], entry["stepCompiles"] = (
            None if call.step_ms is None else round(call.step_ms, 4),
            call.step_compiles,
        )
        out.append(entry)
    return out


SETTLED_FACTOR = 2.0


def steady_state(calls: list[RegionCall]) -> SteadyState | None:
    """The script's own calls after the region's last compile, once they settle: from which call, the median duration
    of its most frequent input signature's calls (a median pooled over signatures mixes their times: 0.85 ms at 128
    long beside 1.34 ms at 256, served by one dynamic graph), and how many signatures they had. Calls timed under the profile
    window, and calls that carried the observer's state check or capture, are left out: the profiler's or the
    observer's work is in them or around them; calls made at the eager stance in situ; and calls Dynamo ran eagerly
    (past the recompile limit, a region with no graph): no compiled code ran in them."""
    calls = [c for c in calls if c.get("side") != "eager"]
    last_compile = max((c["index"] for c in calls if c.get("compileIds")), default=-1)
    timed = [
        c for c in calls if c["index"] > last_compile and c["ms"] is not None and c.get("ranCompiled") is not False
    ]
    # the first calls after the last compile may still warm up (caches, the allocator, lazy set-up): 3-10x the median
    # in recorded runs, profiled or not; a call over SETTLED_FACTOR times the median of the later calls on its inputs
    # is not steady yet (one on inputs no later call had is not compared: a decode loop's growing cache)
    from_call = last_compile + 1
    while len(timed) > 1:
        alike = [float(c["ms"] or 0.0) for c in timed[1:] if c.get("signature") == timed[0].get("signature")]
        if not alike or float(timed[0]["ms"] or 0.0) <= SETTLED_FACTOR * statistics.median(alike):
            break
        timed, from_call = timed[1:], timed[1]["index"]
    steady = [c for c in timed if not c.get("profiled") and not c.get("observer")]
    if not steady:
        return None
    # among equally frequent signatures, the first the steady calls ran (Counter keeps first-seen order on ties)
    counts = Counter(c.get("signature") for c in steady)
    signature = counts.most_common(1)[0][0]
    after = [float(c["ms"] or 0.0) for c in steady if c.get("signature") == signature]
    out: SteadyState = {
        "fromCall": from_call,
        "medianMs": round(statistics.median(after), 4),
        "spreadPct": round(timing.iqr_pct(after), 2) if len(after) > 1 else None,
    }
    if signature is not None:
        out.update({"signature": signature, "signatures": len(counts), "calls": len(after)})
    return out


def signatures_json(region: Region, measured: set[str]) -> list[RegionSignature]:
    return [
        {
            "signature": s,
            "calls": n,
            "firstCall": region.first_call[s],
            "lastCall": region.last_call[s],
            "measured": s in measured,
        }
        for s, n in region.signatures.most_common()
    ]


def trigger_text(region: Region) -> Any:
    """For the region's recompiles: which of the script's calls set them off."""
    by_id = {cid: call for call in region.calls for cid in call.compile_ids}

    def trigger(record: tt.Record) -> str | None:
        call = by_id.get(record.compile_id or "")
        return f"call {call.index} of {region.name} on {formats.inputs(call.signature)}" if call else None

    return trigger


def region_json(region: Region, records: RegionRecords, cudagraphs: bool, on_cpu: bool = False) -> RegionEntry:
    calls = calls_json(region, records)
    insight = compiler_insight(records.records, trigger_text(region), cudagraphs, on_cpu) if records.records else None
    warmup = warmup_shape.explain(calls, insight, records.starts)
    grad_switch.explain(calls, insight)
    mark_dynamic_edit.offer(insight, records.starts)
    nothing = no_compiled_code(insight, region.call_count)
    if nothing is not None:  # Dynamo's guards matched frames that hold no graph: every call ran the original code
        for call in calls:
            call["ranCompiled"], call["fallbackReason"] = False, nothing["cause"]
    return {
        "id": region.id,
        "name": region.name,
        "kind": region.kind,
        "location": region.location,
        "device": region.device,
        "options": region.options,
        "callCount": region.call_count,
        "calls": calls,
        "callsTruncated": region.call_count > len(calls),
        "signatures": signatures_json(region, set()),
        "compiler": insight,
        "steadyState": steady_state(calls),
        "replay": {"replayable": region.replay.unsafe is None, "reason": region.replay.unsafe},
        "measurements": [],
        "recommendation": None,
        "stoppedAfterCalls": region.stopped_after,
        "noCompiledCode": nothing,
        "shapes": shape_facts.region_shapes(calls, insight, region.options, region.device, warmup),
    }
