"""The host profile file format: one host, its rules, each rule's effect and source."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from whichtool_tui.strict_model import StrictModel

Effect = Literal[
    "request-rejected",
    "listing-rejected",
    "tool-dropped",
    "truncated",
    "submission-blocked",
    "renamed-by-host",
    "non-conforming",
]
"""What a broken rule does on that host (see docs/hosts.md for each one's meaning)."""

BLOCKING_EFFECTS: frozenset[str] = frozenset(
    ("request-rejected", "listing-rejected", "tool-dropped", "submission-blocked", "non-conforming")
)
"""Effects that make a host incompatible; truncation and renaming degrade but still work."""

CheckKind = Literal[
    "name-pattern",
    "tool-count",
    "description-length",
    "root-combinator",
    "schema-root-type",
    "schema-keywords",
    "type-array",
    "enum-non-string",
    "ref",
    "strict-object",
    "hints-explicit",
    "title-present",
]

FixKind = Literal["rename", "fold-combinator", "inline-defs", "output-type-object", "hints"]


class HostRule(StrictModel):
    """One thing a host refuses or changes, how we check it, and where we learnt it."""

    id: str = Field(pattern=r"^[a-z0-9-]+$")
    check: CheckKind
    params: dict[str, Any] = Field(default_factory=dict)
    effect: Effect
    summary: str
    fix: FixKind | None = None
    sources: list[str] = Field(min_length=1)
    verified: str  # an ISO date, or "unverified: <why>"
    note: str | None = None


class HostProfile(StrictModel):
    """One host (a model API, a client, an SDK or a directory) and its rules."""

    host: str = Field(pattern=r"^[a-z0-9-]+$")
    title: str
    about: str
    extends: list[str] = Field(default_factory=list)
    # The findability search profile (discovery/search_profiles) that models this host's tool
    # search, when it defers tools behind one; readiness reports it after `--tasks`.
    tool_search: str | None = Field(default=None, alias="toolSearch")
    rules: list[HostRule]
