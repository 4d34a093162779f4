"""The rewritten hot paths of inspect give exactly what their plain versions gave.

Each oracle below is the straightforward implementation a fast path replaced, kept here only
to compare against on random inputs (hypothesis) and on the awkward cases written out.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from whichtool_tui.surface.canonical import canonical_json, js_number, js_string, utf16_key

# Characters that exercise every branch: ASCII, the U+E000-U+FFFF block, astral characters,
# lone surrogates, control characters, quotes, backslashes and JSON punctuation.
AWKWARD_TEXT = st.text(
    alphabet=st.sampled_from(
        [
            *"ab z09_-'\".,:;[]{}\\\n\t\x00\x1f\x7f",
            *["é", "中", "\ue000", "\uffff", "\ufeff", "😀", "\U00010000", "\ud83d", "\ude00"],
            *["Ⅻ", "²", "\u2028", "\xa0"],
        ]
    ),
    max_size=12,
)
AWKWARD_NUMBERS = st.sampled_from(
    [
        *[0, -1, 2**53, 2**70, -(2**64), 1.0, -0.0, 0.5, 12.0, 1e-7, 4.5e-05, 1e16, 1e21],
        *[1e300, 1.5e-300, 0.1 + 0.2, 123456789.125, float("inf"), float("nan"), -2.5e-8],
    ]
)
JSON_LIKE = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | AWKWARD_NUMBERS | AWKWARD_TEXT,
    lambda children: (
        st.lists(children, max_size=4)
        | st.lists(children, max_size=3).map(tuple)
        | st.dictionaries(AWKWARD_TEXT, children, max_size=4)
    ),
    max_leaves=25,
)


def plain_canonical_json(value: Any) -> str:
    """The recursive writer canonical_json used before its C-encoder fast path."""
    if value is None:
        return "null"
    if isinstance(value, str):
        return js_string(value)
    if isinstance(value, bool | int | float):
        return js_number(value)
    if isinstance(value, list | tuple):
        return "[" + ",".join(plain_canonical_json(item) for item in value) + "]"
    if isinstance(value, dict):
        parts = [
            f"{js_string(key)}:{plain_canonical_json(value[key])}"
            for key in sorted(value, key=utf16_key)
        ]
        return "{" + ",".join(parts) + "}"
    return "null"


@settings(max_examples=600, deadline=None)
@given(JSON_LIKE)
def test_canonical_json_equals_the_plain_writer(value: Any) -> None:
    assert canonical_json(value) == plain_canonical_json(value)


def test_canonical_json_awkward_cases() -> None:
    cases: list[Any] = [
        {"b": 1.0, "a": [-0.0, 1e-05, 1e16, 0.5]},
        {"\ue000": 1, "😀": 2},  # code-point order and UTF-16 order disagree
        {"\ud83d\ude01": 1, "😀": 2},
        {"x": "\ud800 lone", "y": ["ok:1.0,", "[1e-05]"]},
        {"n": float("nan"), "i": [float("inf")]},
        [{"z": {}, "y": []}, (), "tuple", (1, 2)],
        {"big": 2**80, "neg": -(2**63)},
        {"s": {1, 2}},  # not JSON: written as null, as before
    ]
    for value in cases:
        assert canonical_json(value) == plain_canonical_json(value), value
    assert canonical_json({"\ue000": 1, "😀": 2}) == '{"😀":2,"\ue000":1}'


def plain_to_json_value(value: Any) -> Any:
    """The copy normalisation made before canonicalising (non-finite numbers become null)."""
    if value is None or isinstance(value, bool | str | int):
        return value
    if isinstance(value, float):
        return value if value == value and value not in (float("inf"), float("-inf")) else None
    if isinstance(value, list | tuple):
        return [plain_to_json_value(item) for item in value]
    if isinstance(value, dict):
        return {str(key): plain_to_json_value(child) for key, child in value.items()}
    return None


def plain_canonicalize_schema(value: Any) -> Any:
    """Sorted keys (UTF-16) and sorted string-only ``required`` arrays, as it was written."""
    if isinstance(value, list):
        return [plain_canonicalize_schema(item) for item in value]
    if not isinstance(value, dict):
        return value
    out: dict[str, Any] = {}
    for key in sorted(value, key=utf16_key):
        child = value[key]
        if key == "required" and isinstance(child, list) and all(isinstance(v, str) for v in child):
            out[key] = sorted(child, key=utf16_key)
        else:
            out[key] = plain_canonicalize_schema(child)
    return out


def plain_nesting_depth(value: Any, limit: int = 200) -> int:
    """Every node stacked, scalars included."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        node, depth = stack.pop()
        if depth > deepest:
            deepest = depth
            if deepest > limit:
                return deepest
        if isinstance(node, dict):
            stack.extend((child, depth + 1) for child in node.values())
        elif isinstance(node, list):
            stack.extend((child, depth + 1) for child in node)
    return deepest


