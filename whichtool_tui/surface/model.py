"""The normalised surface: what every check, the hash and the providers work from."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from whichtool_tui.diagnostics import Diagnostic

JsonObject = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Tool:
    """One served tool after normalisation.

    ``input_schema`` is canonical with ``$ref`` intact (what providers receive and what the
    token estimate counts); ``input_schema_resolved`` has internal refs inlined when all of
    them resolved (what analysis and the hash use). ``description`` is None when the server
    sent none (or a non-string); an empty string means it sent ``""``.
    """

    name: str
    description: str | None
    input_schema: JsonObject
    input_schema_resolved: JsonObject
    served_index: int
    title: str | None = None
    output_schema: JsonObject | None = None
    output_schema_resolved: JsonObject | None = None
    annotations: JsonObject | None = None
    # The canonical JSON of ``input_schema`` when normalising already wrote it (the token
    # estimate counts that text; it is not part of the tool's identity).
    input_schema_json: str | None = field(default=None, compare=False, repr=False)

    @property
    def has_description(self) -> bool:
        """True when the server sent a string description (possibly empty)."""
        return self.description is not None

    @property
    def description_text(self) -> str:
        """The description, or ``""`` when absent: what text-based checks read."""
        return self.description or ""


@dataclass(frozen=True)
class NormalizedSurface:
    """Tools sorted by name, the ``sha256:`` surface hash, and what normalising noticed."""

    tools: list[Tool]
    hash: str
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def short_hash(self) -> str:
        """The 12-hex display form of the hash; never compare surfaces with it."""
        return short_hash(self.hash)


def short_hash(surface_hash: str, length: int = 12) -> str:
    """First ``length`` hex characters of a ``sha256:`` hash, for display only."""
    return surface_hash.removeprefix("sha256:")[:length]
