"""The diff as Markdown for a pull-request comment or a CI job summary."""

from __future__ import annotations

from whichtool_tui.evaluation.diff_model import DiffReport, MetricDelta, ToolDelta
from whichtool_tui.evaluation.diff_verdict import (
    GateVerdict,
    confusion_verdict,
    gate_unit,
    metric_verdict,
)
from whichtool_tui.reports.diff_terminal import (
    confusion_trial_text,
    evidence_text,
    gate_text,
    reference_evidence,
    reference_label,
    signed_points,
    task_text,
)
from whichtool_tui.reports.rates import percent
from whichtool_tui.surface.model import short_hash
from whichtool_tui.text_safety import markdown_cell, markdown_code


def _verdict_cell(verdict: GateVerdict) -> str:
    return f"**{verdict.word}**" if verdict.distinguishable else verdict.word


def _row(label: str, metric: MetricDelta | ToolDelta, report: DiffReport) -> str:
    unit = gate_unit(report)
    return (
        f"| {label} | {percent(metric.before)} | {percent(metric.after)} | "
        f"{signed_points(metric.delta)} | {_verdict_cell(metric_verdict(report, metric))} | "
        f"{evidence_text(unit, metric.paired, metric.by_task)} | "
        f"{reference_evidence(unit, metric.paired, metric.by_task)} |"
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
    unit = gate_unit(report)
    reference = reference_label(unit)
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
        f"| metric | base | head | change | verdict | evidence (the gate) | {reference} |",
        "|---|---|---|---|---|---|---|",
        _row("Single-call accuracy", report.accuracy, report),
        _row("Over-trigger", report.over_trigger, report),
        _row("Multi-call", report.multi_call, report),
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
            f"| change | pair | swaps | verdict | evidence (the gate) | {reference} |",
            "|---|---|---|---|---|---|",
        ]
        for label, confusion in confusions:
            first, second = (markdown_cell(name) for name in confusion.tools)
            trial, by_task = confusion_trial_text(confusion), task_text(confusion.by_task)
            gated, other = (trial, by_task) if unit == "trial" else (by_task, trial)
            lines.append(
                f"| {label} | {first} ↔ {second} | {confusion.swaps}/{confusion.denominator} | "
                f"{_verdict_cell(confusion_verdict(unit, confusion))} | {gated} | {other} |"
            )
    lines += [
        "",
        "<details>",
        "<summary>Per tool</summary>",
        "",
        f"| tool | base | head | change | verdict | evidence (the gate) | {reference} |",
        "|---|---|---|---|---|---|---|",
    ]
    for tool in report.by_tool:
        lines.append(_row(markdown_cell(tool.tool), tool, report))
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
