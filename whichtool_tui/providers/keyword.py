"""The ``keyword`` provider: an offline lexical baseline, labelled as a baseline, never a model.

It picks the tool whose name and description share the most *distinctive* terms with the prompt.
Terms are lowercased words of 3+ characters (names split into their tokens as inspect does),
minus conversational stopwords, with a light suffix strip so ``users``/``user`` and
``listing``/``list`` meet.
A term found in every tool's text tells tools apart not at all and is ignored; the others weigh
``1 + ln(N / df)`` (rarer terms weigh more), doubled when the term is in the tool's name. The best
tool is picked when its score reaches the threshold and beats the runner-up; a tie or a weak
match abstains. Deterministic and independent of tool order, so it has no position bias.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from functools import lru_cache

from whichtool_tui.providers.base import (
    OFFLINE_CAPABILITIES,
    ProviderIdentity,
    RouteReply,
    RouteRequest,
    ToolSpec,
    options_fingerprint,
    single_pick_reply,
)
from whichtool_tui.surface.naming import name_tokens

KEYWORD_MODEL = "lexical-v1"
DEFAULT_MIN_SCORE = 1.0
NAME_WEIGHT = 2.0
ABSTAIN_TEXT = "keyword baseline: no tool shares enough distinctive terms with the prompt"
KEYWORD_CAPABILITIES = OFFLINE_CAPABILITIES

_WORD = re.compile(r"[a-z0-9]+")
_STOPWORD_TEXT = """
    a an and any are as at be been but by can could did do does for from got has have how
    i if in into is it its me my of on or our please should so some than that the their them
    then there these they this those to too use used using via was we were what when where
    which while who will with would you your all also just like make need needs want wants
    tool tools one ones returns return given
"""
STOPWORDS = frozenset(_STOPWORD_TEXT.split())


def stem(word: str) -> str:
    """A tiny deterministic suffix strip; only needs to make common inflections meet."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    for suffix in ("ing", "ed", "es", "s"):
        if len(word) - len(suffix) >= 3 and word.endswith(suffix):
            if suffix == "s" and word.endswith("ss"):
                return word
            return word[: -len(suffix)]
    return word


def _comparable(words: Iterable[str]) -> frozenset[str]:
    return frozenset(stem(word) for word in words if len(word) >= 3 and word not in STOPWORDS)


# A run asks about the same prompts and the same tools thousands of times (repeats, permuted
# orders): terms and document frequencies are computed once per distinct text and surface.
@lru_cache(maxsize=4096)
def _text_terms(text: str) -> frozenset[str]:
    return _comparable(_WORD.findall(text.lower()))


def terms(text: str) -> set[str]:
    """Distinct comparable terms of a text: split, lowercased, stopwords dropped, stemmed."""
    return set(_text_terms(text))


@lru_cache(maxsize=1024)
def _tool_terms(name: str, description: str) -> tuple[frozenset[str], frozenset[str]]:
    name_terms = _comparable(name_tokens(name))
    return name_terms, name_terms | _text_terms(description)


@lru_cache(maxsize=64)
def _document_frequency(surface: tuple[tuple[str, str], ...]) -> dict[str, int]:
    """How many tools of the surface (any order, duplicates kept) contain each term."""
    frequency: dict[str, int] = {}
    for name, description in surface:
        for term in _tool_terms(name, description)[1]:
            frequency[term] = frequency.get(term, 0) + 1
    return frequency


def score_tools(prompt: str, tools: Iterable[ToolSpec]) -> dict[str, float]:
    """Score every tool by the distinctive terms it shares with the prompt (pure; for tests)."""
    tool_list = list(tools)
    prompt_terms = _text_terms(prompt)
    texts = [(tool.name, tool.description or "") for tool in tool_list]
    document_frequency = _document_frequency(tuple(sorted(texts)))
    count = len(tool_list)
    scores: dict[str, float] = {}
    for name, description in texts:
        name_terms, all_terms = _tool_terms(name, description)
        score = 0.0
        for term in sorted(prompt_terms & all_terms):
            frequency = document_frequency[term]
            if count > 1 and frequency == count:
                continue
            weight = 1.0 + math.log(count / frequency)
            score += weight * (NAME_WEIGHT if term in name_terms else 1.0)
        scores[name] = max(scores.get(name, 0.0), round(score, 9))
    return scores


class KeywordProvider:
    """The offline lexical baseline: deterministic, keyless, never executes anything."""

    def __init__(self, *, model: str = KEYWORD_MODEL, min_score: float = DEFAULT_MIN_SCORE) -> None:
        self.min_score = min_score
        options = {"provider": "keyword", "model": model, "minScore": min_score, "version": 1}
        fingerprint = options_fingerprint(options)
        self.identity = ProviderIdentity(
            name="keyword",
            model=model,
            endpoint=None,
            request_fingerprint=fingerprint,
            capabilities=KEYWORD_CAPABILITIES,
            is_baseline=True,
        )

    def choose(self, prompt: str, tools: Iterable[ToolSpec]) -> str | None:
        """The picked tool name, or None when the best match is weak or tied."""
        ranked = sorted(score_tools(prompt, tools).items(), key=lambda item: (-item[1], item[0]))
        if not ranked or ranked[0][1] < self.min_score:
            return None
        if len(ranked) > 1 and ranked[1][1] == ranked[0][1]:
            return None
        return ranked[0][0]

    async def route(self, request: RouteRequest) -> RouteReply:
        """Pick by shared distinctive terms; the call carries empty arguments."""
        picked = self.choose(request.prompt, request.tools)
        return single_pick_reply(picked, ABSTAIN_TEXT)

    async def aclose(self) -> None:
        """Nothing to release."""
