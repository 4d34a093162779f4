"""Each host profile's expectations, table-driven, on both sides of every boundary."""

from __future__ import annotations

from typing import Any

import pytest

from tests.unit.hosts.surfaces import many, name_of, schema, tool
from whichtool_tui.hosts.engine import evaluate_hosts
from whichtool_tui.hosts.registry import host_names, profiles, resolve_hosts

CLAUDE_PREFIX = len("mcp__srv__")
# the fixture tool is strict (additionalProperties: false), which Gemini's classic field refuses
GEMINI_KEYWORDS = ("gemini/unknown-keywords", "request-rejected")


def _rules(host: str, tools: list[dict[str, Any]], server: str = "srv") -> set[tuple[str, str]]:
    (verdict,) = evaluate_hosts(tools, [host], server, {})
    return {(finding.rule, finding.effect) for finding in verdict.findings}


CASES: list[tuple[str, str, list[dict[str, Any]], set[tuple[str, str]]]] = [
    # (host, case, surface, expected findings)
    ("anthropic", "clean", [tool()], set()),
    ("anthropic", "name 128", [tool(name_of(128))], set()),
    (
        "anthropic",
        "name 129",
        [tool(name_of(129))],
        {("anthropic/name-alphabet", "request-rejected")},
    ),
    (
        "anthropic",
        "dot in name",
        [tool("items.get")],
        {("anthropic/name-alphabet", "request-rejected")},
    ),
    (
        "anthropic",
        "root anyOf",
        [tool(inputSchema=schema(anyOf=[{"required": ["id"]}]))],
        {("anthropic/root-combinator", "request-rejected")},
    ),
    (
        "anthropic",
        "nested anyOf",
        [
            tool(
                inputSchema=schema(
                    properties={"id": {"anyOf": [{"type": "string"}, {"type": "integer"}]}}
                )
            )
        ],
        set(),
    ),
    ("claude-code", "full name 64", [tool(name_of(64 - CLAUDE_PREFIX))], set()),
    (
        "claude-code",
        "full name 65",
        [tool(name_of(65 - CLAUDE_PREFIX))],
        {("claude-code/full-name-64", "request-rejected")},
    ),
    ("claude-code", "description 2,048", [tool(description="d" * 2048)], set()),
    (
        "claude-code",
        "description 2,049",
        [tool(description="d" * 2049)],
        {("claude-code/description-2048", "truncated")},
    ),
    (
        "claude-code",
        "root oneOf",
        [tool(inputSchema=schema(oneOf=[{"required": ["id"]}]))],
        {("claude-code/root-combinator", "tool-dropped")},
    ),
    (
        "claude-code",
        "input not object",
        [tool(inputSchema={"anyOf": [schema()]})],
        {
            ("claude-code/root-combinator", "tool-dropped"),
            ("claude-code/input-not-object", "listing-rejected"),
        },
    ),
    ("openai", "name 64", [tool(name_of(64))], set()),
    ("openai", "name 65", [tool(name_of(65))], {("openai/name-alphabet", "request-rejected")}),
    (
        "openai",
        "slash in name",
        [tool("items/get")],
        {("openai/name-alphabet", "request-rejected")},
    ),
    ("openai", "128 tools", many(128), set()),
    ("openai", "129 tools", many(129), {("openai/tool-count-128", "request-rejected")}),
    ("openai-strict", "strict clean", [tool()], set()),
    (
        "openai-strict",
        "extra properties allowed",
        [
            tool(
                inputSchema={
                    "type": "object",
                    "properties": {"id": {"type": "string"}},
                    "required": ["id"],
                }
            )
        ],
        {("openai-strict/strict-schema", "request-rejected")},
    ),
    (
        "openai-strict",
        "optional property",
        [tool(inputSchema=schema(properties={"id": {"type": "string"}, "n": {"type": "integer"}}))],
        {("openai-strict/strict-schema", "request-rejected")},
    ),
    (
        "openai-strict",
        "inherits 129 tools",
        many(129),
        {("openai/tool-count-128", "request-rejected")},
    ),
    ("gemini", "name 64 with dot and colon", [tool("a.b:" + name_of(60))], {GEMINI_KEYWORDS}),
    (
        "gemini",
        "name 65",
        [tool(name_of(65))],
        {("gemini/name-alphabet", "request-rejected"), GEMINI_KEYWORDS},
    ),
    (
        "gemini",
        "leading digit",
        [tool("1tool")],
        {("gemini/name-alphabet", "request-rejected"), GEMINI_KEYWORDS},
    ),
    (
        "gemini",
        "classic clean",
        [
            tool(
                inputSchema={
                    "type": "object",
                    "properties": {"id": {"type": "string", "enum": ["a", "b"]}},
                    "required": ["id"],
                }
            )
        ],
        set(),
    ),
    (
        "gemini",
        "type array",
        [tool(inputSchema={"type": "object", "properties": {"id": {"type": ["string", "null"]}}})],
        {("gemini/type-array", "request-rejected")},
    ),
    (
        "gemini",
        "integer enum",
        [
            tool(
                inputSchema={
                    "type": "object",
                    "properties": {"n": {"type": "integer", "enum": [1, 2]}},
                }
            )
        ],
        {("gemini/enum-non-string", "request-rejected")},
    ),
    (
        "gemini",
        "defs",
        [
            tool(
                inputSchema={
                    "type": "object",
                    "$defs": {"Id": {"type": "string"}},
                    "properties": {"id": {"$ref": "#/$defs/Id"}},
                }
            )
        ],
        {("gemini/refs", "request-rejected")},
    ),
    (
        "gemini",
        "exclusiveMinimum",
        [
            tool(
                inputSchema={
                    "type": "object",
                    "properties": {"n": {"type": "number", "exclusiveMinimum": 0}},
                }
            )
        ],
        {("gemini/unknown-keywords", "request-rejected")},
    ),
    ("gemini-json-schema", "json schema clean", [tool()], set()),
    ("gemini-json-schema", "name 64", [tool("_" + name_of(63))], set()),
    (
        "gemini-json-schema",
        "name 65",
        [tool("_" + name_of(64))],
        {("gemini-json-schema/name-alphabet", "request-rejected")},
    ),
    (
        "gemini-json-schema",
        "ref with description",
        [
            tool(
                inputSchema={
                    "type": "object",
                    "properties": {
                        "id": {"$ref": "#/properties/x", "description": "d"},
                        "x": {"type": "string"},
                    },
                }
            )
        ],
        set(),
    ),
    (
        "gemini-json-schema",
        "ref with title",
        [
            tool(
                inputSchema={
                    "type": "object",
                    "properties": {
                        "id": {"$ref": "#/properties/x", "title": "t"},
                        "x": {"type": "string"},
                    },
                }
            )
        ],
        {("gemini-json-schema/ref-siblings", "request-rejected")},
    ),
    (
        "gemini-json-schema",
        "ref into defs",
        [
            tool(
                inputSchema={
                    "type": "object",
                    "$defs": {"Id": {"type": "string"}},
                    "properties": {"id": {"$ref": "#/$defs/Id"}},
                }
            )
        ],
        {("gemini-json-schema/defs-discovery", "listing-rejected")},
    ),
    ("vscode-copilot", "128 tools", many(128), set()),
    (
        "vscode-copilot",
        "dot in name",
        [tool("items.get")],
        {("vscode-copilot/name-alphabet", "request-rejected")},
    ),
    (
        "vscode-copilot",
        "129 tools",
        many(129),
        {("vscode-copilot/tool-count-128", "request-rejected")},
    ),
    ("mcp-typescript-sdk", "output object", [tool(outputSchema={"type": "object"})], set()),
    (
        "mcp-typescript-sdk",
        "output untyped",
        [tool(outputSchema={"description": "x"})],
        {("mcp-typescript-sdk/output-schema-object", "listing-rejected")},
    ),
    (
        "mcp-typescript-sdk",
        "output array",
        [tool(outputSchema={"type": "array"})],
        {("mcp-typescript-sdk/output-schema-object", "listing-rejected")},
    ),
    (
        "mcp-typescript-sdk",
        "input untyped",
        [tool(inputSchema={"properties": {}})],
        {("mcp-typescript-sdk/input-schema-object", "listing-rejected")},
    ),
    ("chatgpt-apps", "three hints", [tool()], set()),
    (
        "chatgpt-apps",
        "two hints",
        [tool(annotations={"readOnlyHint": True, "destructiveHint": False})],
        {("chatgpt-apps/three-hints", "submission-blocked")},
    ),
    (
        "chatgpt-apps",
        "hint not boolean",
        [
            tool(
                annotations={
                    "readOnlyHint": "yes",
                    "destructiveHint": False,
                    "openWorldHint": False,
                }
            )
        ],
        {("chatgpt-apps/three-hints", "submission-blocked")},
    ),
    ("claude-directory", "title and hint", [tool(annotations={"readOnlyHint": True})], set()),
    (
        "claude-directory",
        "title in annotations",
        [{**tool(annotations={"title": "T", "destructiveHint": True}), "title": None}],
        set(),
    ),
    (
        "claude-directory",
        "no title, no hint",
        [{**tool(annotations={}), "title": ""}],
        {
            ("claude-directory/title", "submission-blocked"),
            ("claude-directory/applicable-hint", "submission-blocked"),
        },
    ),
    ("mcp-spec", "name 128 with dot", [tool("a." + name_of(126))], set()),
    ("mcp-spec", "name 129", [tool(name_of(129))], {("mcp-spec/name-format", "non-conforming")}),
    ("mcp-spec", "space in name", [tool("get item")], {("mcp-spec/name-format", "non-conforming")}),
    (
        "mcp-spec",
        "output untyped",
        [tool(outputSchema={"properties": {}})],
        {("mcp-spec/output-schema-object", "non-conforming")},
    ),
    (
        "mcp-spec",
        "remote ref",
        [
            tool(
                inputSchema={
                    "type": "object",
                    "properties": {"id": {"$ref": "https://example.com/id.json"}},
                }
            )
        ],
        {("mcp-spec/remote-ref", "non-conforming")},
    ),
]


