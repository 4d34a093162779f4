"""Section: Run."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.widgets import Static

from whichtool_tui.ui.screens.base import SectionScreen


class RunScreen(SectionScreen):
    """The Run section."""

    def compose_body(self) -> ComposeResult:
        yield Static(
            "No run yet. Load a surface and a task set first (the demo has both).",
            id="run-empty",
            classes="empty",
        )
