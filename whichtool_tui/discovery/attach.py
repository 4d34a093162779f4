"""Add the findability section to an inspect report, from a task-set file."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from whichtool_tui.evaluation.plan import TaskSpec
from whichtool_tui.surface.listing import ServedListing
from whichtool_tui.surface.report_model import InspectReport

if TYPE_CHECKING:
    from whichtool_tui.config import Settings


def with_findability(
    report: InspectReport,
    listing: ServedListing,
    task_file: str,
    settings: Settings,
    retrievers: Sequence[str] | None = None,
    min_similarity: float | None = None,
) -> InspectReport:
    """The same report with its ``findability`` section for the task set at ``task_file``."""
    from whichtool_tui.discovery.review import review_findability
    from whichtool_tui.gc_phases import paused_gc
    from whichtool_tui.surface.normalize import normalize_surface
    from whichtool_tui.tasks.load import load_task_set, resolve_task_file

    loaded = load_task_set(resolve_task_file(task_file, settings))
    with paused_gc():
        surface = normalize_surface(listing.raw_tools)
    tasks = [
        TaskSpec(id=task.id, prompt=task.prompt, expected=task.expected)
        for task in loaded.task_set.tasks
    ]
    section = review_findability(
        report,
        surface,
        tasks,
        loaded.source,
        retriever_names=retrievers,
        min_similarity=min_similarity,
    )
    return report.model_copy(update={"findability": section})
