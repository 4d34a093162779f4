"""Token estimate, annotation coherence, x-mcp-header rules and the tool-count warning."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from whichtool_tui.surface.annotations import analyze_annotations
from whichtool_tui.surface.checks import CheckOptions, large_tool_set
from whichtool_tui.surface.headers import analyze_header_params
from whichtool_tui.surface.naming import classify_name, name_tokens
from whichtool_tui.surface.normalize import normalize_surface
from whichtool_tui.surface.tokens import count_tokens, tool_tokens


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", 0),
        ("abcd", 1),
        ("abcde", 2),
        ("12345", 2),  # 123 | 45
        ("it's", 2),  # it | 's
        ("we'll", 3),  # we | 'll (2)
        ("{}", 1),
        ("{}[]", 2),
        (" ", 0),
        ("\n", 1),
        ("\n\n\n", 2),
        ("          ", 2),  # 10 horizontal: ceil(9/8)
        ("x²³ 1²", 3),  # superscripts are numbers, not letters
        ("naïve café", 3),  # naïve (2) + café (1)
    ],
)
def test_count_tokens(text: str, expected: int) -> None:
    assert count_tokens(text) == expected


def test_tool_token_breakdown_sums() -> None:
    tool = normalize_surface(
        [{"name": "get_user", "description": "Get one user.", "inputSchema": {"type": "object"}}]
    ).tools[0]
    tokens = tool_tokens(tool)
    assert tokens.total == count_tokens(
        '{"description":"Get one user.","inputSchema":{"type":"object"},"name":"get_user"}'
    )
    assert tokens.total == tokens.name + tokens.description + tokens.schema + tokens.envelope
    assert tokens.name == count_tokens('"get_user"')


def test_names() -> None:
    assert name_tokens("getHTTPStatus") == ("get", "http", "status")
    assert name_tokens("list-repo_files2") == ("list", "repo", "files2")
    assert classify_name("delete_file") == ("destructive", "delete")
    assert classify_name("user_update") == ("mutate", "update")
    assert classify_name("files_remove_list") == ("destructive", "remove")
    assert classify_name("weather") == ("unknown", None)


def _codes(raw: list[dict[str, Any]]) -> list[tuple[str, str]]:
    _, found = analyze_annotations(normalize_surface(raw).tools)
    return sorted((d.code, d.severity) for d in found)


def test_contradictory_annotations_are_an_error() -> None:
    raw = [{"name": "read_file", "annotations": {"readOnlyHint": True, "destructiveHint": True}}]
    assert ("annotations/contradictory-read-only-destructive", "error") in _codes(raw)


def test_annotation_coherence_rules() -> None:
    raw = [
        {"name": "delete_user", "annotations": {"readOnlyHint": True}},
        {"name": "drop_table", "annotations": {"destructiveHint": False, "idempotentHint": "yes"}},
        {"name": "get_user", "annotations": {"readOnlyHint": False, "colour": "red"}},
        {"name": "list_users"},
    ]
    assert _codes(raw) == [
        ("annotations/destructive-name-declared-safe", "warning"),
        ("annotations/non-boolean-hint", "warning"),
        ("annotations/partial-coverage", "warning"),
        ("annotations/read-only-with-mutating-name", "warning"),
        ("annotations/read-tool-missing-read-only-hint", "info"),
        ("annotations/unknown-key", "info"),
        ("annotations/write-hint-with-read-name", "info"),
    ]
    section, _ = analyze_annotations(normalize_surface(raw).tools)
    assert section.coverage.annotated == 3
    assert section.coverage.by_hint.read_only_hint == 2
    assert section.coverage.by_hint.idempotent_hint == 0  # a non-boolean hint does not count


def test_absent_annotations_surface_wide() -> None:
    assert _codes([{"name": "get_a"}, {"name": "set_b"}]) == [
        ("annotations/absent-surface-wide", "warning")
    ]


def _header_tool(schema: dict[str, Any]) -> list[Any]:
    return normalize_surface([{"name": "t", "inputSchema": schema}]).tools


def test_valid_header_is_present_info() -> None:
    schema = {
        "type": "object",
        "properties": {"region": {"type": "string", "x-mcp-header": "Region"}},
    }
    rejected, found = analyze_header_params(_header_tool(schema))
    assert rejected == []
    assert [(d.code, d.severity) for d in found] == [("x-mcp-header/present", "info")]


@pytest.mark.parametrize(
    ("schema", "problem"),
    [
        ({"properties": {"a": {"type": "string", "x-mcp-header": 5}}}, "not a string"),
        ({"properties": {"a": {"type": "string", "x-mcp-header": ""}}}, "empty"),
        ({"properties": {"a": {"type": "string", "x-mcp-header": "bad name"}}}, "tchar"),
        ({"properties": {"a": {"type": "number", "x-mcp-header": "A"}}}, "`number`"),
        ({"properties": {"a": {"x-mcp-header": "A"}}}, "no `type`"),
        ({"properties": {"a": {"type": ["string", "null"], "x-mcp-header": "A"}}}, "string|null"),
        (
            {
                "properties": {
                    "a": {"type": "array", "items": {"type": "string", "x-mcp-header": "A"}}
                }
            },
            "not statically reachable",
        ),
        (
            {
                "properties": {
                    "a": {"type": "string", "x-mcp-header": "Dup"},
                    "b": {"type": "string", "x-mcp-header": "dup"},
                }
            },
            "ignoring case",
        ),
    ],
)
def test_invalid_headers_reject_the_tool(schema: dict[str, Any], problem: str) -> None:
    rejected, found = analyze_header_params(_header_tool({"type": "object", **schema}))
    assert rejected == ["t"]
    assert found[0].code == "x-mcp-header/invalid" and found[0].severity == "error"
    assert any(problem in item for item in found[0].detail["problems"])


def test_the_schema_text_check_finds_what_the_walk_finds() -> None:
    """A tool whose schema JSON never names the key is skipped unwalked; one that does (deep in
    ``$defs``, under ``anyOf``, or only as a value) is walked, with the walk's answer."""
    raw = [
        {
            "name": "plain",
            "inputSchema": {"type": "object", "properties": {"a": {"type": "string"}}},
        },
        {"name": "as_value", "inputSchema": {"type": "object", "description": "x-mcp-header"}},
        {
            "name": "deep",
            "inputSchema": {
                "type": "object",
                "$defs": {"h": {"type": "string", "x-mcp-header": "H"}},
                "anyOf": [{"properties": {"b": {"type": "string", "x-mcp-header": "B"}}}],
                "properties": {"c": {"type": "integer", "x-mcp-header": "C"}},
            },
        },
    ]
    tools = normalize_surface(raw).tools
    unwalked = [replace(tool, input_schema_json=None) for tool in tools]
    assert analyze_header_params(tools) == analyze_header_params(unwalked)
    rejected, found = analyze_header_params(tools)
    assert rejected == ["deep"] and [d.tool for d in found] == ["deep"]


