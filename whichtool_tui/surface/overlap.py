"""Lexical overlap: Sørensen–Dice over character-trigram multisets of name plus description.

Every unordered pair is scored. Scoring pair by pair costs tens of seconds at 1,000 tools, so
:func:`all_pair_shared_counts` computes Σ min(count_a, count_b) for all pairs at once: a
multiset trigram intersection is the intersection of the sets of (trigram, k) "occurrence
features" (k = 1..count), and those intersections are summed for every partner in parallel by
adding big integers whose fixed-width lanes hold one partner each. The scores are exactly the
plain definition's (same integers, same division); a test proves it on random surfaces.
"""

from __future__ import annotations

import heapq
import re
import sys
from array import array
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from whichtool_tui.diagnostics import Diagnostic
from whichtool_tui.surface.bulk import paused_gc, trusted_diagnostic
from whichtool_tui.surface.canonical import (
    JS_WHITESPACE,
    JS_WHITESPACE_CLASS,
    as_utf16_units,
    js_fixed,
    js_length,
)
from whichtool_tui.surface.model import Tool
from whichtool_tui.surface.naming import name_tokens
from whichtool_tui.surface.report_model import OverlapPair, OverlapSection
from whichtool_tui.surface.rule_catalog import RULES

HIGH_OVERLAP = 0.6
NOTABLE_OVERLAP = 0.4
MAX_OVERLAP_PAIRS = 20
MAX_SHARED_TERMS = 6
METHOD = "sorensen-dice over character trigrams of name-plus-description"
STOPWORDS = frozenset(
    [
        "a",
        "about",
        "all",
        "an",
        "and",
        "any",
        "are",
        "as",
        "at",
        "be",
        "by",
        "can",
        "for",
        "from",
        "given",
        "if",
        "in",
        "into",
        "is",
        "it",
        "its",
        "of",
        "on",
        "one",
        "only",
        "or",
        "provided",
        "return",
        "returns",
        "specified",
        "that",
        "the",
        "their",
        "them",
        "then",
        "this",
        "to",
        "use",
        "used",
        "using",
        "when",
        "which",
        "will",
        "with",
        "you",
        "your",
    ]
)

_WHITESPACE_RUN = re.compile(JS_WHITESPACE_CLASS + "+")
_NON_WORD = re.compile(r"[^a-z0-9]+")


def normalize_for_overlap(text: str) -> str:
    """Lowercase, whitespace runs collapsed to one space, trimmed."""
    return _WHITESPACE_RUN.sub(" ", text.lower()).strip(JS_WHITESPACE)


def overlap_text(tool: Tool) -> str:
    """The text a tool is scored on: its name tokens, a space, its description."""
    return normalize_for_overlap(" ".join(name_tokens(tool.name)) + " " + tool.description_text)


def trigram_counts(text: str) -> Counter[str]:
    """Character-trigram multiset of ``text`` padded with two leading and one trailing space."""
    padded = "  " + as_utf16_units(text) + " "
    return Counter(padded[i : i + 3] for i in range(len(padded) - 2))


def dice(left: str, right: str) -> float:
    """The plain definition: 2 Σ min(count_a, count_b) / (|A| + |B|); two empty texts score 1."""
    if not left and not right:
        return 1.0
    if not left or not right:
        return 0.0
    a, b = trigram_counts(left), trigram_counts(right)
    shared = sum(min(count, b[gram]) for gram, count in a.items() if gram in b)
    return 2 * shared / (a.total() + b.total())


