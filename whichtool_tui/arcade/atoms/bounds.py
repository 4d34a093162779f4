"""``schema.bounds``: is every listed schema within bounds, and does the menu point nowhere?

Judged from the listed JSON alone, nothing fetched: each tool's input and output schema must be
at most ``MAX_SCHEMA_DEPTH`` levels deep and ``MAX_TOOL_BYTES`` long, no ``$ref`` may leave the
document, every icon (a tool's, a resource's, or the server's in ``initialize``) must be a
``data:`` URI or on the HTTP target's own host, and no listed resource (``resources/list``,
asked only of a server that declares resources) may be an http(s) URL into the user's own
network (loopback, private or link-local, e.g. the cloud metadata address). A menu too deep
for the parser FAILs here rather than ERRORs.
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


def inward_url(uri: str) -> bool:
    """True for an http(s) URL whose host is loopback, private or link-local (literal address
    or ``localhost``): a host fetching it reaches the user's own network. Names are not
    resolved (that would be a fetch)."""
    import ipaddress

    parts = urlsplit(uri.strip())
    if parts.scheme.lower() not in ("http", "https"):
        return False
    host = (parts.hostname or "").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return address.is_loopback or address.is_private or address.is_link_local


async def listed_resources(wire: Any) -> list[dict[str, Any]]:
    """The first page of resources/list when the server declares resources, else []."""
    facts = getattr(wire, "facts", None)
    capabilities = getattr(facts, "server_capabilities", None) or {}
    if "resources" not in capabilities or not hasattr(wire, "request"):
        return []
    reply = await wire.request("resources/list")
    result = reply.get("result") if isinstance(reply, dict) else None
    listed = result.get("resources") if isinstance(result, dict) else None
    return [r for r in listed if isinstance(r, dict)] if isinstance(listed, list) else []


def resource_check(resources: Sequence[dict[str, Any]]) -> Check:
    """FAIL when a listed resource points into the user's own network."""
    inward = [str(r.get("uri")) for r in resources if inward_url(str(r.get("uri", "")))]
    return check(
        "resource_urls",
        "fail" if inward else "pass",
        "resources a host would fetch from its own network (not fetched): "
        + ", ".join(visible(u) for u in inward)
        if inward
        else f"{len(resources)} resource(s) listed; none points into the user's network",
    )


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
    resources = await listed_resources(wire)
    checks.append(resource_check(resources))
    icons = [s for s in _icon_sources(resources) if foreign_icon(s, _own_host(ctx))]
    if icons:
        icon_check = next(c for c in checks if c.id == "icon_urls")
        icon_check.result = "fail"
        extra = "resource icons a host would fetch (not fetched): " + ", ".join(
            visible(i) for i in icons
        )
        icon_check.detail = (
            extra if icon_check.detail.startswith("no icon") else (icon_check.detail + "; " + extra)
        )
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
