"""``x-mcp-header`` validation (MCP 2026-07-28).

A Streamable HTTP client must drop a tool whose ``x-mcp-header`` breaks the rules, so the model
never sees it. The tool stays in this report (and in the token counts) and is listed as rejected,
because silently removing the thing that is broken would hide it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from whichtool_tui.diagnostics import Diagnostic
from whichtool_tui.surface.model import Tool

HEADER_KEY = "x-mcp-header"
_HEADER_KEY_JSON = json.dumps(HEADER_KEY)  # as any key of that name is written in a schema's JSON
_TOKEN = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")
_ALLOWED_TYPES = frozenset(("string", "integer", "boolean"))


@dataclass(frozen=True)
class HeaderAnnotation:
    """One ``x-mcp-header`` found in a wire schema, where it sits and whether it is reachable."""

    path: str
    value: Any
    node: dict[str, Any]
    reachable: bool


def collect_header_annotations(schema: Any) -> list[HeaderAnnotation]:
    """Every ``x-mcp-header`` in ``schema``; reachable only via pure ``properties`` chains."""
    found: list[HeaderAnnotation] = []

    def walk(node: Any, path: str, reachable: bool) -> None:
        if isinstance(node, list):
            for index, child in enumerate(node):
                walk(child, f"{path}/{index}", False)
            return
        if not isinstance(node, dict):
            return
        if HEADER_KEY in node:
            found.append(HeaderAnnotation(path, node[HEADER_KEY], node, reachable))
        for key, child in node.items():
            if key == HEADER_KEY:
                continue
            if key == "properties" and isinstance(child, dict):
                for name, sub in child.items():
                    walk(sub, f"{path}/properties/{name}", reachable)
                continue
            walk(child, f"{path}/{key}", False)

    walk(schema, "", True)
    return found


def _type_of(node: dict[str, Any]) -> str | None:
    declared = node.get("type")
    if isinstance(declared, str):
        return declared
    if isinstance(declared, list):
        return "|".join(item if isinstance(item, str) else json.dumps(item) for item in declared)
    return None


def header_problems(annotations: Sequence[HeaderAnnotation]) -> list[str]:
    """Every rule one tool's header annotations break, in the order they were found."""
    problems: list[str] = []
    seen: dict[str, str] = {}
    for annotation in annotations:
        where = "the schema root" if annotation.path == "" else f"`{annotation.path}`"
        value = annotation.value
        if not isinstance(value, str):
            problems.append(
                f"{where}: the value {json.dumps(value, ensure_ascii=False)} is not a string"
            )
            continue
        if not value:
            problems.append(f"{where}: the value is empty")
        elif not _TOKEN.fullmatch(value):
            problems.append(f"{where}: `{value}` is not an HTTP field-name token (RFC 9110 tchar)")
        previous = seen.get(value.lower())
        if previous is not None:
            problems.append(
                f"{where}: `{value}` is the same header, ignoring case, as the one at `{previous}`"
            )
        else:
            seen[value.lower()] = annotation.path
        declared = _type_of(annotation.node)
        if declared is None:
            problems.append(f"{where}: the property has no `type`")
        elif declared == "number":
            problems.append(f"{where}: a `number` parameter may not be mirrored into a header")
        elif declared not in _ALLOWED_TYPES:
            problems.append(
                f"{where}: only string, integer or boolean may be mirrored, not `{declared}`"
            )
        if not annotation.reachable:
            problems.append(
                f"{where}: not statically reachable (the path must be a chain of `properties` "
                "keys, not through `items`, `$ref`, a composition or a conditional)"
            )
    return problems


def analyze_header_params(tools: Sequence[Tool]) -> tuple[list[str], list[Diagnostic]]:
    """Rejected tool names plus one diagnostic per tool that mirrors parameters into headers."""
    rejected: list[str] = []
    diagnostics: list[Diagnostic] = []
    for tool in tools:
        if tool.input_schema_json is not None and _HEADER_KEY_JSON not in tool.input_schema_json:
            continue  # the key is nowhere in the schema's JSON: no walk needed
        annotations = collect_header_annotations(tool.input_schema)
        if not annotations:
            continue
        problems = header_problems(annotations)
        if not problems:
            mirrored = "a parameter" if len(annotations) == 1 else f"{len(annotations)} parameters"
            diagnostics.append(
                Diagnostic(
                    code="x-mcp-header/present",
                    severity="info",
                    message=(
                        f"Tool `{tool.name}` mirrors {mirrored} into HTTP headers; every "
                        "intermediary on the path can read them, so keep secrets out"
                    ),
                    tool=tool.name,
                    detail={"count": len(annotations)},
                )
            )
            continue
        rejected.append(tool.name)
        diagnostics.append(
            Diagnostic(
                code="x-mcp-header/invalid",
                severity="error",
                message=(
                    f"Tool `{tool.name}` has an invalid `x-mcp-header`, so a conforming Streamable "
                    "HTTP client drops it from tools/list and the model never sees it: "
                    + "; ".join(problems)
                ),
                tool=tool.name,
                detail={"problems": problems},
            )
        )
    return rejected, diagnostics
