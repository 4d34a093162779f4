"""Generated surfaces for tests at scale: varied tools (many verbs, nouns and sentences, a
seeded mix), the shape a gateway's registry has, not one template repeated."""

from __future__ import annotations

import random
from typing import Any

VERBS = ["get", "list", "search", "create", "update", "delete", "sync", "export"]
NOUNS = ["user", "invoice", "ticket", "branch", "payment", "order", "report", "alert"]
SENTENCES = [
    "Returns at most 50 results per page.",
    "Requires the admin scope.",
    "Timestamps are ISO 8601 in UTC.",
    "Fails with 404 when it does not exist.",
    "Soft-deleted items are excluded.",
]


def varied_tools(count: int) -> list[dict[str, Any]]:
    """``count`` tools named ``verb_noun_index``, each description a seeded mix of sentences
    (the same list for the same count)."""
    rng = random.Random(count)
    raw = []
    for index in range(count):
        verb, noun = rng.choice(VERBS), rng.choice(NOUNS)
        text = f"{verb.capitalize()} {noun}s {rng.choice(['by id', 'in bulk', 'as CSV'])}. "
        text += " ".join(rng.sample(SENTENCES, rng.randint(1, 4)))
        raw.append({"name": f"{verb}_{noun}_{index}", "description": text})
    return raw
