"""Surface normalisation, the sha256 hash, and the JavaScript-compatible JSON text."""

from __future__ import annotations

import hashlib

from whichtool_tui.surface.canonical import canonical_json, js_number, js_pretty_json
from whichtool_tui.surface.normalize import normalize_surface, normalize_text


def test_description_normalisation() -> None:
    text = "Cafe\u0301 menu  \r\nline two\t \r\r\r\rlast\n\n\n\n  "
    assert normalize_text(text) == "Café menu\nline two\n\nlast"
    assert normalize_text("a   b") == "a   b"  # interior spaces are kept


def test_tools_sorted_with_served_index_and_canonical_schema() -> None:
    raw = [
        {
            "name": "zeta",
            "inputSchema": {
                "type": "object",
                "required": ["b", "a"],
                "properties": {"b": {"enum": ["y", "x"]}, "a": {}},
            },
        },
        {"name": "alpha", "description": "x", "inputSchema": {"type": "object"}},
    ]
    surface = normalize_surface(raw)
    assert [(t.name, t.served_index) for t in surface.tools] == [("alpha", 1), ("zeta", 0)]
    zeta = surface.tools[1]
    assert list(zeta.input_schema) == ["properties", "required", "type"]
    assert zeta.input_schema["required"] == ["a", "b"]
    assert zeta.input_schema["properties"]["b"]["enum"] == ["y", "x"]  # enum keeps its order
    assert zeta.description is None and not zeta.has_description


def test_hash_ignores_order_key_order_and_line_endings_but_not_content() -> None:
    one = [
        {
            "name": "a",
            "description": "Read it.\r\n",
            "inputSchema": {"type": "object", "properties": {}},
        },
        {"name": "b", "inputSchema": {"properties": {}, "type": "object"}},
    ]
    two = [
        {"inputSchema": {"properties": {}, "type": "object"}, "name": "b"},
        {
            "name": "a",
            "description": "Read it.",
            "inputSchema": {"properties": {}, "type": "object"},
        },
    ]
    first, second = normalize_surface(one).hash, normalize_surface(two).hash
    assert first == second and first.startswith("sha256:") and len(first) == 71
    changed = normalize_surface([{**one[0], "description": "Read it!"}, one[1]]).hash
    assert changed != first


def test_hash_is_sha256_of_the_documented_canonical_json() -> None:
    raw = [
        {
            "name": "t",
            "title": "T",
            "description": "d",
            "inputSchema": {"type": "object"},
            "annotations": {"readOnlyHint": True},
            "_meta": {"ignored": 1},
        }
    ]
    expected_text = (
        '[{"annotations":{"readOnlyHint":true},"description":"d",'
        '"inputSchema":{"type":"object"},"name":"t","title":"T"}]'
    )
    expected = "sha256:" + hashlib.sha256(expected_text.encode()).hexdigest()
    assert normalize_surface(raw).hash == expected


def test_refs_inlined_for_analysis_but_kept_on_the_wire() -> None:
    schema = {
        "type": "object",
        "properties": {"user": {"$ref": "#/$defs/User", "description": "who"}},
        "$defs": {"User": {"type": "object", "properties": {"id": {"type": "string"}}}},
    }
    tool = normalize_surface([{"name": "t", "inputSchema": schema}]).tools[0]
    assert tool.input_schema["properties"]["user"]["$ref"] == "#/$defs/User"
    assert tool.input_schema_resolved == {
        "properties": {
            "user": {
                "description": "who",
                "properties": {"id": {"type": "string"}},
                "type": "object",
            }
        },
        "type": "object",
    }


def test_unresolved_refs_are_reported_and_defs_kept() -> None:
    schema = {
        "type": "object",
        "properties": {
            "ext": {"$ref": "https://example.com/schema.json"},
            "gone": {"$ref": "#/$defs/Missing"},
            "node": {"$ref": "#/$defs/Node"},
        },
        "$defs": {"Node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/Node"}}}},
    }
    surface = normalize_surface([{"name": "t", "inputSchema": schema}])
    codes = sorted(d.code for d in surface.diagnostics)
    assert codes == [
        "surface/unresolved-ref-cycle",
        "surface/unresolved-ref-external",
        "surface/unresolved-ref-missing",
    ]
    assert all(d.severity == "info" for d in surface.diagnostics)
    assert "$defs" in surface.tools[0].input_schema_resolved


def test_ref_expansion_budget_gives_too_large_warning() -> None:
    defs = {
        f"L{i}": {
            "type": "object",
            "properties": {"a": {"$ref": f"#/$defs/L{i + 1}"}, "b": {"$ref": f"#/$defs/L{i + 1}"}},
        }
        for i in range(30)
    }
    defs["L30"] = {"type": "string"}
    schema = {"type": "object", "properties": {"root": {"$ref": "#/$defs/L0"}}, "$defs": defs}
    surface = normalize_surface([{"name": "t", "inputSchema": schema}])
    assert [d.code for d in surface.diagnostics] == ["surface/unresolved-ref-too-large"]
    assert surface.diagnostics[0].severity == "warning"


def test_malformed_entries_cost_only_themselves() -> None:
    raw = [
        "not a tool",
        {"description": "no name"},
        {"name": "ok", "description": 42},
        {"name": "ok", "description": "duplicate"},
        {"name": "fine", "description": "Fine tool.", "inputSchema": {"type": "object"}},
    ]
    surface = normalize_surface(raw)
    assert [t.name for t in surface.tools] == ["fine", "ok"]
    found = {(d.code, d.severity) for d in surface.diagnostics}
    assert found == {
        ("surface/malformed-tool", "error"),
        ("surface/missing-tool-name", "error"),
        ("surface/non-string-description", "warning"),
        ("surface/missing-input-schema", "warning"),
        ("surface/duplicate-tool-name", "error"),
    }
    ok = surface.tools[1]
    assert ok.description is None and ok.input_schema == {"type": "object"}


def test_js_compatible_numbers_and_text() -> None:
    assert [js_number(v) for v in (1.0, 0.5, 1e-05, 1e-07, 1e21, 2.5e-06, -0.0, 123)] == [
        "1",
        "0.5",
        "0.00001",
        "1e-7",
        "1e+21",
        "0.0000025",
        "0",
        "123",
    ]
    assert canonical_json({"b": 1, "a": [True, None, "é\n"]}) == '{"a":[true,null,"é\\n"],"b":1}'
    assert (
        js_pretty_json({"a": [], "b": {}, "c": [1]})
        == '{\n  "a": [],\n  "b": {},\n  "c": [\n    1\n  ]\n}\n'
    )


def test_js_fixed_rounds_exact_ties_up_like_to_fixed() -> None:
    from whichtool_tui.surface.canonical import js_fixed

    assert js_fixed(0.125, 2) == "0.13"  # Python's format would give 0.12
    assert js_fixed(0.03125, 4) == "0.0313"
    assert js_fixed(0.7159090909090909, 2) == "0.72"
    assert js_fixed(1.0, 2) == "1.00"


def test_absurdly_deep_schema_skips_only_that_tool() -> None:
    schema: dict[str, object] = {"type": "object"}
    node = schema
    for _ in range(300):
        child: dict[str, object] = {"type": "object"}
        node["properties"] = {"x": child}
        node = child
    surface = normalize_surface(
        [
            {"name": "deep", "inputSchema": schema},
            {"name": "fine", "inputSchema": {"type": "object"}},
        ]
    )
    assert [t.name for t in surface.tools] == ["fine"]
    assert [d.code for d in surface.diagnostics] == ["surface/malformed-tool"]
