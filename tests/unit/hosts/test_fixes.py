"""The host fix patch, applied with a real JSON Patch library (jsonpatch), then re-inspected."""

from __future__ import annotations

from typing import Any

import jsonpatch
import pytest

from tests.unit.hosts.surfaces import name_of, schema, tool
from whichtool_tui.hosts.engine import evaluate_hosts
from whichtool_tui.hosts.fixes import host_fix_operations
from whichtool_tui.hosts.registry import resolve_hosts

DEFS_SCHEMA = {
    "type": "object",
    "$defs": {"Id": {"type": "string", "description": "the id"}},
    "properties": {"id": {"$ref": "#/$defs/Id", "title": "Id"}},
    "required": ["id"],
}
UNION = schema(
    oneOf=[
        {"properties": {"url": {"type": "string"}}, "required": ["url"]},
        {"properties": {"path": {"type": "string"}}, "required": ["path"]},
    ]
)


def _fixable(hosts: list[str], tools: list[dict[str, Any]]) -> set[tuple[str | None, str]]:
    verdicts = evaluate_hosts(tools, hosts, "srv", {})
    return {(f.tool, f.rule) for v in verdicts for f in v.findings if f.fixable}


def _patched(hosts: list[str], tools: list[dict[str, Any]]) -> tuple[list[Any], list[Any]]:
    verdicts = evaluate_hosts(tools, hosts, "srv", {})
    operations = host_fix_operations(tools, verdicts, "/tools", "srv")
    document = jsonpatch.JsonPatch(operations).apply({"tools": tools})
    return document["tools"], operations


FIXABLE = [
    (["anthropic"], [tool("items.get")]),
    (["anthropic"], [tool(inputSchema=UNION)]),
    (["claude-code"], [tool(name_of(60))]),
    (["claude-code"], [tool(inputSchema=UNION)]),
    (["openai"], [tool("items/get"), tool("items_get")]),
    (["gemini"], [tool("9lives", inputSchema={"type": "object", "properties": {}})]),
    (["gemini"], [tool(inputSchema={k: v for k, v in DEFS_SCHEMA.items()})]),
    (["gemini-json-schema"], [tool(inputSchema=DEFS_SCHEMA)]),
    (["mcp-typescript-sdk"], [tool(outputSchema={"description": "result"})]),
    (["mcp-spec"], [tool("get item", outputSchema={"properties": {}})]),
    (["chatgpt-apps"], [tool(annotations={"readOnlyHint": True})]),
    (["claude-directory"], [tool(annotations={})]),
    (["anthropic", "openai", "gemini", "claude-code"], [tool("a.b/" + name_of(80))]),
]


@pytest.mark.parametrize(("hosts", "tools"), FIXABLE, ids=lambda v: str(v)[:40])
def test_the_patch_clears_every_fixable_finding(
    hosts: list[str], tools: list[dict[str, Any]]
) -> None:
    assert _fixable(hosts, tools)  # the fixture breaks a fixable rule
    patched, operations = _patched(hosts, tools)
    assert operations
    assert _fixable(hosts, patched) == set()


def test_all_hosts_at_once_leaves_only_unfixable_findings() -> None:
    tools = [
        tool("files.read", inputSchema=UNION, outputSchema={"description": "x"}, annotations={}),
        tool("delete_everything", inputSchema=DEFS_SCHEMA, annotations={"title": "Delete"}),
    ]
    hosts = resolve_hosts(["all"])
    patched, _ = _patched(hosts, tools)
    assert _fixable(hosts, patched) == set()


def test_a_root_union_is_folded_and_its_alternatives_stated() -> None:
    patched, _ = _patched(["anthropic"], [tool(inputSchema=UNION, description="Open a file.")])
    (entry,) = patched
    assert "oneOf" not in entry["inputSchema"]
    assert set(entry["inputSchema"]["properties"]) == {"id", "url", "path"}
    assert entry["inputSchema"]["required"] == ["id"]
    assert entry["description"] == "Open a file.\n\nGive exactly one of: url; path."


def test_renames_are_marked_breaking_and_stay_unique() -> None:
    _, operations = _patched(["openai"], [tool("items/get"), tool("items_get")])
    (rename,) = [op for op in operations if op["path"].endswith("/name")]
    assert rename["value"] == "items_get_2"
    assert rename["x-whichtool"]["breaking"] is True


def test_renames_fit_claude_codes_prefix() -> None:
    patched, _ = _patched(["claude-code"], [tool(name_of(70))])
    assert len("mcp__srv__" + patched[0]["name"]) == 64


def test_guessed_hints_are_marked_guesses() -> None:
    _, operations = _patched(["chatgpt-apps"], [tool("delete_file", annotations={})])
    assert {op["path"]: op["value"] for op in operations} == {
        "/tools/0/annotations/readOnlyHint": False,
        "/tools/0/annotations/destructiveHint": True,
        "/tools/0/annotations/openWorldHint": False,
    }
    assert all(op["x-whichtool"]["guess"] for op in operations)


def test_no_mechanical_fix_means_no_operation() -> None:
    long = tool(description="d" * 3000)
    many = [tool(f"t{index}") for index in range(130)]
    assert _patched(["claude-code"], [long])[1] == []
    assert _patched(["openai"], many)[1] == []
    untyped_array = tool(outputSchema={"type": "array"})
    assert _patched(["mcp-typescript-sdk"], [untyped_array])[1] == []


def test_patch_points_at_the_served_index_not_the_sorted_one() -> None:
    tools = [tool("zeta"), {"not": "a tool"}, tool("alpha.beta")]
    _, operations = _patched(["openai"], tools)
    assert [op["path"] for op in operations] == ["/tools/2/name"]
