"""Each host profile's tokeniser, as its source (or its documentation) describes it."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache

from whichtool_tui.providers.keyword import STOPWORDS

Tokenizer = Callable[[str], list[str]]

_FASTMCP_SPLIT = re.compile(r"[^a-z0-9]+")
_LOWER_THEN_UPPER = re.compile(r"([a-z0-9])([A-Z])")
_ACRONYM_THEN_WORD = re.compile(r"([A-Z]+)([A-Z][a-z])")
_PI_PLURAL = re.compile(r"(ches|shes|sses|xes|zes)$")
# pi's tool-search stop words (extensions/tool-search/tool.js).
_PI_STOP_TEXT = "a an and are as at be by for from in is it of on or that the this to with"
PI_STOP_WORDS = frozenset(_PI_STOP_TEXT.split(" "))
# Unicode word boundaries keep '_' inside a word (``list_branches`` is one word).
_UNICODE_WORD = re.compile(r"[^\W_]+(?:_+[^\W_]+)*")


def fastmcp_tokens(text: str) -> list[str]:
    """FastMCP: lowercase, split on non-alphanumerics, drop one-character tokens."""
    return [token for token in _FASTMCP_SPLIT.split(text.lower()) if len(token) > 1]


def _pi_stem(term: str) -> str:
    if len(term) > 4 and term.endswith("ies"):
        return term[:-3] + "y"
    if len(term) > 4 and _PI_PLURAL.search(term):
        return term[:-2]
    if len(term) > 3 and term.endswith("s") and not term.endswith("ss"):
        return term[:-1]
    return term


def pi_tokens(text: str) -> list[str]:
    """pi: camelCase split, lowercase, non-alphanumeric split, stop words out, plurals cut."""
    spaced = _ACRONYM_THEN_WORD.sub(r"\1 \2", _LOWER_THEN_UPPER.sub(r"\1 \2", text)).lower()
    return [
        _pi_stem(term)
        for term in _FASTMCP_SPLIT.split(spaced)
        if term and term not in PI_STOP_WORDS
    ]


@cache
def _snowball() -> Callable[[str], str]:
    try:
        import snowballstemmer  # loaded only when a codex profile is asked for
    except ImportError as missing:  # a dependency; missing only from a stale environment
        from whichtool_tui.errors import WhichtoolError

        raise WhichtoolError(
            "discovery/missing-stemmer",
            "The codex search profile needs the snowballstemmer package",
            "Reinstall whichtool-tui (pip install -e .) so its dependencies are installed.",
        ) from missing

    stemmer = snowballstemmer.stemmer("english")
    return cache(stemmer.stemWord)  # a surface repeats its words: stem each once


def codex_tokens(text: str) -> list[str]:
    """Codex (the ``bm25`` crate, English): lowercase words, stop words out, Snowball stems."""
    stem = _snowball()
    return [stem(word) for word in _UNICODE_WORD.findall(text.lower()) if word not in STOPWORDS]


def anthropic_tokens(text: str) -> list[str]:
    """Anthropic's server-side BM25 (unpublished): lowercase alphanumeric runs, no stemming."""
    return [token for token in _FASTMCP_SPLIT.split(text.lower()) if token]


TOKENIZERS: dict[str, Tokenizer] = {
    "fastmcp": fastmcp_tokens,
    "pi": pi_tokens,
    "codex": codex_tokens,
    "anthropic": anthropic_tokens,
}
