"""The diff as plain ASCII for a terminal: comparability, headline deltas, tools, confusions."""

from __future__ import annotations

from whichtool_tui.evaluation.diff_model import DiffReport, MetricDelta, PairedComparison
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


def _metric_line(label: str, metric: MetricDelta, style: Styler) -> str:
    verdict = style("bold", "distinguishable") if metric.distinguishable else "not distinguishable"
    return (
        f"  {label:<14}{percent(metric.before):>6} -> {percent(metric.after):<6} "
        f"{signed_points(metric.delta):>10}  {verdict} ({paired_text(metric.paired)})"
    )


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
    lines += ["", "Findings"]
    if not report.diagnostics:
        lines.append("  None.")
    for diagnostic in report.diagnostics:
        tag = style.severity(diagnostic.severity, f"{diagnostic.severity:<7}")
        lines.append(f"  {tag} {diagnostic.code}  {ascii_safe(diagnostic.message)}")
    return "\n".join(lines) + "\n"
