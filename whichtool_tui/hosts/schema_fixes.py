"""Mechanical schema rewrites a host fix proposes: fold a root combinator, inline local $defs."""

from __future__ import annotations

import copy
import json
from typing import Any

COMBINATORS = ("oneOf", "anyOf", "allOf")
_FOLDABLE_KEYS = frozenset(
    ("type", "properties", "required", "description", "title", "additionalProperties")
)
MAX_INLINED_CHARS = 100_000
MAX_INLINED_GROWTH = 8
"""Inlining stops being a fix past these: a schema that grows 8 times is a new problem."""


def _alternative_text(alternative: dict[str, Any]) -> str:
    names = alternative.get("required") or list(alternative.get("properties", {}))
    label = alternative.get("description") or alternative.get("title")
    text = ", ".join(str(name) for name in names) if names else "no parameters"
    return f"{text} ({label})" if isinstance(label, str) and label else text


def fold_root_combinator(schema: dict[str, Any]) -> tuple[dict[str, Any], str] | None:
    """The schema with its root oneOf/anyOf/allOf merged into plain properties, and a sentence
    stating the alternatives for the description; None when an alternative is not a plain
    object schema (then no mechanical fold exists)."""
    folded = copy.deepcopy(schema)
    sentences = []
    for keyword in COMBINATORS:
        alternatives = folded.pop(keyword, None)
        if alternatives is None:
            continue
        if not isinstance(alternatives, list) or not all(
            isinstance(item, dict) and set(item) <= _FOLDABLE_KEYS for item in alternatives
        ):
            return None
        properties: dict[str, Any] = dict(folded.get("properties") or {})
        for alternative in alternatives:
            for name, value in (alternative.get("properties") or {}).items():
                properties.setdefault(name, value)
        required = list(folded.get("required") or [])
        requirements = [set(item.get("required") or []) for item in alternatives]
        if keyword == "allOf":
            shared = set().union(*requirements) if requirements else set()
        else:
            shared = set.intersection(*requirements) if requirements else set()
        required += sorted(name for name in shared if name not in required)
        if properties:
            folded["properties"] = properties
        if required:
            folded["required"] = required
        if keyword != "allOf" and alternatives:
            lead = "exactly one of" if keyword == "oneOf" else "at least one of"
            options = "; ".join(_alternative_text(item) for item in alternatives)
            sentences.append(f"Give {lead}: {options}.")
    folded["type"] = "object"
    return folded, " ".join(sentences)


def inline_definitions(schema: dict[str, Any]) -> dict[str, Any] | None:
    """The schema with every local $ref inlined and $defs dropped, or None when a ref does not
    resolve (remote, missing, a cycle) or the result would grow past the bounds."""
    from whichtool_tui.surface.normalize import resolve_internal_refs

    resolved, unresolved = resolve_internal_refs(schema)
    if unresolved:
        return None
    before = len(json.dumps(schema))
    after = len(json.dumps(resolved))
    if after > MAX_INLINED_CHARS or after > MAX_INLINED_GROWTH * max(before, 1):
        return None
    return resolved
