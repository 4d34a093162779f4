"""Upstream whichtool's published JSON Schemas (tests/upstream/schemas), $refs resolved."""

from __future__ import annotations

import json
from functools import cache

from jsonschema import Draft202012Validator
from referencing import Registry, Resource

from tests.support.paths import UPSTREAM

UPSTREAM_SCHEMAS = UPSTREAM / "schemas"


@cache
def _registry() -> Registry:
    registry: Registry = Registry()
    for path in sorted(UPSTREAM_SCHEMAS.glob("*.schema.json")):
        schema = json.loads(path.read_text(encoding="utf-8"))
        registry = registry.with_resource(schema["$id"], Resource.from_contents(schema))
    return registry


def upstream_validator(name: str) -> Draft202012Validator:
    """A validator for upstream's ``<name>.schema.json``, such as ``run-report``."""
    schema = json.loads((UPSTREAM_SCHEMAS / f"{name}.schema.json").read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema, registry=_registry())
