"""The words a tool search sees: one tokenizer for the BM25 index, the regex query and findings."""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from whichtool_tui.providers.keyword import STOPWORDS, stem
from whichtool_tui.surface.naming import name_tokens

_WORD = re.compile(r"[A-Za-z0-9]+")
MIN_TERM_LENGTH = 3


def content_words(text: str) -> list[str]:
    """Lowercased words of a text, camelCase and snake_case split, in order (repeats kept)."""
    words: list[str] = []
    for raw in _WORD.findall(text):
        words.extend(name_tokens(raw))
    return words


def is_content_word(word: str) -> bool:
    """Words that carry a subject: three letters or more, not a conversational stopword."""
    return len(word) >= MIN_TERM_LENGTH and word not in STOPWORDS


def index_terms(words: Iterable[str]) -> list[str]:
    """Stemmed content words in order, repeats kept (term frequency matters to BM25)."""
    return [stem(word) for word in words if is_content_word(word)]


@lru_cache(maxsize=8192)
def text_terms(text: str) -> tuple[str, ...]:
    """``index_terms`` of a whole text, memoised: prompts and descriptions repeat across tasks."""
    return tuple(index_terms(content_words(text)))


def prompt_vocabulary(prompt: str) -> dict[str, str]:
    """Each distinct stemmed term of a prompt mapped to the first word that produced it."""
    vocabulary: dict[str, str] = {}
    for word in content_words(prompt):
        if is_content_word(word):
            vocabulary.setdefault(stem(word), word)
    return vocabulary
