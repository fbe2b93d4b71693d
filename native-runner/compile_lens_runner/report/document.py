"""report.json: its skeleton, the environment block, and atomic writes."""

from __future__ import annotations

import datetime as dt
import json
import math
import os
import platform
from typing import Any, cast

from .. import __version__
from ..shapes.common import RunError
from ..shapes.report import Environment, Report, Target
from . import answer

SCHEMA_VERSION = "1.52"
INDENTED_MAX = 1 << 20  # characters: a smaller report is written indented, to be read by eye


def environment(device: str, torch_version: str | None) -> Environment:
    env: Environment = {
        "python": platform.python_version(),
        "torch": torch_version,
        "triton": None,
        "device": device,
        "deviceName": _cpu_name(),
        "platform": f"{platform.system()} {platform.release()} {platform.machine()}",
    }
    if torch_version is None:
        return env
    import torch

    if device == "cuda":
        env["deviceName"] = torch.cuda.get_device_name()
        env["cudaVersion"] = torch.version.cuda
    try:
        import triton

        env["triton"] = triton.__version__
    except ImportError:
        pass
    return env


def _cpu_name() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return f"{line.split(':', 1)[1].strip()} ({os.cpu_count()} CPUs)"
    except OSError:
        pass
    return platform.processor() or platform.machine()


def skeleton(target: Target, settings: dict[str, Any], env: Environment) -> Report:
    return {
        "schemaVersion": SCHEMA_VERSION,
        "runner": {"version": __version__},
        "createdAt": now(),
        "status": "ok",
        "error": None,
        "environment": env,
        "target": target,
        "settings": settings,
        "eager": {"timing": None, "trace": None, "kernelsPerStep": None, "peakMemoryBytes": None},
        "modes": [],
        "recommendation": {"mode": None, "reason": "The run did not get as far as a recommendation."},
    }


def now() -> str:
    return dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")


def overall_status(report: Report) -> str:
    if report.get("error"):
        return "error" if not any(m["status"] == "ok" for m in report["modes"]) else "partial"
    return "partial" if any(m["status"] != "ok" for m in report["modes"]) else "ok"


def write(path: str, report: Report) -> None:
    """Writes via a temp file and rename, so a reader (or a kill) never sees half a report; its answers (verdicts,
    headlines) decided from what it holds now."""
    report["createdAt"] = now()
    answer.attach(report)
    tmp = f"{path}.tmp-{os.getpid()}"
    # json.dumps without indent is Python's C encoder; with indent, or json.dump to a file, its pure-Python one (five
    # times slower on a large report): a report past INDENTED_MAX is written on one line. A report is copied without
    # its non-finite numbers only when it has one (the copy took longer than the encoding)
    try:
        finite, text = report, json.dumps(report, default=_json_default, allow_nan=False)
    except ValueError:
        finite = _finite(report)
        text = json.dumps(finite, default=_json_default, allow_nan=False)
    if len(text) <= INDENTED_MAX:
        text = json.dumps(finite, indent=1, default=_json_default, allow_nan=False)
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)


def _finite(value: Any) -> Any:
    """JSON has no NaN/Infinity; a non-finite number becomes null."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    return value


def _json_default(value: Any) -> Any:
    if hasattr(value, "item"):
        return value.item()
    return str(value)


def read(path: str) -> dict[str, Any] | None:
    """Any JSON file the runner wrote (a report, an in-situ run's timings, an attached rank's facts), as parsed."""
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def read_report(path: str) -> Report | None:
    """A report.json the runner wrote (a rank's, an earlier run's), as the report it is: read, not validated."""
    data = read(path)
    return cast(Report, data) if isinstance(data, dict) else None


def fail(report: Report, error: RunError) -> Report:
    report["error"] = error
    report["status"] = overall_status(report)
    return report
