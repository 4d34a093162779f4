"""`?` / F1: the keys of the screen the user was on, then the app's, then every section's."""

from __future__ import annotations

import importlib
from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import ActiveBinding, Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

SECTION_SCREENS = (
    ("Home", "home", "HomeScreen"),
    ("1 Surface", "surface", "SurfaceScreen"),
    ("2 Tasks", "tasks", "TasksScreen"),
    ("3 Run", "run", "RunScreen"),
    ("4 Results", "results", "ResultsScreen"),
    ("5 Bout", "bout", "BoutScreen"),
)
GLOBAL_KEYS = (
    ("1 … 5", "Surface · Tasks · Run · Results · Bout"),
    ("0, h", "home (h is `held` on the Bout screen)"),
    ("^p", "command palette: every action by name"),
    ("?, f1", "this help"),
    ("esc", "leave a text field, then close a search, the JSON view or a pane, then back"),
    ("q", "close the open view, else back (quit on home; asks first if work would be lost)"),
    ("enter", "open the row under the cursor"),
    ("^q", "quit (asks first if a run, bout or unsaved edit would be lost)"),
    ("tab", "next pane"),
)


def bindings_of(module: str, name: str) -> list[Binding]:
    """A section screen's described bindings, in its order (its module imported on demand)."""
    screen_class = getattr(importlib.import_module(f"whichtool_tui.ui.screens.{module}"), name)
    return [b for b in screen_class.BINDINGS if isinstance(b, Binding) and b.description]


class HelpScreen(ModalScreen[None]):
    """A modal listing keys by screen, in the names the footer shows (``/``, ``?``, ``^q``)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark,f1", "dismiss_help", "Close")
    ]

    def __init__(self, bindings: dict[str, ActiveBinding], here: str = "") -> None:
        super().__init__()
        self._shown_bindings = bindings
        self._here = here

    def _key(self, binding: Binding) -> str:
        keys = [key.strip() for key in binding.key.split(",")]
        return ", ".join(
            self.app.get_key_display(Binding(key, binding.action, binding.description))
            for key in keys
        )

    def compose(self) -> ComposeResult:
        table = Table(box=None, expand=True, show_header=False)
        table.add_column("key", style="bold", no_wrap=True, min_width=12)
        table.add_column("action")
        table.add_row(Text(f"Here ({self._here or 'this screen'})", style="bold underline"), "")
        seen: set[str] = set()
        for active in self._shown_bindings.values():
            binding = active.binding
            generic = active.node is not self.app and not isinstance(active.node, Screen)
            if not binding.description or binding.action in seen or (generic and not binding.show):
                continue
            if active.node is self.app:
                continue  # listed under "Everywhere"
            seen.add(binding.action)
            table.add_row(self._key(binding), binding.description)
        table.add_row("", "")
        table.add_row(Text("Everywhere", style="bold underline"), "")
        for key, text in GLOBAL_KEYS:
            table.add_row(key, text)
        for label, module, name in SECTION_SCREENS:
            if label.endswith(self._here) and self._here:
                continue
            table.add_row("", "")
            table.add_row(Text(label, style="bold underline"), "")
            for binding in bindings_of(module, name):
                table.add_row(Text(self._key(binding), style="dim bold"), Text(binding.description))
        with VerticalScroll(id="help-body") as body:
            body.border_title = "Keys"
            body.border_subtitle = "esc to close"
            yield Static(table)

    def action_dismiss_help(self) -> None:
        self.dismiss(None)
