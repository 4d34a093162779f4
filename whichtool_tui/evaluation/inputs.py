"""From what was loaded (a served listing, a task set) to the engine's RunInputs.

The surface goes through the same normalisation and token count as ``inspect``, so the run
report carries the same token block; the full static review runs only where the contract folds
its findings into the run (the MCP server).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from whichtool_tui.diagnostics import Diagnostic
from whichtool_tui.discovery.documents import surface_documents
from whichtool_tui.evaluation.engine import RunInputs
from whichtool_tui.evaluation.plan import TaskSpec
from whichtool_tui.evaluation.report_model import ContextCost, TargetRef, Tokenizer, ToolTokens
from whichtool_tui.providers.base import ToolSpec
from whichtool_tui.surface.inspect import inspect_normalized, surface_token_counts
from whichtool_tui.surface.listing import ServedListing
from whichtool_tui.surface.model import NormalizedSurface
from whichtool_tui.surface.normalize import normalize_surface
from whichtool_tui.surface.report_model import TargetInfo
from whichtool_tui.surface.tokens import SERIALIZATION, TOKENIZER_ID, TOKENIZER_NOTE
from whichtool_tui.tasks.lint import lint_task_set
from whichtool_tui.tasks.load import LoadedTaskSet

if TYPE_CHECKING:
    from whichtool_tui.surface.rule_settings import RuleSetting


def normalize_listing(listing: ServedListing) -> NormalizedSurface:
    """Normalise what a target served (tools sorted by name, with their served index)."""
    return normalize_surface(listing.raw_tools)


def lint_for_run(loaded: LoadedTaskSet, surface: NormalizedSurface) -> list[Diagnostic]:
    """The task-set findings against this surface; any error one blocks the run."""
    return lint_task_set(loaded.task_set, [tool.name for tool in surface.tools], surface.hash)


def _context_cost(surface: NormalizedSurface, approximates: str | None) -> ContextCost:
    """The inspect token block, from the token counts alone (no static review needed)."""
    counts = surface_token_counts(surface)
    return ContextCost(
        tokenizer=Tokenizer(
            id=TOKENIZER_ID, exact=False, approximates=approximates, note=TOKENIZER_NOTE
        ),
        serialization=SERIALIZATION,
        total=sum(item.total for item in counts.values()),
        by_tool={
            name: ToolTokens(
                total=item.total,
                name=item.name,
                description=item.description,
                schema_=item.schema,
                envelope=item.envelope,
            )
            for name, item in counts.items()
        },
    )


def _surface_diagnostics(
    listing: ServedListing,
    surface: NormalizedSurface,
    max_tools: int,
    approximates: str | None,
    full_review: bool,
    rules: Mapping[str, RuleSetting] | None,
) -> list[Diagnostic]:
    if not full_review:
        return [*listing.diagnostics, *surface.diagnostics]
    review = inspect_normalized(
        surface,
        TargetInfo(transport=listing.transport, ref=listing.ref),
        extra_diagnostics=list(listing.diagnostics),
        max_tools=max_tools,
        approximates=approximates,
        rules=rules,
    )
    return list(review.diagnostics)


def build_run_inputs(
    listing: ServedListing,
    surface: NormalizedSurface,
    loaded: LoadedTaskSet,
    max_tools: int,
    approximates: str | None = None,
    *,
    full_review: bool = False,
    rules: Mapping[str, RuleSetting] | None = None,
    before_review: Callable[[RunInputs], None] | None = None,
) -> RunInputs:
    """Tools in served order with their wire schemas, the context cost and the selected tasks.

    The command line folds only what listing and normalising noticed into the run; the MCP
    server's run passes ``full_review`` to fold every inspect finding into the run, so an
    error-level static finding fails that run. ``before_review`` sees the inputs before that
    review runs (budgets are refused there: the review of a large surface is the costly part).
    """
    served = sorted(surface.tools, key=lambda tool: tool.served_index)
    task_set = loaded.task_set
    draft = RunInputs(
        target=TargetRef(transport=listing.transport, ref=listing.ref),
        surface_hash=surface.hash,
        tools=tuple(ToolSpec(t.name, t.description, t.input_schema) for t in served),
        schemas={t.name: t.input_schema_resolved for t in served},
        context_cost=_context_cost(surface, approximates),
        tasks=tuple(
            TaskSpec(task.id, task.prompt, task.expected, tuple(task.tags))
            for task in task_set.tasks
        ),
        task_set_version=task_set.version,
        task_set_source=loaded.source,
        task_set_surface=task_set.surface,
        surface_diagnostics=(*listing.diagnostics, *surface.diagnostics),
        search_documents=surface_documents(served),
    )
    if before_review is not None:
        before_review(draft)
    if not full_review:
        return draft
    return dataclasses.replace(
        draft,
        surface_diagnostics=tuple(
            _surface_diagnostics(listing, surface, max_tools, approximates, full_review, rules)
        ),
    )
