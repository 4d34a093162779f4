"""Preview the seeded variants of the task set before adding them."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, Label

from whichtool_tui.text_safety import sanitize_text
from whichtool_tui.usecases.api import Task


class MutationPreview(ModalScreen[bool]):
    """Shows each new variant; ``a`` adds them all, escape discards."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("a", "accept", "Add all"),
        Binding("escape,q", "discard", "Discard"),
    ]

    def __init__(self, variants: list[Task]) -> None:
        super().__init__()
        self._variants = variants

    def compose(self) -> ComposeResult:
        with Vertical(id="mutations") as box:
            box.border_title = f"{len(self._variants)} seeded variants (seed 0)"
            box.border_subtitle = "a: add all · esc: discard"
            table: DataTable[object] = DataTable(cursor_type="row", id="mutation-table")
            table.add_columns("mutation", "id", "prompt")
            for task in self._variants:
                mutation = task.derived_from.mutation if task.derived_from else "?"
                table.add_row(mutation, sanitize_text(task.id), Text(sanitize_text(task.prompt)))
            yield table
            if not self._variants:
                yield Label("No mutation fits these prompts.")

    def action_accept(self) -> None:
        self.dismiss(True)

    def action_discard(self) -> None:
        self.dismiss(False)
