"""The diff as Markdown for a pull-request comment or a CI job summary."""

from __future__ import annotations

from whichtool_tui.evaluation.diff_model import DiffReport, MetricDelta
from whichtool_tui.reports.diff_terminal import gate_text, paired_text, signed_points, task_text
from whichtool_tui.reports.escape import markdown_cell, markdown_code
from whichtool_tui.reports.rates import percent
from whichtool_tui.surface.model import short_hash


def _row(label: str, metric: MetricDelta) -> str:
    verdict = "**yes**" if metric.distinguishable else "no"
    return (
        f"| {label} | {percent(metric.before)} | {percent(metric.after)} | "
        f"{signed_points(metric.delta)} | {verdict} | {paired_text(metric.paired)} | "
        f"{task_text(metric.by_task)} |"
    )


def render_diff_markdown(report: DiffReport) -> str:
    """The whole diff as Markdown ending with a newline."""
    if not report.comparable:
        verdict = "❌ Runs are not comparable"
    elif report.ok:
        verdict = "✅ No blocking regression"
    else:
        verdict = "❌ Regression"
    base, head = report.base, report.head
    lines = [
        "## whichtool diff",
        "",
        f"**{verdict}** · {markdown_cell(head.provider)}/{markdown_cell(head.model)} · "
        f"surface {markdown_code(short_hash(base.surface_hash))} → "
        f"{markdown_code(short_hash(head.surface_hash))}",
    ]
    if report.incomparable:
        lines += ["", *(f"- {markdown_cell(reason)}" for reason in report.incomparable)]
    lines += [
        "",
        gate_text(report).capitalize() + ".",
        "",
        "| metric | base | head | change | distinguishable | paired evidence | by task |",
        "|---|---|---|---|---|---|---|",
        _row("Single-call accuracy", report.accuracy),
        _row("Over-trigger", report.over_trigger),
        _row("Multi-call", report.multi_call),
        f"| Context tokens | {report.context_tokens.before} | {report.context_tokens.after} | "
        f"{report.context_tokens.delta:+d} | (not gated) | | |",
    ]
    confusions = [("new", c) for c in report.new_confusions] + [
        ("resolved", c) for c in report.resolved_confusions
    ]
    if confusions:
        lines += [
            "",
            "### Confusions",
            "",
            "| change | pair | swaps | introduced | resolved | p | distinguishable | by task |",
            "|---|---|---|---|---|---|---|---|",
        ]
        for label, confusion in confusions:
            first, second = (markdown_cell(name) for name in confusion.tools)
            lines.append(
                f"| {label} | {first} ↔ {second} | {confusion.swaps}/{confusion.denominator} | "
                f"{confusion.introduced} | {confusion.resolved} | {confusion.p_value:.3g} | "
                f"{'**yes**' if confusion.distinguishable else 'no'} | "
                f"{task_text(confusion.by_task)} |"
            )
    lines += [
        "",
        "<details>",
        "<summary>Per tool</summary>",
        "",
        "| tool | base | head | change | distinguishable | paired evidence | by task |",
        "|---|---|---|---|---|---|---|",
    ]
    for tool in report.by_tool:
        lines.append(
            f"| {markdown_cell(tool.tool)} | {percent(tool.before)} | {percent(tool.after)} | "
            f"{signed_points(tool.delta)} | {'**yes**' if tool.distinguishable else 'no'} | "
            f"{paired_text(tool.paired)} | {task_text(tool.by_task)} |"
        )
    lines += ["", "</details>", "", "<details>", f"<summary>Findings ({len(report.diagnostics)})"]
    lines[-1] += "</summary>"
    lines += ["", "| severity | code | finding |", "|---|---|---|"]
    for diagnostic in report.diagnostics:
        lines.append(
            f"| {diagnostic.severity} | {markdown_code(diagnostic.code)} | "
            f"{markdown_cell(diagnostic.message)} |"
        )
    lines += ["", "</details>"]
    return "\n".join(lines) + "\n"
