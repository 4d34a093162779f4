"""The run report as GitHub-flavoured Markdown: a verdict line, a metrics table, details."""

from __future__ import annotations

from whichtool_tui.evaluation.confusion import column_word, confusion_axes, row_label
from whichtool_tui.evaluation.report_model import ClusteredRate, RunReport
from whichtool_tui.evaluation.stats import Proportion
from whichtool_tui.reports.rates import clustered_interval, interval, percent
from whichtool_tui.reports.run_rows import reproducibility_rows
from whichtool_tui.reports.run_statistics import (
    clustered_by_tool,
    clustered_headline,
    consistency_rows,
    position_test_line,
)
from whichtool_tui.reports.run_verdict import run_verdict
from whichtool_tui.text_safety import markdown_cell, markdown_code

_ICONS = {
    "invalid": "❌",
    "thresholds": "❌",
    "failed": "❌",
    "unconfigured": "ℹ️",
    "passed": "✅",
}


def _rate_row(label: str, rate: Proportion, clustered: ClusteredRate | None = None) -> str:
    by_task = "" if clustered is None or clustered.ci95 is None else clustered_interval(clustered)
    tasks = "" if clustered is None else str(clustered.tasks)
    if rate.value is None:
        return f"| {label} | n/a (0 trials) | | | {tasks} |"
    share = f"{rate.numerator}/{rate.denominator} ({percent(rate.value)})"
    return f"| {label} | {share} | {interval(rate)} | {by_task} | {tasks} |"


def _details(summary: str, lines: list[str]) -> list[str]:
    return ["", "<details>", f"<summary>{summary}</summary>", "", *lines, "", "</details>"]


def _metrics_table(report: RunReport) -> list[str]:
    metrics = report.metrics

    def row(label: str, name: str) -> str:
        return _rate_row(label, getattr(metrics, name), clustered_headline(report, name))

    return [
        "| metric | rate | 95% interval | by task (95%) | tasks |",
        "|---|---|---|---|---|",
        row("Single-call accuracy", "accuracy"),
        row("Abstention", "abstention"),
        row("Over-trigger", "over_trigger"),
        row("Phantom", "phantom"),
        row("Multi-call", "multi_call_rate"),
        row("Clarified", "clarification"),
        f"| Errored (excluded above) | {report.execution.errored}/{report.execution.planned} "
        "| | | |",
    ]


def _pairs(report: RunReport) -> list[str]:
    pairs = report.metrics.confusion_pairs[:5]
    if not pairs:
        return ["No confusion pairs: no wrong-tool picks."]
    lines = ["| pair | swaps | rate | direction |", "|---|---|---|---|"]
    for pair in pairs:
        first, second = (markdown_cell(name) for name in pair.tools)
        direction = (
            f"{first} picked for {second} ×{pair.a_chosen_when_b_expected}; "
            f"{second} picked for {first} ×{pair.b_chosen_when_a_expected}"
        )
        lines.append(
            f"| {first} ↔ {second} | {pair.swaps} | {percent(pair.rate.value)} | {direction} |"
        )
    return lines


def _per_tool(report: RunReport) -> list[str]:
    clustered = clustered_by_tool(report)
    lines = [
        "| tool | single-call | by task (95%) | confused with | args ok | tokens |",
        "|---|---|---|---|---|---|",
    ]
    for row in report.metrics.by_tool:
        confused = ", ".join(f"{markdown_cell(c.tool)} ×{c.count}" for c in row.confused_with)
        accuracy = row.accuracy
        single = (
            "n/a"
            if accuracy.value is None
            else f"{accuracy.numerator}/{accuracy.denominator} ({percent(accuracy.value)})"
        )
        by_task = clustered_interval(clustered.get(row.tool))
        lines.append(
            f"| {markdown_cell(row.tool)} | {single} | {by_task} | {confused or '-'} | "
            f"{percent(row.argument_accuracy.value)} | {row.context_tokens} |"
        )
    return lines


