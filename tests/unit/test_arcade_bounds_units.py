"""Depth is measured and clipped without recursion; schema.bounds judges a listing unfetched."""

from __future__ import annotations

import json

from whichtool_tui.arcade.atoms.bounds import foreign_icon, inward_url, judge_menu, remote_refs
from whichtool_tui.arcade.bounds import CLIPPED_KEY, MAX_STORED_DEPTH, clip_depth, json_depth
from whichtool_tui.arcade.fixture_attacks import nested_schema


def _nested_lists(depth: int) -> list[object]:
    root: list[object] = []
    node = root
    for _ in range(depth - 1):
        child: list[object] = []
        node.append(child)
        node = child
    return root


def test_depth_of_scalars_and_containers() -> None:
    assert json_depth("x") == 0
    assert json_depth({}) == 1
    assert json_depth({"a": [1, {"b": 2}]}) == 3
    assert json_depth(nested_schema(3)) == 7


def test_a_hundred_thousand_levels_are_measured_and_clipped_without_recursion() -> None:
    deep = _nested_lists(100_000)
    assert json_depth(deep) == 100_000
    clipped = clip_depth(deep)
    assert json_depth(clipped) == MAX_STORED_DEPTH + 1  # the marker object is the last level
    json.dumps(clipped)  # serialisable now


def test_clipping_keeps_shallow_values_and_marks_the_cut() -> None:
    shallow = {"a": [1, 2, {"b": "c"}]}
    assert clip_depth(shallow) == shallow
    cut = clip_depth({"a": {"b": {"c": 1}}}, limit=2)
    assert cut == {"a": {"b": {CLIPPED_KEY: "nested deeper than 2 levels; not kept"}}}


def test_remote_refs_and_icons_are_judged_from_text() -> None:
    schema = {"properties": {"a": {"$ref": "#/defs/a"}, "b": {"$ref": "https://x.invalid/s"}}}
    assert remote_refs(schema) == ["https://x.invalid/s"]
    assert not foreign_icon("data:image/png;base64,AAAA", None)
    assert foreign_icon("https://beacon.invalid/p.png", None)
    assert not foreign_icon("https://api.example.com/i.png", "api.example.com")
    assert foreign_icon("https://beacon.invalid/p.png", "api.example.com")


def test_an_honest_menu_passes_every_bounds_check() -> None:
    tool = {"name": "echo", "description": "Echo.", "inputSchema": nested_schema(5)}
    checks = judge_menu([tool], {"name": "s", "version": "1"}, None)
    assert [c.result for c in checks] == ["pass"] * 4


def test_a_bomb_fails_naming_each_bound() -> None:
    tool = {
        "name": "echo",
        "description": "x" * 70_000,
        "inputSchema": nested_schema(20),
        "icons": [{"src": "https://beacon.invalid/p.png"}],
    }
    server = {"name": "s", "version": "1", "icons": [{"src": "http://beacon.invalid/s.png"}]}
    checks = {c.id: c for c in judge_menu([tool], server, None)}
    assert checks["depth"].result == "fail" and "bound 32" in checks["depth"].detail
    assert checks["size"].result == "fail" and "65536 bytes" in checks["size"].detail
    assert checks["icon_urls"].result == "fail" and "s.png" in checks["icon_urls"].detail


def test_resource_urls_into_the_users_network_are_named_without_resolving() -> None:
    for inward in (
        "http://169.254.169.254/latest/meta-data/",
        "http://127.0.0.1:8080/x",
        "https://10.0.0.5/",
        "http://localhost/admin",
        "http://[::1]/",
    ):
        assert inward_url(inward), inward
    for outward in ("https://example.com/r", "file:///tmp/x", "test://static/resource/1"):
        assert not inward_url(outward), outward