def all_pair_shared_counts(bags: Sequence[Counter[str]]) -> list[array[int]]:
    """Row ``i`` holds Σ min over trigrams between bag ``i`` and every bag (lane per partner)."""
    count = len(bags)
    # Feature (gram, k) for k = 1..count; k = 1 is keyed by the bare gram (the common case).
    holders_of: dict[object, list[int]] = {}
    for index, bag in enumerate(bags):
        for gram, times in bag.items():
            holders = holders_of.get(gram)
            if holders is None:
                holders_of[gram] = [index]
            else:
                holders.append(index)
            for k in range(2, times + 1):
                holders_of.setdefault((gram, k), []).append(index)
    largest = max((bag.total() for bag in bags), default=0)
    lane_bytes = 2 if largest < 0xFFFF else 4
    typecode = next(code for code in "HIL" if array(code).itemsize == lane_bytes)
    width = count * lane_bytes
    # A feature held by one tool adds nothing to any pair: it gets no lane integer at all.
    lanes: dict[object, int] = {}
    for feature, holders in holders_of.items():
        if len(holders) > 1:
            buffer = bytearray(width)
            for holder in holders:
                buffer[holder * lane_bytes] = 1
            lanes[feature] = int.from_bytes(buffer, "little")
    rows: list[array[int]] = []
    for bag in bags:
        total = 0
        for gram, times in bag.items():
            lane = lanes.get(gram)
            if lane is None:
                continue  # nobody else has it even once, so no (gram, k > 1) either
            total += lane
            for k in range(2, times + 1):
                lane = lanes.get((gram, k))
                if lane is None:
                    break
                total += lane
        row = array(typecode)
        row.frombytes(total.to_bytes(width, "little"))
        if sys.byteorder == "big":
            row.byteswap()
        rows.append(row)
    return rows


@dataclass(frozen=True)
class _Prepared:
    tool: Tool
    combined: str
    name: str
    description: str
    words: frozenset[str]


def _words(text: str) -> frozenset[str]:
    return frozenset(
        word
        for word in _NON_WORD.split(normalize_for_overlap(text))
        if len(word) >= 3 and word not in STOPWORDS
    )


def _pair(
    a: _Prepared, b: _Prepared, score: float, identical: bool, frequency: Counter[str]
) -> OverlapPair:
    shared = sorted(a.words & b.words, key=lambda word: (frequency[word], word))
    return OverlapPair(
        tools=(a.tool.name, b.tool.name),
        score=score,
        name_score=dice(a.name, b.name),
        description_score=dice(a.description, b.description),
        identical_description=identical,
        distinctive_shared_terms=shared[:MAX_SHARED_TERMS],
    )


def _fixed(score: float, digits: int) -> str:
    """``toFixed`` text; the exact-tie fallback is rare, so the plain format goes first."""
    scaled = score * 10**digits
    if abs(scaled - int(scaled) - 0.5) > 1e-6:
        return f"{score:.{digits}f}"
    return js_fixed(score, digits)


def _pair_diagnostic(first: str, second: str, score: float) -> Diagnostic:
    """A pair finding, built without validation: every field is made here from trusted values.

    A template-heavy 1,000-tool surface yields tens of thousands of these, and per-object
    validation would then cost more than scoring all 499,500 pairs.
    """
    shown = _fixed(score, 2)
    if score >= HIGH_OVERLAP:
        code, severity = "overlap/high", "warning"
        message = (
            f"`{first}` and `{second}` overlap at {shown} on name plus description; a "
            "model is likely to mix them up (a run measures whether it does)"
        )
    else:
        code, severity = "overlap/notable", "info"
        message = f"`{first}` and `{second}` overlap at {shown}"
    return trusted_diagnostic(
        code,
        severity,
        message,
        tools=[first, second],
        detail={"score": float(_fixed(score, 4))},
        hint=_PAIR_HINTS[code],
    )


_PAIR_HINTS = {code: RULES[code].help for code in ("overlap/high", "overlap/notable")}


def description_diagnostics(tools: Sequence[Tool]) -> list[Diagnostic]:
    """Missing (warning) and very short (info, under 20 characters) descriptions."""
    found = []
    for tool in tools:
        length = js_length(tool.description_text)
        if length == 0:
            found.append(
                Diagnostic(
                    code="descriptions/missing",
                    severity="warning",
                    message=(
                        f"Tool `{tool.name}` has no description; a model sees only its "
                        "name and schema"
                    ),
                    tool=tool.name,
                )
            )
        elif length < 20:
            found.append(
                Diagnostic(
                    code="descriptions/very-short",
                    severity="info",
                    message=(
                        f"Tool `{tool.name}` has a {length}-character description, too little to "
                        "tell it apart from a neighbour"
                    ),
                    tool=tool.name,
                    detail={"length": length},
                )
            )
    return found


