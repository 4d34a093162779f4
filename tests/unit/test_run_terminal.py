"""The terminal report of the hand-counted scenario: sections, rates, matrix and thresholds."""

from __future__ import annotations

from tests.support.scenario import run_scenario
from whichtool_tui.evaluation.report_model import RunReport
from whichtool_tui.reports.run_terminal import render_run_terminal


async def test_terminal_report_of_the_scenario() -> None:
    report = RunReport.model_validate(await run_scenario())
    text = render_run_terminal(report)
    lines = text.splitlines()
    assert text.isascii() and "\x1b[" not in text
    assert "status: FAILED (1 error diagnostics)" in lines
    # Wilson over trials first, then the task-clustered interval and the tasks behind it.
    single = next(line for line in lines if line.startswith("  single-call "))
    assert single.startswith("  single-call   2/6  33%  [10%-70%]  by task [")
    assert single.endswith(" tasks")
    over = next(line for line in lines if line.startswith("  over-trigger "))
    assert over.startswith("  over-trigger  1/3  33%  [6%-79%]  by task [")
    assert any(line.startswith("  pass^1 ") for line in lines)
    assert "  errors        1/10 (excluded from every rate above)" in lines
    assert "  read_file       .   1   1   .   .   ." in lines
    assert "  (none)          .   1   .   2   .   ." in lines
    assert "  FAIL minAccuracy 0.333 / 0.5" in lines
    assert "  pass maxOverTrigger 0.333 / 0.5" in lines
    assert lines[lines.index("Worst first") + 1].startswith("  error threshold/minAccuracy:")
    assert "  4 more below." in lines
    coloured = render_run_terminal(report, color=True)
    assert "\x1b[31mFAIL\x1b[0m" in coloured and "\x1b[32mpass\x1b[0m" in coloured
