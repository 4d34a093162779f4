"""The tools of a listing as served, read without normalising: names, the kind their name
suggests, titles, hints and parameter counts.

This is what a face can list at once at registry scale (10,000 tools in a few hundredths of a
second), while the token costs are counted and the review runs; the normalised surface
replaces it as soon as it is there.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from whichtool_tui.surface.canonical import utf16_key
from whichtool_tui.surface.naming import classify_name


@dataclass(frozen=True)
class ServedTool:
    """One served entry with a name, as it came: nothing resolved, nothing costed yet."""

    name: str
    semantics: str
    title: str | None
    annotations: dict[str, Any]
    parameters: int
    required: int


def _counts(schema: Any) -> tuple[int, int]:
    schema = schema if isinstance(schema, dict) else {}
    properties, required = schema.get("properties"), schema.get("required")
    return (
        len(properties) if isinstance(properties, dict) else 0,
        len(required) if isinstance(required, list) else 0,
    )


def served_tools(raw_tools: list[Any]) -> list[ServedTool]:
    """The first entry of each string name, in the normalised surface's order (by name, as
    JavaScript sorts); normalisation judges the rest and may drop a malformed one."""
    tools = []
    seen: set[str] = set()
    for entry in raw_tools:
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
            continue
        name: str = entry["name"]
        if name in seen:
            continue
        seen.add(name)
        title, annotations = entry.get("title"), entry.get("annotations")
        parameters, required = _counts(entry.get("inputSchema"))
        tools.append(
            ServedTool(
                name=name,
                semantics=classify_name(name)[0],
                title=title if isinstance(title, str) else None,
                annotations=dict(annotations) if isinstance(annotations, dict) else {},
                parameters=parameters,
                required=required,
            )
        )
    tools.sort(key=lambda tool: utf16_key(tool.name))
    return tools
