"""Host tool searches from their search profiles: BM25 as each host computes it, a pattern
search with the host's length limit, and Claude Code's keyword search with its ``select:`` path.

BM25 here is written out (Okapi with the ``ln(1 + ...)`` idf, the (k1 + 1) factor kept) because
hosts differ in what bm25s cannot vary: query repeats, tokenisers, document lengths.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence

from whichtool_tui.discovery.documents import ToolDocument
from whichtool_tui.discovery.lexical import BM25_CONFIDENT_RATIO, REGEX_CONFIDENT_TERMS
from whichtool_tui.discovery.profiles import SearchProfile, profile_text
from whichtool_tui.discovery.ranking import Hit, Ranking, ordered_hits, stands_out
from whichtool_tui.discovery.text import (
    content_words,
    is_content_word,
    names_in_text,
    prompt_vocabulary,
)
from whichtool_tui.discovery.tokenizers import TOKENIZERS
from whichtool_tui.surface.naming import name_tokens

SELECT_PREFIX = "select:"
# Claude Code keyword weights per query word (see search_profiles/claude-code.json).
NAME_PART_EXACT = 12.0
NAME_PART_PARTIAL = 6.0
FULL_NAME = 3.0
DESCRIPTION = 2.0


def _selected_first(ranking: Ranking, chosen: Sequence[str]) -> Ranking:
    """The ranking with the chosen tools moved to the top, as a ``select:`` answer puts them."""
    if not chosen:
        return ranking
    top = max((hit.score for hit in ranking.hits), default=0.0) + 1.0
    rest = tuple(hit for hit in ranking.hits if hit.name not in chosen)
    hits = tuple(Hit(name, top) for name in chosen) + rest
    return Ranking(ranking.retriever, ranking.query, hits, True)


class ProfileBm25Retriever:
    """Okapi BM25 over a profile's fields with the profile's tokeniser and constants."""

    def __init__(self, profile: SearchProfile, documents: Sequence[ToolDocument]) -> None:
        if profile.bm25 is None:
            raise ValueError(f"profile {profile.name} has no BM25 parameters")
        self.name = profile.name
        self.profile = profile
        self.documents = tuple(documents)
        self._tokens = TOKENIZERS[profile.tokenizer]
        k1, b = profile.bm25.k1, profile.bm25.b
        counts = [Counter(self._tokens(profile_text(profile, d))) for d in self.documents]
        lengths = [sum(count.values()) for count in counts]
        total = sum(lengths)
        average = total / len(self.documents) if total else 1.0
        # Per document, k1 * (1 - b + b * |d| / avgdl); per term, its documents and counts.
        self._norms = [k1 * (1 - b + b * length / average) for length in lengths]
        self._postings: dict[str, list[tuple[int, int]]] = {}
        for index, count in enumerate(counts):
            for term, tf in count.items():
                self._postings.setdefault(term, []).append((index, tf))

    def scores(self, query: str) -> list[float]:
        """Every document's score for a query, in document order."""
        assert self.profile.bm25 is not None
        k1 = self.profile.bm25.k1
        terms = self._tokens(query)
        if self.profile.bm25.query_terms == "distinct":
            terms = list(dict.fromkeys(terms))
        count = len(self.documents)
        scores = [0.0] * count
        for term in terms:
            postings = self._postings.get(term)
            if not postings:
                continue
            frequency = len(postings)
            idf = math.log(1 + (count - frequency + 0.5) / (frequency + 0.5))
            for index, tf in postings:
                scores[index] += idf * tf * (k1 + 1) / (tf + self._norms[index])
        return scores

    def search(self, query: str) -> Ranking:
        """Tools with a positive score, best first; ties in served order."""
        pairs = zip(self.scores(query), self.documents, strict=True)
        scored = [(score, doc.served_index, doc.name) for score, doc in pairs]
        hits = ordered_hits(scored)
        return Ranking(self.name, query, hits, stands_out(hits, BM25_CONFIDENT_RATIO))


