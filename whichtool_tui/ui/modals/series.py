"""A saved bout series over the Bout section: per-atom rates over N trials, or a defence's
conformance table, drawn with the same text the terminal prints."""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static


class SeriesModal(ModalScreen[None]):
    """Rates over N trials or a conformance table, scrollable, closed with esc."""

    DEFAULT_CSS = """
    SeriesModal { align: center middle; }
    SeriesModal > VerticalScroll {
        width: 90%; height: 80%; border: round $primary; background: $surface; padding: 0 1;
    }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q", "close", "Close")]

    def __init__(self, kind: str, data: Any) -> None:
        super().__init__()
        from whichtool_tui.usecases.series_text import saved_series_text

        self.title_text, self.body = saved_series_text(kind, data)

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="series") as box:
            box.border_title = self.title_text
            box.border_subtitle = "esc to close"
            yield Static(Text(self.body), id="series-body")

    def action_close(self) -> None:
        """Back to the Bout section."""
        self.dismiss(None)
