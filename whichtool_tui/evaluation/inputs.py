"""From what was loaded (a served listing, a task set) to the engine's RunInputs.

The surface goes through the same normalisation and static review as ``inspect``, so the run
report carries the same token block and the same surface findings.
"""

from __future__ import annotations

from whichtool_tui.diagnostics import Diagnostic
from whichtool_tui.evaluation.engine import RunInputs
from whichtool_tui.evaluation.plan import TaskSpec
from whichtool_tui.evaluation.report_model import ContextCost, TargetRef, Tokenizer, ToolTokens
from whichtool_tui.providers.base import ToolSpec
from whichtool_tui.surface.inspect import inspect_normalized
from whichtool_tui.surface.listing import ServedListing
from whichtool_tui.surface.model import NormalizedSurface
from whichtool_tui.surface.normalize import normalize_surface
from whichtool_tui.surface.report_model import TargetInfo
from whichtool_tui.tasks.lint import lint_task_set
from whichtool_tui.tasks.load import LoadedTaskSet


def normalize_listing(listing: ServedListing) -> NormalizedSurface:
    """Normalise what a target served (tools sorted by name, with their served index)."""
    return normalize_surface(listing.raw_tools)


def lint_for_run(loaded: LoadedTaskSet, surface: NormalizedSurface) -> list[Diagnostic]:
    """The task-set findings against this surface; any error one blocks the run."""
    return lint_task_set(loaded.task_set, [tool.name for tool in surface.tools], surface.hash)


def build_run_inputs(
    listing: ServedListing,
    surface: NormalizedSurface,
    loaded: LoadedTaskSet,
    max_tools: int,
    approximates: str | None = None,
) -> RunInputs:
    """Tools in served order with their wire schemas, the context cost and the selected tasks."""
    review = inspect_normalized(
        surface,
        TargetInfo(transport=listing.transport, ref=listing.ref),
        extra_diagnostics=list(listing.diagnostics),
        max_tools=max_tools,
        approximates=approximates,
    )
    tokens = review.tokens
    served = sorted(surface.tools, key=lambda tool: tool.served_index)
    task_set = loaded.task_set
    return RunInputs(
        target=TargetRef(transport=listing.transport, ref=listing.ref),
        surface_hash=surface.hash,
        tools=tuple(ToolSpec(t.name, t.description, t.input_schema) for t in served),
        schemas={t.name: t.input_schema_resolved for t in served},
        context_cost=ContextCost(
            tokenizer=Tokenizer(
                id=tokens.tokenizer.id,
                exact=tokens.tokenizer.exact,
                approximates=tokens.tokenizer.approximates,
                note=tokens.tokenizer.note,
            ),
            serialization=tokens.serialization,
            total=tokens.total,
            by_tool={
                name: ToolTokens(
                    total=item.total,
                    name=item.name,
                    description=item.description,
                    schema_=item.schema_,
                    envelope=item.envelope,
                )
                for name, item in tokens.by_tool.items()
            },
        ),
        tasks=tuple(
            TaskSpec(task.id, task.prompt, task.expected, tuple(task.tags))
            for task in task_set.tasks
        ),
        task_set_version=task_set.version,
        task_set_source=loaded.source,
        task_set_surface=task_set.surface,
        surface_diagnostics=tuple(review.diagnostics),
    )
