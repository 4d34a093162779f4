"""Word-level reading of names and descriptions for the lint rules beyond upstream.

Rules compare a name's words with a description's words; "mentions" must forgive plurals,
inflections (annotated / annotations) and the few abbreviations tool authors use everywhere
(id, repo, env), or well-kept servers would drown in false alarms.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from functools import lru_cache

from whichtool_tui.surface.overlap import STOPWORDS

_WORD = re.compile(r"[a-z0-9]+")
# Short forms in names that descriptions spell out.
ABBREVIATIONS: dict[str, tuple[str, ...]] = {
    "id": ("identifier", "ids"),
    "ids": ("identifier", "id"),
    "repo": ("repository", "repositories"),
    "dir": ("directory", "directories", "folder"),
    "env": ("environment",),
    "info": ("information", "metadata", "details"),
    "config": ("configuration", "settings"),
    "msg": ("message",),
    "num": ("number",),
    "max": ("maximum", "most", "limit"),
    "min": ("minimum", "least"),
    "desc": ("description",),
    "db": ("database",),
    "tz": ("timezone", "time zone"),
    "ts": ("timestamp",),
    "url": ("link", "address"),
    "img": ("image",),
    "doc": ("document",),
    "docs": ("documents", "documentation"),
    "stats": ("statistics",),
    "auth": ("authentication", "authorization"),
}
MIN_SHARED_PREFIX = 5


@lru_cache(maxsize=65536)
def text_words(text: str) -> frozenset[str]:
    """Lowercase alphanumeric words of ``text`` (cached: descriptions repeat across rules)."""
    return frozenset(_WORD.findall(text.lower()))


def content_words(text: str) -> frozenset[str]:
    """Words that carry meaning: stopwords and single letters dropped."""
    return frozenset(word for word in text_words(text) if len(word) > 1 and word not in STOPWORDS)


@lru_cache(maxsize=65536)
def _ordered(words: frozenset[str]) -> tuple[str, ...]:
    return tuple(sorted(words))


def _has_word_starting(prefix: str, ordered: tuple[str, ...]) -> bool:
    at = bisect_left(ordered, prefix)
    return at < len(ordered) and ordered[at].startswith(prefix)


def _inflected(token: str, words: frozenset[str]) -> bool:
    """A word extends ``token`` (log / logs), ``token`` extends a word of 3+ letters, or they
    share a 5-letter stem (annotated / annotations, subscriber / subscription)."""
    ordered = _ordered(words)
    if len(token) >= 3 and _has_word_starting(token, ordered):
        return True
    if any(token[:size] in words for size in range(3, len(token))):
        return True
    return len(token) >= MIN_SHARED_PREFIX and _has_word_starting(
        token[:MIN_SHARED_PREFIX], ordered
    )


def mentions(token: str, words: frozenset[str]) -> bool:
    """True when ``words`` contains ``token``, an inflection of it, or its spelled-out form."""
    if token in words:
        return True
    candidates = [token, *ABBREVIATIONS.get(token, ())]
    if token.startswith(("un", "non")) and len(token) > 5:
        candidates.append(token.removeprefix("non").removeprefix("un"))  # unstaged: not staged
    for candidate in candidates:
        for part in candidate.split(" "):
            if part in words:
                return True
    return any(_inflected(candidate, words) for candidate in candidates)


def _stems(tokens: frozenset[str]) -> frozenset[str]:
    """First three letters of every form a token may take in text (a cheap pre-filter)."""
    stems: set[str] = set()
    for token in tokens:
        for form in (token, *ABBREVIATIONS.get(token, ())):
            stems.add(form[:3])
        if token.startswith(("un", "non")):
            stems.add(token.removeprefix("non").removeprefix("un")[:3])
    return frozenset(stems)


def covered_by(words: frozenset[str], tokens: frozenset[str]) -> bool:
    """True when every word in ``words`` is one of ``tokens``, an inflection or spelled-out form."""
    stems = _stems(tokens)
    for word in words:
        if word in tokens:
            continue
        if word[:3] not in stems and not any(
            word in ABBREVIATIONS and mentions(word, frozenset((token,))) for token in tokens
        ):
            return False  # shares no stem with any name word: cannot be covered
        if not (
            mentions(word, tokens) or any(mentions(token, frozenset((word,))) for token in tokens)
        ):
            return False
    return True
