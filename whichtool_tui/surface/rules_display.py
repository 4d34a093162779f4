"""Display-text rules: what a reviewer or an approval dialog shows is not what a model reads.

``display/hidden-characters`` (error): Unicode tags, bidi controls, zero-width characters or
ANSI and other control codes anywhere in a tool's name, title, description, schemas or
annotations, the static twin of the bout atom ``encoding.hidden``. ``display/forged-dialog-text``
(warning): line breaks, control characters or badge glyphs in the fields a confirmation dialog
shows (name, title, annotations.title, first description line), as ``display.forged`` judges
them. Both read the same rule modules as the atoms, so a bout and an inspect agree.
"""

from __future__ import annotations

from typing import Any

from whichtool_tui.arcade.display_forgery import forgeries
from whichtool_tui.arcade.hidden_text import findings
from whichtool_tui.diagnostics import Diagnostic
from whichtool_tui.surface.checks import CheckOptions, register_check
from whichtool_tui.surface.model import NormalizedSurface, Tool
from whichtool_tui.surface.rule_catalog import RULES

HIDDEN = "display/hidden-characters"
FORGED = "display/forged-dialog-text"


def _raw(tool: Tool) -> dict[str, Any]:
    raw: dict[str, Any] = {"name": tool.name, "inputSchema": tool.input_schema}
    for key, value in (
        ("title", tool.title),
        ("description", tool.description),
        ("outputSchema", tool.output_schema),
        ("annotations", tool.annotations),
    ):
        if value is not None:
            raw[key] = value
    return raw


def hidden_characters(surface: NormalizedSurface, options: CheckOptions) -> list[Diagnostic]:
    """One error per tool and field carrying characters a reviewer cannot see."""
    return [
        Diagnostic(
            code=HIDDEN,
            severity="error",
            message=f"Hidden text: {finding.describe()}",
            tool=tool.name,
            hint=RULES[HIDDEN].help,
            detail={"field": finding.field, "kind": finding.kind, "count": finding.count},
        )
        for tool in surface.tools
        for finding in findings([_raw(tool)])
    ]


def forged_dialog_text(surface: NormalizedSurface, options: CheckOptions) -> list[Diagnostic]:
    """One warning per forged line break or badge in what a confirmation dialog shows."""
    return [
        Diagnostic(
            code=FORGED,
            severity="warning",
            message=f"Forged dialog text: {finding.describe()}",
            tool=tool.name,
            hint=RULES[FORGED].help,
            detail={"check": finding.check},
        )
        for tool in surface.tools
        for finding in forgeries([_raw(tool)])
        if finding.check != "annotations"  # annotations/read-only-with-mutating-name has it
    ]


register_check(HIDDEN, hidden_characters)
register_check(FORGED, forged_dialog_text)
