"""One tool's description, schema and annotations as rich text, untrusted text sanitised."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from whichtool_tui.text_safety import sanitize_text

if TYPE_CHECKING:  # the Bout screen uses safe_multiline; the surface view loads with a surface
    from whichtool_tui.ui.surface_model import SurfaceView, ToolRow

SEMANTIC_STYLES = {"read": "green", "mutate": "yellow", "destructive": "bold red", "unknown": "dim"}
HINTS = ("readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint")


def safe_multiline(text: str) -> str:
    """Sanitise untrusted text but keep its line breaks."""
    return "\n".join(sanitize_text(line) for line in text.replace("\r\n", "\n").split("\n"))


def _type_of(schema: Any) -> str:
    if not isinstance(schema, dict):
        return "?"
    kind = schema.get("type")
    if isinstance(kind, list):
        return "|".join(str(k) for k in kind)
    if kind:
        return str(kind)
    if "$ref" in schema:
        return f"$ref {schema['$ref']}"
    for key in ("anyOf", "oneOf", "allOf"):
        if key in schema:
            return key
    return "any"


MAX_SCHEMA_DEPTH = 6
MAX_SHOWN_VALUES = 12


def _values(values: list[Any]) -> str:
    shown = ", ".join(json.dumps(value, ensure_ascii=False) for value in values[:MAX_SHOWN_VALUES])
    more = len(values) - MAX_SHOWN_VALUES
    return shown + (f", … {more} more" if more > 0 else "")


def _facts(prop: dict[str, Any]) -> list[str]:
    """enum, default, format, bounds and examples of one parameter, as short phrases."""
    facts = []
    if isinstance(prop.get("enum"), list):
        facts.append("one of " + _values(prop["enum"]))
    if "const" in prop:
        facts.append("always " + json.dumps(prop["const"], ensure_ascii=False))
    if "default" in prop:
        facts.append("default " + json.dumps(prop["default"], ensure_ascii=False))
    for key in ("format", "pattern", "minimum", "maximum", "minLength", "maxLength", "minItems"):
        if key in prop:
            facts.append(f"{key} {prop[key]}")
    if isinstance(prop.get("examples"), list) and prop["examples"]:
        facts.append("e.g. " + _values(prop["examples"]))
    return facts


def _parameter_rows(
    schema: dict[str, Any], table: Table, depth: int, prefix: str, seen: int
) -> int:
    properties = schema.get("properties")
    if not isinstance(properties, dict):
        return seen
    required = set(schema.get("required") or [])
    for name, prop in properties.items():
        prop = prop if isinstance(prop, dict) else {}
        label = Text(prefix + sanitize_text(str(name)), style="bold")
        kind = _type_of(prop)
        notes = Text()
        if name in required:
            notes.append("required ", style="yellow")
        described = prop.get("description") or prop.get("title")
        if described:
            notes.append(safe_multiline(str(described)))
        for fact in _facts(prop):
            notes.append(f"\n{sanitize_text(fact)}", style="dim")
        table.add_row(label, Text(kind, style="cyan"), notes)
        seen += 1
        if depth >= MAX_SCHEMA_DEPTH:
            continue
        nested = prop
        if prop.get("type") == "array" and isinstance(prop.get("items"), dict):
            nested = prop["items"]
            if nested.get("type") not in (None, "object") or "properties" not in nested:
                table.add_row(
                    Text(prefix + "  []", style="dim"),
                    Text(_type_of(nested), style="cyan"),
                    Text(""),
                )
                continue
            seen = _parameter_rows(nested, table, depth + 1, prefix + "  [].", seen)
            continue
        seen = _parameter_rows(nested, table, depth + 1, prefix + "  ", seen)
    return seen


def schema_table(schema: dict[str, Any]) -> RenderableType:
    """Every parameter, nested objects and array items indented: type, required, the full
    description, and its enum, default, format and bounds."""
    table = Table(box=None, show_header=False, padding=(0, 1), expand=True)
    table.add_column(no_wrap=True)
    table.add_column(no_wrap=True)
    table.add_column(ratio=1)
    if _parameter_rows(schema, table, 0, "", 0) == 0:
        return Text("  (no parameters)", style="dim")
    return table


def raw_json(view: SurfaceView, tool: ToolRow) -> RenderableType:
    """The tool exactly as served, pretty-printed (untrusted text sanitised line by line)."""
    raw = view.raw_tool(tool.name)
    if raw is None:
        return Text("(the raw tool is not available: a saved report has no listing)", style="dim")
    return Text(safe_multiline(json.dumps(raw, indent=2, ensure_ascii=False)))


def annotations_line(tool: ToolRow) -> Text:
    """``readOnly ✓ destructive ✗ …`` with absent hints dimmed."""
    line = Text.assemble(("annotations  ", "bold"))
    for hint in HINTS:
        label = hint.removesuffix("Hint")
        value = tool.annotations.get(hint)
        if value is True:
            line.append(f"{label} ✓  ", style="green")
        elif value is False:
            line.append(f"{label} ✗  ", style="red")
        else:
            line.append(f"{label} –  ", style="dim")
    return line


def render_tool(view: SurfaceView, tool: ToolRow, raw: bool = False) -> RenderableType:
    """The right-hand pane for the selected tool (``raw``: the served JSON instead)."""
    header = Text()
    header.append(sanitize_text(tool.name), style="bold")
    header.append(f"  {tool.semantics}", style=SEMANTIC_STYLES.get(tool.semantics, ""))
    header.append(" (kind inferred from the name)", style="dim")
    if view.costed:
        header.append(f"  ~{tool.tokens} tokens ({tool.share:.0%})", style="dim")
    else:
        header.append("  tokens being counted…", style="dim")
    if raw:
        return Group(
            header, Text("raw JSON as served   j: back", style="dim"), raw_json(view, tool)
        )
    parts: list[RenderableType] = [header]
    if tool.title:
        parts.append(Text(f"title: {sanitize_text(tool.title)}", style="italic"))
    description = view.description(tool.name)
    if description is not None:
        parts.append(Text(safe_multiline(description)))
    elif view.raw_list is None:
        parts.append(Text("(the report does not carry descriptions)", style="dim"))
    else:
        parts.append(Text("(no description)", style="yellow"))
    parts.append(
        Text(f"\ninputSchema  {tool.parameters} params, {tool.required} required", style="bold")
    )
    schema = view.schema(tool.name)
    if schema is not None:
        parts.append(schema_table(schema))
    parts.append(annotations_line(tool))
    parts.append(Text("j: raw JSON of the tool", style="dim"))
    return Group(*parts)
