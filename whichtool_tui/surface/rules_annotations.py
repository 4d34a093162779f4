"""Annotation rules beyond upstream: state-changing tools that never say if a retry is safe."""

from __future__ import annotations

from whichtool_tui.diagnostics import Diagnostic
from whichtool_tui.surface.annotations import HINT_DEFAULTS
from whichtool_tui.surface.checks import CheckOptions, register_check
from whichtool_tui.surface.model import NormalizedSurface, Tool
from whichtool_tui.surface.naming import classify_name
from whichtool_tui.surface.rule_catalog import RULES


def _boolean_hint(tool: Tool, key: str) -> bool | None:
    value = (tool.annotations or {}).get(key)
    return value if isinstance(value, bool) else None


def looks_state_changing(tool: Tool) -> bool:
    """Named like a write or declared not read-only, and not declared read-only."""
    read_only = _boolean_hint(tool, "readOnlyHint")
    if read_only is True:
        return False
    return read_only is False or classify_name(tool.name)[0] in ("mutate", "destructive")


def missing_idempotent_hint(surface: NormalizedSurface, options: CheckOptions) -> list[Diagnostic]:
    """A client deciding whether to retry a write needs idempotentHint (default: false).

    Like upstream's missing readOnlyHint note, this fires only on a surface that annotates
    at all; a surface with no hints gets the single surface-wide warning instead.
    """
    annotated = any(
        _boolean_hint(tool, key) is not None for tool in surface.tools for key in HINT_DEFAULTS
    )
    if not annotated:
        return []
    return [
        Diagnostic(
            code="annotations/missing-idempotent-hint",
            severity="info",
            message=(
                f"Tool `{tool.name}` looks state-changing but declares no `idempotentHint`; "
                "clients assume a repeated call is not safe"
            ),
            tool=tool.name,
            hint=RULES["annotations/missing-idempotent-hint"].help,
        )
        for tool in surface.tools
        if looks_state_changing(tool) and _boolean_hint(tool, "idempotentHint") is None
    ]


register_check("annotations/missing-idempotent-hint", missing_idempotent_hint)
