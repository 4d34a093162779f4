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


# A compound identifier in a prompt (``list_branches``, ``ui-get``, ``getUser``): a tool name
# the user typed, kept whole so an exact name can match the raw name term.
_IDENTIFIER = re.compile(r"[A-Za-z0-9]+(?:[_\-.][A-Za-z0-9]+)+|[a-z][a-z0-9]*[A-Z][A-Za-z0-9]*")
SHORT_NAME_PART = 2


def name_index_terms(name: str) -> list[str]:
    """A name's terms: the raw name (when compound), then every part, short parts kept raw.

    Keeping ``ui`` of ``ui_get`` and ``59`` of ``create_ticket_59`` (which content words drop)
    lets a prompt that names the tool match it on those parts too.
    """
    parts = name_tokens(name)
    terms = [name.lower()] if len(parts) > 1 else []
    for part in parts:
        if is_content_word(part):
            terms.append(stem(part))
        elif len(part) >= SHORT_NAME_PART and part not in STOPWORDS:
            terms.append(part)
    return terms


@lru_cache(maxsize=8192)
def query_terms(text: str) -> tuple[str, ...]:
    """A query's generic terms: content words, plus each identifier whole and its short parts."""
    extra: list[str] = []
    for identifier in _IDENTIFIER.findall(text):
        extra += [term for term in name_index_terms(identifier) if term not in extra]
    return (*text_terms(text), *extra)


_WHOLE_IDENTIFIER = re.compile(r"[A-Za-z0-9][A-Za-z0-9_\-.]*[A-Za-z0-9]|[A-Za-z0-9]")


def names_in_text(text: str, names: Iterable[str]) -> list[str]:
    """Tool names a text spells out as whole identifiers (any case), in the order they appear."""
    known = {name.lower(): name for name in names}
    found: list[str] = []
    for identifier in _WHOLE_IDENTIFIER.findall(text):
        name = known.get(identifier.lower().rstrip("."))
        if name is not None and name not in found:
            found.append(name)
    return found