@pytest.mark.parametrize(
    ("host", "surface", "expected"),
    [(host, surface, expected) for host, _, surface, expected in CASES],
    ids=[f"{host}: {case}" for host, case, _, _ in CASES],
)
def test_each_profile_finds_exactly_its_rules(
    host: str, surface: list[dict[str, Any]], expected: set[tuple[str, str]]
) -> None:
    assert _rules(host, surface) == expected


def test_every_profile_and_every_rule_has_a_case() -> None:
    covered = {rule for _, _, _, expected in CASES for rule, _ in expected}
    every = {f"{host}/{rule.id}" for host, profile in profiles().items() for rule in profile.rules}
    assert every - covered == set()
    assert {host for host, _, _, _ in CASES} == set(host_names())


def test_every_rule_names_its_source_and_when_it_was_verified() -> None:
    for profile in profiles().values():
        for rule in profile.rules:
            assert rule.sources
            assert rule.verified == "2026-12-03" or rule.verified.startswith("unverified: ")


def test_compatibility_follows_the_effect() -> None:
    truncated = evaluate_hosts([tool(description="d" * 3000)], ["claude-code"], "srv", {})[0]
    assert truncated.compatible is True and truncated.findings
    dropped = evaluate_hosts([tool(inputSchema=schema(oneOf=[{}]))], ["claude-code"], "srv", {})[0]
    assert dropped.compatible is False


