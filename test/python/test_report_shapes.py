"""The runner's typed dicts (shapes.py) and report.schema.json name the same keys, and require the same ones: a field
added to the schema and not to its typed dict (or the reverse) fails here."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, TypedDict, get_args, get_type_hints

import pytest

from compile_lens_runner import shapes

SCHEMA = json.loads((Path(shapes.__file__).parent / "report" / "report.schema.json").read_text())

# each typed dict and the part of the schema it is
PARTS = {
    shapes.Report: "#", shapes.RunError: "#/$defs/error", shapes.SourceLocation: "#/$defs/location",
    shapes.Timing: "#/$defs/timing", shapes.Recommendation: "#/properties/recommendation",
    shapes.GraphBreak: "#/$defs/graphBreak", shapes.Recompile: "#/$defs/recompile", shapes.CompilerInsight: "#/$defs/compiler",
    shapes.ModeResult: "#/$defs/mode", shapes.RegionMeasurement: "#/$defs/regionMeasurement",
    shapes.RegionCall: "#/$defs/regionCall", shapes.InSituSpeedup: "#/$defs/inSituSpeedup", shapes.RegionInSitu: "#/$defs/inSitu",
    shapes.Region: "#/$defs/region", shapes.ReportInSitu: "#/properties/inSitu", shapes.RankEntry: "#/$defs/rankEntry",
    shapes.Divergence: "#/$defs/divergence",
}


def part(pointer: str) -> dict[str, Any]:
    node: Any = SCHEMA
    for key in pointer.removeprefix("#").strip("/").split("/"):
        if key:
            node = node[key]
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
    return ([f"{key}: not in the schema" for key in sorted(mine - every)] + [f"{key}: missing" for key in sorted(every - mine)]
            + [f"{key}: required in the schema" for key in sorted(required - mine_required)]
            + [f"{key}: optional in the schema" for key in sorted(mine_required - required)])


@pytest.mark.parametrize("shape", list(PARTS), ids=lambda shape: shape.__name__)
def test_a_typed_dict_has_the_keys_and_required_keys_of_its_schema_part(shape: Any) -> None:
    assert mismatches(shape, PARTS[shape]) == []


def test_every_typed_dict_is_checked() -> None:
    declared = {value for name, value in vars(shapes).items()
                if isinstance(value, type) and value.__module__ == shapes.__name__ and not name.startswith("_")}
    assert declared == set(PARTS)


def test_the_verdicts_and_in_situ_methods_are_the_schema_s() -> None:
    assert set(get_args(shapes.Verdict)) == set(part("#/properties/recommendation/properties/verdict")["enum"])
    for shape, pointer in ((shapes.ReportInSitu, "#/properties/inSitu"), (shapes.RegionInSitu, "#/$defs/inSitu")):
        assert set(get_args(get_type_hints(shape)["method"])) == set(part(pointer)["properties"]["method"]["enum"])


class _Required(TypedDict):
    kind: str
    message: str
    traceback: str | None


class _WrongRunError(_Required, total=False):
    fix: str
    hint: str


def test_the_check_names_a_key_missing_one_too_many_and_a_wrong_required_one() -> None:
    assert mismatches(_WrongRunError, "#/$defs/error") == ["hint: not in the schema", "fix: required in the schema",
                                                            "traceback: optional in the schema"]
