"""A proposed rewrite before it is measured: new text for one tool, and what it targets."""

from __future__ import annotations

from dataclasses import dataclass

from whichtool_tui.improve.model import Addressed, RewriterKind, Target


@dataclass(frozen=True)
class Proposal:
    """New description (and optionally title) for one tool, or why none could be made.

    ``refused`` holds the reason a model reply was not usable (it changed more than the
    description and title, or was empty); such a proposal is kept and rejected unmeasured.
    """

    tool: str
    rewriter: RewriterKind
    rule: str | None
    description: str
    title: str | None
    target: Target
    addressed: tuple[Addressed, ...]
    refused: str | None = None
