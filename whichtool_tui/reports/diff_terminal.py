"""The diff as plain ASCII for a terminal: comparability, headline deltas, tools, confusions."""

from __future__ import annotations

from whichtool_tui.evaluation.diff_model import (
    ConfusionDelta,
    DiffReport,
    MetricDelta,
    PairedComparison,
    PairedUnit,
    TaskPairedComparison,
    ToolDelta,
)
from whichtool_tui.evaluation.diff_verdict import (
    GateVerdict,
    confusion_verdict,
    gate_and_reference,
    gate_unit,
    metric_verdict,
    task_verdict,
    trial_verdict,
)
from whichtool_tui.evaluation.wording import TOO_FEW_TASKS, p_text, signed_points, units
from whichtool_tui.reports.plain_text import Styler
from whichtool_tui.reports.rates import percent
from whichtool_tui.surface.model import short_hash
from whichtool_tui.text_safety import ascii_safe

__all__ = [
    "evidence_text",
    "gate_text",
    "paired_text",
    "reference_evidence",
    "reference_label",
    "signed_points",
]


def paired_text(paired: PairedComparison) -> str:
    """``+improved/-regressed of matched paired, p=…`` (``no evidence`` when none matched)."""
    if paired.matched == 0:
        return trial_verdict(paired).p() + (
            f", {paired.excluded} excluded" if paired.excluded else ""
        )
    return (
        f"+{paired.improved}/-{paired.regressed} of {paired.matched} paired"
        f"{f', {paired.excluded} excluded' if paired.excluded else ''}, {p_text(paired.p_value)}"
    )


def task_text(by_task: TaskPairedComparison | None) -> str:
    """``+improved/-regressed of T tasks, mean ±x pts [lo, hi], p=…``, or ``no evidence``."""
    verdict = task_verdict(by_task)
    if by_task is None or verdict.p_value is None:
        return verdict.p()
    interval = f" [{TOO_FEW_TASKS}]"
    if by_task.ci95 is not None:
        low, high = by_task.ci95
        interval = f" [{low * 100:+.1f}, {high * 100:+.1f}]"
    p_value = p_text(by_task.p_value)
    if by_task.adjusted_p_value is not None:
        p_value += f", Holm {p_text(by_task.adjusted_p_value)}"
    return (
        f"+{by_task.improved}/-{by_task.regressed} of {units(by_task.tasks, 'task')}, mean "
        f"{signed_points(by_task.mean_delta)}{interval}, {p_value}"
    )


def evidence_text(
    unit: PairedUnit, paired: PairedComparison, by_task: TaskPairedComparison | None
) -> str:
    """The gating test's evidence for a comparison."""
    return gate_and_reference(unit, paired_text(paired), task_text(by_task))[0]


def reference_evidence(
    unit: PairedUnit, paired: PairedComparison, by_task: TaskPairedComparison | None
) -> str:
    """The evidence of the test that does not gate."""
    return gate_and_reference(unit, paired_text(paired), task_text(by_task))[1]


def reference_label(unit: PairedUnit) -> str:
    """How the test that does not gate is labelled: a reference, never a verdict."""
    return "reference, by task" if unit == "trial" else "reference, by trial pair"


def reference_text(
    unit: PairedUnit, paired: PairedComparison, by_task: TaskPairedComparison | None
) -> str:
    """The other test's evidence, labelled as a reference (it does not gate)."""
    return f"{reference_label(unit)}: {reference_evidence(unit, paired, by_task)}"


def confusion_trial_text(confusion: ConfusionDelta) -> str:
    """A confusion's own trial-level evidence: introduced, resolved and its sign-test p."""
    return (
        f"introduced {confusion.introduced}, resolved {confusion.resolved}, "
        f"{p_text(confusion.p_value)}"
    )


def gate_text(report: DiffReport) -> str:
    """Which paired test decides the verdict, in one line."""
    if gate_unit(report) == "trial":
        return (
            "gate: upstream's exact sign test over trial pairs (--paired-unit trial); "
            "the task-level test is shown for reference"
        )
    return (
        "gate: sign-flip test over tasks (each task's mean change counts once); "
        "the trial-level sign test is shown for reference only"
    )


def _verdict_word(verdict: GateVerdict, style: Styler, evidence: str) -> str:
    """The verdict then its evidence: ``word (evidence)``, or ``word: no evidence (0 tasks)``."""
    word = style("bold", verdict.word) if verdict.distinguishable else verdict.word
    return f"{word}: {evidence}" if verdict.p_value is None else f"{word} ({evidence})"


