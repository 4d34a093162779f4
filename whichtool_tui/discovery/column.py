"""Findability per tool in one figure, for a tools table: BM25 found@5 over the tool's tasks."""

from __future__ import annotations

from collections.abc import Sequence

from whichtool_tui.discovery.deferral import predict_deferral
from whichtool_tui.discovery.findability import assess_findability
from whichtool_tui.discovery.lexical import Bm25Retriever
from whichtool_tui.discovery.ranking import DEFAULT_K
from whichtool_tui.evaluation.plan import TaskSpec
from whichtool_tui.surface.model import NormalizedSurface


def found_at_k(
    surface: NormalizedSurface, tasks: Sequence[TaskSpec], total_tokens: int
) -> dict[str, tuple[int, int]]:
    """Per tool with tasks: (tasks whose prompt puts it in BM25's top 5, its task count)."""
    from whichtool_tui.discovery.review import surface_documents

    documents = surface_documents(surface)
    section = assess_findability(
        documents,
        tasks,
        [Bm25Retriever(documents)],
        predict_deferral(total_tokens, len(documents)),
        task_source="",
    )
    return {
        tool.name: (round(tool.found_at["bm25"][f"at{DEFAULT_K}"] * tool.tasks), tool.tasks)
        for tool in section.tools
    }
