"""Section: Results."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.widgets import Static

from whichtool_tui.ui.screens.base import SectionScreen


class ResultsScreen(SectionScreen):
    """The Results section."""

    def compose_body(self) -> ComposeResult:
        yield Static(
            "No run report loaded. Open one with [b]whichtool-tui open run.json[/b].",
            id="results-empty",
            classes="empty",
        )
