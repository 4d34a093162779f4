"""The check kinds a host rule can name: pure functions from served tools to hits."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from whichtool_tui.hosts.profile_model import HostRule
from whichtool_tui.hosts.schema_nodes import schema_nodes


@dataclass(frozen=True)
class ServedTool:
    """One well-formed served entry (an object with a string name), as the host receives it."""

    name: str
    raw: dict[str, Any]
    index: int  # position in tools/list, which is where a patch points


@dataclass(frozen=True)
class Truncation:
    """Where a host cuts a text (a Python index) and what the model never sees."""

    at: int
    unseen: str


@dataclass(frozen=True)
class Hit:
    """One place a rule is broken; ``tool`` is None for a surface-wide rule."""

    tool: str | None
    message: str
    pointer: str | None = None
    truncation: Truncation | None = None


@dataclass(frozen=True)
class CheckContext:
    """What a check needs beyond the tools: the server name hosts prefix names with."""

    server_name: str
    server_name_source: str = "--host-server-name"


Check = Callable[[HostRule, Sequence[ServedTool], CheckContext], list[Hit]]


@cache
def _compiled(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


def _schema(tool: ServedTool, field: str) -> Any:
    return tool.raw.get(field)


def name_pattern(rule: HostRule, tools: Sequence[ServedTool], context: CheckContext) -> list[Hit]:
    """Names (with the host's prefix, if it adds one) that do not match the host's pattern."""
    pattern = _compiled(rule.params["pattern"])
    prefix = str(rule.params.get("prefix", "")).replace("{server}", context.server_name)
    hits = []
    for tool in tools:
        full = prefix + tool.name
        if pattern.fullmatch(full) is None:
            shown = f"`{full}`" if prefix else f"`{tool.name}`"
            hits.append(
                Hit(
                    tool.name,
                    f"{shown} ({len(full)} characters) does not match {pattern.pattern}",
                    "/name",
                )
            )
    return hits


def tool_count(rule: HostRule, tools: Sequence[ServedTool], context: CheckContext) -> list[Hit]:
    """The whole surface when it has more tools than the host takes in one request."""
    limit = int(rule.params["max"])
    if len(tools) <= limit:
        return []
    return [Hit(None, f"{len(tools):,} tools; the host takes at most {limit:,} per request")]


def utf16_cut(text: str, limit: int) -> int | None:
    """The Python index where a JavaScript ``slice(0, limit)`` ends, or None if it all fits."""
    if len(text) <= limit and text.isascii():
        return None
    units = 0
    for index, char in enumerate(text):
        units += 2 if ord(char) > 0xFFFF else 1
        if units > limit:
            return index
    return None


def description_length(
    rule: HostRule, tools: Sequence[ServedTool], context: CheckContext
) -> list[Hit]:
    """Descriptions longer than the host keeps, with the cut and the text cut away."""
    limit = int(rule.params["max"])
    hits = []
    for tool in tools:
        description = tool.raw.get("description")
        if not isinstance(description, str):
            continue
        cut = utf16_cut(description, limit)
        if cut is None:
            continue
        unseen = description[cut:]
        hits.append(
            Hit(
                tool.name,
                f"description is cut at character {limit:,}: the model never sees the last "
                f"{len(unseen):,} characters",
                "/description",
                Truncation(cut, unseen),
            )
        )
    return hits


def root_combinator(
    rule: HostRule, tools: Sequence[ServedTool], context: CheckContext
) -> list[Hit]:
    """Input schemas with a combinator keyword at the top level."""
    keywords = rule.params["keywords"]
    hits = []
    for tool in tools:
        schema = _schema(tool, "inputSchema")
        if not isinstance(schema, dict):
            continue
        found = [keyword for keyword in keywords if keyword in schema]
        if found:
            hits.append(
                Hit(
                    tool.name,
                    f"inputSchema has {', '.join(found)} at the top level",
                    "/inputSchema",
                )
            )
    return hits


def schema_root_type(
    rule: HostRule, tools: Sequence[ServedTool], context: CheckContext
) -> list[Hit]:
    """Schemas (when present; inputSchema always) whose root type is not the required one."""
    field = rule.params["field"]
    wanted = rule.params["type"]
    hits = []
    for tool in tools:
        schema = _schema(tool, field)
        if schema is None and field != "inputSchema":
            continue
        actual = schema.get("type") if isinstance(schema, dict) else None
        if actual != wanted:
            shown = "missing" if actual is None else repr(actual).replace("'", '"')
            hits.append(
                Hit(tool.name, f'{field} root "type" is {shown}, not "{wanted}"', f"/{field}")
            )
    return hits


def _first_nodes(
    tool: ServedTool, field: str, test: Callable[[dict[str, Any]], str | None]
) -> list[tuple[str, str]]:
    schema = _schema(tool, field)
    found = []
    for pointer, node in schema_nodes(schema, f"/{field}"):
        what = test(node)
        if what is not None:
            found.append((pointer, what))
    return found


def _node_hits(
    tools: Sequence[ServedTool], field: str, test: Callable[[dict[str, Any]], str | None]
) -> list[Hit]:
    hits = []
    for tool in tools:
        found = _first_nodes(tool, field, test)
        if not found:
            continue
        pointer, what = found[0]
        more = f" (and {len(found) - 1:,} more)" if len(found) > 1 else ""
        hits.append(Hit(tool.name, f"{what} at {pointer}{more}", pointer))
    return hits


def schema_keywords(
    rule: HostRule, tools: Sequence[ServedTool], context: CheckContext
) -> list[Hit]:
    """Subschemas using a keyword the host does not know."""
    keywords = rule.params["keywords"]

    def test(node: dict[str, Any]) -> str | None:
        found = [keyword for keyword in keywords if keyword in node]
        return f"{', '.join(found)}" if found else None

    return _node_hits(tools, rule.params.get("field", "inputSchema"), test)


def type_array(rule: HostRule, tools: Sequence[ServedTool], context: CheckContext) -> list[Hit]:
    """Subschemas whose ``type`` is a list of types."""

    def test(node: dict[str, Any]) -> str | None:
        return "a type array" if isinstance(node.get("type"), list) else None

    return _node_hits(tools, "inputSchema", test)


def enum_non_string(
    rule: HostRule, tools: Sequence[ServedTool], context: CheckContext
) -> list[Hit]:
    """Enums on anything but strings."""

    def test(node: dict[str, Any]) -> str | None:
        values = node.get("enum")
        if not isinstance(values, list):
            return None
        if node.get("type", "string") != "string" or any(not isinstance(v, str) for v in values):
            return "an enum on a non-string"
        return None

    return _node_hits(tools, "inputSchema", test)


def ref(rule: HostRule, tools: Sequence[ServedTool], context: CheckContext) -> list[Hit]:
    """``$ref`` uses the host refuses: any, only into definitions, remote, or with siblings."""
    allowed = rule.params.get("allowedSiblings")
    definitions_only = bool(rule.params.get("definitionsOnly"))
    remote_only = bool(rule.params.get("remoteOnly"))

    def test(node: dict[str, Any]) -> str | None:
        target = node.get("$ref")
        if not isinstance(target, str):
            if allowed is None and not definitions_only and not remote_only:
                keys = [key for key in ("$defs", "definitions") if key in node]
                return f"{keys[0]}" if keys else None
            return None
        if remote_only:
            return None if target.startswith("#") else f"a remote $ref to {target}"
        if definitions_only:
            into = target.startswith(("#/$defs/", "#/definitions/"))
            return f"a $ref to {target}" if into else None
        if allowed is not None:
            extra = sorted(key for key in node if key != "$ref" and key not in allowed)
            return f"a $ref beside {', '.join(extra)}" if extra else None
        return f"a $ref to {target}"

    return _node_hits(tools, "inputSchema", test)


def strict_object(rule: HostRule, tools: Sequence[ServedTool], context: CheckContext) -> list[Hit]:
    """Objects that allow extra properties or leave a property out of ``required``."""

    def test(node: dict[str, Any]) -> str | None:
        if node.get("type") != "object" and "properties" not in node:
            return None
        if node.get("additionalProperties") is not False:
            return 'an object without "additionalProperties": false'
        properties = node.get("properties")
        required = node.get("required")
        if isinstance(properties, dict):
            listed = set(required) if isinstance(required, list) else set()
            missing = [name for name in properties if name not in listed]
            if missing:
                return f"optional properties ({', '.join(missing[:3])})"
        return None

    return _node_hits(tools, "inputSchema", test)


def declared_hints(raw: dict[str, Any]) -> dict[str, bool]:
    """The boolean hints a served tool declares explicitly."""
    annotations = raw.get("annotations")
    if not isinstance(annotations, dict):
        return {}
    return {key: value for key, value in annotations.items() if isinstance(value, bool)}


def hints_explicit(rule: HostRule, tools: Sequence[ServedTool], context: CheckContext) -> list[Hit]:
    """Tools that leave hints to the protocol defaults where a directory wants them set."""
    hints: list[str] = rule.params["hints"]
    every = rule.params.get("mode", "all") == "all"
    hits = []
    for tool in tools:
        declared = declared_hints(tool.raw)
        missing = [hint for hint in hints if hint not in declared]
        if (every and missing) or (not every and len(missing) == len(hints)):
            joiner = " and " if every else " or "
            hits.append(Hit(tool.name, f"does not set {joiner.join(missing)}", "/annotations"))
    return hits


def title_present(rule: HostRule, tools: Sequence[ServedTool], context: CheckContext) -> list[Hit]:
    """Tools with no title, neither top-level nor in the annotations."""
    hits = []
    for tool in tools:
        annotations = tool.raw.get("annotations")
        nested = annotations.get("title") if isinstance(annotations, dict) else None
        titles = [tool.raw.get("title"), nested]
        if not any(isinstance(title, str) and title.strip() for title in titles):
            hits.append(Hit(tool.name, "has no title", "/title"))
    return hits


CHECKS: dict[str, Check] = {
    "name-pattern": name_pattern,
    "tool-count": tool_count,
    "description-length": description_length,
    "root-combinator": root_combinator,
    "schema-root-type": schema_root_type,
    "schema-keywords": schema_keywords,
    "type-array": type_array,
    "enum-non-string": enum_non_string,
    "ref": ref,
    "strict-object": strict_object,
    "hints-explicit": hints_explicit,
    "title-present": title_present,
}