def test_large_tool_set_threshold() -> None:
    surface = normalize_surface([{"name": f"t{i}"} for i in range(7)])
    assert large_tool_set(surface, CheckOptions(max_tools=7)) == []
    found = large_tool_set(surface, CheckOptions())
    assert found[0].code == "surface/large-tool-set"
    assert found[0].detail == {"actual": 7, "reviewThreshold": 6}


def test_counting_serialization_is_the_canonical_json_of_the_payload() -> None:
    from whichtool_tui.surface.canonical import canonical_json
    from whichtool_tui.surface.tokens import counting_serialization

    raw = [
        {
            "name": "é_tool",
            "description": 'quote " and\nnewline',
            "inputSchema": {"b": 1, "a": [2.0]},
        },
        {"name": "bare"},
        {"name": "empty", "description": ""},
    ]
    for tool in normalize_surface(raw).tools:
        payload: dict[str, Any] = {"name": tool.name, "inputSchema": tool.input_schema}
        if tool.description is not None:
            payload["description"] = tool.description
        assert counting_serialization(tool) == canonical_json(payload)


_TOKEN_ALPHABET = st.sampled_from(
    [*"abcXYZ019_ -.,:;\"{}[]\\/\n\t\r'", "é", "ß", "😀", "\u2028", "\xa0", "\u0301", "Ⅻ"]
)


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=_TOKEN_ALPHABET, max_size=40))
def test_class_by_class_token_count_equals_the_sequential_scan(text: str) -> None:
    from whichtool_tui.surface import tokens

    assert tokens._fast_count(text) == tokens._sequential_count(text)
