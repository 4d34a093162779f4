"""Section: Tasks."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.widgets import Static

from whichtool_tui.ui.screens.base import SectionScreen


class TasksScreen(SectionScreen):
    """The Tasks section."""

    def compose_body(self) -> ComposeResult:
        yield Static(
            "No task set loaded. Open one with [b]whichtool-tui open FILE[/b] "
            "or the demo (home, [b]d[/b]).",
            id="tasks-empty",
            classes="empty",
        )
