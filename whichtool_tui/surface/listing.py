"""The raw ``tools/list`` of a target, as served, before normalisation."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from whichtool_tui.diagnostics import Diagnostic

Transport = Literal["snapshot", "stdio", "http", "legacy-sse"]


@dataclass(frozen=True)
class ServedListing:
    """Every tool entry a target served, in served order, plus what loading it noticed.

    ``raw_tools`` are untouched JSON values (possibly malformed: normalisation reports those);
    ``ref`` is already redacted (a cwd-relative path, a redacted URL, or the command line).
    """

    transport: Transport
    ref: str
    raw_tools: list[Any]
    diagnostics: list[Diagnostic] = field(default_factory=list)
    server_name: str | None = None
    server_version: str | None = None
    protocol_version: str | None = None
