"""How a rate is written in human reports: ``k/n  P%  [lo%-hi%]`` or ``n/a (0 trials)``."""

from __future__ import annotations

from whichtool_tui.evaluation.diff_model import TaskPairedComparison
from whichtool_tui.evaluation.report_model import ClusteredRate
from whichtool_tui.evaluation.stats import Proportion
from whichtool_tui.evaluation.wording import (
    MIN_EFFECTIVE_SIZE,
    TOO_FEW_TASKS,
    no_evidence,
    p_text,
    signed_points,
)


def percent(value: float | None, digits: int = 0) -> str:
    """A fraction as a percentage string, or ``n/a`` when unmeasured."""
    if value is None:
        return "n/a"
    return f"{value * 100:.{digits}f}%"


def interval(rate: Proportion) -> str:
    """The Wilson interval as ``lo%-hi%``, or an empty string when unmeasured."""
    if rate.ci95 is None:
        return ""
    low, high = rate.ci95
    return f"{percent(low)}-{percent(high)}"


def format_proportion(rate: Proportion) -> str:
    """``k/n  P%  [lo%-hi%]``, or ``n/a (0 trials)`` when nothing was measured."""
    if rate.denominator == 0 or rate.value is None:
        return "n/a (0 trials)"
    return f"{rate.numerator}/{rate.denominator}  {percent(rate.value)}  [{interval(rate)}]"


def format_proportion_compact(rate: Proportion) -> str:
    """``0.82 [0.70–0.90] (9/11)``, or ``n/a`` when nothing was measured: the narrow form the
    TUI's tables and ``open --no-ui`` use."""
    if rate.value is None:
        return "n/a"
    text = f"{rate.value:.2f}"
    if rate.ci95 is not None:
        low, high = rate.ci95
        text += f" [{low:.2f}–{high:.2f}]"
    return text + f" ({rate.numerator}/{rate.denominator})"


def clustered_interval(rate: ClusteredRate | None) -> str:
    """The task-clustered interval as ``lo%-hi%``; ``too few tasks`` when its effective size is
    below 2 (the range would only restate that nothing is known); empty when unmeasured."""
    if rate is None or rate.ci95 is None:
        return ""
    if rate.effective_size is not None and rate.effective_size < MIN_EFFECTIVE_SIZE:
        return TOO_FEW_TASKS
    low, high = rate.ci95
    return f"{percent(low)}-{percent(high)}"


def format_clustered(rate: ClusteredRate | None) -> str:
    """``by task [lo%-hi%] over T tasks``, or an empty string when there is nothing to show."""
    if rate is None or rate.ci95 is None:
        return ""
    noun = "task" if rate.tasks == 1 else "tasks"
    return f"by task [{clustered_interval(rate)}] over {rate.tasks} {noun}"


def paired_summary(paired: TaskPairedComparison) -> str:
    """A task-level paired comparison in one line: counts, mean change, interval, p, verdict."""
    if paired.tasks == 0:
        return no_evidence()
    mean = signed_points(paired.mean_delta)
    interval = ""
    if paired.ci95 is not None:
        low, high = (signed_points(bound).removesuffix(" pts") for bound in paired.ci95)
        interval = f", 95% CI [{low}, {high}] pts"
    verdict = "distinguishable" if paired.distinguishable else "not distinguishable"
    return (
        f"{paired.tasks} tasks: {paired.improved} improved, {paired.regressed} regressed, "
        f"{paired.unchanged} unchanged; mean change {mean}{interval}; "
        f"{p_text(paired.p_value, spaced=True)} ({verdict})"
    )
