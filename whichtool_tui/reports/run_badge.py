"""The run as a shields.io endpoint badge: single-call accuracy, coloured by how high it is."""

from __future__ import annotations

from whichtool_tui.evaluation.report_model import RunReport
from whichtool_tui.reports.badge import Badge, rate_colour
from whichtool_tui.reports.rates import percent
from whichtool_tui.reports.run_verdict import error_count

RUN_BADGE_LABEL = "tool selection"


def run_badge(report: RunReport) -> Badge:
    """A failed run is red whatever its accuracy; an unmeasured one is light grey."""
    execution = report.execution
    if not execution.ok:
        return Badge(
            label=RUN_BADGE_LABEL,
            message=f"invalid run ({execution.scored}/{execution.planned} scored)",
            color="red",
        )
    if not report.ok:
        errors = error_count(report)
        noun = "error" if errors == 1 else "errors"
        return Badge(
            label=RUN_BADGE_LABEL, message=f"failing verdict ({errors} {noun})", color="red"
        )
    accuracy = report.metrics.accuracy
    if accuracy.value is None:
        return Badge(label=RUN_BADGE_LABEL, message="not measured", color="lightgrey")
    return Badge(
        label=RUN_BADGE_LABEL,
        message=f"{percent(accuracy.value)} of {accuracy.denominator}",
        color=rate_colour(accuracy.value),
    )


def render_run_badge(report: RunReport) -> str:
    """The badge file content."""
    return run_badge(report).to_json()
