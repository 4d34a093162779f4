"""The diff as plain ASCII for a terminal: comparability, headline deltas, tools, confusions."""

from __future__ import annotations

from whichtool_tui.evaluation.diff_model import (
    DiffReport,
    MetricDelta,
    PairedComparison,
    TaskPairedComparison,
)
from whichtool_tui.reports.plain_text import Styler, ascii_safe
from whichtool_tui.reports.rates import percent
from whichtool_tui.surface.model import short_hash


def signed_points(delta: float | None) -> str:
    """A change in rate as signed percentage points, or ``n/a``."""
    if delta is None:
        return "n/a"
    return f"{delta * 100:+.1f} pts"


def paired_text(paired: PairedComparison) -> str:
    """``+improved/-regressed of matched, p=…`` as a compact evidence string."""
    return (
        f"+{paired.improved}/-{paired.regressed} of {paired.matched} paired"
        f"{f', {paired.excluded} excluded' if paired.excluded else ''}, p={paired.p_value:.3g}"
    )


def task_text(by_task: TaskPairedComparison | None) -> str:
    """``+improved/-regressed of T tasks, mean ±x pts [lo, hi], p=…`` or an empty string."""
    if by_task is None:
        return ""
    interval = ""
    if by_task.ci95 is not None:
        low, high = by_task.ci95
        interval = f" [{low * 100:+.1f}, {high * 100:+.1f}]"
    p_value = f"p={by_task.p_value:.3g}"
    if by_task.adjusted_p_value is not None:
        p_value += f", Holm p={by_task.adjusted_p_value:.3g}"
    return (
        f"+{by_task.improved}/-{by_task.regressed} of {by_task.tasks} "
        f"{'task' if by_task.tasks == 1 else 'tasks'}, mean "
        f"{signed_points(by_task.mean_delta)}{interval}, {p_value}"
    )


def gate_text(report: DiffReport) -> str:
    """Which paired test decides the verdict, in one line."""
    if report.paired_unit == "trial":
        return "gate: upstream's exact sign test over trial pairs (--paired-unit trial)"
    return (
        "gate: sign-flip test over tasks (each task's mean change counts once); "
        "the trial-level sign test is shown for reference"
    )


def _metric_line(label: str, metric: MetricDelta, style: Styler) -> str:
    verdict = style("bold", "distinguishable") if metric.distinguishable else "not distinguishable"
    line = (
        f"  {label:<14}{percent(metric.before):>6} -> {percent(metric.after):<6} "
        f"{signed_points(metric.delta):>10}  {verdict} ({paired_text(metric.paired)})"
    )
    by_task = task_text(metric.by_task)
    if not by_task or metric.by_task is None:
        return line
    task_verdict = "distinguishable" if metric.by_task.distinguishable else "not distinguishable"
    return f"{line}\n  {'':<14}by task: {task_verdict} ({by_task})"


def render_diff_terminal(report: DiffReport, color: bool = False) -> str:
    """The whole diff as text ending in a newline; colour only when ``color`` is true."""
    style = Styler(color)
    base, head = report.base, report.head
    lines = [
        "whichtool-tui diff",
        f"  base   {ascii_safe(base.source)}  {ascii_safe(base.provider)}/"
        f"{ascii_safe(base.model)}  surface {short_hash(base.surface_hash)}",
        f"  head   {ascii_safe(head.source)}  {ascii_safe(head.provider)}/"
        f"{ascii_safe(head.model)}  surface {short_hash(head.surface_hash)}",
    ]
    if not report.comparable:
        lines.append(style("red", "  status INCOMPARABLE: these runs cannot be paired"))
        lines += [f"    - {ascii_safe(reason)}" for reason in report.incomparable]
    elif report.ok:
        lines.append(style("green", "  status ok: no blocking regression"))
    else:
        lines.append(style("red", "  status REGRESSED"))
    lines += [
        "",
        "Headline (paired by task and trial index; exact sign test, p <= 0.05)",
        f"  {gate_text(report)}",
        _metric_line("single-call", report.accuracy, style),
        _metric_line("over-trigger", report.over_trigger, style),
        _metric_line("multi-call", report.multi_call, style),
        f"  {'context':<14}{report.context_tokens.before:>6} -> "
        f"{report.context_tokens.after:<6} {report.context_tokens.delta:>+10} tokens "
        "(reported only)",
        "",
        "Per tool (worst change first)",
    ]
    for tool in report.by_tool[:20]:
        mark = "*" if tool.distinguishable else " "
        lines.append(
            f"  {mark} {ascii_safe(tool.tool):<28}{percent(tool.before):>6} -> "
            f"{percent(tool.after):<6} {signed_points(tool.delta):>10}  {paired_text(tool.paired)}"
        )
        if tool.by_task is not None:
            lines.append(f"      by task: {task_text(tool.by_task)}")
    if len(report.by_tool) > 20:
        lines.append(f"  {len(report.by_tool) - 20} more below.")
    lines += ["", "Confusions"]
    if not report.new_confusions and not report.resolved_confusions:
        lines.append("  No confusion pair appeared or disappeared.")
    for label, items in (("new", report.new_confusions), ("resolved", report.resolved_confusions)):
        for confusion in items:
            first, second = (ascii_safe(name) for name in confusion.tools)
            verdict = "distinguishable" if confusion.distinguishable else "inconclusive"
            lines.append(
                f"  {label:<9}{first} <-> {second}  swaps {confusion.swaps}/"
                f"{confusion.denominator}  introduced {confusion.introduced}, resolved "
                f"{confusion.resolved}, p={confusion.p_value:.3g} ({verdict})"
            )
            if confusion.by_task is not None:
                lines.append(f"           by task: {task_text(confusion.by_task)}")
    lines += ["", "Findings"]
    if not report.diagnostics:
        lines.append("  None.")
    for diagnostic in report.diagnostics:
        tag = style.severity(diagnostic.severity, f"{diagnostic.severity:<7}")
        lines.append(f"  {tag} {diagnostic.code}  {ascii_safe(diagnostic.message)}")
    return "\n".join(lines) + "\n"
