"""Task-set lint rules (reference §3.3) and the coverage block, with and without a surface."""

from __future__ import annotations

from whichtool_tui.diagnostics import Diagnostic
from whichtool_tui.tasks.lint import lint_ok, lint_task_set, task_coverage
from whichtool_tui.tasks.model import Task, TaskSet

TOOLS = ["get_ticket", "list_invoices", "refund_order"]
HASH = "sha256:" + "1" * 64


def task(task_id: str, expected: str | None, prompt: str | None = None) -> Task:
    return Task(id=task_id, prompt=prompt or f"prompt of {task_id}", expected=expected)


def codes(found: list[Diagnostic]) -> dict[str, str]:
    return {diagnostic.code: diagnostic.severity for diagnostic in found}


def healthy() -> list[Task]:
    tasks = [task(f"{tool}.{n}", tool) for tool in TOOLS for n in range(3)]
    return [*tasks, task("d1", None), task("d2", None)]


def test_a_healthy_set_has_no_findings() -> None:
    task_set = TaskSet(version=1, surface=HASH, tasks=healthy())
    assert lint_task_set(task_set, TOOLS, HASH) == []
    assert lint_task_set(task_set, None, None) == []


def test_duplicate_id_is_an_error_with_positions() -> None:
    task_set = TaskSet(version=1, tasks=[*healthy(), task("d1", None, "another")])
    found = [d for d in lint_task_set(task_set, None, None) if d.code == "tasks/duplicate-id"]
    assert len(found) == 1
    assert found[0].severity == "error"
    assert found[0].detail == {"id": "d1", "positions": [9, 11]}
    assert not lint_ok(found)


def test_duplicate_prompt_compares_trimmed_and_case_folded() -> None:
    tasks = [*healthy(), task("d3", None, "  PROMPT OF D1 ")]
    found = lint_task_set(TaskSet(version=1, tasks=tasks), None, None)
    duplicate = [d for d in found if d.code == "tasks/duplicate-prompt"]
    assert [d.detail for d in duplicate] == [{"id": "d3", "other": "d1"}]
    assert duplicate[0].severity == "warning"
    assert lint_ok(found)


def test_surface_checks_only_with_a_surface() -> None:
    tasks = [*healthy(), task("ghost.1", "delete_everything")]
    task_set = TaskSet(version=1, surface="sha256:" + "0" * 64, tasks=tasks)
    without = codes(lint_task_set(task_set, None, None))
    assert "tasks/expected-not-on-surface" not in without
    assert "tasks/surface-changed" not in without
    with_surface = lint_task_set(task_set, TOOLS, HASH)
    assert codes(with_surface)["tasks/expected-not-on-surface"] == "error"
    assert codes(with_surface)["tasks/surface-changed"] == "warning"
    changed = next(d for d in with_surface if d.code == "tasks/surface-changed")
    assert "sha256:000000000000 " in changed.message
    assert "sha256:111111111111;" in changed.message
    assert not lint_ok(with_surface)


def test_surface_changed_needs_a_recorded_hash() -> None:
    task_set = TaskSet(version=1, surface=None, tasks=healthy())
    assert lint_task_set(task_set, TOOLS, HASH) == []


def test_uncovered_and_thin_tools() -> None:
    tasks = [task("a.1", "get_ticket"), task("b.1", "list_invoices"), task("d", None)]
    found = lint_task_set(TaskSet(version=1, tasks=tasks), TOOLS, HASH)
    uncovered = next(d for d in found if d.code == "tasks/uncovered-tools")
    assert uncovered.severity == "warning" and uncovered.tools == ["refund_order"]
    thin = next(d for d in found if d.code == "tasks/thin-coverage")
    assert thin.severity == "info" and thin.tools == ["get_ticket", "list_invoices"]
    coverage = task_coverage(TaskSet(version=1, tasks=tasks), TOOLS)
    assert coverage.model_dump(by_alias=True) == {
        "taskCount": 3,
        "distractorCount": 1,
        "toolsOnSurface": 3,
        "toolsCovered": 2,
        "uncoveredTools": ["refund_order"],
    }


def test_coverage_without_surface_counts_every_expected_tool() -> None:
    tasks = [task("a", "x"), task("b", "y"), task("c", "y")]
    coverage = task_coverage(TaskSet(version=1, tasks=tasks), None)
    assert (coverage.tools_on_surface, coverage.tools_covered) == (0, 2)
    assert coverage.uncovered_tools == []


def test_distractor_share_rules() -> None:
    no_distractors = [task(f"{tool}.{n}", tool) for tool in TOOLS for n in range(3)]
    found = codes(lint_task_set(TaskSet(version=1, tasks=no_distractors), None, None))
    assert found == {"tasks/no-distractors": "warning"}
    # 1 of 7 = 14.3% < 15%: info, percentage rounded half up
    few = [*[task(f"a{n}", "x") for n in range(3)], *[task(f"b{n}", "y") for n in range(3)]]
    few_found = lint_task_set(TaskSet(version=1, tasks=[*few, task("d", None)]), None, None)
    few_distractors = next(d for d in few_found if d.code == "tasks/few-distractors")
    assert few_distractors.detail == {"distractors": 1, "total": 7}
    assert "(14%)" in few_distractors.message
    # 1 of 8 = 12.5% rounds half up to 13%
    eight = [*few, task("c", "x"), task("d", None)]
    eight_found = lint_task_set(TaskSet(version=1, tasks=eight), None, None)
    assert "(13%)" in next(d for d in eight_found if d.code == "tasks/few-distractors").message
    # exactly 15%: no finding
    share = [*[task(f"t{n}", "x") for n in range(17)], *[task(f"d{n}", None) for n in range(3)]]
    assert lint_task_set(TaskSet(version=1, tasks=share), None, None) == []


def test_empty_set_is_an_error_and_nothing_else() -> None:
    found = lint_task_set(TaskSet(version=1, tasks=[]), None, None)
    assert codes(found) == {"tasks/empty": "error"}
    assert not lint_ok(found)
