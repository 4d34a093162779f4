"""Pagination rules of tools/list, checked on the pure page-following core."""

from __future__ import annotations

from typing import Any

import pytest

from whichtool_tui.errors import WhichtoolError
from whichtool_tui.mcp_client.pagination import MAX_PAGES, collect_tools


def pages_from(results: list[dict[str, Any]]) -> tuple[Any, list[str | None]]:
    """A page source serving ``results`` in order, recording the cursors it was asked for."""
    asked: list[str | None] = []

    async def fetch(cursor: str | None) -> dict[str, Any]:
        asked.append(cursor)
        return results[len(asked) - 1]

    return fetch, asked


async def test_single_page_has_no_notes() -> None:
    fetch, asked = pages_from([{"tools": [{"name": "a"}], "nextCursor": ""}])
    tools, notes = await collect_tools(fetch, "srv")
    assert tools == [{"name": "a"}]
    assert notes == []
    assert asked == [None]


async def test_cursors_are_followed_in_order_and_noted() -> None:
    fetch, asked = pages_from(
        [
            {"tools": [1], "nextCursor": "p2"},
            {"tools": [2, 3], "nextCursor": "p3"},
            {"tools": [], "cacheScope": "public"},
        ]
    )
    tools, notes = await collect_tools(fetch, "srv")
    assert tools == [1, 2, 3]
    assert asked == [None, "p2", "p3"]
    assert [(n.code, n.severity) for n in notes] == [
        ("mcp/paginated", "info"),
        ("mcp/public-cache-scope", "info"),
    ]


async def test_repeated_cursor_is_a_loop() -> None:
    fetch, _ = pages_from([{"tools": [], "nextCursor": "a"}, {"tools": [], "nextCursor": "a"}])
    with pytest.raises(WhichtoolError) as caught:
        await collect_tools(fetch, "srv")
    assert caught.value.code == "mcp/cursor-loop"


async def test_page_cap() -> None:
    exactly = [{"tools": [i], "nextCursor": f"c{i}"} for i in range(MAX_PAGES - 1)]
    fetch, _ = pages_from([*exactly, {"tools": ["last"]}])
    tools, _ = await collect_tools(fetch, "srv")
    assert len(tools) == MAX_PAGES
    fetch, asked = pages_from([{"tools": [i], "nextCursor": f"c{i}"} for i in range(MAX_PAGES + 5)])
    with pytest.raises(WhichtoolError) as caught:
        await collect_tools(fetch, "srv")
    assert caught.value.code == "mcp/too-many-pages"
    assert len(asked) == MAX_PAGES


@pytest.mark.parametrize(
    ("result", "code"),
    [
        ({"tools": {"a": 1}}, "mcp/invalid-result"),
        ({}, "mcp/invalid-result"),
        ({"tools": [], "nextCursor": 5}, "mcp/invalid-result"),
        ({"tools": [], "resultType": "input_required"}, "mcp/incomplete-result"),
        ({"tools": [], "resultType": "partial"}, "mcp/incomplete-result"),
    ],
)
async def test_bad_pages(result: dict[str, Any], code: str) -> None:
    fetch, _ = pages_from([result])
    with pytest.raises(WhichtoolError) as caught:
        await collect_tools(fetch, "srv")
    assert caught.value.code == code


async def test_complete_result_type_is_fine() -> None:
    fetch, _ = pages_from([{"tools": [1], "resultType": "complete"}])
    assert (await collect_tools(fetch, "srv"))[0] == [1]
