"""The collectives a rank issued, in order, read from its torch.profiler Chrome trace.

Names as torch.profiler writes them; the same list as webview/analysis/communication.ts (keep them in step):
backend-prefixed ranges (`nccl:all_reduce`, `gloo:broadcast`), dispatcher ops (`c10d::allreduce_`), functional
collectives (`_c10d_functional::all_gather_into_tensor`, FSDP2 and compiled code), `record_param_comms`,
`ProcessGroupNCCL::...`, and on the GPU `ncclDevKernel_*` / `ncclKernel_*`.
"""

from __future__ import annotations

import gzip
import json
import re
from typing import Any

COMMUNICATION_NAME = re.compile(
    r"^(?:nccl|gloo|mpi|ucc|xccl|rccl):|^_?c10d(?:_functional)?::|^record_param_comms$"
    r"|^(?:nccl|rccl)(?:Dev)?Kernel|^ProcessGroup(?:NCCL|Gloo|MPI|UCC|XCCL)\b"
)
# One family names each collective once, in the order the rank issued it: the dispatcher ops where the trace has
# them (on the thread that issued the collective), else the backend's own ranges. Waits are not collectives.
_FAMILIES = (re.compile(r"^_?c10d(?:_functional)?::(?!wait)"), re.compile(r"^(?:nccl|gloo|mpi|ucc|xccl|rccl):"))


def is_communication(name: str) -> bool:
    return bool(COMMUNICATION_NAME.search(name))


def _events(path: str) -> list[dict[str, Any]]:
    opener: Any = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        data = json.load(f)
    events = data.get("traceEvents", []) if isinstance(data, dict) else []
    return [
        e
        for e in events
        if isinstance(e, dict)
        and e.get("ph") == "X"
        and isinstance(e.get("ts"), (int, float))
        and isinstance(e.get("name"), str)
    ]


def sequence(path: str) -> list[dict[str, Any]]:
    """The rank's collectives in the order it issued them: [{name, step}], `step` the index of the ProfilerStep
    the collective began in (None outside every step)."""
    events = _events(path)
    steps = sorted(
        (e["ts"], e["ts"] + float(e.get("dur") or 0)) for e in events if e["name"].startswith("ProfilerStep#")
    )
    for family in _FAMILIES:
        chosen = sorted((e for e in events if family.search(e["name"])), key=lambda e: e["ts"])
        if chosen:
            return [
                {"name": e["name"], "step": next((i for i, (a, b) in enumerate(steps) if a <= e["ts"] < b), None)}
                for e in chosen
            ]
    return []
