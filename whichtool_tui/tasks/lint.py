"""Task-set checks (``tasks lint`` and the check before a run) and the coverage summary.

Errors make a run meaningless (it would measure the wrong thing); warnings and infos change how
much its numbers mean. Surface-dependent checks run only when a surface is given.
"""

from __future__ import annotations

import math
from collections import Counter

from pydantic import Field

from whichtool_tui.diagnostics import Diagnostic
from whichtool_tui.strict_model import StrictModel
from whichtool_tui.tasks.model import TaskSet

MIN_TASKS_PER_TOOL = 3
MIN_DISTRACTOR_SHARE = 0.15
HASH_PREFIX_SHOWN = 19  # "sha256:" plus 12 hex digits


class Coverage(StrictModel):
    """How much of the surface the tasks exercise (``coverage`` in ``whichtool.tasks-lint/1``)."""

    task_count: int = Field(alias="taskCount")
    distractor_count: int = Field(alias="distractorCount")
    tools_on_surface: int = Field(alias="toolsOnSurface")
    tools_covered: int = Field(alias="toolsCovered")
    uncovered_tools: list[str] = Field(alias="uncoveredTools")


def task_coverage(task_set: TaskSet, surface_tools: list[str] | None) -> Coverage:
    """Counts for the report; without a surface every expected tool counts as covered."""
    on_surface = set(surface_tools or [])
    covered = set(task_set.expected_tools())
    return Coverage(
        task_count=len(task_set.tasks),
        distractor_count=task_set.distractor_count,
        tools_on_surface=len(on_surface),
        tools_covered=len(covered if not on_surface else covered & on_surface),
        uncovered_tools=sorted(on_surface - covered),
    )


def lint_ok(diagnostics: list[Diagnostic]) -> bool:
    """A task set is usable when no finding is an error."""
    return not any(diagnostic.severity == "error" for diagnostic in diagnostics)


def _duplicate_ids(task_set: TaskSet) -> list[Diagnostic]:
    positions: dict[str, list[int]] = {}
    for index, task in enumerate(task_set.tasks):
        positions.setdefault(task.id, []).append(index)
    return [
        Diagnostic(
            code="tasks/duplicate-id",
            severity="error",
            message=(
                f"Task id `{task_id}` appears {len(places)} times (positions "
                f"{', '.join(map(str, places))}); trials are matched across runs by id."
            ),
            detail={"id": task_id, "positions": places},
        )
        for task_id, places in positions.items()
        if len(places) > 1
    ]


def _duplicate_prompts(task_set: TaskSet) -> list[Diagnostic]:
    first_by_prompt: dict[str, str] = {}
    found: list[Diagnostic] = []
    for task in task_set.tasks:
        key = task.prompt.strip().lower()
        earlier = first_by_prompt.get(key)
        if earlier is None:
            first_by_prompt[key] = task.id
            continue
        found.append(
            Diagnostic(
                code="tasks/duplicate-prompt",
                severity="warning",
                message=(
                    f"`{task.id}` repeats the prompt of `{earlier}`: the same question counted "
                    "twice weighs the results without adding evidence."
                ),
                detail={"id": task.id, "other": earlier},
            )
        )
    return found


def _surface_checks(
    task_set: TaskSet, tools: set[str], surface_hash: str | None
) -> list[Diagnostic]:
    found = [
        Diagnostic(
            code="tasks/expected-not-on-surface",
            severity="error",
            message=(
                f"`{task.id}` expects `{task.expected}`, which is not on this surface, so the "
                "task cannot be passed."
            ),
            tool=task.expected,
            detail={"id": task.id, "expected": task.expected},
        )
        for task in task_set.tasks
        if task.expected is not None and task.expected not in tools
    ]
    written_for = task_set.surface
    if surface_hash is not None and written_for is not None and written_for != surface_hash:
        found.append(
            Diagnostic(
                code="tasks/surface-changed",
                severity="warning",
                message=(
                    f"The tasks were written for surface {written_for[:HASH_PREFIX_SHOWN]} but "
                    f"the current one is {surface_hash[:HASH_PREFIX_SHOWN]}; check that they "
                    "still describe what the server offers."
                ),
                detail={"taskSetSurface": written_for, "currentSurface": surface_hash},
            )
        )
    uncovered = sorted(tools - set(task_set.expected_tools()))
    if uncovered:
        found.append(
            Diagnostic(
                code="tasks/uncovered-tools",
                severity="warning",
                message=(
                    f"{len(uncovered)} of {len(tools)} tools are expected by no task, so a run "
                    f"cannot tell whether a model finds them: {', '.join(uncovered)}."
                ),
                tools=uncovered,
            )
        )
    return found


def _coverage_checks(task_set: TaskSet) -> list[Diagnostic]:
    found: list[Diagnostic] = []
    per_tool = Counter(task.expected for task in task_set.tasks if task.expected is not None)
    thin = sorted(name for name, count in per_tool.items() if count < MIN_TASKS_PER_TOOL)
    if thin:
        found.append(
            Diagnostic(
                code="tasks/thin-coverage",
                severity="info",
                message=(
                    f"{len(thin)} tools have fewer than {MIN_TASKS_PER_TOOL} tasks, so their "
                    f"accuracy intervals will be too wide to act on: {', '.join(thin)}."
                ),
                tools=thin,
            )
        )
    total = len(task_set.tasks)
    distractors = task_set.distractor_count
    if total and distractors == 0:
        found.append(
            Diagnostic(
                code="tasks/no-distractors",
                severity="warning",
                message=(
                    "No task expects `null`, so the run cannot measure over-triggering (calling "
                    "a tool when none fits)."
                ),
            )
        )
    elif total and distractors / total < MIN_DISTRACTOR_SHARE:
        found.append(
            Diagnostic(
                code="tasks/few-distractors",
                severity="info",
                message=(
                    f"Only {distractors} of {total} tasks are distractors "
                    f"({math.floor(distractors / total * 100 + 0.5)}%), so the over-trigger "
                    "rate rests on a small denominator."
                ),
                detail={"distractors": distractors, "total": total},
            )
        )
    if total == 0:
        found.append(
            Diagnostic(code="tasks/empty", severity="error", message="The task set has no tasks.")
        )
    return found


def lint_task_set(
    task_set: TaskSet, surface_tools: list[str] | None, surface_hash: str | None
) -> list[Diagnostic]:
    """Every §3.3 finding for a task set; pass ``surface_tools=None`` when no surface is known."""
    found = _duplicate_ids(task_set) + _duplicate_prompts(task_set)
    if surface_tools is not None:
        found += _surface_checks(task_set, set(surface_tools), surface_hash)
    found += _coverage_checks(task_set)
    return found
