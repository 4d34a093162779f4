"""The semantic tool search: cosine similarity between the prompt and each tool's search text."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from whichtool_tui.discovery.documents import ToolDocument
from whichtool_tui.discovery.embedding import (
    CACHE_KEY,
    cached_vectors,
    cosine,
    require_embedding,
)
from whichtool_tui.discovery.ranking import Hit, Ranking
from whichtool_tui.discovery.vector_cache import VectorCache
from whichtool_tui.limits import DEFAULT_MIN_SIMILARITY as DEFAULT_MIN_SIMILARITY
from whichtool_tui.places import cache_home

# Below this similarity the best tool is not a confident match: the embedding baseline abstains
# and a distractor does not count as retrieving. Measured over the five bundled task sets (demo
# and four reference servers, 50 prompts, 11 distractors): 0.0 picks 32/50 and over-triggers
# 11/11; 0.20 picks 29/50, over-triggers 4/11; 0.30 picks 27/50, over-triggers 3/11; 0.40 picks
# 20/50, over-triggers 0/11. No floor is right everywhere, so it is an option (--min-similarity).
# (limits.DEFAULT_MIN_SIMILARITY, re-exported here beside the figures that chose it)


class SemanticRetriever:
    """Every tool ranked by similarity to the query (a semantic search always returns k tools)."""

    name = "semantic"

    def __init__(
        self,
        documents: Sequence[ToolDocument],
        min_similarity: float = DEFAULT_MIN_SIMILARITY,
        also_encode: Sequence[str] = (),
    ) -> None:
        """``also_encode``: texts the run will embed next (its prompts, say), encoded in the
        documents' pass so the model reads every text in length-sorted batches once."""
        self.documents = tuple(documents)
        self.min_similarity = min_similarity
        require_embedding()
        import numpy as np

        texts = [doc.search_text for doc in self.documents]
        vectors = cached_vectors([*texts, *also_encode], shared_cache())
        self._matrix = np.ascontiguousarray(vectors[: len(texts)])
        self._names = [doc.name for doc in self.documents]
        self._served = np.array([doc.served_index for doc in self.documents], dtype=np.int64)

    def similarities(self, query: str) -> list[float]:
        """The similarity of every document to a query, in document order."""
        similarity: list[float] = self._scores(query).tolist()
        return similarity

    def _scores(self, query: str) -> Any:
        return self._matrix @ cached_vectors([query], shared_cache())[0]

    def search(self, query: str) -> Ranking:
        """All tools, most similar first (ties in served order); confident when the best
        reaches the minimum."""
        import numpy as np

        scores = self._scores(query)
        order = np.lexsort((self._served, -scores)).tolist()
        ranked = scores[order].tolist()
        hits = tuple(
            Hit(name=self._names[index], score=round(score, 6))
            for index, score in zip(order, ranked, strict=True)
        )
        confident = bool(hits) and hits[0].score >= self.min_similarity
        return Ranking("semantic", query, hits, confident)


def semantic_similarity(left: str, right: str) -> float:
    """Cosine similarity of two texts under the embedding model (for overlap pairs)."""
    [similarity] = semantic_similarities([(left, right)])
    return similarity


def semantic_similarities(pairs: Sequence[tuple[str, str]]) -> list[float]:
    """Cosine similarity of each pair of texts, every distinct text encoded once."""
    texts = list(dict.fromkeys(text for pair in pairs for text in pair))
    vectors = cached_vectors(texts, shared_cache())
    row = {text: index for index, text in enumerate(texts)}
    rows = vectors.tolist()
    return [round(cosine(rows[row[left]], rows[row[right]]), 6) for left, right in pairs]


_caches: dict[Path, VectorCache] = {}


def shared_cache() -> VectorCache:
    """The vector cache in the platform cache folder (one per folder, opened on first use)."""
    folder = cache_home()
    cache = _caches.get(folder)
    if cache is None:
        cache = _caches[folder] = VectorCache(CACHE_KEY, folder)
    return cache
