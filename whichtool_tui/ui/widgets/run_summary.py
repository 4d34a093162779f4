"""Rich renderings of a saved run's tables: per tool, pairs, position, thresholds, a diff."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from whichtool_tui.reports.rates import format_proportion_compact as proportion
from whichtool_tui.text_safety import sanitize_text
from whichtool_tui.usecases.api import RunReport

if TYPE_CHECKING:
    from whichtool_tui.usecases.api import DiffReport


def headline(report: RunReport) -> Text:
    """Provider, model, accuracy and over-trigger with intervals, and the verdict."""
    repro = report.reproducibility
    metrics = report.metrics
    text = Text()
    text.append(sanitize_text(f"{repro.provider} · {repro.model}"), style="bold")
    text.append(f"   {report.tasks.selected} tasks × {repro.repeat}")
    text.append(f" = {metrics.trials.planned} trials ({metrics.trials.errored} errored)\n")
    text.append("accuracy ", style="bold")
    text.append(proportion(metrics.accuracy))
    text.append("   over-trigger ", style="bold")
    text.append(proportion(metrics.over_trigger))
    text.append("   ok ", style="bold")
    text.append("yes" if report.ok else "no", style="green" if report.ok else "bold red")
    return text


def per_tool_table(report: RunReport) -> Table:
    """Accuracy per expected tool, worst first as the report orders it."""
    table = Table(box=None, expand=True, header_style="bold", padding=(0, 1))
    table.add_column("tool", no_wrap=True)
    table.add_column("accuracy", no_wrap=True)
    table.add_column("confused with", overflow="fold", min_width=16)
    for tool in report.metrics.by_tool:
        confused = ", ".join(f"{c.tool}×{c.count}" for c in tool.confused_with) or "—"
        table.add_row(sanitize_text(tool.tool), proportion(tool.accuracy), sanitize_text(confused))
    return table


def details(report: RunReport) -> RenderableType:
    """Pairs, position sensitivity and thresholds in a few lines."""
    metrics = report.metrics
    lines: list[RenderableType] = []
    pairs = Text.assemble(("Pairs: ", "bold"))
    for pair in metrics.confusion_pairs[:4]:
        names = sanitize_text(f"{pair.tools[0]} ↔ {pair.tools[1]}")
        pairs.append(f"{names} {pair.swaps} swaps ({pair.rate.value or 0.0:.0%})  ")
    if not metrics.confusion_pairs:
        pairs.append("none", style="dim")
    lines.append(pairs)
    spread = metrics.position.spread
    position = Text.assemble(("Position: ", "bold"))
    position.append(
        f"spread {spread:.2f} over {metrics.position.comparable_tasks} comparable tasks"
        if spread is not None
        else "not enough comparable tasks"
    )
    lines.append(position)
    thresholds = Text.assemble(("Thresholds: ", "bold"))
    for item in report.thresholds:
        mark = "✓" if item.ok else "✖"
        thresholds.append(
            f"{item.name} {item.limit:g} {mark} {item.actual:.2f}   ",
            style="green" if item.ok else "red",
        )
    if not report.thresholds:
        thresholds.append("none set", style="dim")
    lines.append(thresholds)
    return Group(*lines)


def diff_report_view(report: DiffReport) -> RenderableType:
    """A ``whichtool.diff/2`` report as the headless ``diff`` prints it (same renderer, same
    lines: status, paired counts, context tokens, per tool, confusions, findings), in colour."""
    from whichtool_tui.reports.diff_terminal import render_diff_terminal

    return Text.from_ansi(render_diff_terminal(report, color=True))
