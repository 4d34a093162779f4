"""One verdict everywhere: two tasks that flip wholesale (x 3 repeats) are 6 discordant trial
pairs (trial-level p = 0.031) but only 2 tasks (task-level p = 0.5). Every renderer must state
the gate's verdict, and show the trial-level figure only as a labelled reference."""

from __future__ import annotations

import os
import re

import pytest

from tests.support import paths
from tests.support.run_report_factory import Answer, Task, build_run
from whichtool_tui.evaluation.diff import DiffInput, diff_exit_code, diff_runs
from whichtool_tui.evaluation.diff_model import DiffReport, PairedUnit, dump_diff_json
from whichtool_tui.evaluation.reader import parse_run_report
from whichtool_tui.reports.diff_markdown import render_diff_markdown
from whichtool_tui.reports.diff_terminal import render_diff_terminal
from whichtool_tui.server.summaries import diff_summary

GOLDEN = paths.GOLDEN / "diff_flipped"
TOOLS = {f"tool_{letter}": 50 for letter in "abcde"}
TASKS = [Task(f"t{index}", f"Prompt {index}", f"tool_{'abcde'[index // 2]}") for index in range(10)]
REPEAT = 3
ALWAYS_WRONG = ("t3", "t5", "t7", "t9")  # 60% in the base
FLIPPED = ("t0", "t1")  # both of tool_a's tasks: correct in the base, wrong in the head


def _answers(wrong: tuple[str, ...]) -> dict[tuple[str, int], Answer]:
    return {(task, index): [] for task in wrong for index in range(REPEAT)}


def flipped_diff(unit: PairedUnit = "task", max_drop: float | None = None) -> DiffReport:
    base = build_run(TOOLS, TASKS, _answers(ALWAYS_WRONG), REPEAT, seed=3)
    head = build_run(TOOLS, TASKS, _answers(ALWAYS_WRONG + FLIPPED), REPEAT, seed=3)
    return diff_runs(
        DiffInput(parse_run_report(base, "base.json"), "base.json"),
        DiffInput(parse_run_report(head, "head.json"), "head.json"),
        max_accuracy_drop=max_drop,
        paired_unit=unit,
    )


def _summary_text(report: DiffReport) -> str:
    return diff_summary(report)[0] + "\n"


@pytest.mark.parametrize(
    ("name", "render"),
    [
        ("expected.txt", render_diff_terminal),
        ("expected.md", render_diff_markdown),
        ("expected.diff.json", dump_diff_json),
        ("expected.summary.txt", _summary_text),
    ],
)
def test_flipped_golden(name: str, render: object) -> None:
    assert callable(render)
    text = render(flipped_diff())
    path = GOLDEN / name
    if os.environ.get("UPDATE_GOLDEN"):
        GOLDEN.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")


def test_the_two_tests_disagree_and_the_task_level_one_gates() -> None:
    report = flipped_diff(max_drop=0.05)
    assert report.accuracy.paired.p_value == pytest.approx(0.03125)
    assert report.accuracy.distinguishable  # upstream's field keeps upstream's meaning
    assert report.accuracy.by_task is not None
    assert report.accuracy.by_task.p_value == pytest.approx(0.5)
    assert not report.accuracy.by_task.distinguishable
    assert report.ok and diff_exit_code(report) == 0


def _headline(text: str) -> str:
    return next(line for line in text.splitlines() if "single-call" in line.lower())


def test_every_renderer_states_the_task_level_verdict() -> None:
    report = flipped_diff()
    terminal = render_diff_terminal(report)
    assert "not distinguishable by task" in _headline(terminal)
    assert "reference, by trial pair: +0/-6 of 30 paired, p=0.0313" in terminal
    # Neither a bold "yes" nor a bare "distinguishable" verdict anywhere a reader looks.
    markdown = render_diff_markdown(report)
    row = _headline(markdown)
    assert "| not distinguishable by task |" in row and "**" not in row
    assert "p=0.0313" in row  # the trial-level figure, in the reference column only
    assert "| reference, by trial pair |" in markdown
    for text in (terminal, markdown):
        assert not re.search(r"(?<!not )distinguishable by trial pair", text)
        assert "**yes**" not in text
    marks = [line for line in terminal.splitlines() if line.startswith("  * ")]
    assert marks == []  # no per-tool mark: no tool moved by task
    summary = diff_summary(report)
    assert summary[0].startswith("ok: accuracy -20.0 pts, not distinguishable by task")
    assert summary[1]["verdicts"]["accuracy"] == {
        "unit": "task",
        "distinguishable": False,
        "pValue": 0.5,
        "count": 10,
    }
    findings = {d.code: d.message for d in report.diagnostics}
    assert findings["diff/inconclusive"] == (
        "Accuracy moved by -20.0 pts, but the change is not distinguishable from noise "
        "(by task: p = 0.5 over 10 tasks)."
    )


def test_paired_unit_trial_switches_every_verdict_together() -> None:
    report = flipped_diff("trial", max_drop=0.05)
    assert not report.ok
    terminal = render_diff_terminal(report)
    assert "distinguishable by trial pair (+0/-6 of 30 paired, p=0.0313)" in _headline(terminal)
    assert "reference, by task: +0/-2 of 10 tasks" in terminal
    assert "| **distinguishable by trial pair** |" in _headline(render_diff_markdown(report))
    assert diff_summary(report)[0].startswith(
        "REGRESSION: accuracy -20.0 pts, distinguishable by trial pair"
    )
    assert diff_summary(report)[1]["verdicts"]["accuracy"]["unit"] == "trial"
    marks = [line for line in terminal.splitlines() if line.startswith("  * ")]
    assert len(marks) == 1 and "tool_a" in marks[0]  # its 6 lost trial pairs, p = 0.031
    findings = {d.code: d.message for d in report.diagnostics}
    assert findings["threshold/maxAccuracyDrop"].startswith("maxAccuracyDrop: 0.200")
