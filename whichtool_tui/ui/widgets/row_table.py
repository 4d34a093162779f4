"""RowTable: a row-cursor DataTable whose Home and End mean the first and last row, as in the
Bout screen's timeline (Textual's DataTable scrolls sideways on them)."""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.widgets import DataTable


class RowTable(DataTable[object]):
    """A table read row by row: Home/End go to the first/last row (ctrl+Home/End too)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("home", "scroll_top", "First row", show=False),
        Binding("end", "scroll_bottom", "Last row", show=False),
    ]

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, cursor_type="row")
