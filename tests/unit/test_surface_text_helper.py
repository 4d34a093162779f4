"""What the early helper is sent (names, descriptions, served indexes) gives the same overlap
and the same text-only findings as the full surface, in the same places of the review."""

from __future__ import annotations

import pickle
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from whichtool_tui.surface.checks import CheckOptions, run_checks, run_text_checks
from whichtool_tui.surface.inspect import surface_token_counts
from whichtool_tui.surface.normalize import normalize_surface
from whichtool_tui.surface.overlap import analyze_overlap_families
from whichtool_tui.surface.text_helper import text_input, text_review

WORDS = ["get", "list", "user", "users", "the", "a", "of", "id", "workspace", "é", "TODO", "or"]
CONVENTIONS = ["{}_{}", "{}-{}", "{}{}", "{}.{}"]


def _surface(rng: random.Random) -> list[dict[str, Any]]:
    """Templated families, restated names, mixed naming conventions, schemas with parameter
    descriptions and annotations (which text-only rules must never read)."""
    template = " ".join(rng.choice(WORDS) for _ in range(rng.randint(0, 8)))
    tools: list[dict[str, Any]] = []
    for index in range(rng.randint(2, 40)):
        verb, noun = rng.choice(WORDS[:4]), rng.choice(WORDS[2:8])
        entry: dict[str, Any] = {"name": rng.choice(CONVENTIONS).format(verb, noun) + str(index)}
        kind = rng.random()
        if kind < 0.3:
            entry["description"] = f"{template} number {index} {template}"
        elif kind < 0.4:
            entry["description"] = f"{verb} {noun}"  # restates the name
        elif kind < 0.9:
            entry["description"] = " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 20)))
        if rng.random() < 0.6:
            entry["inputSchema"] = {
                "type": "object",
                "properties": {f"{noun}_id": {"type": "string", "description": "TODO"}},
            }
        if rng.random() < 0.3:
            entry["annotations"] = {"readOnlyHint": rng.random() < 0.5}
        tools.append(entry)
    rng.shuffle(tools)  # served order differs from the sorted order
    return tools


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_the_helpers_input_gives_the_same_overlap_and_text_findings(seed: int) -> None:
    surface = normalize_surface(_surface(random.Random(seed)))
    full = analyze_overlap_families(surface.tools)
    sent = text_review(pickle.loads(pickle.dumps(text_input(surface.tools))))
    assert pickle.dumps(sent.overlap) == pickle.dumps(full)
    families = CheckOptions(high_overlap_families=full.high_families)
    assert sent.findings == run_text_checks(surface, families)


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_rules_run_elsewhere_land_where_they_would_have(seed: int) -> None:
    surface = normalize_surface(_surface(random.Random(seed)))
    overlap = analyze_overlap_families(surface.tools)
    tokens = {name: item.total for name, item in surface_token_counts(surface).items()}
    options = CheckOptions(max_tools=3, tool_tokens=tokens)
    here = run_checks(surface, options, lambda: overlap.high_families)
    review = text_review(text_input(surface.tools))
    split = run_checks(surface, options, lambda: overlap.high_families, lambda: review.findings)
    assert split == here
