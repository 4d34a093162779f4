"""Author-safe hints: which of a prompt's missing words an author may paste into a description.

A prompt carries task values (``octo/webapp``, ``3f2a9c1``, ``#512``, ``'Q3 report'``,
``a@b.io``) beside the words that name the capability. Pasting the values overfits one prompt;
only capability words are suggested: no numbers or words with digits, no hashes, no e-mail or
URL parts, no ``owner/repo`` or file-name parts, nothing quoted (those are withheld), and no
word that occurs in one prompt only (listed apart, to check before adding: ``stage`` may be
the capability, ``later`` the request's own detail).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from whichtool_tui.discovery.text import content_words, prompt_vocabulary

_EMAIL = re.compile(r"\S+@\S+")
_URL = re.compile(r"\b[a-z][a-z0-9+.-]*://\S+", re.IGNORECASE)
_OWNER_REPO = re.compile(r"[\w.-]+/[\w./-]+")
_FILE_NAME = re.compile(r"\b[\w-]+\.[A-Za-z][A-Za-z0-9]{0,5}\b")
_QUOTED = re.compile(r"'[^']+'|\"[^\"]+\"|`[^`]+`|“[^”]+”|‘[^’]+’")
_DIGIT = re.compile(r"\d")


def task_value_words(prompt: str) -> frozenset[str]:
    """Lowercased words of a prompt that are task values, not capability words."""
    words: set[str] = set()
    for pattern in (_EMAIL, _URL, _OWNER_REPO, _FILE_NAME, _QUOTED):
        for match in pattern.findall(prompt):
            words.update(content_words(match))
    words.update(word for word in content_words(prompt) if _DIGIT.search(word))
    return frozenset(words)


def prompt_frequency(prompts: Iterable[str]) -> Counter[str]:
    """In how many prompts each stemmed term occurs (a term counts once per prompt)."""
    counts: Counter[str] = Counter()
    for prompt in prompts:
        counts.update(prompt_vocabulary(prompt).keys())
    return counts


@dataclass(frozen=True)
class Suggestion:
    """Missing prompt words: safe to add, in this prompt only (check first), task values."""

    safe: tuple[str, ...]
    single: tuple[str, ...]
    withheld: tuple[str, ...]


def split_missing(
    prompt: str, missing_stems: Sequence[str], frequency: Mapping[str, int]
) -> Suggestion:
    """Which missing words (stems of ``prompt``, in prompt order) may be suggested."""
    vocabulary = prompt_vocabulary(prompt)
    values = task_value_words(prompt)
    safe: list[str] = []
    single: list[str] = []
    withheld: list[str] = []
    for stem in missing_stems:
        word = vocabulary[stem]
        if word in values or stem in values:
            withheld.append(word)
        elif frequency.get(stem, 0) < 2:
            single.append(word)
        else:
            safe.append(word)
    return Suggestion(tuple(safe), tuple(single), tuple(withheld))


def searches_helped(word: str, prompt: str, searches: Iterable[str]) -> list[str]:
    """The searches (among ``searches``) whose own tokens of the prompt include the word's."""
    from whichtool_tui.discovery.profiles import load_profiles
    from whichtool_tui.discovery.tokenizers import TOKENIZERS

    profiles = load_profiles()
    helped: list[str] = []
    for name in searches:
        profile = profiles.get(name)
        tokenize = TOKENIZERS.get(profile.tokenizer) if profile is not None else None
        # A generic search's tokeniser produced the word itself; a host's must keep it.
        if tokenize is None or set(tokenize(word)) & set(tokenize(prompt)):
            helped.append(name)
    return helped


_NUMBER = re.compile(r"\b\d+(?:[.,:]\d+)*\b")
_WITH_DIGIT = re.compile(r"\b(?=[A-Za-z0-9_-]*\d)(?=[A-Za-z0-9_-]*[A-Za-z])[A-Za-z0-9_-]+\b")
_PLACEHOLDERS = (
    (_EMAIL, "<email>"),
    (_URL, "<url>"),
    (_QUOTED, "'…'"),
    (_OWNER_REPO, "<owner>/<repo>"),
    (_FILE_NAME, "<file>"),
    (_WITH_DIGIT, "<id>"),
    (_NUMBER, "<n>"),
)


def without_task_values(prompt: str) -> str:
    """A prompt with its task values replaced by placeholders, fit to quote as an example
    request: ``List open PRs in acme/api since #512`` -> ``List open PRs in <owner>/<repo>
    since #<n>``."""
    text = prompt
    for pattern, placeholder in _PLACEHOLDERS:
        text = pattern.sub(placeholder, text)
    return text
