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
from whichtool_tui.gc_phases import paused_gc
from whichtool_tui.surface.canonical import (
    JS_WHITESPACE,
    JS_WHITESPACE_CLASS,
    as_utf16_units,
)
from whichtool_tui.surface.families import Components, RowPairs
from whichtool_tui.surface.model import Tool
from whichtool_tui.surface.naming import name_tokens
from whichtool_tui.surface.overlap_findings import HIGH_OVERLAP as HIGH_OVERLAP
from whichtool_tui.surface.overlap_findings import (
    MAX_SCORED_CHARACTERS,
    description_diagnostics,
    family_diagnostic,
    identical_diagnostic,
)
from whichtool_tui.surface.overlap_findings import NOTABLE_OVERLAP as NOTABLE_OVERLAP
from whichtool_tui.surface.pair_scores import PairRow, scored_pairs
from whichtool_tui.surface.report_model import OverlapPair, OverlapSection

MAX_OVERLAP_PAIRS = 20
VECTOR_MIN_TOOLS = 300
"""From this many tools the pairs are scored as matrix products (numpy), below in pure Python."""
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
    """The text a tool is scored on: its name tokens, a space, its (scored) description."""
    return normalize_for_overlap(" ".join(name_tokens(tool.name)) + " " + scored_description(tool))


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


ROW_BLOCK = 128
"""Rows scored together against only the partners from their block on (the upper triangle)."""


def all_pair_shared_counts(bags: Sequence[Counter[str]]) -> list[array[int]]:
    """Row ``i`` holds Σ min over trigrams between bag ``i`` and every bag ``j > i`` (lane j).

    Entries ``j <= i`` are not computed (they read 0): only the upper triangle is needed, so
    each block of ``ROW_BLOCK`` rows adds lanes that start at its own first row.
    """
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
    # A feature held by one tool adds nothing to any pair: it gets no lane integer at all. A
    # feature every tool holds (most of a templated surface's) adds one to every lane of every
    # row: those are counted once instead of added row by row.
    lanes: dict[object, int] = {}
    universal = 0
    for feature, holders in holders_of.items():
        if len(holders) == count and count > 1:
            universal += 1
            lanes[feature] = 0
        elif len(holders) > 1:
            buffer = bytearray(width)
            for holder in holders:
                buffer[holder * lane_bytes] = 1
            lanes[feature] = int.from_bytes(buffer, "little")
    rows: list[array[int]] = []
    for base in range(0, count, ROW_BLOCK):
        # The block's lanes: partners before `base` shifted out, so every sum is shorter.
        shift = base * lane_bytes * 8
        block_width = width - base * lane_bytes
        every = int.from_bytes(universal.to_bytes(lane_bytes, "little") * (count - base), "little")
        padding = bytes(base * lane_bytes)
        block_lanes: dict[object, int] = {}
        for bag in bags[base : base + ROW_BLOCK]:
            total = every
            for gram, times in bag.items():
                lane = block_lanes.get(gram)
                if lane is None:
                    lane = lanes.get(gram)
                    if lane is None:
                        continue  # nobody else has it even once, so no (gram, k > 1) either
                    lane = block_lanes[gram] = lane >> shift
                if lane:
                    total += lane
                for k in range(2, times + 1):
                    feature = (gram, k)
                    lane = block_lanes.get(feature)
                    if lane is None:
                        lane = lanes.get(feature)
                        if lane is None:
                            break
                        lane = block_lanes[feature] = lane >> shift
                    if lane:
                        total += lane
            row = array(typecode)
            row.frombytes(padding + total.to_bytes(block_width, "little"))
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


