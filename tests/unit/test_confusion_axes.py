"""The confusion matrix's axes and outcome names are decided once (evaluation/confusion.py) and
every view uses them: the Markdown and HTML reports, the terminal grid and the heatmaps."""

from __future__ import annotations

from whichtool_tui.evaluation.confusion import (
    DISTRACTOR_LABEL,
    OUTCOME_KEYS,
    column_word,
    confusion_axes,
    row_label,
)
from whichtool_tui.evaluation.metrics import MULTIPLE_KEY, NONE_KEY, PHANTOM_KEY


def test_axes_put_tools_in_name_order_then_the_outcomes() -> None:
    axes = confusion_axes(["search", "fetch", "delete"])
    assert axes.rows == ["delete", "fetch", "search", NONE_KEY]
    assert axes.columns == ["delete", "fetch", "search", NONE_KEY, PHANTOM_KEY, MULTIPLE_KEY]
    assert OUTCOME_KEYS == (NONE_KEY, PHANTOM_KEY, MULTIPLE_KEY)


def test_labels_name_outcomes_and_leave_tools_alone() -> None:
    assert row_label(NONE_KEY) == DISTRACTOR_LABEL
    assert row_label("fetch") == "fetch"
    assert [column_word(key) for key in OUTCOME_KEYS] == ["no call", "phantom", "multiple"]
    assert column_word("fetch") == "fetch"


def test_the_ui_and_the_reports_read_the_same_axes() -> None:
    from tests.support.run_report_factory import demo_run
    from whichtool_tui.evaluation.reader import parse_run_report
    from whichtool_tui.reports.run_markdown import render_run_markdown
    from whichtool_tui.ui.screens.results import matrix_axes

    report = parse_run_report(demo_run(), "demo.json")
    axes = confusion_axes(tool.tool for tool in report.metrics.by_tool)
    assert matrix_axes(report) == (axes.rows, axes.columns)
    # The Markdown grid names the outcome columns and the distractor row the same way.
    markdown = render_run_markdown(report)
    assert "| no call |" in markdown or "| no call" in markdown
    assert f"| {DISTRACTOR_LABEL} |" in markdown
