"""What the improve loop reports while it works, for a face that shows candidates as they come."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from whichtool_tui.improve.model import Candidate


@dataclass(frozen=True)
class CandidateProposed:
    """A rewrite exists and its held-out measurement is about to start (or it was refused)."""

    tool: str
    rule: str | None
    description_before: str
    description_after: str


@dataclass(frozen=True)
class CandidateMeasured:
    """A candidate's figures and decision (for now: a later candidate of its tool may win)."""

    candidate: Candidate


@dataclass(frozen=True)
class LoopNote:
    """Something the loop found before measuring (tools it cannot measure), said at once."""

    text: str


ImproveEvent = CandidateProposed | CandidateMeasured | LoopNote
ImproveSink = Callable[[ImproveEvent], None]


def discard_improve_event(event: ImproveEvent) -> None:
    """The default sink: nobody is watching."""
