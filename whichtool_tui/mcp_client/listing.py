"""Fetch a live server's ``tools/list`` (every page) into a ServedListing."""

from __future__ import annotations

from typing import TYPE_CHECKING

from whichtool_tui.diagnostics import Diagnostic
from whichtool_tui.mcp_client.auth import credential_in_url_warning
from whichtool_tui.mcp_client.pagination import collect_tools
from whichtool_tui.mcp_client.sessions import DEFAULT_TIMEOUT, McpSession
from whichtool_tui.surface.listing import ServedListing

if TYPE_CHECKING:
    from whichtool_tui.targets import TargetSpec


async def fetch_server_listing(
    spec: TargetSpec,
    *,
    timeout: float = DEFAULT_TIMEOUT,  # noqa: ASYNC109
) -> ServedListing:
    """Connect, list every page of tools as served, and disconnect (stopping a stdio child)."""
    notes: list[Diagnostic] = []
    if spec.url is not None and (warning := credential_in_url_warning(spec.url)) is not None:
        notes.append(warning)
    async with McpSession(spec, timeout=timeout) as session:
        tools, page_notes = await collect_tools(session.list_tools_page, spec.ref)
        return ServedListing(
            transport=spec.transport,
            ref=spec.ref,
            raw_tools=tools,
            diagnostics=notes + page_notes,
            server_name=session.server_name,
            server_version=session.server_version,
            protocol_version=session.protocol_version,
        )
