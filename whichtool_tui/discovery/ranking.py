"""A search's answer: tools that matched, best first, and whether the best one stands out."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple, Protocol

from whichtool_tui import limits
from whichtool_tui.discovery.profiles import PROFILE_ORDER

# The generic searches, then one per host search profile (discovery/search_profiles/).
RETRIEVER_NAMES = PROFILE_ORDER
GENERIC_RETRIEVERS = ("bm25", "regex", "semantic")
HOST_RETRIEVERS = tuple(name for name in PROFILE_ORDER if name not in GENERIC_RETRIEVERS)
# ``--retriever hosts`` asks for every host profile at once.
HOSTS_ALIAS = "hosts"
DEFAULT_K = limits.DEFAULT_DISCOVERY_TOP_K
FINDABILITY_KS = (1, 3, 5)
# The found@k curve runs to the largest k a profiled host loads (Codex and pi: 8).
CURVE_KS = tuple(range(1, 9))


class Hit(NamedTuple):
    """One tool a search returned, with the retriever's own score (a tuple: searches over
    1,000 tools build 1,000 of these per prompt)."""

    name: str
    score: float


@dataclass(frozen=True)
class Ranking:
    """Matching tools best first (ties in served order); ``confident``: the top one stands out."""

    retriever: str
    query: str
    hits: tuple[Hit, ...]
    confident: bool

    def rank_of(self, name: str) -> int | None:
        """1-based position of a tool among the hits, None when the search did not return it."""
        for position, hit in enumerate(self.hits, start=1):
            if hit.name == name:
                return position
        return None

    def top(self, k: int) -> tuple[str, ...]:
        """Names of the first k hits: what a host would load."""
        return tuple(hit.name for hit in self.hits[:k])


class Retriever(Protocol):
    """A host-style tool search over one surface."""

    name: str

    def search(self, query: str) -> Ranking:
        """Rank the surface's tools for a natural-language query."""
        ...


def ordered_hits(scores: list[tuple[float, int, str]]) -> tuple[Hit, ...]:
    """Hits with a positive score, best first; equal scores keep served order (index)."""
    kept = [entry for entry in scores if entry[0] > 0]
    kept.sort(key=lambda entry: (-entry[0], entry[1]))
    return tuple(Hit(name, score) for score, _, name in kept)


def stands_out(hits: tuple[Hit, ...], ratio: float) -> bool:
    """True when the best hit scores at least ``ratio`` times the runner-up (or is alone)."""
    if not hits:
        return False
    if len(hits) == 1:
        return True
    return hits[0].score >= ratio * hits[1].score
