"""Lexical overlap: the all-pairs fast path equals the plain definition exactly."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from whichtool_tui.surface.canonical import js_length
from whichtool_tui.surface.normalize import normalize_surface
from whichtool_tui.surface.overlap import (
    all_pair_shared_counts,
    analyze_overlap,
    dice,
    overlap_text,
    trigram_counts,
)

WORDS = [
    "list",
    "search",
    "get",
    "user",
    "users",
    "file",
    "files",
    "repo",
    "branch",
    "the",
    "a",
    "of",
    "by",
    "id",
    "name",
    "query",
    "delete",
    "create",
    "update",
    "and",
    "or",
    "in",
    "workspace",
    "folder",
    "issue",
    "comment",
    "read",
    "write",
    "😀",
    "é",
    "naïve",
    "ÅB",
]


def _random_text(rng: random.Random) -> str:
    size = rng.choice([0, 1, 2, 5, 12, 30])
    return " ".join(rng.choice(WORDS) for _ in range(size))


@pytest.mark.parametrize("seed", range(8))
def test_fast_path_scores_equal_plain_definition(seed: int) -> None:
    rng = random.Random(seed)
    raw = []
    for index in range(rng.randint(2, 40)):
        entry = {"name": f"{rng.choice(WORDS)}_{index}" if rng.random() < 0.9 else "___"}
        if rng.random() < 0.85:
            entry["description"] = _random_text(rng)
        raw.append(entry)
    raw.append({"name": "__", "description": ""})  # an empty overlap text
    raw.append({"name": "--", "description": "   "})  # and another: two empties score 1
    tools = normalize_surface(raw).tools
    texts = [overlap_text(tool) for tool in tools]
    rows = all_pair_shared_counts([trigram_counts(text) for text in texts])
    section, _ = analyze_overlap(tools, max_pairs=10_000)
    reported = {pair.tools: pair.score for pair in section.pairs}
    assert section.pairs_considered == len(tools) * (len(tools) - 1) // 2
    assert len(reported) == section.pairs_considered
    for (i, left), (j, right) in combinations(enumerate(texts), 2):
        plain = dice(left, right)
        assert reported[(tools[i].name, tools[j].name)] == plain
        if left and right:
            bag_a, bag_b = trigram_counts(left), trigram_counts(right)
            assert rows[i][j] == sum((bag_a & bag_b).values())


def test_pairs_sorted_by_score_then_first_name_and_capped() -> None:
    raw = [
        {"name": f"tool_{i:02d}", "description": "same words here " * (i % 3 + 1)}
        for i in range(12)
    ]
    section, _ = analyze_overlap(normalize_surface(raw).tools)
    assert section.pairs_reported == 20 == len(section.pairs)
    keys = [(-pair.score, pair.tools[0], pair.tools[1]) for pair in section.pairs]
    assert keys == sorted(keys)


def test_identical_descriptions_are_an_error_not_an_overlap_finding() -> None:
    description = "List users in the workspace, optionally filtered by name."
    raw = [
        {"name": "list_users", "description": description},
        {"name": "search_users", "description": description},
        {"name": "get_weather", "description": "Weather forecast for a city, by day."},
    ]
    section, findings = analyze_overlap(normalize_surface(raw).tools)
    codes = [(f.code, tuple(f.tools or ())) for f in findings]
    assert ("descriptions/identical", ("list_users", "search_users")) in codes
    assert not any(code.startswith("overlap/") for code, _ in codes)
    top = section.pairs[0]
    assert top.identical_description is True
    assert top.description_score == 1
    assert top.score == pytest.approx(0.9)
    assert top.distinctive_shared_terms == [
        "filtered",
        "list",
        "name",
        "optionally",
        "users",
        "workspace",
    ]


def test_thresholds_warning_and_info() -> None:
    raw = [
        {
            "name": "fetch_invoice",
            "description": "Fetch one invoice by its id from the billing system.",
        },
        {
            "name": "fetch_invoices",
            "description": "Fetch invoices by their ids from the billing system.",
        },
        {"name": "send_email", "description": "Send an email to a recipient with a subject."},
    ]
    _, findings = analyze_overlap(normalize_surface(raw).tools)
    high = [f for f in findings if f.code == "overlap/high"]
    assert len(high) == 1 and high[0].severity == "warning"
    assert high[0].tools == ["fetch_invoice", "fetch_invoices"]
    assert high[0].detail["score"] >= 0.6


def test_dice_edge_cases() -> None:
    assert dice("", "") == 1.0
    assert dice("", "a") == 0.0
    assert dice("abc", "abc") == 1.0
    # padded "  ab " has trigrams "  a", " ab", "ab "; "  ac " shares only "  a".
    assert dice("ab", "ac") == 2 * 1 / 6


def test_wide_lanes_for_huge_bags() -> None:
    rng = random.Random(7)
    huge = " ".join(rng.choice(WORDS) for _ in range(14_000))  # > 65,535 trigrams
    texts = [huge, huge[: len(huge) // 2], "list users by name"]
    bags = [trigram_counts(text) for text in texts]
    assert bags[0].total() > 0xFFFF
    rows = all_pair_shared_counts(bags)
    for first, second in combinations(range(3), 2):
        expected = dice(texts[first], texts[second])
        size = bags[first].total() + bags[second].total()
        assert 2 * rows[first][second] / size == expected


def test_oversized_descriptions_are_scored_on_their_first_characters() -> None:
    rng = random.Random(7)
    huge = " ".join(rng.choice(WORDS) for _ in range(14_000))
    raw = [
        {"name": "huge_a", "description": huge},
        {"name": "huge_b", "description": huge[: len(huge) // 2]},
        {"name": "small", "description": "list users by name"},
    ]
    tools = normalize_surface(raw).tools
    section, findings = analyze_overlap(tools)
    texts = {tool.name: overlap_text(tool) for tool in tools}
    assert len(texts["huge_a"]) < 20_100  # the name tokens plus the first 20,000 characters
    for pair in section.pairs:
        assert pair.score == dice(texts[pair.tools[0]], texts[pair.tools[1]])
    oversized = [d for d in findings if d.code == "descriptions/oversized"]
    assert [d.tool for d in oversized] == ["huge_a", "huge_b"]
    assert oversized[0].detail == {"length": js_length(huge), "scored": 20_000}