def plain_resolve_internal_refs(schema: dict[str, Any]) -> tuple[Any, list[Any]]:
    """The resolver walk for every schema, with or without refs."""
    from whichtool_tui.surface import normalize

    resolver = normalize._RefResolver(schema)
    resolved = resolver.walk(schema)
    if not isinstance(resolved, dict):
        resolved = {}
    unresolved = list(dict.fromkeys(resolver.unresolved))
    if not unresolved:
        resolved = normalize._strip_definitions(resolved)
    return plain_canonicalize_schema(resolved), unresolved


SCHEMA_KEYS = (
    st.sampled_from(
        [
            "type",
            "properties",
            "required",
            "$ref",
            "$defs",
            "definitions",
            "items",
            "enum",
            "é",
            "😀",
        ]
    )
    | AWKWARD_TEXT
)
SCHEMA_LIKE = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()
    | AWKWARD_TEXT
    | st.sampled_from(["#/$defs/a", "#/definitions/b", "#", "#/properties", "http://x/y.json"]),
    lambda children: (
        st.lists(children, max_size=4)
        | st.lists(AWKWARD_TEXT, max_size=4).map(tuple)
        | st.dictionaries(SCHEMA_KEYS | st.integers(), children, max_size=5)
    ),
    max_leaves=30,
)


@settings(max_examples=500, deadline=None)
@given(SCHEMA_LIKE)
def test_canonical_copy_equals_copy_then_canonicalize(value: Any) -> None:
    from whichtool_tui.surface.normalize import canonical_copy

    expected = plain_canonicalize_schema(plain_to_json_value(value))
    got = canonical_copy(value)
    assert got == expected
    assert canonical_json(got) == plain_canonical_json(expected)  # same key order too


@settings(max_examples=500, deadline=None)
@given(SCHEMA_LIKE)
def test_nesting_depth_equals_the_every_node_walk(value: Any) -> None:
    from whichtool_tui.surface.normalize import nesting_depth

    assert nesting_depth(value) == plain_nesting_depth(value)
    assert nesting_depth(value, limit=2) == plain_nesting_depth(value, limit=2)


@settings(max_examples=500, deadline=None)
@given(st.dictionaries(SCHEMA_KEYS, SCHEMA_LIKE, max_size=5))
def test_resolving_refs_equals_the_full_walk(value: dict[str, Any]) -> None:
    from whichtool_tui.surface.normalize import canonical_copy, resolve_internal_refs

    schema = canonical_copy(value)
    expected, expected_unresolved = plain_resolve_internal_refs(schema)
    got, unresolved = resolve_internal_refs(schema)
    assert unresolved == expected_unresolved
    assert canonical_json(got) == plain_canonical_json(expected)


def test_deep_and_large_schemas_keep_their_walk() -> None:
    from whichtool_tui.surface.normalize import (
        MAX_RESOLVED_NODES,
        nesting_depth,
        resolve_internal_refs,
    )

    deep: Any = 1
    for _ in range(250):
        deep = [deep]
    assert nesting_depth(deep) == plain_nesting_depth(deep) == 201
    large = {"enum": list(range(MAX_RESOLVED_NODES))}
    _resolved, unresolved = resolve_internal_refs(large)
    assert unresolved == [("*", "too-large")]
    assert plain_resolve_internal_refs(large)[1] == unresolved


