"""The inspect report as a shields.io endpoint badge: tools, estimated tokens, errors."""

from __future__ import annotations

from whichtool_tui.reports.badge import Badge
from whichtool_tui.surface.report_model import InspectReport

INSPECT_BADGE_LABEL = "tool surface"


def inspect_badge(report: InspectReport) -> Badge:
    """Red with error findings; else orange above 8,000 tokens, yellow above 4,000, else green."""
    errors = sum(1 for d in report.diagnostics if d.severity == "error")
    tools = report.surface.tool_count
    message = f"{tools} tool{'' if tools == 1 else 's'}, ~{report.tokens.total} tokens"
    if errors:
        message += f", {errors} error{'' if errors == 1 else 's'}"
        colour = "red"
    elif report.tokens.total > 8000:
        colour = "orange"
    elif report.tokens.total > 4000:
        colour = "yellow"
    else:
        colour = "green"
    return Badge(label=INSPECT_BADGE_LABEL, message=message, color=colour)


def render_inspect_badge(report: InspectReport) -> str:
    """The badge file content."""
    return inspect_badge(report).to_json()
