"""Section: Bout."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.widgets import Static

from whichtool_tui.ui.screens.base import SectionScreen


class BoutScreen(SectionScreen):
    """The Bout section."""

    def compose_body(self) -> ComposeResult:
        yield Static(
            "No receipt loaded. Open one with [b]whichtool-tui open receipt.json[/b].",
            id="bout-empty",
            classes="empty",
        )
