"""The MCP tools' input schemas are generated from the argument models the handlers validate
with, so a field, a description or a cap cannot drift between what is published and what is
accepted."""

from __future__ import annotations

import jsonschema
import pytest

from whichtool_tui import limits
from whichtool_tui.server.arguments import (
    DiffArguments,
    ImproveArguments,
    InspectArguments,
    RunArguments,
    SurfaceDiffArguments,
    ValidateArguments,
)
from whichtool_tui.server.tools import SERVER_TOOLS

MODELS = {
    "inspect_surface": InspectArguments,
    "validate_task_file": ValidateArguments,
    "run_evaluation": RunArguments,
    "diff_saved_results": DiffArguments,
    "improve_descriptions": ImproveArguments,
    "diff_surfaces": SurfaceDiffArguments,
}


def _schemas() -> dict[str, dict[str, object]]:
    return {tool.name: tool.input_schema for tool in SERVER_TOOLS}


def test_every_accepted_argument_is_published_and_nothing_else() -> None:
    for name, schema in _schemas().items():
        model = MODELS[name]
        published = set(schema["properties"])
        accepted = {field.alias or field_name for field_name, field in model.model_fields.items()}
        assert published == accepted, name
        assert schema["additionalProperties"] is False
        jsonschema.Draft202012Validator.check_schema(schema)


def test_agent_caps_come_from_limits_and_are_checked_by_name_not_by_the_schema() -> None:
    run = _schemas()["run_evaluation"]["properties"]
    assert run["repeat"] == {
        "type": "integer",
        "minimum": limits.MIN_REPEAT,
        "maximum": limits.AGENT_MAX_REPEAT,
    }
    assert run["concurrency"]["maximum"] == limits.AGENT_MAX_CONCURRENCY
    # The model lets an over-cap value through so the handler can name it (mcp/limit-exceeded).
    assert RunArguments.model_validate({"repeat": limits.AGENT_MAX_REPEAT + 1}).repeat == 21


def test_optional_arguments_publish_their_type_without_a_null_branch() -> None:
    inspect = _schemas()["inspect_surface"]["properties"]
    assert inspect["transport"]["enum"] == ["snapshot", "http", "stdio"]
    assert "anyOf" not in inspect["target"]
    assert inspect["maxContextTokens"]["minimum"] == 0
    diff = _schemas()["diff_saved_results"]
    assert diff["required"] == ["base", "head"]
    assert diff["properties"]["pairedUnit"]["enum"] == ["task", "trial"]


@pytest.mark.parametrize(
    ("tool", "arguments", "valid"),
    [
        ("run_evaluation", {"repeat": 3, "dryRun": True, "minAccuracy": 0.5}, True),
        ("run_evaluation", {"minAccuracy": 1.5}, False),
        ("run_evaluation", {"seed": 1}, False),
        ("diff_saved_results", {"base": "a.json", "head": "b.json", "pairedUnit": "trial"}, True),
        ("diff_saved_results", {"base": "a.json"}, False),
        ("inspect_surface", {"target": ""}, False),
    ],
)
def test_the_schema_and_the_model_agree(
    tool: str, arguments: dict[str, object], valid: bool
) -> None:
    schema_ok = jsonschema.Draft202012Validator(_schemas()[tool]).is_valid(arguments)
    try:
        MODELS[tool].model_validate(arguments)
        model_ok = True
    except ValueError:
        model_ok = False
    assert schema_ok is valid
    assert model_ok is valid


def test_improve_publishes_the_agent_caps_and_the_clis_bounds_from_limits() -> None:
    improve = _schemas()["improve_descriptions"]["properties"]
    assert improve["repeat"]["maximum"] == limits.AGENT_MAX_REPEAT
    assert improve["concurrency"]["maximum"] == limits.AGENT_MAX_CONCURRENCY
    assert improve["holdoutShare"]["minimum"] == limits.MIN_HOLDOUT_SHARE
    assert improve["holdoutShare"]["maximum"] == limits.MAX_HOLDOUT_SHARE
    assert improve["maxTokenGrowth"]["maximum"] == limits.MAX_TOKEN_GROWTH
    assert improve["seed"]["maximum"] == limits.MAX_SAFE_INTEGER
    assert improve["tools"] == {
        "type": "array",
        "items": {"type": "string"},
        "maxItems": limits.ABSOLUTE_MAX_TOOLS,
        "description": improve["tools"]["description"],
    }
    assert "required" not in _schemas()["improve_descriptions"]
