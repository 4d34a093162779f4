"""A second, independent router: a rewrite the measuring provider accepts must not get worse
for routers that did not choose it.

A rule rewrite that quotes a tuning prompt can win the keyword router over by its words alone;
it then helps that router and nobody else. Before a candidate is accepted, the held-out prompts
are ranked by a host's tool search (a search profile: found within its k) and, when the
``embedding`` extra is installed and the measuring provider is not that baseline itself, by the
embedding router (its pick above the similarity floor). Either one doing worse vetoes it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from whichtool_tui.discovery.documents import surface_documents
from whichtool_tui.evaluation.inputs import normalize_listing
from whichtool_tui.evaluation.plan import TaskSpec
from whichtool_tui.surface.listing import ServedListing

EMBEDDING_ROUTER = "embedding"


@dataclass(frozen=True)
class RouterScore:
    """How many held-out prompts one router gets right on one surface."""

    router: str
    right: int
    tasks: int


def _documents(raw_tools: Sequence[Any]) -> Any:
    listing = ServedListing(transport="snapshot", ref="", raw_tools=list(raw_tools))
    return surface_documents(normalize_listing(listing).tools)


def router_scores(
    raw_tools: Sequence[Any],
    tasks: Sequence[TaskSpec],
    retriever: str,
    embedding: bool,
    min_similarity: float,
) -> list[RouterScore]:
    """Held-out prompts found by the search profile within its k, and picked by the embedding
    router (when asked), on one surface."""
    from whichtool_tui.discovery.profiles import profile_named
    from whichtool_tui.discovery.review import build_retriever

    targeted = [task for task in tasks if task.expected is not None]
    documents = _documents(raw_tools)
    search = build_retriever(documents, retriever, min_similarity)
    k = profile_named(retriever).top_k
    found = sum(1 for task in targeted if task.expected in search.search(task.prompt).top(k))
    scores = [RouterScore(f"{retriever} search (k {k})", found, len(targeted))]
    if embedding:
        semantic = build_retriever(documents, "semantic", min_similarity)
        picked = 0
        for task in targeted:
            ranking = semantic.search(task.prompt)
            if ranking.confident and ranking.top(1) == (task.expected,):
                picked += 1
        scores.append(RouterScore(EMBEDDING_ROUTER, picked, len(targeted)))
    return scores


def veto_reason(before: Sequence[RouterScore], after: Sequence[RouterScore]) -> str | None:
    """Why the second routers refuse the rewrite (one clause per router that got worse)."""
    worse = [
        f"{old.router} fell from {old.right} to {new.right} of {old.tasks} held-out prompts"
        for old, new in zip(before, after, strict=True)
        if new.right < old.right
    ]
    return "vetoed by an independent router: " + "; ".join(worse) if worse else None


def uses_embedding_router(provider_name: str) -> bool:
    """The embedding router joins when its extra is installed and it is not the provider."""
    from whichtool_tui.discovery.embedding import embedding_available

    return provider_name != EMBEDDING_ROUTER and embedding_available()
