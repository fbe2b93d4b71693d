"""The runner's typed dicts (compile_lens_runner/shapes/) and report.schema.json name the same keys, and require the same
ones: a field added to the schema and not to its typed dict (or the reverse) fails here."""

from __future__ import annotations

import importlib
import json
import pkgutil
from pathlib import Path
from typing import Any, TypedDict, get_args, get_type_hints

import pytest
from compile_lens_runner import shapes
from compile_lens_runner.measure.profiling import ProfileFacts
from compile_lens_runner.measure.step_work import Sides, SideWork
from compile_lens_runner.script.mode import Outcome
from compile_lens_runner.shapes import answer, common, compiler, in_situ, mode, ranks, region, report

SCHEMA = json.loads((Path(shapes.__file__).parent.parent / "report" / "report.schema.json").read_text())

# each typed dict and the part of the schema it is
PARTS = {
    common.RunError: "#/$defs/error",
    common.SourceLocation: "#/$defs/location",
    common.Timing: "#/$defs/timing",
    common.Recommendation: "#/properties/recommendation",
    common.Sides: "#/$defs/sides",
    common.SlowSides: "#/$defs/mode/properties/speedupInterval/properties/slowHost",
    common.ProfileWindow: "#/$defs/profileWindow",
    common.InSituWindow: "#/$defs/inSituWindow",
    answer.TooNoisy: "#/$defs/answerNumber/properties/tooNoisy",
    answer.AnswerNumber: "#/$defs/answerNumber",
    answer.Reason: "#/$defs/reason",
    answer.Answer: "#/$defs/answer",
    common.HostLoad: "#/$defs/hostLoad",
    common.LoadAverage: "#/$defs/hostLoad/properties/loadAverage/oneOf/1",
    compiler.QuickFixEdit: "#/$defs/quickFix/properties/edits/items",
    compiler.QuickFix: "#/$defs/quickFix",
    compiler.Explanation: "#/$defs/explanation",
    compiler.BreakExplanation: "#/$defs/breakExplanation",
    compiler.BrokeAt: "#/$defs/graphBreak/properties/brokeAt/oneOf/1",
    compiler.GraphBreak: "#/$defs/graphBreak",
    compiler.Recompile: "#/$defs/recompile",
    compiler.RecompileSite: "#/$defs/recompileSite",
    compiler.CompiledFrame: "#/$defs/compiler/properties/frames/items",
    compiler.PerfHint: "#/$defs/compiler/properties/perfHints/items",
    compiler.CudaGraphSkip: "#/$defs/cudaGraphSkip",
    compiler.CudaGraphStatus: "#/$defs/compiler/properties/cudaGraphs/items",
    compiler.KernelProvenance: "#/$defs/kernel",
    compiler.FailedGuard: "#/$defs/compileArtifacts/properties/failedGuards/items",
    compiler.CompileArtifacts: "#/$defs/compileArtifacts",
    compiler.CompilePhase: "#/$defs/compilePhase",
    compiler.StepSpan: "#/$defs/compiler/properties/kernelSteps",
    compiler.CompilerInsight: "#/$defs/compiler",
    compiler.RankPhases: "#/$defs/rankPhases",
    mode.PrecisionSettings: "#/$defs/correctness/properties/precision",
    mode.Correctness: "#/$defs/correctness",
    mode.RunEager: "#/$defs/mode/properties/speedupInterval/properties/runEager",
    mode.SpeedupInterval: "#/$defs/mode/properties/speedupInterval",
    mode.Fallback: "#/$defs/mode/properties/fallback",
    mode.ModeResult: "#/$defs/mode",
    mode.RegionMeasurement: "#/$defs/regionMeasurement",
    in_situ.InSituRun: "#/$defs/inSituRun",
    in_situ.PairSpeedup: "#/$defs/inSituSpeedup/properties/perRun/items",
    in_situ.FastStateSteps: "#/$defs/inSituSpeedup/properties/fastStateSteps/items",
    in_situ.PairNotUsed: "#/$defs/inSituSpeedup/properties/pairsNotUsed/items",
    in_situ.SignatureSpeedup: "#/$defs/inSituSpeedup/properties/signatures/items",
    in_situ.InSituSpeedup: "#/$defs/inSituSpeedup",
    in_situ.StepWorkSide: "#/$defs/stepWorkSide",
    in_situ.StepWork: "#/$defs/stepWork",
    in_situ.CompileFailure: "#/$defs/compileFailure",
    in_situ.WhatIf: "#/$defs/inSitu/properties/whatIf/items",
    in_situ.Series: "#/$defs/inSitu/properties/series",
    in_situ.EagerFallback: "#/$defs/inSitu/properties/eagerFallback/oneOf/1",
    in_situ.HostShare: "#/$defs/inSitu/properties/hostShare/oneOf/1",
    in_situ.Interrupted: "#/$defs/inSitu/properties/interrupted/oneOf/1",
    in_situ.InterruptedSide: "#/$defs/interruptedSide/oneOf/1",
    in_situ.OwnCost: "#/$defs/inSitu/properties/ownCost",
    in_situ.NoStep: "#/$defs/inSitu/properties/noStep",
    in_situ.MedianText: "#/$defs/inSitu/properties/medianText",
    in_situ.CompileStep: "#/$defs/inSitu/properties/compileSteps/items",
    in_situ.StepPoint: "#/$defs/inSitu/properties/stepPoints/items",
    in_situ.RegionInSitu: "#/$defs/inSitu",
    in_situ.ReportInSitu: "#/properties/inSitu",
    region.RegionCall: "#/$defs/regionCall",
    region.RegionSignature: "#/$defs/regionSignature",
    region.SteadyState: "#/$defs/region/properties/steadyState/oneOf/1",
    region.Replay: "#/$defs/region/properties/replay",
    region.NoCompiledCode: "#/$defs/region/properties/noCompiledCode/oneOf/1",
    region.Region: "#/$defs/region",
    region.ShapeChange: "#/$defs/regionShapes/properties/changed/items",
    region.DecodeLoop: "#/$defs/regionShapes/properties/loop/oneOf/1",
    region.AutomaticDynamic: "#/$defs/regionShapes/properties/automaticDynamic/oneOf/1",
    region.RecompileLimit: "#/$defs/regionShapes/properties/recompileLimit/oneOf/1",
    region.WarmupShape: "#/$defs/regionShapes/properties/warmup/oneOf/1",
    region.ShapeFix: "#/$defs/regionShapes/properties/fixes/items",
    region.ShapeFixCache: "#/$defs/regionShapes/properties/fixes/items/properties/compileCache",
    region.CacheUse: "#/$defs/cacheUse",
    region.ShapeFixOffer: "#/$defs/regionShapes/properties/measure/oneOf/1",
    region.RegionShapes: "#/$defs/regionShapes",
    ranks.RankRegion: "#/$defs/rankEntry/properties/regions/items",
    ranks.RankStack: "#/$defs/rankEntry/properties/stack",
    ranks.RankEntry: "#/$defs/rankEntry",
    ranks.Divergence: "#/$defs/divergence",
    ranks.RankSelf: "#/properties/rank",
    report.ProfilerNote: "#/properties/profilerNote",
    ranks.LogFile: "#/properties/logs/properties/files/items",
    ranks.EarlierAttempt: "#/properties/logs/properties/attempts/items",
    ranks.LogsRead: "#/properties/logs",
    report.RunnerInfo: "#/properties/runner",
    report.Environment: "#/properties/environment",
    report.Target: "#/properties/target",
    report.Eager: "#/properties/eager",
    report.Report: "#",
}


