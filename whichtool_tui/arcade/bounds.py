"""Bounds on server data a bout keeps: depth is measured and clipped without recursion.

A hostile server can nest a schema hundreds of levels deep. pydantic-core refuses to serialise
values nested 256 levels or more ("Maximum serialization depth exceeded", measured with the
pydantic 2.x in this project's lock on 2026-12-03) and Python's own JSON parser gives up near
its recursion limit, so a receipt keeps at most ``MAX_STORED_DEPTH`` levels of any value from
a server: deeper parts are replaced by a ``CLIPPED_KEY`` marker object, and the atom that saw
them is an ERROR naming the bound (``schema.bounds`` judges it as a FAIL).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

MAX_STORED_DEPTH = 128
"""JSON nesting levels of one recorded message kept in a receipt (pydantic-core stops at 256)."""
CLIPPED_KEY = "$whichtool_clipped"
TOO_DEEP_KIND = "framing/too-deep"
"""The WireError kind of a frame Python's JSON parser could not read for its nesting."""


def json_depth(value: Any) -> int:
    """Nesting levels of a JSON value (a scalar is 0, ``{}`` and ``[]`` are 1), iteratively."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, dict):
            children: Any = node.values()
        elif isinstance(node, list):
            children = node
        else:
            continue
        depth += 1
        deepest = max(deepest, depth)
        stack.extend((child, depth) for child in children)
    return deepest


def clip_depth(value: Any, limit: int = MAX_STORED_DEPTH) -> Any:
    """A copy of ``value`` whose containers below ``limit`` levels are replaced by a marker.

    Built iteratively, so a value of any depth is clipped without touching the recursion limit;
    a value within the limit comes back equal (a fresh copy).
    """
    if json_depth(value) <= limit:
        return value
    marker = {CLIPPED_KEY: f"nested deeper than {limit} levels; not kept"}
    root: list[Any] = [None]
    stack: list[tuple[Any, Any, Any, int]] = [(value, root, 0, 0)]
    while stack:
        node, parent, key, depth = stack.pop()
        if isinstance(node, dict | list) and depth >= limit:
            parent[key] = dict(marker)
        elif isinstance(node, dict):
            copy: dict[str, Any] = {}
            parent[key] = copy
            for child_key, child in node.items():
                copy[child_key] = None
                stack.append((child, copy, child_key, depth + 1))
        elif isinstance(node, list):
            items: list[Any] = [None] * len(node)
            parent[key] = items
            stack.extend((child, items, index, depth + 1) for index, child in enumerate(node))
        else:
            parent[key] = node
    return root[0]


@dataclass(frozen=True)
class DepthBreach:
    """The deepest inbound message of a session, when it passed the bound."""

    depth: int
    method: str
    seq: int

    def describe(self) -> str:
        """One line naming the bound that was hit."""
        return (
            f"server data nested {self.depth} levels deep (message {self.seq}, {self.method}) "
            f"passes the {MAX_STORED_DEPTH}-level bound; the receipt keeps it clipped"
        )


def deepest_breach(records: Any) -> DepthBreach | None:
    """The deepest recorded inbound message deeper than the bound, or None; a reply is named
    by the method of the request it answered."""
    asked = {
        str(r.rpc_id): r.method
        for r in records
        if r.direction == "out" and r.method is not None and r.rpc_id is not None
    }
    worst: DepthBreach | None = None
    for record in records:
        if record.direction != "in":
            continue
        depth = json_depth(record.message)
        if depth > MAX_STORED_DEPTH and (worst is None or depth > worst.depth):
            what = record.method or f"{asked.get(str(record.rpc_id), 'unknown')} result"
            worst = DepthBreach(depth, what, record.seq)
    return worst