def test_truncation_names_the_cut_and_the_text_the_model_never_sees() -> None:
    description = "k" * 2048 + "THE END"
    (verdict,) = evaluate_hosts([tool(description=description)], ["claude-code"], "srv", {})
    (finding,) = verdict.findings
    assert finding.truncation is not None
    assert finding.truncation.at == 2048
    assert finding.truncation.unseen == "THE END"


def test_truncation_counts_javascript_string_length() -> None:
    # an astral character is two UTF-16 units: 1,024 of them already fill 2,048
    description = "\U0001f600" * 1024
    assert not evaluate_hosts([tool(description=description)], ["claude-code"], "s", {})[0].findings
    (finding,) = evaluate_hosts([tool(description=description + "x")], ["claude-code"], "s", {})[
        0
    ].findings
    assert finding.truncation is not None and finding.truncation.unseen == "x"


def test_readiness_counts_tools_seen_and_their_tokens() -> None:
    surface = [tool("a"), tool("b", inputSchema=schema(oneOf=[{}]))]
    tokens = {"a": 40, "b": 60}
    claude, anthropic = evaluate_hosts(surface, ["claude-code", "anthropic"], "srv", tokens)
    assert (claude.readiness.tools_seen, claude.readiness.tokens_loaded) == (1, 40)
    assert (anthropic.readiness.tools_seen, anthropic.readiness.tokens_loaded) == (0, 0)


def test_all_names_every_profile_and_unknown_names_fail() -> None:
    from whichtool_tui.errors import WhichtoolError

    assert resolve_hosts(["all"]) == host_names()
    assert resolve_hosts(["openai", "anthropic", "openai"]) == ["anthropic", "openai"]
    with pytest.raises(WhichtoolError, match="Unknown host `nope`"):
        resolve_hosts(["nope"])


def test_malformed_entries_are_left_to_normalisation() -> None:
    (verdict,) = evaluate_hosts([42, {"description": "no name"}, tool()], ["openai"], None, {})
    assert verdict.findings == [] and verdict.readiness.tool_count == 1


def test_docs_list_every_profile_with_sources_and_dates() -> None:
    from tests.support.paths import REPO
    from whichtool_tui.reports.hosts_doc import render_host_profiles_markdown

    page = (REPO / "docs" / "hosts.md").read_text(encoding="utf-8")
    assert (
        render_host_profiles_markdown() in page
    )  # regenerate: python -m whichtool_tui.reports.hosts_doc
