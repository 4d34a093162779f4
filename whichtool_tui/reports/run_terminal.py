"""The terminal report of a routing run: plain ASCII sections, colour only when asked."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from whichtool_tui.evaluation.confusion import DISTRACTOR_ROW, GRID_LEGEND, OUTCOME_COLUMNS
from whichtool_tui.evaluation.engine import PreparedRun
from whichtool_tui.evaluation.plan import ABSOLUTE_MAX_TRIALS
from whichtool_tui.evaluation.power import PowerPlan
from whichtool_tui.evaluation.power_text import power_lines
from whichtool_tui.evaluation.report_model import PacingBlock, ReportDiagnostic, RunReport
from whichtool_tui.providers.presets import BASELINE_PROVIDERS
from whichtool_tui.reports.plain_text import Styler
from whichtool_tui.reports.rates import format_clustered, format_proportion, percent
from whichtool_tui.reports.run_statistics import (
    clustered_by_tool,
    clustered_headline,
    consistency_rows,
    position_test_line,
)
from whichtool_tui.surface.model import short_hash
from whichtool_tui.text_safety import ascii_safe

MAX_TOOL_ROWS = 20
MAX_MATRIX_COLUMNS = 12
WORST_FIRST = 3
_SPECIAL_COLUMNS = tuple((column.key, column.mark) for column in OUTCOME_COLUMNS)


def _status(report: RunReport, style: Styler) -> str:
    execution = report.execution
    if not execution.ok:
        unavailable = percent(execution.error_rate.value)
        return style(
            "red",
            f"INVALID ({execution.scored}/{execution.planned} scored; {unavailable} unavailable, "
            f"max {percent(execution.max_error_rate)})",
        )
    errors = sum(1 for d in report.diagnostics if d.severity == "error")
    if errors:
        return style("red", f"FAILED ({errors} error diagnostics)")
    return style("green", f"valid ({execution.scored}/{execution.planned} scored)")


def _diagnostic_line(diagnostic: ReportDiagnostic, style: Styler) -> str:
    label = style.severity(diagnostic.severity, diagnostic.severity)
    return f"  {label} {diagnostic.code}: {ascii_safe(diagnostic.message)}"


def _header(report: RunReport) -> list[str]:
    rep = report.reproducibility
    tokens = report.context_cost
    model = (
        f"{rep.model} ({rep.provider} baseline, not a model)"
        if rep.provider in BASELINE_PROVIDERS
        else rep.model
    )
    return [
        "whichtool-tui run",
        f"  target       {report.target.transport} {ascii_safe(report.target.ref)}",
        f"  surface      {short_hash(rep.surface_hash)}  {len(report.metrics.by_tool)} tools  "
        f"~{tokens.total} tokens (estimate, {tokens.tokenizer.id})",
        f"  provider     {ascii_safe(rep.provider)}  model {ascii_safe(model)}",
        f"  endpoint     {ascii_safe(rep.endpoint or '(none)')}",
        f"  trials       {report.execution.planned} = {report.tasks.selected} tasks x "
        f"{rep.repeat} repeats",
        f"  permuted     {'yes' if rep.permuted else 'no'}  temperature {rep.temperature:g}  "
        f"seed {rep.seed}  {report.duration_ms / 1000:.1f}s",
    ]


def _rates(report: RunReport) -> list[str]:
    metrics = report.metrics
    rows = [
        ("single-call", "accuracy"),
        ("abstention", "abstention"),
        ("over-trigger", "over_trigger"),
        ("phantom", "phantom"),
        ("multi-call", "multi_call_rate"),
        ("clarified", "clarification"),
    ]
    lines = ["Accuracy"]
    for label, name in rows:
        clustered = format_clustered(clustered_headline(report, name))
        text = f"  {label:<14}{format_proportion(getattr(metrics, name))}"
        lines.append(f"{text}  {clustered}" if clustered else text)
    lines.append(
        f"  {'errors':<14}{metrics.trials.errored}/{metrics.trials.planned} "
        "(excluded from every rate above)"
    )
    return lines


def _per_tool(report: RunReport) -> list[str]:
    rows = report.metrics.by_tool
    clustered = clustered_by_tool(report)
    lines = ["Per tool (worst first)"]
    for tool in rows[:MAX_TOOL_ROWS]:
        confused = ", ".join(f"{ascii_safe(c.tool)} x{c.count}" for c in tool.confused_with[:3])
        args_ok = format_proportion(tool.argument_accuracy)
        by_task = format_clustered(clustered.get(tool.tool))
        lines.append(f"  {ascii_safe(tool.tool)}")
        lines.append(
            f"    single-call {format_proportion(tool.accuracy)}"
            + (f" {by_task}" if by_task else "")
            + f"; args ok {args_ok}; ~{tool.context_tokens} tokens"
        )
        if confused:
            lines.append(f"    confused with {confused}")
    if len(rows) > MAX_TOOL_ROWS:
        lines.append(f"  {len(rows) - MAX_TOOL_ROWS} more tools not shown.")
    return lines


def _matrix(report: RunReport) -> list[str]:
    matrix = report.metrics.confusion_matrix
    if not matrix:
        return ["Confusion matrix", "  No scored trials."]
    tools = [
        t.tool
        for t in report.metrics.by_tool
        if t.tool in matrix or any(t.tool in row for row in matrix.values())
    ]
    tools = sorted(tools)[:MAX_MATRIX_COLUMNS]
    columns = [(name, str(index + 1)) for index, name in enumerate(tools)]
    columns += list(_SPECIAL_COLUMNS)
    rows = sorted(k for k in matrix if k != DISTRACTOR_ROW)
    rows += [DISTRACTOR_ROW] if DISTRACTOR_ROW in matrix else []
    lines = ["Confusion matrix (rows: expected, columns: picked)"]
    lines += [f"  {label:>3} = {ascii_safe(name)}" for name, label in columns[: len(tools)]]
    lines.append(f"    {GRID_LEGEND}")
    width = max(4, *(len(str(v)) + 1 for row in matrix.values() for v in row.values()))
    row_width = min(28, max(len(ascii_safe(r)) for r in rows) + 2)
    header = " " * (row_width + 2) + "".join(label.rjust(width) for _, label in columns)
    lines.append(header)
    for row in rows:
        cells = "".join(
            (str(matrix[row].get(name, 0)) if matrix[row].get(name) else ".").rjust(width)
            for name, _ in columns
        )
        lines.append(f"  {ascii_safe(row)[:row_width]:<{row_width}}{cells}")
    return lines


def _pairs(report: RunReport) -> list[str]:
    pairs = report.metrics.confusion_pairs
    if not pairs:
        return ["Confusion pairs", "  None: no tool was picked in place of another."]
    lines = ["Confusion pairs"]
    for pair in pairs:
        first, second = (ascii_safe(name) for name in pair.tools)
        lines.append(
            f"  {pair.swaps} swaps  {first} <-> {second}  rate {percent(pair.rate.value)}  "
            f"({first} for {second}: {pair.a_chosen_when_b_expected}, "
            f"{second} for {first}: {pair.b_chosen_when_a_expected})"
        )
    return lines


def _position(report: RunReport) -> list[str]:
    position = report.metrics.position
    lines = ["Position sensitivity"]
    if position.spread is None:
        lines.append(
            "  Not measurable: no task was tried with its expected tool at two or more positions."
        )
    else:
        lines.append(
            f"  spread {percent(position.spread)} (mean best-minus-worst position within a task, "
            f"{position.comparable_tasks} tasks)"
        )
    for bucket in position.buckets:
        lines.append(f"  position {bucket.position + 1:>3}  {format_proportion(bucket.accuracy)}")
    tested = position_test_line(report)
    if tested:
        lines.append(f"  {tested}")
    return lines


def _consistency(report: RunReport) -> list[str]:
    rows = consistency_rows(report)
    if not rows:
        return []
    lines = ["Consistency (pass^k: all k repeats of a task right, averaged over tasks)"]
    lines += [f"  {label:<14}{value}" for label, value in rows]
    return lines


def _thresholds(report: RunReport, style: Styler) -> list[str]:
    lines = ["Thresholds"]
    if not report.thresholds:
        return [*lines, "  None configured."]
    for result in report.thresholds:
        mark = style("green", "pass") if result.ok else style("red", "FAIL")
        lines.append(f"  {mark} {result.name} {result.actual:.3f} / {result.limit:g}")
    return lines


def pacing_text(pacing: PacingBlock) -> str:
    """One line: what rate limits did to the run's concurrency."""
    return (
        f"rate limits: {pacing.rate_limit_waits} wait(s); concurrency cut to "
        f"{pacing.lowest_concurrency} of {pacing.max_concurrency}, settled at "
        f"{pacing.settled_concurrency}"
    )


