"""The task-level numbers of a run, worded once for every human report format."""

from __future__ import annotations

from whichtool_tui.evaluation.report_model import ClusteredRate, RunReport
from whichtool_tui.evaluation.wording import p_text
from whichtool_tui.reports.rates import percent

# The headline metrics that carry a task-clustered interval, by their ``metrics`` field name.
CLUSTERED_HEADLINES = ("accuracy", "abstention", "over_trigger", "phantom", "multi_call_rate")
MAX_PASS_HAT_K_ROWS = 10


def clustered_headline(report: RunReport, name: str) -> ClusteredRate | None:
    """The task-clustered version of a headline rate, or None (no such rate, or no block)."""
    if report.statistics is None or name not in CLUSTERED_HEADLINES:
        return None
    rate: ClusteredRate = getattr(report.statistics.rates, name)
    return rate


def clustered_by_tool(report: RunReport) -> dict[str, ClusteredRate]:
    """Each tool's task-clustered single-call accuracy, by tool name."""
    if report.statistics is None:
        return {}
    return {row.tool: row.accuracy for row in report.statistics.rates.by_tool}


def _shown_k(repeat: int) -> list[int]:
    if repeat <= MAX_PASS_HAT_K_ROWS:
        return list(range(1, repeat + 1))
    step = max(1, repeat // (MAX_PASS_HAT_K_ROWS - 1))
    return sorted({1, *range(step, repeat, step), repeat})


def consistency_rows(report: RunReport) -> list[tuple[str, str]]:
    """pass^k for the shown k, then the share of tasks that always gave the same answer."""
    if report.statistics is None:
        return []
    consistency = report.statistics.consistency
    by_k = {row.k: row for row in consistency.pass_hat_k}
    rows = []
    for k in _shown_k(len(consistency.pass_hat_k)):
        row = by_k[k]
        rows.append((f"pass^{k}", f"{percent(row.value)} over {row.tasks} tasks"))
    if consistency.unchanged_share is None:
        rows.append(("unchanged", "n/a (no task has two scored repeats)"))
    else:
        rows.append(
            (
                "unchanged",
                f"{consistency.unchanged_tasks}/{consistency.compared_tasks} tasks "
                f"({percent(consistency.unchanged_share)}) gave the same answer every repeat",
            )
        )
    return rows


def position_test_line(report: RunReport) -> str:
    """The first-position advantage with its interval and p-value, in one sentence."""
    if report.statistics is None:
        return ""
    test = report.statistics.position
    if test.advantage is None:
        return "First-position advantage: not measurable (no task was tried both first and later)."
    interval = ""
    if test.ci95 is not None:
        interval = f", 95% interval {test.ci95[0] * 100:+.0f} to {test.ci95[1] * 100:+.0f} pts"
    verdict = "significant" if test.significant else "not significant"
    p_value = "no p-value" if test.p_value is None else p_text(test.p_value, spaced=True)
    return (
        f"First-position advantage: {test.advantage * 100:+.1f} pts{interval} "
        f"(position permutation within task, {p_value} over {test.tasks} tasks; {verdict})."
    )