def part(pointer: str) -> dict[str, Any]:
    node: Any = SCHEMA
    for key in pointer.removeprefix("#").strip("/").split("/"):
        if key:
            node = node[int(key)] if isinstance(node, list) else node[key]  # a list: oneOf's alternatives
    return dict(node)


def keys(schema: dict[str, Any]) -> tuple[set[str], set[str]]:
    """(every key, the required keys) of an object schema, through an allOf of $refs (a region's measurement is a mode)."""
    every, required = set(schema.get("properties", {})), set(schema.get("required", []))
    for base in schema.get("allOf", []):
        more, more_required = keys(part(base["$ref"]))
        every |= more
        required |= more_required
    return every, required


def mismatches(shape: Any, pointer: str) -> list[str]:
    """What a typed dict says otherwise than its part of the schema, in words."""
    every, required = keys(part(pointer))
    mine, mine_required = set(shape.__required_keys__) | set(shape.__optional_keys__), set(shape.__required_keys__)
    return (
        [f"{key}: not in the schema" for key in sorted(mine - every)]
        + [f"{key}: missing" for key in sorted(every - mine)]
        + [f"{key}: required in the schema" for key in sorted(required - mine_required)]
        + [f"{key}: optional in the schema" for key in sorted(mine_required - required)]
    )


@pytest.mark.parametrize("shape", list(PARTS), ids=lambda shape: shape.__name__)
def test_a_typed_dict_has_the_keys_and_required_keys_of_its_schema_part(shape: Any) -> None:
    assert mismatches(shape, PARTS[shape]) == []


def test_every_typed_dict_is_checked() -> None:
    modules = [
        importlib.import_module(f"{shapes.__name__}.{info.name}") for info in pkgutil.iter_modules(shapes.__path__)
    ]
    declared = {
        value
        for module in modules
        for name, value in vars(module).items()
        if isinstance(value, type) and value.__module__ == module.__name__ and not name.startswith("_")
    }
    assert declared == set(PARTS)


@pytest.mark.parametrize(
    "part_of, whole",
    [
        (ProfileFacts, mode.ModeResult),
        (Outcome, mode.ModeResult),
        (SideWork, in_situ.StepWorkSide),
        (Sides, in_situ.StepWork),
    ],
    ids=lambda shape: shape.__name__,
)
def test_what_measure_fills_of_an_object_is_that_object_s_keys_and_types(part_of: Any, whole: Any) -> None:
    """Some code fills some keys of an object (a profile's of a mode, how a script ended, a trace's of a step-work
    side): the same keys, of the same types, as the object's typed dict."""
    mine, theirs = get_type_hints(part_of), get_type_hints(whole)
    assert {key: theirs.get(key) for key in mine} == mine


def test_the_verdicts_and_in_situ_methods_are_the_schema_s() -> None:
    assert set(get_args(common.Verdict)) == set(part("#/properties/recommendation/properties/verdict")["enum"])
    for shape, pointer in ((in_situ.ReportInSitu, "#/properties/inSitu"), (in_situ.RegionInSitu, "#/$defs/inSitu")):
        assert set(get_args(get_type_hints(shape)["method"])) == set(part(pointer)["properties"]["method"]["enum"])


class _Required(TypedDict):
    kind: str
    message: str
    traceback: str | None


class _WrongRunError(_Required, total=False):
    fix: str
    hint: str
    location: object


def test_the_check_names_a_key_missing_one_too_many_and_a_wrong_required_one() -> None:
    assert mismatches(_WrongRunError, "#/$defs/error") == [
        "hint: not in the schema",
        "fix: required in the schema",
        "traceback: optional in the schema",
    ]
