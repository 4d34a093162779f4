"""One tool's description, schema and annotations as rich text, untrusted text sanitised."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from whichtool_tui.redact import sanitize_text
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


def schema_table(schema: dict[str, Any]) -> RenderableType:
    """A parameter table: name, type, required, first line of its description."""
    properties = schema.get("properties")
    if not isinstance(properties, dict) or not properties:
        return Text("  (no parameters)", style="dim")
    required = set(schema.get("required") or [])
    table = Table(box=None, show_header=False, padding=(0, 1), expand=False)
    table.add_column(style="bold")
    table.add_column(style="cyan")
    table.add_column()
    table.add_column(style="dim")
    for name, prop in properties.items():
        described = prop.get("description", "") if isinstance(prop, dict) else ""
        first_line = sanitize_text(str(described).split("\n", 1)[0])[:60]
        table.add_row(
            sanitize_text(str(name)),
            _type_of(prop),
            "required" if name in required else "",
            first_line,
        )
    return table


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


def render_tool(view: SurfaceView, tool: ToolRow) -> RenderableType:
    """The right-hand pane for the selected tool."""
    header = Text()
    header.append(sanitize_text(tool.name), style="bold")
    header.append(f"  {tool.semantics}", style=SEMANTIC_STYLES.get(tool.semantics, ""))
    header.append(f"  ~{tool.tokens} tokens ({tool.share:.0%})", style="dim")
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
    return Group(*parts)
