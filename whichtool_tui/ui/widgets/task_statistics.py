"""The task-level numbers of a run and of a dry-run plan, as a few self-contained rich lines."""

from __future__ import annotations

from rich.text import Text

from whichtool_tui.reports.rates import format_clustered
from whichtool_tui.reports.run_statistics import (
    clustered_headline,
    consistency_rows,
    position_test_line,
)
from whichtool_tui.usecases.api import PowerPlan, RunReport, power_lines


def statistics_text(report: RunReport) -> Text:
    """Task-clustered intervals, pass^k with unchanged tasks, and the position test."""
    text = Text()
    if report.statistics is None:
        return text
    text.append("By task: ", style="bold")
    for label, name in (("accuracy", "accuracy"), ("over-trigger", "over_trigger")):
        shown = format_clustered(clustered_headline(report, name)).removeprefix("by task ")
        text.append(f"{label} {shown or 'n/a'}   ")
    rows = consistency_rows(report)
    text.append("\nConsistency: ", style="bold")
    text.append("  ".join(f"{label} {value.split(' over ')[0]}" for label, value in rows[:-1]))
    text.append(f"\n  unchanged: {rows[-1][1]}")
    position = report.statistics.position
    text.append("\n")
    text.append(
        position_test_line(report),
        style="yellow" if position.significant else "",
    )
    return text


def power_text(plan: PowerPlan) -> Text:
    """The dry-run power plan as dim continuation lines of the Run screen's plan."""
    text = Text()
    for line in power_lines(plan):
        text.append(f"\n      {line}", style="dim")
    return text
