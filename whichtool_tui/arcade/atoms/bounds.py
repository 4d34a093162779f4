"""``schema.bounds``: is every listed schema within bounds, and does the menu point nowhere?

Judged from the listed JSON alone, nothing fetched: each tool's input and output schema must be
at most ``MAX_SCHEMA_DEPTH`` levels deep and ``MAX_TOOL_BYTES`` long, no ``$ref`` may leave the
document, and every icon (a tool's, or the server's in ``initialize``) must be a ``data:`` URI
or on the HTTP target's own host. A menu too deep for the parser FAILs here rather than ERRORs.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import Any
from urllib.parse import urlsplit

from whichtool_tui.arcade.atoms.common import (
    AtomContext,
    WireLike,
    atom_result,
    check,
    failed_or_passed,
    tool_infos,
)
from whichtool_tui.arcade.bounds import MAX_STORED_DEPTH, deepest_breach, json_depth
from whichtool_tui.arcade.hidden_text import visible
from whichtool_tui.arcade.receipt import AtomResult, Check

MAX_SCHEMA_DEPTH = 32
"""JSON levels of one input or output schema; a real schema needing more is unheard of here."""
MAX_TOOL_BYTES = 64 * 1024
"""Compact UTF-8 JSON bytes of one listed tool (the largest reference-server tool is < 4 KiB)."""
REF_KEYS = ("$ref", "$dynamicRef", "$recursiveRef")


def _walk(value: Any) -> Iterator[tuple[str, Any]]:
    """Every (key, value) pair inside a JSON value, iteratively."""
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            for key, child in node.items():
                yield str(key), child
                stack.append(child)
        elif isinstance(node, list):
            stack.extend(node)


def remote_refs(schema: Any) -> list[str]:
    """Every ``$ref``-like value that is not a pointer into the same document."""
    return [
        value
        for key, value in _walk(schema)
        if key in REF_KEYS and isinstance(value, str) and not value.startswith("#")
    ]


def _icon_sources(value: Any) -> list[str]:
    found: list[str] = []
    for key, child in _walk(value):
        if key == "icons" and isinstance(child, list):
            found += [str(i["src"]) for i in child if isinstance(i, dict) and "src" in i]
    return found


def foreign_icon(src: str, own_host: str | None) -> bool:
    """True when showing the icon would make a host fetch from somewhere the server chose."""
    parts = urlsplit(src.strip())
    if parts.scheme.lower() == "data":
        return False
    return own_host is None or (parts.hostname or "").lower() != own_host


def _tool_bytes(tool: dict[str, Any]) -> int:
    try:
        return len(json.dumps(tool, separators=(",", ":"), ensure_ascii=False).encode("utf-8"))
    except (ValueError, RecursionError):
        return MAX_TOOL_BYTES + 1


def judge_menu(
    raw_tools: Sequence[dict[str, Any]], server_info: Any, own_host: str | None
) -> list[Check]:
    """The four checks over a listed menu and the server's initialize facts."""
    deep: list[str] = []
    large: list[str] = []
    refs: list[str] = []
    for tool in raw_tools:
        name = visible(str(tool.get("name", "?")))
        for key in ("inputSchema", "outputSchema"):
            depth = json_depth(tool.get(key))
            if depth > MAX_SCHEMA_DEPTH:
                deep.append(f"{name}.{key} is {depth} levels deep")
            refs += [f"{name}.{key} $ref {visible(r)}" for r in remote_refs(tool.get(key))]
        size = _tool_bytes(tool)
        if size > MAX_TOOL_BYTES:
            large.append(f"{name} is {size} bytes")
    icons = [
        src
        for src in _icon_sources(list(raw_tools)) + _icon_sources(server_info)
        if foreign_icon(src, own_host)
    ]
    return [
        check(
            "depth",
            "fail" if deep else "pass",
            "; ".join(deep) + f" (bound {MAX_SCHEMA_DEPTH})"
            if deep
            else f"every schema is within {MAX_SCHEMA_DEPTH} levels",
        ),
        check(
            "size",
            "fail" if large else "pass",
            "; ".join(large) + f" (bound {MAX_TOOL_BYTES} bytes)"
            if large
            else f"every tool is within {MAX_TOOL_BYTES} bytes",
        ),
        check(
            "remote_ref",
            "fail" if refs else "pass",
            "; ".join(refs) + " (not fetched)" if refs else "every $ref stays in its document",
        ),
        check(
            "icon_urls",
            "fail" if icons else "pass",
            "icons a host would fetch from a server-chosen address (not fetched): "
            + ", ".join(visible(i) for i in icons)
            if icons
            else "no icon points off the server",
        ),
    ]


def _own_host(ctx: AtomContext) -> str | None:
    url = ctx.target_url
    return (urlsplit(url).hostname or "").lower() if url else None


async def run(ctx: AtomContext, wire: WireLike) -> AtomResult:
    """List once and judge the listing's shape; no call is made."""
    raw = await wire.list_tools()
    facts = getattr(wire, "facts", None)
    checks = judge_menu(raw, getattr(facts, "server_info", {}), _own_host(ctx))
    records = getattr(getattr(wire, "recorder", None), "records", [])
    breach = deepest_breach(records)
    if breach is not None:
        checks.insert(0, check("stored_depth", "fail", breach.describe()))
    tools = tool_infos(raw)
    return atom_result(ctx, failed_or_passed(checks), checks, tools_before=tools, tools_after=tools)


def unreadable_result(ctx: AtomContext, detail: str) -> AtomResult:
    """The server sent JSON nested past what the parser reads: that is this atom's FAIL."""
    bound = (
        f"deeper than the client's JSON parser reads (and than the {MAX_STORED_DEPTH}-level bound)"
    )
    return atom_result(ctx, "fail", [check("stored_depth", "fail", f"{bound}: {detail}")])
