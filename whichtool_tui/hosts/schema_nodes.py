"""Walk every subschema of a JSON Schema with its JSON Pointer (keywords, not property names)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

MAX_NODES = 50_000
"""Walking stops here: a host check needs the first offenders, not every node of a huge schema."""

_SCHEMA_MAPS = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")
_SCHEMA_LISTS = ("anyOf", "oneOf", "allOf", "prefixItems")
_SCHEMA_VALUES = (
    "items",
    "additionalProperties",
    "not",
    "if",
    "then",
    "else",
    "contains",
    "propertyNames",
    "unevaluatedProperties",
    "unevaluatedItems",
    "additionalItems",
)


def pointer_part(key: str | int) -> str:
    """One JSON Pointer reference token (``~`` and ``/`` escaped, RFC 6901)."""
    return str(key).replace("~", "~0").replace("/", "~1")


def schema_nodes(schema: Any, base: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    """Every object subschema (depth first, the root first) with its pointer below ``base``."""
    stack: list[tuple[str, Any]] = [(base, schema)]
    seen = 0
    while stack and seen < MAX_NODES:
        pointer, node = stack.pop()
        if not isinstance(node, dict):
            continue
        seen += 1
        yield pointer, node
        children: list[tuple[str, Any]] = []
        for key in _SCHEMA_MAPS:
            value = node.get(key)
            if isinstance(value, dict):
                for name, child in value.items():
                    children.append((f"{pointer}/{key}/{pointer_part(name)}", child))
        for key in _SCHEMA_LISTS:
            value = node.get(key)
            if isinstance(value, list):
                for index, child in enumerate(value):
                    children.append((f"{pointer}/{key}/{index}", child))
        for key in _SCHEMA_VALUES:
            value = node.get(key)
            if isinstance(value, dict):
                children.append((f"{pointer}/{key}", value))
            elif key == "items" and isinstance(value, list):
                for index, child in enumerate(value):
                    children.append((f"{pointer}/items/{index}", child))
        stack.extend(reversed(children))