def _matrix(report: RunReport) -> list[str]:
    matrix = report.metrics.confusion_matrix
    if not matrix:
        return ["No scored trials."]
    axes = confusion_axes(row.tool for row in report.metrics.by_tool)
    rows = axes.rows
    used_columns = [c for c in axes.columns if any(c in matrix.get(r, {}) for r in rows)]
    header = " | ".join(markdown_cell(column_word(c)) for c in used_columns)
    lines = [
        f"| expected ↓ / picked → | {header} |",
        "|---|" + "---|" * len(used_columns),
    ]
    for row in rows:
        if row not in matrix:
            continue
        label = row_label(row)
        cells = " | ".join(str(matrix[row].get(c, 0) or "") for c in used_columns)
        lines.append(f"| {markdown_cell(label)} | {cells} |")
    return lines


def _position(report: RunReport) -> list[str]:
    position = report.metrics.position
    if position.spread is None:
        lines = ["Not measurable: no task was tried at two or more positions."]
    else:
        lines = [
            f"Spread {percent(position.spread)} over {position.comparable_tasks} tasks "
            "(mean within-task best minus worst position rate)."
        ]
    if position.buckets:
        lines += ["", "| position | single-call | 95% interval |", "|---|---|---|"]
        for bucket in position.buckets:
            rate = bucket.accuracy
            lines.append(
                f"| {bucket.position + 1} | {rate.numerator}/{rate.denominator} "
                f"({percent(rate.value)}) | {interval(rate)} |"
            )
    tested = position_test_line(report)
    if tested:
        lines += ["", tested]
    return lines


def _consistency(report: RunReport) -> list[str]:
    rows = consistency_rows(report)
    lines = ["| consistency | |", "|---|---|"]
    return [*lines, *(f"| {label} | {value} |" for label, value in rows)] if rows else []


def _findings(report: RunReport) -> list[str]:
    if not report.diagnostics:
        return ["No findings."]
    lines = ["| severity | code | finding |", "|---|---|---|"]
    for diagnostic in report.diagnostics:
        lines.append(
            f"| {diagnostic.severity} | {markdown_code(diagnostic.code)} | "
            f"{markdown_cell(diagnostic.message)} |"
        )
    return lines


def _reproducibility(report: RunReport) -> list[str]:
    rows = reproducibility_rows(report)
    return ["| | |", "|---|---|", *(f"| {k} | {markdown_cell(v)} |" for k, v in rows)]


def render_run_markdown(report: RunReport) -> str:
    """The whole Markdown report, ending with a newline; suitable for a PR comment."""
    verdict = run_verdict(report)
    repro = report.reproducibility
    execution = report.execution
    lines = [
        "## whichtool run",
        "",
        f"**{_ICONS[verdict.kind]} {verdict.text}** · {markdown_cell(repro.provider)}/"
        f"{markdown_cell(repro.model)} · {execution.scored}/{execution.planned} trials scored · "
        f"surface {markdown_code(repro.surface_hash.removeprefix('sha256:')[:12])} · "
        f"~{report.context_cost.total} tokens",
        "",
        *_metrics_table(report),
        "",
        "### Confusion pairs",
        "",
        *_pairs(report),
    ]
    if report.thresholds:
        lines += ["", "### Thresholds", "", "| threshold | actual | limit | result |"]
        lines.append("|---|---|---|---|")
        for threshold in report.thresholds:
            result = "pass" if threshold.ok else "**FAIL**"
            lines.append(
                f"| {threshold.name} | {threshold.actual:.3f} | {threshold.limit:g} | {result} |"
            )
    if report.discovery is not None:
        from whichtool_tui.reports.discovery_run import discovery_markdown_lines

        lines += discovery_markdown_lines(report.discovery)
    if report.batch is not None:
        from whichtool_tui.reports.batch_price import batch_markdown_lines

        lines += batch_markdown_lines(report, report.batch)
    if report.pacing is not None:
        from whichtool_tui.reports.run_terminal import pacing_text

        lines += ["", "### Pacing", "", f"- {pacing_text(report.pacing)}"]
    lines += _details("Per tool", _per_tool(report))
    consistency = _consistency(report)
    if consistency:
        lines += _details("Consistency (pass^k)", consistency)
    lines += _details("Confusion matrix", _matrix(report))
    lines += _details("Position sensitivity", _position(report))
    lines += _details(f"Findings ({len(report.diagnostics)})", _findings(report))
    lines += _details("Reproducibility", _reproducibility(report))
    return "\n".join(lines) + "\n"
