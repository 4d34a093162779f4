"""Build the findability section for a reviewed surface: pick the searches, then assess."""

from __future__ import annotations

from collections.abc import Sequence

from whichtool_tui.discovery import embedding
from whichtool_tui.discovery.deferral import predict_deferral
from whichtool_tui.discovery.documents import ToolDocument
from whichtool_tui.discovery.documents import surface_documents as documents_of_tools
from whichtool_tui.discovery.findability import assess_findability
from whichtool_tui.discovery.ranking import (
    DEFAULT_K,
    HOST_RETRIEVERS,
    HOSTS_ALIAS,
    RETRIEVER_NAMES,
    Retriever,
)
from whichtool_tui.discovery.report_model import FindabilitySection, SemanticOverlap
from whichtool_tui.errors import WhichtoolError
from whichtool_tui.evaluation.plan import TaskSpec
from whichtool_tui.surface.model import NormalizedSurface
from whichtool_tui.surface.report_model import InspectReport


def surface_documents(surface: NormalizedSurface) -> tuple[ToolDocument, ...]:
    """One document per tool in served order (titles and resolved schema included)."""
    return documents_of_tools(surface.tools)


def check_retriever_names(names: Sequence[str]) -> tuple[str, ...]:
    """Refuse unknown searches, and semantic without the extra; keep order, drop repeats."""
    chosen: list[str] = []
    expanded = [
        part for name in names for part in (HOST_RETRIEVERS if name == HOSTS_ALIAS else (name,))
    ]
    for name in expanded:
        if name not in RETRIEVER_NAMES:
            raise WhichtoolError(
                "discovery/unknown-retriever",
                f"Unknown search `{name}`. Available: {', '.join(RETRIEVER_NAMES)}",
                "Pass --retriever with one of those (repeatable), or `hosts` for every host "
                "search profile.",
            )
        if name == "semantic":
            embedding.require_embedding()
        if name not in chosen:
            chosen.append(name)
    return tuple(chosen)


def default_retriever_names() -> tuple[tuple[str, ...], dict[str, str]]:
    """bm25 and regex always; semantic when the embedding extra is installed (else why not)."""
    if embedding.embedding_available():
        return ("bm25", "regex", "semantic"), {}
    return ("bm25", "regex"), {
        "semantic": f"the embedding extra is not installed. {embedding.INSTALL_HINT}"
    }


def build_retrievers(
    documents: Sequence[ToolDocument],
    names: Sequence[str],
    min_similarity: float,
    also_encode: Sequence[str] = (),
) -> list[Retriever]:
    """Instantiate the named searches over one surface's documents."""
    return [build_retriever(documents, name, min_similarity, also_encode) for name in names]


def build_retriever(
    documents: Sequence[ToolDocument],
    name: str,
    min_similarity: float,
    also_encode: Sequence[str] = (),
) -> Retriever:
    """One named search (generic or host profile) over one surface's documents; the semantic
    one also embeds ``also_encode`` (the run's prompts) in its documents' pass."""
    from whichtool_tui.discovery import host_search
    from whichtool_tui.discovery.lexical import Bm25Retriever, RegexRetriever
    from whichtool_tui.discovery.profiles import profile_named

    if name == "bm25":
        return Bm25Retriever(documents)
    if name == "regex":
        return RegexRetriever(documents)
    if name == "semantic":
        from whichtool_tui.discovery.semantic import SemanticRetriever

        return SemanticRetriever(documents, min_similarity, also_encode)
    profile = profile_named(name)
    if profile.ranker == "keyword":
        return host_search.ClaudeCodeRetriever(profile, documents)
    if profile.ranker == "regex":
        return host_search.ProfileRegexRetriever(profile, documents)
    return host_search.ProfileBm25Retriever(profile, documents)


def _overlap_texts(
    report: InspectReport, surface: NormalizedSurface
) -> list[tuple[tuple[str, str], float, tuple[str, str]]]:
    """Each overlap pair of tools with its Dice score and the two descriptions to compare."""
    descriptions = {tool.name: tool.description_text for tool in surface.tools}
    return [
        (pair.tools, pair.score, (descriptions[pair.tools[0]], descriptions[pair.tools[1]]))
        for pair in report.overlap.pairs
        if pair.tools[0] in descriptions and pair.tools[1] in descriptions
    ]


def _semantic_overlap(
    pairs: Sequence[tuple[tuple[str, str], float, tuple[str, str]]],
) -> list[SemanticOverlap]:
    from whichtool_tui.discovery.semantic import semantic_similarities

    similarities = semantic_similarities([texts for _tools, _dice, texts in pairs])
    return [
        SemanticOverlap(tools=tools, dice=dice, semantic=similarity)
        for (tools, dice, _texts), similarity in zip(pairs, similarities, strict=True)
    ]


def review_findability(
    report: InspectReport,
    surface: NormalizedSurface,
    tasks: Sequence[TaskSpec],
    task_source: str,
    *,
    retriever_names: Sequence[str] | None = None,
    min_similarity: float | None = None,
    top_k: int = DEFAULT_K,
) -> FindabilitySection:
    """The findability section of ``report``'s surface for a task set."""
    from whichtool_tui.discovery.semantic import DEFAULT_MIN_SIMILARITY

    skipped: dict[str, str] = {}
    if retriever_names:
        names = check_retriever_names(retriever_names)
    else:
        names, skipped = default_retriever_names()
    similarity = DEFAULT_MIN_SIMILARITY if min_similarity is None else min_similarity
    documents = surface_documents(surface)
    semantic = "semantic" in names
    overlap = _overlap_texts(report, surface) if semantic else []
    # Prompts and overlap descriptions go through the model with the documents, in one pass.
    also_encode = [task.prompt for task in tasks] + [t for *_, pair in overlap for t in pair]
    return assess_findability(
        documents,
        tasks,
        build_retrievers(documents, names, similarity, also_encode if semantic else ()),
        predict_deferral(report.tokens.total, report.surface.tool_count),
        task_source=task_source,
        top_k=top_k,
        min_similarity=similarity if semantic else None,
        skipped=skipped,
        semantic_overlap=_semantic_overlap(overlap) if semantic else None,
    )