TOKEN_TEXT = st.lists(
    st.sampled_from(
        [
            *"abstldmvreSDTLMVRE09 _-'\".,:{}[]\\\n\t",
            *["\u2028", "\xa0", "\u3000", "\ufeff", "é", "中", "五", "Ⅻ", "〇", "²", "٣"],
            *["\u0301", "‿", "😀", "\ue000", "''", "'s", "'ll", "  ", "'\"", "0123"],
        ]
    ),
    max_size=25,
).map("".join)


@settings(max_examples=800, deadline=None)
@given(
    name=TOKEN_TEXT.filter(bool),
    description=st.none() | TOKEN_TEXT,
    schema=st.dictionaries(TOKEN_TEXT, JSON_LIKE | TOKEN_TEXT, max_size=4),
)
def test_token_total_from_parts_equals_counting_the_whole(
    name: str, description: str | None, schema: dict[str, Any]
) -> None:
    from whichtool_tui.surface.model import Tool
    from whichtool_tui.surface.tokens import count_tokens, counting_serialization, tool_tokens

    tool = Tool(
        name=name,
        description=description,
        input_schema=schema,
        input_schema_resolved=schema,
        served_index=0,
    )
    counted = tool_tokens(tool)
    assert counted.total == count_tokens(counting_serialization(tool))
    assert counted.schema == count_tokens(canonical_json(schema))


def _plain_placeholder_match(text: str) -> str | None:
    from whichtool_tui.surface.rules_descriptions import _PLACEHOLDER_ANY, _PLACEHOLDER_UPPER

    match = _PLACEHOLDER_UPPER.search(text) or _PLACEHOLDER_ANY.search(text)
    return match.group(0) if match else None


PLACEHOLDER_TEXT = st.lists(
    st.sampled_from(
        [
            *["lorem", "ipsum", "Lorem Ipsum", "LOREM IPSUM", "description", "DESCRIPTION"],
            *["goes", "here", "Here", "add", "Insert", "write", "a", "the", "placeholder"],
            *["text", "to", "be", "To Be", "written", "documented", "described", "TODO", "todo"],
            *["TBD", "FIXME", "xTODO", "ſ", "K", "é", " ", "  ", ".", "\n", "İ", "Description"],
        ]
    ),
    max_size=10,
).map("".join) | st.text(max_size=30)


@settings(max_examples=400, deadline=None)
@given(st.lists(PLACEHOLDER_TEXT, max_size=3).map(" ".join))
def test_placeholder_prefilter_equals_the_two_regexes(text: str) -> None:
    from whichtool_tui.surface.rules_descriptions import placeholder_match

    assert placeholder_match(text) == _plain_placeholder_match(text)


def test_placeholder_prefilter_known_cases() -> None:
    from whichtool_tui.surface.rules_descriptions import placeholder_match

    for text in [
        "Add a description",
        "DESCRIPTION GOES HERE",
        "Lorem Ipsum dolor",
        "TBD.",
        "to be documented",
        "Placeholder text",
        "none here",
        "todo list",
        "ſ",
    ]:
        assert placeholder_match(text) == _plain_placeholder_match(text), text
    assert placeholder_match("ADD THE DESCRİPTİON") == _plain_placeholder_match(
        "ADD THE DESCRİPTİON"
    )


@settings(max_examples=300, deadline=None)
@given(st.lists(st.dictionaries(TOKEN_TEXT, JSON_LIKE | TOKEN_TEXT, max_size=4), max_size=4))
def test_normalised_tools_carry_their_schemas_canonical_json(schemas: list[Any]) -> None:
    import dataclasses

    from whichtool_tui.surface.normalize import normalize_surface
    from whichtool_tui.surface.tokens import counting_serialization, tool_tokens

    raw: list[Any] = [{"name": f"t{i}", "inputSchema": s} for i, s in enumerate(schemas)]
    raw.append({"name": "no_schema"})
    for tool in normalize_surface(raw).tools:
        assert tool.input_schema_json == canonical_json(tool.input_schema)
        plain = dataclasses.replace(tool, input_schema_json=None)
        assert plain == tool  # the cached text is not part of the tool's identity
        assert tool_tokens(tool) == tool_tokens(plain)
        assert counting_serialization(tool) == counting_serialization(plain)