def render_run_terminal(report: RunReport, color: bool = False) -> str:
    """Every section of the run report as ASCII text, ending with a newline."""
    style = Styler(color)
    loud = [d for d in report.diagnostics if d.severity != "info"]
    sections: list[list[str]] = [
        _header(report),
        [f"status: {_status(report, style)}"],
    ]
    if loud:
        worst = ["Worst first", *(_diagnostic_line(d, style) for d in loud[:WORST_FIRST])]
        if len(loud) > WORST_FIRST:
            worst.append(f"  {len(loud) - WORST_FIRST} more below.")
        sections.append(worst)
    sections += [_rates(report), _per_tool(report)]
    consistency = _consistency(report)
    if consistency:
        sections.append(consistency)
    sections += [_matrix(report), _pairs(report), _position(report)]
    if report.discovery is not None:
        from whichtool_tui.reports.discovery_run import discovery_terminal_lines

        sections.append(discovery_terminal_lines(report.discovery))
    if report.batch is not None:
        from whichtool_tui.reports.batch_price import batch_terminal_lines

        sections.append(batch_terminal_lines(report, report.batch))
    if report.pacing is not None:
        sections.append(["Pacing", f"  {pacing_text(report.pacing)}"])
    findings = ["Findings"]
    findings += [_diagnostic_line(d, style) for d in report.diagnostics] or ["  None."]
    sections += [findings, _thresholds(report, style)]
    sections.append(
        [
            "Calls were recorded, never executed. Rates are over scored trials with Wilson 95% "
            "intervals (by task: 95% intervals with the task as the unit); token counts are "
            "estimates."
        ]
    )
    return "\n\n".join("\n".join(section) for section in sections) + "\n"


