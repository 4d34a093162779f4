"""Golden output of `diff` in every format for two fixed runs (``UPDATE_GOLDEN=1`` rewrites)."""

from __future__ import annotations

import os

import pytest

from tests.support import paths
from tests.support.run_report_factory import Answer, Task, build_run
from whichtool_tui.evaluation.diff import DiffInput, diff_runs
from whichtool_tui.evaluation.diff_model import DiffReport, dump_diff_json
from whichtool_tui.evaluation.reader import parse_run_report
from whichtool_tui.reports.diff_markdown import render_diff_markdown
from whichtool_tui.reports.diff_terminal import render_diff_terminal

GOLDEN = paths.GOLDEN / "diff"
TOOLS = {"list_users": 100, "search_users": 120, "get_user": 80, "delete_user": 70}
TASKS = [
    Task("list", "Show every user", "list_users"),
    Task("find", "Find users named Bob", "search_users"),
    Task("get", "Get user 42", "get_user"),
    Task("drop", "Remove user 7", "delete_user"),
    Task("weather", "Weather in Paris?", None),
]


def fixed_diff() -> DiffReport:
    base_answers: dict[tuple[str, int], Answer] = {("get", 0): ["delete_user"]}
    head_answers: dict[tuple[str, int], Answer] = {
        **{("find", i): ["list_users"] for i in range(7)},
        ("get", 3): ["get_user", "list_users"],
        ("weather", 2): ["get_user"],
        ("drop", 1): "error",
    }
    base = build_run(TOOLS, TASKS, base_answers, 8, seed=5)
    head_tools = {**TOOLS, "get_user": 95}
    head = build_run(head_tools, TASKS, head_answers, 8, seed=5)
    head["reproducibility"]["surfaceHash"] = "sha256:" + "5" * 64  # a new surface
    return diff_runs(
        DiffInput(parse_run_report(base, "runs/base.json"), "runs/base.json"),
        DiffInput(parse_run_report(head, "runs/head.json"), "runs/head.json"),
        max_accuracy_drop=0.05,
        paired_unit="trial",  # upstream's gate: the golden bytes keep upstream's verdict
    )


@pytest.mark.parametrize(
    ("name", "render"),
    [
        ("expected.txt", lambda d: render_diff_terminal(d)),
        ("expected.md", render_diff_markdown),
        ("expected.diff.json", dump_diff_json),
    ],
)
def test_diff_golden(name: str, render: object) -> None:
    assert callable(render)
    text = render(fixed_diff())
    path = GOLDEN / name
    if os.environ.get("UPDATE_GOLDEN"):
        GOLDEN.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")


def test_the_fixed_diff_blocks_for_the_new_confusion_and_the_drop() -> None:
    report = fixed_diff()
    codes = {d.code: d.severity for d in report.diagnostics}
    assert codes["diff/new-confusion"] == "error"
    assert codes["threshold/maxAccuracyDrop"] == "error"
    assert codes["diff/resolved-confusion"] == "info"
    assert "diff/same-surface" not in codes
    assert report.context_tokens.delta == 15
    assert not report.ok
    assert render_diff_terminal(report).isascii()
