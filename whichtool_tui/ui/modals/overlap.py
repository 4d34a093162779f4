"""Two tools' descriptions side by side with the terms they share highlighted."""

from __future__ import annotations

import re
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from whichtool_tui.ui.surface_model import Finding, SurfaceView, shared_words
from whichtool_tui.ui.widgets.tool_detail import safe_multiline


def highlight(text: str, terms: set[str]) -> Text:
    """``text`` with every whole-word occurrence of ``terms`` (case-insensitive) highlighted."""
    rendered = Text(text)
    for term in sorted(terms, key=len, reverse=True):
        pattern = rf"(?i)(?<![a-z0-9]){re.escape(term)}(?![a-z0-9])"
        rendered.highlight_regex(pattern, style="bold reverse")
    return rendered


class OverlapModal(ModalScreen[None]):
    """The pair view behind a finding about two tools (or two members of a family)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q", "close", "Close")]

    def __init__(
        self, view: SurfaceView, finding: Finding, tools: tuple[str, str] | None = None
    ) -> None:
        super().__init__()
        self._view = view
        self._finding = finding
        self._tools = tools or (finding.tools[0], finding.tools[1])

    def compose(self) -> ComposeResult:
        first, second = self._tools
        pair = self._view.pair(first, second)
        scored = self._view.pair_score(first, second)
        text_a = self._view.description(first)
        text_b = self._view.description(second)
        terms: set[str] = set(pair.shared_terms) if pair else set()
        if not terms and text_a and text_b:
            terms = shared_words(text_a, text_b)
        with Vertical(id="overlap") as box:
            score = f"{scored:.2f}" if scored is not None else "?"
            box.border_title = f"{first} ~ {second} · overlap {score}"
            box.border_subtitle = "esc to close"
            yield Static(
                Text.assemble(
                    (self._finding.code, "bold"),
                    "  ",
                    self._finding.message,
                    "\n",
                    ("shared terms: ", "dim"),
                    ", ".join(sorted(terms)) or "—",
                ),
                id="overlap-head",
            )
            with Horizontal(id="overlap-sides"):
                for name, text in ((first, text_a), (second, text_b)):
                    with VerticalScroll(classes="overlap-side") as side:
                        side.border_title = name
                        if text is None:
                            body = Text(
                                "(description not available: open the live target)", style="dim"
                            )
                        else:
                            body = highlight(safe_multiline(text), terms)
                        yield Static(body)
            if self._finding.hint:
                yield Static(Text(f"fix: {self._finding.hint}", style="italic"), id="overlap-hint")

    def action_close(self) -> None:
        self.dismiss(None)