def _metric_line(label: str, metric: MetricDelta, report: DiffReport, style: Styler) -> str:
    unit = gate_unit(report)
    verdict = metric_verdict(report, metric)
    return (
        f"  {label:<14}{percent(metric.before):>6} -> {percent(metric.after):<6} "
        f"{signed_points(metric.delta):>10}  "
        f"{_verdict_word(verdict, style, evidence_text(unit, metric.paired, metric.by_task))}\n"
        f"  {'':<14}{reference_text(unit, metric.paired, metric.by_task)}"
    )


def _tool_lines(tool: ToolDelta, report: DiffReport) -> list[str]:
    unit = gate_unit(report)
    mark = "*" if metric_verdict(report, tool).distinguishable else " "
    return [
        f"  {mark} {ascii_safe(tool.tool):<28}{percent(tool.before):>6} -> "
        f"{percent(tool.after):<6} {signed_points(tool.delta):>10}  "
        f"{evidence_text(unit, tool.paired, tool.by_task)}",
        f"      {reference_text(unit, tool.paired, tool.by_task)}",
    ]


def _confusion_lines(label: str, confusion: ConfusionDelta, report: DiffReport) -> list[str]:
    unit = gate_unit(report)
    first, second = (ascii_safe(name) for name in confusion.tools)
    verdict = confusion_verdict(unit, confusion)
    word = verdict.word if verdict.distinguishable else f"inconclusive {verdict.label}"
    trial = confusion_trial_text(confusion)
    by_task = task_text(confusion.by_task)
    gated, other = (trial, by_task) if unit == "trial" else (by_task, trial)
    return [
        f"  {label:<9}{first} <-> {second}  swaps {confusion.swaps}/{confusion.denominator}  "
        f"{word} ({gated})",
        f"           {reference_label(unit)}: {other}",
    ]


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
        "Headline (trials paired by task and trial index; distinguishable at p <= 0.05)",
        f"  {gate_text(report)}",
        _metric_line("single-call", report.accuracy, report, style),
        _metric_line("over-trigger", report.over_trigger, report, style),
        _metric_line("multi-call", report.multi_call, report, style),
        f"  {'context':<14}{report.context_tokens.before:>6} -> "
        f"{report.context_tokens.after:<6} {report.context_tokens.delta:>+10} tokens "
        "(reported only)",
        "",
        "Per tool (worst change first; * = distinguishable "
        f"{'by task, Holm-adjusted' if gate_unit(report) == 'task' else 'by trial pair'})",
    ]
    for tool in report.by_tool[:20]:
        lines += _tool_lines(tool, report)
    if len(report.by_tool) > 20:
        lines.append(f"  {len(report.by_tool) - 20} more below.")
    lines += ["", "Confusions"]
    if not report.new_confusions and not report.resolved_confusions:
        lines.append("  No confusion pair appeared or disappeared.")
    for label, items in (("new", report.new_confusions), ("resolved", report.resolved_confusions)):
        for confusion in items:
            lines += _confusion_lines(label, confusion, report)
    lines += ["", "Findings"]
    if not report.diagnostics:
        lines.append("  None.")
    for diagnostic in report.diagnostics:
        tag = style.severity(diagnostic.severity, f"{diagnostic.severity:<7}")
        lines.append(f"  {tag} {diagnostic.code}  {ascii_safe(diagnostic.message)}")
    return "\n".join(lines) + "\n"


def verdict_data(report: DiffReport) -> dict[str, dict[str, object]]:
    """Each headline rate's verdict under the gating test, as plain data for agents."""
    rows = (("accuracy", report.accuracy), ("overTrigger", report.over_trigger))
    data: dict[str, dict[str, object]] = {}
    for key, metric in (*rows, ("multiCall", report.multi_call)):
        verdict = metric_verdict(report, metric)
        data[key] = {
            "unit": verdict.unit,
            "distinguishable": verdict.distinguishable,
            "pValue": verdict.p_value,
            "count": verdict.count,
        }
    return data


def headline_sentence(report: DiffReport) -> str:
    """The accuracy change, the gate's verdict and its evidence, then the reference figure."""
    unit = gate_unit(report)
    metric = report.accuracy
    verdict = metric_verdict(report, metric)
    return (
        f"accuracy {signed_points(metric.delta)}, {verdict.word} "
        f"({evidence_text(unit, metric.paired, metric.by_task)}; "
        f"{reference_text(unit, metric.paired, metric.by_task)})"
    )