def render_dry_run(
    prepared: PreparedRun,
    tool_count: int,
    max_trials: int,
    max_tools: int,
    task_source: str,
    destination: str | None = None,
    power: PowerPlan | None = None,
    extra_rows: Sequence[tuple[str, str]] = (),
    sources: Mapping[str, str] | None = None,
) -> str:
    """The labelled plan of a dry run: size, prompt-token floor, limits, wall clock, endpoint.

    ``sources`` (the options' per-field sources) marks a limit a config file set, ``(config)``:
    the limits are what a person raises or not, and a discovered config may have set them.
    """
    said = sources or {}

    def marked(name: str) -> str:
        return "config; " if said.get(name) == "config" else ""

    plan = prepared.plan
    estimate = prepared.estimate
    if prepared.within_trial_limit:
        real_run = "within the configured trial limit"
    else:
        real_run = f"BLOCKED until --max-trials is raised to at least {plan.planned}"
        if plan.planned > ABSOLUTE_MAX_TRIALS:
            real_run = (
                f"BLOCKED: {plan.planned} trials exceed the hard maximum of "
                f"{ABSOLUTE_MAX_TRIALS}; select fewer tasks or lower --repeat"
            )
    if prepared.within_tool_limit:
        tool_check = "within the limit"
    else:
        tool_check = f"BLOCKED until --max-tools is raised to at least {tool_count}"
    if estimate.seconds_per_trial is None or estimate.estimated_seconds is None:
        wall_clock = "unknown (pass --seconds-per-trial to estimate)"
    else:
        minutes = math.ceil(estimate.estimated_seconds / 60)
        wall_clock = f"~{minutes} min at {estimate.seconds_per_trial:g}s per trial"
    rows = [
        ("tasks", f"{len(plan.selected)} of {plan.tasks_in_file} in {ascii_safe(task_source)}"),
        ("trials", f"{plan.planned} = {len(plan.selected)} tasks x {plan.repeat} repeats"),
        (
            "prompt floor",
            f"~{estimate.prompt_tokens_per_trial:,} tokens per trial (surface "
            f"{estimate.surface_tokens:,} + task text {estimate.task_text_tokens:,})",
        ),
        (
            "cold total",
            f"~{estimate.prompt_tokens_total:,} prompt tokens at concurrency "
            f"{estimate.concurrency}",
        ),
        (
            "safety limit",
            f"{max_trials} trials ({marked('max_trials')}hard maximum {ABSOLUTE_MAX_TRIALS})",
        ),
        ("real run", real_run),
        ("tool limit", f"{max_tools} tools ({marked('max_tools')}the surface has {tool_count})"),
        ("tool check", tool_check),
        ("wall clock", wall_clock),
    ]
    if destination is not None:
        rows.append(("endpoint", ascii_safe(destination)))
    rows += extra_rows
    if power is not None:
        rows += [
            ("power" if index == 0 else "", ascii_safe(line))
            for index, line in enumerate(power_lines(power))
        ]
    lines = ["whichtool-tui run --dry-run"]
    lines += [f"  {label:<14}{value}" for label, value in rows]
    lines.append(
        "Prompt tokens are a lower bound: output and reasoning tokens are extra; only a "
        "rate-limited request (429) is sent again. No model was called."
    )
    return "\n".join(lines) + "\n"
