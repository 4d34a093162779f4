"""The two lexical searches hosts expose: BM25 over the tool text, and a regex/keyword search.

BM25 uses the ``bm25s`` library (Lucene variant, k1 1.2, b 0.75) over our tokens; ``bm25s``
leaves the constant (k1 + 1) out of each term's weight, which scales every score alike and
changes no rank. The regex search mirrors hosts whose search tool takes a pattern: offline, the
prompt's content words become one case-insensitive alternation of word-start prefixes (a word's
stem), and a tool scores the number of distinct words its text matches.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence

from whichtool_tui.discovery.documents import ToolDocument
from whichtool_tui.discovery.ranking import Hit, Ranking, ordered_hits, stands_out
from whichtool_tui.discovery.text import prompt_vocabulary, query_terms

BM25_K1 = 1.2
BM25_B = 0.75
# A distractor "retrieves confidently" when the best hit beats the runner-up by this factor.
BM25_CONFIDENT_RATIO = 1.5
# ... and for the regex search when the best tool matches at least this many distinct words
# and more of them than any other tool.
REGEX_CONFIDENT_TERMS = 2
MAX_PATTERN_LENGTH = 300
_WORDS = re.compile(r"\w+")


class Bm25Retriever:
    """BM25 over raw name, name parts, titles, description and parameter names (bm25s, Lucene)."""

    name = "bm25"

    def __init__(self, documents: Sequence[ToolDocument]) -> None:
        import bm25s  # numpy-backed; loaded only when a findability review or deferred run asks

        self.documents = tuple(documents)
        self._vocabulary: dict[str, int] = {}
        corpus = [
            [self._vocabulary.setdefault(term, len(self._vocabulary)) for term in doc.terms]
            for doc in self.documents
        ]
        self._index = bm25s.BM25(k1=BM25_K1, b=BM25_B, method="lucene")
        self._empty = not any(corpus)
        if not self._empty:
            tokenized = bm25s.tokenization.Tokenized(ids=corpus, vocab=self._vocabulary)
            self._index.index(tokenized, show_progress=False)

    def scores(self, query: str) -> list[float]:
        """The BM25 score of every document for a query, in document order."""
        ids = sorted({self._vocabulary[t] for t in query_terms(query) if t in self._vocabulary})
        if self._empty or not ids:
            return [0.0] * len(self.documents)
        return [float(value) for value in self._index.get_scores(ids)]

    def search(self, query: str) -> Ranking:
        """Tools with a positive BM25 score, best first."""
        scores = self.scores(query)
        pairs = zip(scores, self.documents, strict=True)
        hits = ordered_hits([(score, doc.served_index, doc.name) for score, doc in pairs])
        return Ranking("bm25", query, hits, stands_out(hits, BM25_CONFIDENT_RATIO))


def keyword_pattern(prompt: str) -> str:
    """The offline stand-in for a model-written pattern: ``\\b(?:stem1|stem2|...)``."""
    stems = sorted(prompt_vocabulary(prompt))
    if not stems:
        return ""
    return r"\b(?:" + "|".join(re.escape(term) for term in stems) + ")"


class RegexRetriever:
    """A host's regex tool search: a case-insensitive pattern over each tool's search text."""

    name = "regex"

    def __init__(self, documents: Sequence[ToolDocument]) -> None:
        self.documents = tuple(documents)
        self._texts = [doc.search_text for doc in self.documents]
        # Word -> documents holding it: ``\bstem`` matches exactly the words starting with stem,
        # so the offline pattern is answered from this index (same ranks, no scan per tool).
        self._docs_by_word: dict[str, set[int]] = {}
        for index, text in enumerate(self._texts):
            for word in _WORDS.findall(text.lower()):
                self._docs_by_word.setdefault(word, set()).add(index)
        self._words = sorted(self._docs_by_word)

    def search(self, query: str) -> Ranking:
        """Rank by how many distinct prompt stems (as word-start prefixes) each tool matches.

        ``search_pattern(keyword_pattern(query))`` runs the same stems as one alternation,
        where a stem that starts another (``pag`` and ``page``) matches once (the regex takes
        the first alternative that fits); this index answer counts each stem a word starts
        with, so such a tool scores one more here.
        """
        matched: dict[int, int] = {}
        for stem in prompt_vocabulary(query):
            holders: set[int] = set()
            position = bisect.bisect_left(self._words, stem)
            while position < len(self._words) and self._words[position].startswith(stem):
                holders |= self._docs_by_word[self._words[position]]
                position += 1
            for index in holders:
                matched[index] = matched.get(index, 0) + 1
        hits = ordered_hits(
            [
                (float(count), self.documents[index].served_index, self.documents[index].name)
                for index, count in matched.items()
            ]
        )
        return Ranking("regex", query, hits, _regex_confident(hits))

    def search_pattern(self, pattern: str, query: str | None = None) -> Ranking:
        """Rank by distinct strings a pattern matches; an invalid pattern is taken literally."""
        shown = pattern if query is None else query
        if not pattern:
            return Ranking("regex", shown, (), False)
        try:
            compiled = re.compile(pattern[:MAX_PATTERN_LENGTH], re.IGNORECASE)
        except re.error:
            compiled = re.compile(re.escape(pattern[:MAX_PATTERN_LENGTH]), re.IGNORECASE)
        scored: list[tuple[float, int, str]] = []
        for doc, text in zip(self.documents, self._texts, strict=True):
            matched = {match.group(0).lower() for match in compiled.finditer(text)}
            matched.discard("")
            scored.append((float(len(matched)), doc.served_index, doc.name))
        hits = ordered_hits(scored)
        return Ranking("regex", shown, hits, _regex_confident(hits))


def _regex_confident(hits: tuple[Hit, ...]) -> bool:
    if not hits or hits[0].score < REGEX_CONFIDENT_TERMS:
        return False
    return len(hits) == 1 or hits[0].score > hits[1].score
