"""`?` / F1: every binding active where the user was, grouped by where it is defined."""

from __future__ import annotations

from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import ActiveBinding, Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

GLOBAL_KEYS = (
    ("1-5", "Surface · Tasks · Run · Results · Bout"),
    ("0 (h)", "home (h is `held` on the Bout screen)"),
    ("ctrl+p", "command palette: every action by name"),
    ("?, f1", "this help"),
    ("q", "back (quit on home)"),
    ("ctrl+q", "quit"),
    ("tab", "next pane"),
)


class HelpScreen(ModalScreen[None]):
    """A modal listing the bindings of the screen it was opened from."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark,f1", "dismiss_help", "Close")
    ]

    def __init__(self, bindings: dict[str, ActiveBinding]) -> None:
        super().__init__()
        self._shown_bindings = bindings

    def compose(self) -> ComposeResult:
        table = Table(box=None, expand=True, show_header=True, header_style="bold")
        table.add_column("key", style="bold", no_wrap=True)
        table.add_column("action")
        seen: set[str] = set()
        for key, active in self._shown_bindings.items():
            binding = active.binding
            generic = active.node is not self.app and not isinstance(active.node, Screen)
            if not binding.description or binding.action in seen or (generic and not binding.show):
                continue
            seen.add(binding.action)
            table.add_row(binding.key_display or key, binding.description)
        table.add_row("", "")
        for key, text in GLOBAL_KEYS:
            table.add_row(Text(key, style="dim bold"), Text(text, style="dim"))
        with VerticalScroll(id="help-body") as body:
            body.border_title = "Keys"
            body.border_subtitle = "esc to close"
            yield Static(table)

    def action_dismiss_help(self) -> None:
        self.dismiss(None)
