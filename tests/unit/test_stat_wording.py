"""Honest numbers: changes in points, p-values floored not zeroed, no evidence instead of p = 1,
and intervals too wide to inform shown as "too few tasks"."""

from __future__ import annotations

from tests.support.run_report_factory import Answer, Task, build_run
from whichtool_tui.evaluation.diff import DiffInput, diff_runs
from whichtool_tui.evaluation.diff_model import DiffReport, PairedUnit, TaskPairedComparison
from whichtool_tui.evaluation.diff_verdict import task_verdict
from whichtool_tui.evaluation.reader import parse_run_report
from whichtool_tui.evaluation.report_model import ClusteredRate
from whichtool_tui.evaluation.signtest import sign_test_p_value
from whichtool_tui.evaluation.wording import p_text, signed_points
from whichtool_tui.reports.diff_markdown import render_diff_markdown
from whichtool_tui.reports.diff_terminal import render_diff_terminal, task_text
from whichtool_tui.reports.rates import clustered_interval, paired_summary


def test_p_values_are_floored_never_zero() -> None:
    assert sign_test_p_value(0, 2_000) == 0.0  # underflows in float64
    assert p_text(0.0) == "p < 1e-6"
    assert p_text(3e-7, spaced=True) == "p < 1e-6"
    assert p_text(1e-6) == "p=1e-06"
    assert p_text(0.0625, spaced=True) == "p = 0.0625"
    assert signed_points(-0.2) == "-20.0 pts"


def _nothing_paired() -> TaskPairedComparison:
    return TaskPairedComparison(
        tasks=0,
        improved=0,
        regressed=0,
        unchanged=0,
        mean_delta=None,
        ci95=None,
        p_value=1.0,
        test="sign-flip over tasks, exact",
        distinguishable=False,
    )


def test_nothing_paired_is_no_evidence_not_p_one() -> None:
    empty = _nothing_paired()
    assert task_text(empty) == "no evidence (0 tasks)"
    assert task_verdict(empty).p_value is None
    assert paired_summary(empty) == "no evidence (0 tasks)"
    assert "p = 1" not in paired_summary(empty)


def test_intervals_below_two_effective_observations_say_too_few_tasks() -> None:
    one = ClusteredRate(
        value=0.5, tasks=1, trials=3, design_effect=3, effective_size=1.0, ci95=(0.0, 1.0)
    )
    assert clustered_interval(one) == "too few tasks"
    many = one.model_copy(update={"tasks": 8, "effective_size": 6.0, "ci95": (0.2, 0.8)})
    assert clustered_interval(many) == "20%-80%"


TOOLS = {"alpha_tool": 10, "beta_tool": 10}
TASKS = [Task(f"a{i}", f"Alpha {i}", "alpha_tool") for i in range(30)] + [
    Task("b0", "Beta", "beta_tool")
]


def _all_alpha_lost(unit: PairedUnit) -> DiffReport:
    lost: dict[tuple[str, int], Answer] = {(f"a{i}", j): [] for i in range(30) for j in range(2)}
    base = parse_run_report(build_run(TOOLS, TASKS, {}, 2), "base.json")
    head = parse_run_report(build_run(TOOLS, TASKS, lost, 2), "head.json")
    return diff_runs(DiffInput(base, "base.json"), DiffInput(head, "head.json"), 0.05, unit)


def test_a_tiny_holm_p_is_printed_as_a_floor_and_the_drop_in_points() -> None:
    report = _all_alpha_lost("task")
    alpha = next(tool for tool in report.by_tool if tool.tool == "alpha_tool")
    assert alpha.by_task is not None and alpha.by_task.adjusted_p_value is not None
    assert alpha.by_task.adjusted_p_value < 1e-6
    messages = {d.code: d.message for d in report.diagnostics}
    assert messages["diff/tool-regressed"] == (
        "`alpha_tool` single-call accuracy fell by 100.0 pts per task over 30 tasks "
        "(by task: Holm p < 1e-6, Holm-adjusted over 2 tools)."
    )
    for text in (render_diff_terminal(report), render_diff_markdown(report)):
        assert "p=0 " not in text and "p=0," not in text and "p=0)" not in text
        assert "p < 1e-6" in text
        assert "-100.0 pts" in text