def analyze_overlap(
    tools: Sequence[Tool], max_pairs: int = MAX_OVERLAP_PAIRS
) -> tuple[OverlapSection, list[Diagnostic]]:
    """Score every pair; report the top ``max_pairs`` and diagnose every pair over a threshold."""
    with paused_gc():
        return _analyze_overlap(tools, max_pairs)


def _analyze_overlap(
    tools: Sequence[Tool], max_pairs: int
) -> tuple[OverlapSection, list[Diagnostic]]:
    prepared = []
    for tool in tools:
        name = " ".join(name_tokens(tool.name))
        prepared.append(
            _Prepared(
                tool=tool,
                combined=normalize_for_overlap(name + " " + tool.description_text),
                name=name,
                description=normalize_for_overlap(tool.description_text),
                words=_words(name + " " + tool.description_text),
            )
        )
    frequency: Counter[str] = Counter()
    for entry in prepared:
        frequency.update(entry.words)
    diagnostics = description_diagnostics(tools)

    count = len(prepared)
    bags = [trigram_counts(entry.combined) for entry in prepared]
    sizes = [bag.total() for bag in bags]
    empty = [not entry.combined for entry in prepared]
    rows = all_pair_shared_counts(bags) if count > 1 else []

    identical: set[tuple[int, int]] = set()
    by_description: dict[str, list[int]] = {}
    for index, entry in enumerate(prepared):
        if entry.tool.has_description and entry.description:
            by_description.setdefault(entry.description, []).append(index)
    for group in by_description.values():
        for position, first in enumerate(group):
            for second in group[position + 1 :]:
                identical.add((first, second))
                diagnostics.append(
                    Diagnostic(
                        code="descriptions/identical",
                        severity="error",
                        message=(
                            f"`{tools[first].name}` and `{tools[second].name}` have identical "
                            "descriptions: nothing in the text says which one to pick"
                        ),
                        tools=[tools[first].name, tools[second].name],
                    )
                )

    best: list[tuple[float, int, int]] = []  # min-heap of (score, -first, -second)
    for first in range(count - 1):
        own = sizes[first]
        if empty[first] or any(empty[first + 1 :]):
            scores = [
                _special_score(
                    empty[first], empty[second], 2 * rows[first][second], own + sizes[second]
                )
                for second in range(first + 1, count)
            ]
        else:
            scores = [
                2 * shared / (own + other)
                for shared, other in zip(rows[first][first + 1 :], sizes[first + 1 :], strict=True)
            ]
        top = max(scores)
        if top >= NOTABLE_OVERLAP:
            for offset, score in enumerate(scores):
                if score >= NOTABLE_OVERLAP and (first, first + 1 + offset) not in identical:
                    diagnostics.append(
                        _pair_diagnostic(tools[first].name, tools[first + 1 + offset].name, score)
                    )
        if max_pairs > 0 and (len(best) < max_pairs or top >= best[0][0]):
            for offset, score in enumerate(scores):
                item = (score, -first, -(first + 1 + offset))
                if len(best) < max_pairs:
                    heapq.heappush(best, item)
                elif item > best[0]:
                    heapq.heapreplace(best, item)
    ranked = sorted(best, key=lambda item: (-item[0], -item[1], -item[2]))
    pairs = [
        _pair(prepared[-a], prepared[-b], score, (-a, -b) in identical, frequency)
        for score, a, b in ranked
    ]
    section = OverlapSection(
        method=METHOD,
        pairs_considered=count * (count - 1) // 2,
        pairs_reported=len(pairs),
        pairs=pairs,
    )
    return section, diagnostics


def _special_score(left_empty: bool, right_empty: bool, twice_shared: int, size: int) -> float:
    if left_empty and right_empty:
        return 1.0
    if left_empty or right_empty:
        return 0.0
    return twice_shared / size