def _words(normalized: str) -> frozenset[str]:
    """The distinctive words of an already normalised text (``normalize_for_overlap``)."""
    return frozenset(
        word for word in _NON_WORD.split(normalized) if len(word) >= 3 and word not in STOPWORDS
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


@dataclass(frozen=True)
class OverlapAnalysis:
    """The overlap block, its findings, and the high-overlap families the rules read."""

    section: OverlapSection
    diagnostics: list[Diagnostic]
    high_families: tuple[tuple[str, ...], ...]


def analyze_overlap(
    tools: Sequence[Tool], max_pairs: int = MAX_OVERLAP_PAIRS
) -> tuple[OverlapSection, list[Diagnostic]]:
    """Score every pair; report the top ``max_pairs`` and one finding per overlapping family."""
    analysis = analyze_overlap_families(tools, max_pairs)
    return analysis.section, analysis.diagnostics


def analyze_overlap_families(
    tools: Sequence[Tool], max_pairs: int = MAX_OVERLAP_PAIRS
) -> OverlapAnalysis:
    """As :func:`analyze_overlap`, also naming the families of pairs scored 0.6 or more."""
    with paused_gc():
        return _analyze_overlap(tools, max_pairs)


def scored_description(tool: Tool) -> str:
    """The description as scored: at most ``MAX_SCORED_CHARACTERS`` (the rest is not read)."""
    text = tool.description_text
    return text[:MAX_SCORED_CHARACTERS] if len(text) > MAX_SCORED_CHARACTERS else text


def _analyze_overlap(tools: Sequence[Tool], max_pairs: int) -> OverlapAnalysis:
    prepared = []
    for tool in tools:
        name = " ".join(name_tokens(tool.name))
        description = scored_description(tool)
        combined = normalize_for_overlap(name + " " + description)
        prepared.append(
            _Prepared(
                tool=tool,
                combined=combined,
                name=name,
                description=normalize_for_overlap(description),
                words=_words(combined),
            )
        )
    frequency: Counter[str] = Counter()
    for entry in prepared:
        frequency.update(entry.words)
    diagnostics = description_diagnostics(tools)

    count = len(prepared)
    texts = [entry.combined for entry in prepared]
    empty = [not text for text in texts]

    by_description: dict[str, list[int]] = {}
    for index, entry in enumerate(prepared):
        if entry.tool.has_description and entry.description:
            by_description.setdefault(entry.description, []).append(index)
    # group_of[i]: the identical-description group of tool i, or a value no other tool has.
    group_of = [-2 - index for index in range(count)]
    for number, group in enumerate(g for g in by_description.values() if len(g) > 1):
        for index in group:
            group_of[index] = number
        diagnostics.append(identical_diagnostic([tools[index].name for index in group]))

    high = Components(count)
    notable = Components(count)

    def join(row: PairRow) -> None:
        for target, joined in ((high, row.strong), (notable, row.weak)):
            if joined is not None:
                target.add_row(row.first, joined)

    if count >= VECTOR_MIN_TOOLS:
        thresholds = (NOTABLE_OVERLAP, HIGH_OVERLAP)
        ranked = scored_pairs(texts, empty, group_of, thresholds, max_pairs, join)
    else:
        rows, ranked = _plain_pairs(texts, empty, group_of, max_pairs)
        for row in rows:
            join(row)
    pairs = [
        _pair(prepared[a], prepared[b], score, group_of[a] == group_of[b], frequency)
        for score, a, b in ranked
    ]
    section = OverlapSection(
        method=METHOD,
        pairs_considered=count * (count - 1) // 2,
        pairs_reported=len(pairs),
        pairs=pairs,
    )
    high_families = high.families()
    in_high = {
        member: number for number, family in enumerate(high_families) for member in family.members
    }
    descriptions = [scored_description(tool) for tool in tools]
    for family in high_families:
        diagnostics.append(family_diagnostic(family, tools, descriptions, high=True))
    for family in notable.families():
        homes = {in_high.get(member, -1 - member) for member in family.members}
        if len(homes) > 1:  # not just the inner pairs of one high family again
            diagnostics.append(family_diagnostic(family, tools, descriptions, high=False))
    names = tuple(
        tuple(tools[member].name for member in family.members) for family in high_families
    )
    return OverlapAnalysis(section, diagnostics, names)


def _plain_pairs(
    texts: Sequence[str], empty: Sequence[bool], group_of: Sequence[int], max_pairs: int
) -> tuple[list[PairRow], list[tuple[float, int, int]]]:
    """A small surface's pairs, scored row by row in pure Python (no numpy to import)."""
    count = len(texts)
    bags = [trigram_counts(text) for text in texts]
    sizes = [bag.total() for bag in bags]
    shared = all_pair_shared_counts(bags) if count > 1 else []
    found: list[PairRow] = []
    best: list[tuple[float, int, int]] = []  # min-heap of (score, -first, -second)
    for first in range(count - 1):
        own = sizes[first]
        start = first + 1
        if empty[first] or any(empty[start:]):
            scores = [
                _special_score(
                    empty[first], empty[second], 2 * shared[first][second], own + sizes[second]
                )
                for second in range(start, count)
            ]
        else:
            scores = [
                2 * common / (own + other)
                for common, other in zip(shared[first][start:], sizes[start:], strict=True)
            ]
        top = max(scores)
        if top >= NOTABLE_OVERLAP:
            found.append(_row_pairs(first, scores, group_of))
        if max_pairs > 0 and (len(best) < max_pairs or top >= best[0][0]):
            floor = best[0][0] if len(best) >= max_pairs else -1.0
            for offset, score in enumerate(scores):
                if score < floor:
                    continue
                item = (score, -first, -(start + offset))
                if len(best) < max_pairs:
                    heapq.heappush(best, item)
                elif item > best[0]:
                    heapq.heapreplace(best, item)
                    floor = best[0][0]
    ranked = sorted(best, key=lambda item: (-item[0], -item[1], -item[2]))
    return found, [(score, -a, -b) for score, a, b in ranked]


def _row_pairs(first: int, scores: list[float], group_of: Sequence[int]) -> PairRow:
    """Row ``first``'s pairs over the thresholds (identical descriptions aside)."""
    start = first + 1
    group = group_of[first]
    if group < 0 and min(scores) >= HIGH_OVERLAP:  # a templated row: every partner is close
        return PairRow(first, RowPairs.of(range(start, start + len(scores)), scores), None)
    kept = [
        (second, score)
        for second, score in zip(range(start, start + len(scores)), scores, strict=True)
        if score >= NOTABLE_OVERLAP and (group < 0 or group_of[second] != group)
    ]
    strong = [item for item in kept if item[1] >= HIGH_OVERLAP]
    weak = [item for item in kept if item[1] < HIGH_OVERLAP] if len(strong) < len(kept) else []
    return PairRow(
        first,
        RowPairs.of([item[0] for item in strong], [item[1] for item in strong]),
        RowPairs.of([item[0] for item in weak], [item[1] for item in weak]),
    )


def _special_score(left_empty: bool, right_empty: bool, twice_shared: int, size: int) -> float:
    if left_empty and right_empty:
        return 1.0
    if left_empty or right_empty:
        return 0.0
    return twice_shared / size