def bounded_pattern(prompt: str, limit: int) -> str:
    """The offline stand-in for a model-written pattern, whole stems only, within ``limit``."""
    stems: list[str] = []
    for stem in prompt_vocabulary(prompt):
        candidate = r"\b(?:" + "|".join(re.escape(s) for s in [*stems, stem]) + ")"
        if len(candidate) > limit:
            break
        stems.append(stem)
    return r"\b(?:" + "|".join(re.escape(s) for s in stems) + ")" if stems else ""


class ProfileRegexRetriever:
    """A host's pattern search over its fields; patterns past its length limit match nothing."""

    def __init__(self, profile: SearchProfile, documents: Sequence[ToolDocument]) -> None:
        self.name = profile.name
        self.limit = profile.max_pattern_length or 300
        self.documents = tuple(documents)
        self._texts = [profile_text(profile, document) for document in self.documents]

    def search(self, query: str) -> Ranking:
        """The prompt as the model's pattern would carry it (its stems, within the limit)."""
        return self.search_pattern(bounded_pattern(query, self.limit), query)

    def search_pattern(self, pattern: str, query: str | None = None) -> Ranking:
        """Rank by distinct strings the pattern matches; over-long or invalid: no tools."""
        shown = pattern if query is None else query
        if not pattern or len(pattern) > self.limit:
            return Ranking(self.name, shown, (), False)
        try:
            compiled = re.compile(pattern, re.IGNORECASE)
        except re.error:
            return Ranking(self.name, shown, (), False)
        scored = []
        for document, text in zip(self.documents, self._texts, strict=True):
            matched = {match.group(0).lower() for match in compiled.finditer(text)} - {""}
            scored.append((float(len(matched)), document.served_index, document.name))
        hits = ordered_hits(scored)
        confident = bool(hits) and hits[0].score >= REGEX_CONFIDENT_TERMS
        confident = confident and (len(hits) == 1 or hits[0].score > hits[1].score)
        return Ranking(self.name, shown, hits, confident)


class ClaudeCodeRetriever:
    """Claude Code's ToolSearch: ``select:`` by exact name, else weighted keyword matches."""

    def __init__(self, profile: SearchProfile, documents: Sequence[ToolDocument]) -> None:
        self.name = profile.name
        self.documents = tuple(documents)
        self._names = [document.name for document in self.documents]
        self._parts = [name_tokens(document.name) for document in self.documents]
        self._descriptions = [document.description.lower() for document in self.documents]

    def _keyword_scores(self, words: Sequence[str]) -> list[float]:
        required = [word[1:] for word in words if word.startswith("+") and len(word) > 1]
        plain = [word.lstrip("+") for word in words if word.lstrip("+")]
        scores: list[float] = []
        for name, parts, description in zip(
            self._names, self._parts, self._descriptions, strict=True
        ):
            if any(not any(word in part for part in parts) for word in required):
                scores.append(0.0)
                continue
            score = 0.0
            for word in plain:
                if word in parts:
                    score += NAME_PART_EXACT
                elif any(word in part for part in parts):
                    score += NAME_PART_PARTIAL
                elif word in name.lower():
                    score += FULL_NAME
                if word in description:
                    score += DESCRIPTION
            scores.append(score)
        return scores

    def _rank(self, words: Sequence[str], query: str) -> Ranking:
        scored = [
            (score, document.served_index, document.name)
            for score, document in zip(self._keyword_scores(words), self.documents, strict=True)
        ]
        hits = ordered_hits(scored)
        return Ranking(self.name, query, hits, stands_out(hits, BM25_CONFIDENT_RATIO))

    def search(self, query: str) -> Ranking:
        """A prompt: tools it names exactly first (select:), then its content words ranked."""
        words = [word for word in content_words(query) if is_content_word(word)]
        ranking = self._rank(list(dict.fromkeys(words)), query)
        return _selected_first(ranking, names_in_text(query, self._names))

    def search_query(self, query: str) -> Ranking:
        """A model-written query: ``select:A,B`` loads by name, else its words are keywords."""
        stripped = query.strip()
        if stripped.lower().startswith(SELECT_PREFIX):
            wanted = [part.strip() for part in stripped[len(SELECT_PREFIX) :].split(",")]
            chosen = [name for name in dict.fromkeys(wanted) if name in self._names]
            return Ranking(self.name, query, tuple(Hit(n, 1.0) for n in chosen), bool(chosen))
        return self._rank(stripped.lower().split(), query)
