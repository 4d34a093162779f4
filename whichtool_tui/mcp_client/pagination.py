"""Follow ``tools/list`` pagination to the end, with a page cap and cursor-loop detection."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from whichtool_tui.diagnostics import Diagnostic
from whichtool_tui.errors import WhichtoolError
from whichtool_tui.text_safety import sanitize_text

MAX_PAGES = 100

FetchPage = Callable[[str | None], Awaitable[dict[str, Any]]]


def _page_tools(result: dict[str, Any], label: str, page: int) -> list[Any]:
    result_type = result.get("resultType")
    if result_type is not None and result_type != "complete":
        explanation = (
            "the server asked for more input (input_required), which listing tools never needs"
            if result_type == "input_required"
            else f"its resultType is {sanitize_text(str(result_type))[:40]!r}"
        )
        raise WhichtoolError(
            "mcp/incomplete-result",
            f"{label} did not complete tools/list page {page}: {explanation}",
            None,
        )
    tools = result.get("tools")
    if not isinstance(tools, list):
        raise WhichtoolError(
            "mcp/invalid-result",
            f"{label} answered tools/list page {page} without a `tools` array",
            None,
        )
    return tools


async def collect_tools(fetch_page: FetchPage, label: str) -> tuple[list[Any], list[Diagnostic]]:
    """Every tool entry across pages, as served, plus info notes about how they were served."""
    tools: list[Any] = []
    seen_cursors: set[str] = set()
    public_cache = False
    cursor: str | None = None
    pages = 0
    while True:
        pages += 1
        result = await fetch_page(cursor)
        tools.extend(_page_tools(result, label, pages))
        public_cache = public_cache or result.get("cacheScope") == "public"
        next_cursor = result.get("nextCursor")
        if next_cursor is None or next_cursor == "":
            break
        if not isinstance(next_cursor, str):
            raise WhichtoolError(
                "mcp/invalid-result",
                f"{label} sent a nextCursor that is not a string on page {pages}",
                None,
            )
        if next_cursor in seen_cursors:
            raise WhichtoolError(
                "mcp/cursor-loop",
                f"{label} repeated a tools/list cursor on page {pages}; pagination would never end",
                "The server's nextCursor must move forward; this is a server bug.",
            )
        if pages >= MAX_PAGES:
            raise WhichtoolError(
                "mcp/too-many-pages",
                f"{label} served more than {MAX_PAGES} pages of tools/list",
                "A surface this large is not usable by a model; check the server's page size.",
            )
        seen_cursors.add(next_cursor)
        cursor = next_cursor
    notes: list[Diagnostic] = []
    if pages > 1:
        notes.append(
            Diagnostic(
                code="mcp/paginated",
                severity="info",
                message=f"tools/list was served in {pages} pages ({len(tools)} tools)",
                detail={"pages": pages},
            )
        )
    if public_cache:
        notes.append(
            Diagnostic(
                code="mcp/public-cache-scope",
                severity="info",
                message="The server marked its tools/list as cacheable by shared caches "
                '(cacheScope: "public")',
            )
        )
    return tools, notes
