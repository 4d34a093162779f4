"""Rich renderings of a saved run's tables: per tool, pairs, position, thresholds, a diff."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from whichtool_tui.evaluation.report_model import RunReport
from whichtool_tui.redact import sanitize_text
from whichtool_tui.reports.rates import format_proportion_compact as proportion


def headline(report: RunReport) -> Text:
    """Provider, model, accuracy and over-trigger with intervals, and the verdict."""
    repro = report.reproducibility
    metrics = report.metrics
    text = Text()
    text.append(f"{repro.provider} · {repro.model}", style="bold")
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
        pairs.append(
            f"{pair.tools[0]} ↔ {pair.tools[1]} {pair.swaps} swaps ({pair.rate.value or 0.0:.0%})  "
        )
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


def diff_report_view(data: dict[str, Any]) -> RenderableType:
    """A ``whichtool.diff/2`` report as the headless ``diff`` prints it (same renderer, same
    lines: status, paired counts, context tokens, per tool, confusions, findings), in colour;
    a report this build cannot read falls back to the short table below."""
    import json

    from pydantic import ValidationError

    from whichtool_tui.evaluation.diff_model import DiffReport
    from whichtool_tui.reports.diff_terminal import render_diff_terminal

    try:
        report = DiffReport.model_validate_json(json.dumps(data))
    except ValidationError:
        return diff_view(data)
    return Text.from_ansi(render_diff_terminal(report, color=True))


def _number(value: Any, signed: bool = False) -> str:
    if not isinstance(value, int | float):
        return "n/a"
    return f"{value:+.3f}" if signed else f"{value:.3f}"


def _task_p(block: dict[str, Any]) -> str:
    """The task-level p-value (Holm-adjusted for tools), or blank for files without one."""
    by_task = block.get("byTask") or {}
    value = by_task.get("adjustedPValue", by_task.get("pValue"))
    return "" if value is None else _number(value)


def diff_view(data: dict[str, Any]) -> RenderableType:
    """A ``whichtool.diff/2`` report: headline deltas with p-values, per tool, new confusions."""
    parts: list[RenderableType] = []
    head = Text()
    for side in ("base", "head"):
        block = data.get(side) or {}
        head.append(f"{side} ", style="bold")
        head.append(
            f"{sanitize_text(str(block.get('source', '?')))} "
            f"({block.get('provider', '?')} · {block.get('model', '?')})\n"
        )
    comparable = bool(data.get("comparable"))
    head.append("comparable ", style="bold")
    head.append("yes" if comparable else "no", style="green" if comparable else "bold red")
    for reason in data.get("incomparable") or []:
        head.append(f"\n  {sanitize_text(str(reason))}", style="red")
    parts.append(head)
    table = Table(box=None, header_style="bold", padding=(0, 1))
    for column in ("metric", "before", "after", "delta", "p", "distinguishable", "p by task"):
        table.add_column(column)
    for name in ("accuracy", "overTrigger", "multiCall"):
        block = data.get(name) or {}
        paired = block.get("paired") or {}
        table.add_row(
            name,
            _number(block.get("before")),
            _number(block.get("after")),
            _number(block.get("delta"), signed=True),
            _number(paired.get("pValue")),
            "yes" if block.get("distinguishable") else "no",
            _task_p(block),
        )
    for tool in data.get("byTool") or []:
        paired = tool.get("paired") or {}
        table.add_row(
            Text(f"  {sanitize_text(str(tool.get('tool')))}", style="dim"),
            _number(tool.get("before")),
            _number(tool.get("after")),
            _number(tool.get("delta"), signed=True),
            _number(paired.get("pValue")),
            "yes" if tool.get("distinguishable") else "no",
            _task_p(tool),
        )
    parts.append(table)
    for key, label in (("newConfusions", "New confusions"), ("resolvedConfusions", "Resolved")):
        confusions = Text.assemble((f"{label}: ", "bold"))
        for item in data.get(key) or []:
            tools = " ↔ ".join(sanitize_text(str(t)) for t in item.get("tools") or [])
            confusions.append(
                f"{tools} ({item.get('swaps')} swaps, p {_number(item.get('pValue'))})  "
            )
        if not data.get(key):
            confusions.append("none", style="dim")
        parts.append(confusions)
    ok = bool(data.get("ok"))
    gate = {"task": " (gate: sign-flip over tasks)", "trial": " (gate: sign test over trials)"}
    verdict = f"ok {'yes' if ok else 'no'}{gate.get(str(data.get('pairedUnit')), '')}"
    parts.append(Text(verdict, style="green" if ok else "bold red"))
    return Group(*parts)
