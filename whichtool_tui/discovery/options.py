"""How a deferred (tool-search) run discovers tools: a plain value, cheap to import for faces."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from whichtool_tui.discovery.ranking import DEFAULT_K
from whichtool_tui.limits import DEFAULT_MIN_SIMILARITY

if TYPE_CHECKING:
    from whichtool_tui.discovery.protocol import DiscoveryVariant


@dataclass(frozen=True)
class DiscoveryOptions:
    """How the deferred arm discovers tools, and whether the upfront arm runs beside it."""

    variant: DiscoveryVariant = "search"
    retriever: str = "bm25"
    top_k: int = DEFAULT_K
    compare_upfront: bool = True
    min_similarity: float = DEFAULT_MIN_SIMILARITY
