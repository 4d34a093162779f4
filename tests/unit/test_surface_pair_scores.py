"""The matrix-product pair scorer equals the plain Dice definition and the pure-Python path."""

from __future__ import annotations

import pickle
import random
from itertools import combinations
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.surfaces import varied_tools
from whichtool_tui.surface import overlap, pair_scores, shared_counts
from whichtool_tui.surface.normalize import normalize_surface
from whichtool_tui.surface.overlap import (
    OverlapAnalysis,
    analyze_overlap_families,
    dice,
    overlap_text,
    trigram_counts,
)
from whichtool_tui.surface.pair_scores import shared_count_matrix, top_pairs

WORDS = ["get", "list", "user", "users", "the", "a", "of", "id", "workspace", "é", "😀", "ÅB"]


def _both_paths(
    monkeypatch: pytest.MonkeyPatch, raw: list[dict[str, Any]], max_pairs: int
) -> tuple[OverlapAnalysis, OverlapAnalysis]:
    tools = normalize_surface(raw).tools
    monkeypatch.setattr(overlap, "VECTOR_MIN_TOOLS", 10**9)
    plain = analyze_overlap_families(tools, max_pairs)
    monkeypatch.setattr(overlap, "VECTOR_MIN_TOOLS", 0)
    vector = analyze_overlap_families(tools, max_pairs)
    # Scores made a few rows at a time give the same answer as all rows at once.
    monkeypatch.setattr(pair_scores, "ROW_BLOCK_CELLS", 3 * len(tools))
    blocked = analyze_overlap_families(tools, max_pairs)
    assert pickle.dumps(blocked) == pickle.dumps(vector)
    return plain, vector


def _assert_same(plain: OverlapAnalysis, vector: OverlapAnalysis) -> None:
    assert vector.section == plain.section
    assert vector.diagnostics == plain.diagnostics
    assert vector.high_families == plain.high_families
    # Bit for bit: every float, every ordering, ready to cross a pipe from the helper.
    assert pickle.dumps(vector) == pickle.dumps(plain)


def _random_surface(rng: random.Random) -> list[dict[str, Any]]:
    tools: list[dict[str, Any]] = []
    template = " ".join(rng.choice(WORDS) for _ in range(rng.randint(0, 8)))
    for index in range(rng.randint(2, 45)):
        entry: dict[str, Any] = {"name": f"{rng.choice(WORDS[:4])}_{index}"}
        kind = rng.random()
        if kind < 0.3:  # a templated family with a varying slot
            entry["description"] = f"{template} number {index} {template}"
        elif kind < 0.4:  # identical descriptions: an error group, not an overlap
            entry["description"] = template
        elif kind < 0.5:
            entry["name"] = "__" if rng.random() < 0.5 else "--"  # empty overlap texts
            entry["description"] = " " * rng.randint(0, 2)
        elif kind < 0.95:
            entry["description"] = " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 30)))
        tools.append(entry)
    return tools


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=0, max_value=2**32 - 1), st.sampled_from([0, 1, 5, 20, 10_000]))
def test_vector_path_equals_plain_path(seed: int, max_pairs: int) -> None:
    raw = _random_surface(random.Random(seed))
    with pytest.MonkeyPatch.context() as monkeypatch:
        plain, vector = _both_paths(monkeypatch, raw, max_pairs)
    _assert_same(plain, vector)


@pytest.mark.parametrize("count", [2, 3, 40, 120])
def test_templated_surface_equal_on_both_paths(monkeypatch: pytest.MonkeyPatch, count: int) -> None:
    raw = [
        {
            "name": f"get_user_record_{index}",
            "description": f"Get a user record number {index} in the workspace, with its roles.",
        }
        for index in range(count)
    ]
    raw.append({"name": "send_sms", "description": "Send a text message to a phone number."})
    plain, vector = _both_paths(monkeypatch, raw, 20)
    _assert_same(plain, vector)
    assert plain.high_families  # the template really forms a family


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("share", [0.0, 0.2, 0.5, 1.0])
def test_shared_counts_are_the_multiset_intersection(
    monkeypatch: pytest.MonkeyPatch, seed: int, share: float
) -> None:
    rng = random.Random(seed)
    texts = [" ".join(rng.choice(WORDS) for _ in range(rng.randint(0, 40))) for _ in range(25)]
    texts.append(texts[0] + " list list list")  # repeated trigrams: occurrence features k > 1
    # 0: every feature through the product; 1: every one counted pair by pair (rare or
    # through the tools lacking it); between: each feature in its band.
    monkeypatch.setattr(shared_counts, "SPARSE_SHARE", share)
    monkeypatch.setattr(shared_counts, "SPARSE_MIN_HOLDERS", 0 if share == 0 else 2)
    if seed % 2:  # the two-key sort a (feature, tool) too big for one integer takes
        monkeypatch.setattr(shared_counts, "_SORT_KEY_LIMIT", 0)
    shared, sizes = shared_count_matrix(texts)
    for (i, left), (j, right) in combinations(enumerate(texts), 2):
        bag_a, bag_b = trigram_counts(left), trigram_counts(right)
        assert shared[i][j] == sum((bag_a & bag_b).values())
        assert sizes[i] == bag_a.total()


def test_a_trigram_every_tool_holds_counts_for_every_pair() -> None:
    texts = ["alpha common", "beta common", "gamma common"]
    shared, _ = shared_count_matrix(texts)
    for i, j in combinations(range(3), 2):
        expected = sum((trigram_counts(texts[i]) & trigram_counts(texts[j])).values())
        assert shared[i][j] == expected


def test_scores_equal_the_plain_definition(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(3)
    raw = _random_surface(rng) + _random_surface(rng)
    tools = normalize_surface(raw).tools
    monkeypatch.setattr(overlap, "VECTOR_MIN_TOOLS", 0)
    section = analyze_overlap_families(tools, 10**6).section
    texts = {tool.name: overlap_text(tool) for tool in tools}
    assert section.pairs_reported == len(tools) * (len(tools) - 1) // 2
    for pair in section.pairs:
        assert pair.score == dice(texts[pair.tools[0]], texts[pair.tools[1]])


def test_top_pairs_break_ties_by_first_then_second_index() -> None:
    import numpy as np

    scores = np.full((4, 4), -1.0)
    for first, second in combinations(range(4), 2):
        scores[first, second] = 0.5
    scores[2, 3] = 0.9
    assert top_pairs(scores, 3) == [(0.9, 2, 3), (0.5, 0, 1), (0.5, 0, 2)]
    assert top_pairs(scores, 0) == []
    assert len(top_pairs(scores, 100)) == 6


def test_every_band_split_scores_a_big_surface_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rare features counted pair by pair, common ones through the tools lacking them, the rest
    multiplied: whichever band a feature is in, the analysis is bit-for-bit the plain one."""
    tools = normalize_surface(varied_tools(400)).tools
    monkeypatch.setattr(overlap, "VECTOR_MIN_TOOLS", 10**9)
    plain = pickle.dumps(analyze_overlap_families(tools))
    monkeypatch.setattr(overlap, "VECTOR_MIN_TOOLS", 0)
    for share in (0.0, 0.03, 0.3, 1.0):
        monkeypatch.setattr(shared_counts, "SPARSE_SHARE", share)
        assert pickle.dumps(analyze_overlap_families(tools)) == plain, share
