"""Walk a tool's resolved input schema parameter by parameter (nested properties and items).

Parameter rules read schemas through here so that "what is a parameter", "is it typed" and
"is it a free string" mean the same thing in every rule.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

MAX_DEPTH = 4
_COMBINATORS = ("anyOf", "oneOf", "allOf")
_TYPING_KEYS = ("type", "enum", "const", "$ref", "not", *_COMBINATORS)
_CONSTRAINING_KEYS = ("enum", "const", "pattern", "format")
_NAME_MAPS = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")


@dataclass(frozen=True, slots=True)
class Parameter:
    """One property (``a.b`` for nested, ``a[]`` for array items) and its schema."""

    path: str
    name: str
    schema: dict[str, Any]
    required: bool
    is_items: bool = False


def _children(path: str, schema: dict[str, Any], depth: int) -> Iterator[Parameter]:
    if depth >= MAX_DEPTH:
        return
    properties = schema.get("properties")
    required = schema.get("required")
    wanted = set(required) if isinstance(required, list) else set()
    if isinstance(properties, dict):
        for name, child in properties.items():
            if not isinstance(child, dict):
                continue
            child_path = f"{path}.{name}" if path else name
            yield Parameter(child_path, name, child, name in wanted)
            yield from _children(child_path, child, depth + 1)
    items = schema.get("items")
    if path and isinstance(items, dict):
        item_path = f"{path}[]"
        yield Parameter(item_path, path.rsplit(".", 1)[-1], items, False, is_items=True)
        yield from _children(item_path, items, depth + 1)


def iter_parameters(root: dict[str, Any]) -> Iterator[Parameter]:
    """Every parameter of a tool's input schema, outermost first, in schema key order."""
    yield from _children("", root, 0)


_WALKED: dict[int, tuple[dict[str, Any], tuple[Parameter, ...]]] = {}
_MAX_WALKED = 20_000


def schema_parameters(root: dict[str, Any]) -> tuple[Parameter, ...]:
    """:func:`iter_parameters` of a schema, walked once for every rule that reads it.

    Remembered by identity (the entry holds the schema, so its id cannot be reused meanwhile);
    normalised schemas are never changed in place, so a remembered walk stays true.
    """
    entry = _WALKED.get(id(root))
    if entry is not None and entry[0] is root:
        return entry[1]
    walked = tuple(_children("", root, 0))
    if len(_WALKED) >= _MAX_WALKED:
        _WALKED.clear()
    _WALKED[id(root)] = (root, walked)
    return walked


def _variants(schema: dict[str, Any]) -> list[dict[str, Any]]:
    found = [schema]
    for key in _COMBINATORS:
        options = schema.get(key)
        if isinstance(options, list):
            found.extend(option for option in options if isinstance(option, dict))
    return found


def declared_types(schema: dict[str, Any]) -> set[str]:
    """Every ``type`` the schema or its anyOf / oneOf / allOf branches declare."""
    types: set[str] = set()
    for variant in _variants(schema):
        value = variant.get("type")
        if isinstance(value, str):
            types.add(value)
        elif isinstance(value, list):
            types.update(item for item in value if isinstance(item, str))
    return types


def is_typed(schema: dict[str, Any]) -> bool:
    """True when the schema says what kind of value it takes in any standard way."""
    return any(key in schema for key in _TYPING_KEYS)


def is_constrained(schema: dict[str, Any]) -> bool:
    """True when the schema or a branch pins its values (enum, const, pattern or format)."""
    return any(key in variant for variant in _variants(schema) for key in _CONSTRAINING_KEYS)


def is_free_string(schema: dict[str, Any]) -> bool:
    """A string parameter with nothing constraining its value."""
    return "string" in declared_types(schema) and not is_constrained(schema)


def has_example(schema: Any) -> bool:
    """True when ``examples``, ``example`` or ``default`` appears anywhere in the schema."""
    stack = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, list):
            stack.extend(node)
            continue
        if not isinstance(node, dict):
            continue
        if "examples" in node or "example" in node or "default" in node:
            return True
        for key, value in node.items():
            if key in _NAME_MAPS and isinstance(value, dict):
                stack.extend(value.values())  # keys are parameter names, not keywords
            elif isinstance(value, dict | list):
                stack.append(value)
    return False
