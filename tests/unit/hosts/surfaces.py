"""Fixture surfaces for the host rules: one small served tool list per rule and side."""

from __future__ import annotations

from typing import Any

HINTS = {"readOnlyHint": True, "destructiveHint": False, "openWorldHint": False}


def tool(name: str = "get_item", **extra: Any) -> dict[str, Any]:
    """A served tool every profile accepts unless ``extra`` breaks a rule."""
    entry: dict[str, Any] = {
        "name": name,
        "title": "Get item",
        "description": f"Read one {name} record by its id.",
        "inputSchema": {
            "type": "object",
            "properties": {"id": {"type": "string"}},
            "required": ["id"],
            "additionalProperties": False,
        },
        "annotations": dict(HINTS),
    }
    entry.update(extra)
    return entry


def schema(**extra: Any) -> dict[str, Any]:
    """A strict object schema with one required string, plus ``extra`` keys."""
    base: dict[str, Any] = {
        "type": "object",
        "properties": {"id": {"type": "string"}},
        "required": ["id"],
        "additionalProperties": False,
    }
    base.update(extra)
    return base


def many(count: int) -> list[dict[str, Any]]:
    """``count`` distinct clean tools."""
    return [tool(f"get_item_{index}") for index in range(count)]


def name_of(length: int, alphabet: str = "a") -> str:
    """A name of exactly ``length`` characters."""
    return (alphabet * length)[:length]
