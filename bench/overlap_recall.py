"""Recall of the blocked overlap scorer against the plain Sørensen-Dice definition at registry
scale: every pair of a sample of rows scored in pure Python (``overlap.dice``'s arithmetic),
its pairs at or above the notable threshold (0.4) compared with the ones ``scored_pairs`` hands
to the family grouping for those rows. Prints recall and extra pairs; asserts nothing.

Run: .venv/bin/python bench/overlap_recall.py [--tools 10000] [--rows 400]
"""

from __future__ import annotations

import argparse
import random
import time

from inspect_registry import varied_tools

from whichtool_tui.surface import overlap
from whichtool_tui.surface.normalize import normalize_surface
from whichtool_tui.surface.pair_scores import PairRow, scored_pairs

NOTABLE, HIGH = 0.4, 0.6


def identical_groups(texts: list[str], described: list[bool]) -> list[int]:
    """Each tool's identical-description group (as ``overlap`` numbers them), else its own."""
    members: dict[str, list[int]] = {}
    for index, (text, has) in enumerate(zip(texts, described, strict=True)):
        if has and text:
            members.setdefault(text, []).append(index)
    group_of = [-2 - index for index in range(len(texts))]
    for number, group in enumerate(g for g in members.values() if len(g) > 1):
        for index in group:
            group_of[index] = number
    return group_of


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tools", type=int, default=10_000)
    parser.add_argument("--rows", type=int, default=400)
    args = parser.parse_args()
    tools = normalize_surface(varied_tools(args.tools)).tools
    texts = [overlap.overlap_text(tool) for tool in tools]
    descriptions = [overlap.normalize_for_overlap(overlap.scored_description(t)) for t in tools]
    group_of = identical_groups(descriptions, [tool.has_description for tool in tools])
    blocked: dict[int, set[int]] = {}

    def keep(row: PairRow) -> None:
        partners = blocked.setdefault(row.first, set())
        for side in (row.strong, row.weak):
            if side is not None:
                partners.update(int(partner) for partner in side.partners)

    started = time.perf_counter()
    scored_pairs(texts, [not text for text in texts], group_of, (NOTABLE, HIGH), 20, keep)
    blocked_seconds = time.perf_counter() - started
    bags = [overlap.trigram_counts(text) for text in texts]
    sample = random.Random(7).sample(range(len(texts) - 1), min(args.rows, len(texts) - 1))
    expected = found = extra = 0
    for first in sample:
        bag, size = bags[first], bags[first].total()
        exact = set()
        for second in range(first + 1, len(texts)):
            if group_of[first] >= 0 and group_of[first] == group_of[second]:
                continue  # identical descriptions: their own finding, not a pair
            other = bags[second]
            shared = sum(min(count, other[gram]) for gram, count in bag.items() if gram in other)
            if 2 * shared / (size + other.total()) >= NOTABLE:
                exact.add(second)
        got = blocked.get(first, set())
        expected += len(exact)
        found += len(exact & got)
        extra += len(got - exact)
    pairs = len(sample) * len(texts)
    print(
        f"{len(texts):,} varied tools, {len(sample)} sampled rows (~{pairs // 2:,} pairs): exact"
        f" pairs >= {NOTABLE} {expected:,}, found {found:,}, extra {extra:,}, recall"
        f" {found / max(expected, 1):.2%}; all pairs scored blocked in {blocked_seconds:.1f} s"
    )


if __name__ == "__main__":
    main()
