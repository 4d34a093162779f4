"""The Results screen's deferred-vs-upfront view: found and picked, the paired comparison, and
per task found / deferred / upfront (empty for a run without deferred discovery)."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from whichtool_tui.reports.discovery_run import TASK_HEADERS, summary_rows, task_rows
from whichtool_tui.text_safety import sanitize_text
from whichtool_tui.usecases.api import RunReport


def discovery_view(report: RunReport) -> RenderableType:
    """The view, or an empty text when the run offered every tool upfront."""
    block = report.discovery
    if block is None:
        return Text("")
    table = Table(title="Deferred vs upfront", title_justify="left", show_edge=False)
    for header in TASK_HEADERS:
        table.add_column(header, justify="left" if header in ("task", "expected") else "right")
    for row in task_rows(block):
        table.add_row(*(sanitize_text(cell) for cell in row))
    summary = Text()
    for label, value in summary_rows(block):
        summary.append(f"{label}: ", style="bold")
        summary.append(f"{value}\n")
    return Group(summary, table)
