"""Deprecated MCP features: which of them a ``tools/list`` could reveal (today: none)."""

from __future__ import annotations

from whichtool_tui.surface.report_model import DeprecationsSection

SPEC_REVISION = "2026-07-28"
VERIFIED_ON = "2026-08-17"
# Deprecated in the spec revision above; none of them shows up in a tool definition.
REGISTRY = (
    "Roots",
    "Sampling",
    "Logging",
    "Dynamic Client Registration",
    "Sampling includeContext",
    "HTTP+SSE transport",
)
NOTE = (
    f"Checked against the {len(REGISTRY)} features deprecated as of MCP {SPEC_REVISION} "
    f"(verified {VERIFIED_ON}): {', '.join(REGISTRY)}. None of them is visible in a tool "
    "definition, so no rule applies to tools/list and nothing can be flagged here."
)


def analyze_deprecations() -> DeprecationsSection:
    """The deprecation section: checked, with an empty rule list and a note saying why."""
    return DeprecationsSection(
        checked=True,
        spec_revision=SPEC_REVISION,
        verified_on=VERIFIED_ON,
        rule_count=0,
        registry_size=len(REGISTRY),
        note=NOTE,
        diagnostics=[],
    )
