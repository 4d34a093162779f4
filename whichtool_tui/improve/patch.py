"""The RFC 6902 patch of the accepted rewrites, and the surfaces it describes.

Only ``replace`` operations on a tool's ``description`` or ``title`` are ever written, at the
tool's index in the snapshot file as saved (``/tools/3/description``, ``/result/tools/3/...`` for
a JSON-RPC envelope, ``/3/...`` for a bare array). A replace needs the member to exist, so a
tool served without a string description cannot be rewritten here.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from whichtool_tui.improve.model import PatchOperation

SHAPE_PREFIX = {"result": "/tools", "jsonrpc": "/result/tools", "array": ""}
"""Where each snapshot shape keeps its tool array, as a JSON Pointer."""


def rewritable(raw_tool: Any) -> bool:
    """True when a served entry is an object with a string description to replace."""
    return isinstance(raw_tool, dict) and isinstance(raw_tool.get("description"), str)


def with_rewrite(
    raw_tools: Sequence[Any], index: int, description: str, title: str | None
) -> list[Any]:
    """A copy of the served tools with one entry's description (and title, if it has one)."""
    tools = copy.deepcopy(list(raw_tools))
    entry = tools[index]
    entry["description"] = description
    if title is not None and isinstance(entry.get("title"), str):
        entry["title"] = title
    return tools


def patch_operations(
    base_tools: Sequence[Any], accepted_tools: Sequence[Any], prefix: str
) -> list[PatchOperation]:
    """Replace operations for every description or title that differs, in served order."""
    operations: list[PatchOperation] = []
    for index, (before, after) in enumerate(zip(base_tools, accepted_tools, strict=True)):
        if not isinstance(before, dict) or not isinstance(after, dict):
            continue
        for key in ("title", "description"):
            if before.get(key) != after.get(key) and isinstance(after.get(key), str):
                operations.append(
                    PatchOperation(op="replace", path=f"{prefix}/{index}/{key}", value=after[key])
                )
    return operations


def apply_operations(document: Any, operations: Sequence[PatchOperation]) -> Any:
    """Our own application of the replace operations, for the accepted surface we measured."""
    result = copy.deepcopy(document)
    for operation in operations:
        parts = operation.path.lstrip("/").split("/")
        parent: Any = result
        for part in parts[:-1]:
            parent = parent[int(part)] if isinstance(parent, list) else parent[part]
        if not isinstance(parent, dict) or parts[-1] not in parent:
            raise ValueError(f"replace target {operation.path} does not exist")
        parent[parts[-1]] = operation.value
    return result


def patch_text(operations: Sequence[Mapping[str, Any]]) -> str:
    """An RFC 6902 patch document: a JSON array of operations, indent 2, trailing newline."""
    import json

    return json.dumps(list(operations), indent=2, ensure_ascii=False) + "\n"


def changed_keys(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[str]:
    """Top-level keys of a served tool that differ: the check that only text was rewritten."""
    return sorted(key for key in set(before) | set(after) if before.get(key) != after.get(key))
