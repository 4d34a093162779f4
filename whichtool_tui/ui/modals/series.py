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


def series_text(kind: str, data: Any) -> tuple[str, str]:
    """(title, body) for a ``bout-trials`` or ``conformance`` artefact; the body never holds a
    raw control character (the terminal renderers sanitize every string)."""
    from whichtool_tui.usecases.models import render_conformance, render_series

    if kind == "conformance":
        from whichtool_tui.usecases.models import ConformanceReport

        report = ConformanceReport.model_validate(data)
        return "Defence conformance", render_conformance(report, "terminal")
    from whichtool_tui.usecases.models import TrialSeries

    series = TrialSeries.model_validate(data)
    return f"Bout trials · {series.trials}", render_series(series, "terminal")


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
        self.title_text, self.body = series_text(kind, data)

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="series") as box:
            box.border_title = self.title_text
            box.border_subtitle = "esc to close"
            yield Static(Text(self.body), id="series-body")

    def action_close(self) -> None:
        """Back to the Bout section."""
        self.dismiss(None)
