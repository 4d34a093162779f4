"""Improve progress on stderr: one line per candidate as its held-out measurement ends."""

from __future__ import annotations

import sys
from typing import IO, TYPE_CHECKING

from whichtool_tui.text_safety import sanitize_text
from whichtool_tui.usecases.api import CandidateMeasured, ImproveEvent, LoopNote

if TYPE_CHECKING:
    from whichtool_tui.usecases.api import ImproveBudget


class ImproveProgress:
    """An improve sink: ``candidate search_orders#2 (example-requests): passes | rejected``."""

    def __init__(self, stream: IO[str] | None = None) -> None:
        self.stream = stream or sys.stderr

    def budget(self, budget: ImproveBudget) -> None:
        """Say what the loop can send, and under which caps, before its first request."""
        self.stream.write(sanitize_text(budget.line()) + "\n")
        self.stream.flush()

    def __call__(self, event: ImproveEvent) -> None:
        """Write a line for each measured (or refused) candidate, and the loop's notes."""
        if isinstance(event, LoopNote):
            self.stream.write(f"improve: {sanitize_text(event.text)}\n")
            self.stream.flush()
            return
        if not isinstance(event, CandidateMeasured):
            return
        candidate = event.candidate
        how = candidate.rule or "model rewrite"
        state = "passes the held-out gates" if candidate.accepted else "rejected"
        self.stream.write(
            sanitize_text(f"candidate {candidate.id} ({how}): {state}: {candidate.reason}") + "\n"
        )
        self.stream.flush()
