"""ConfusionHeatmap: a run's confusion matrix (expected x picked) as a navigable grid of cells.

It computes nothing: rows, columns and counts come from the report's ``confusionMatrix``. Column
headers are abbreviated so a ten-tool surface fits 80 columns; a legend spells them out.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

SPECIAL_COLUMNS = {"(none)": "none", "(phantom)": "?", "(multiple calls)": "+"}
SPECIAL_LEGEND = "none = no call · ? = phantom (not on the surface) · + = multiple calls"
CELL_WIDTH = 5
ROW_LABEL_WIDTH = 14
_SPLIT = re.compile(r"[^A-Za-z0-9]+|(?<=[a-z])(?=[A-Z])")


def abbreviate(names: Sequence[str], width: int = CELL_WIDTH - 1) -> dict[str, str]:
    """Short, unique column labels: first word, then initials of words, then a number."""
    labels: dict[str, str] = {}
    used: set[str] = set()
    for name in names:
        if name in SPECIAL_COLUMNS:
            labels[name] = SPECIAL_COLUMNS[name]
            used.add(labels[name])
            continue
        words = [w for w in _SPLIT.split(name) if w] or [name]
        candidates = [
            words[0][:width],
            "".join(w[:2] for w in words)[:width],
            (words[0][:2] + words[-1][: width - 2])[:width],
        ]
        label = next((c for c in candidates if c and c not in used), None)
        counter = 1
        while label is None:
            candidate = f"{words[0][: width - len(str(counter))]}{counter}"
            label = candidate if candidate not in used else None
            counter += 1
        used.add(label)
        labels[name] = label
    return labels


class ConfusionHeatmap(Widget, can_focus=True):
    """Rows are expected tools (plus ``(none)`` for distractors), columns what was picked."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "move(-1, 0)", "Up", show=False),
        Binding("down", "move(1, 0)", "Down", show=False),
        Binding("left", "move(0, -1)", "Left", show=False),
        Binding("right", "move(0, 1)", "Right", show=False),
        Binding("enter", "select_cell", "Trials"),
    ]
    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "heatmap--header",
        "heatmap--zero",
        "heatmap--correct",
        "heatmap--wrong-1",
        "heatmap--wrong-2",
        "heatmap--wrong-3",
        "heatmap--cursor",
    }
    DEFAULT_CSS = """
    ConfusionHeatmap {
        width: auto;
        height: auto;
    }
    ConfusionHeatmap > .heatmap--header { text-style: bold; color: $text-muted; }
    ConfusionHeatmap > .heatmap--zero { color: $text-disabled; }
    ConfusionHeatmap > .heatmap--correct { background: $success 40%; color: $text; }
    ConfusionHeatmap > .heatmap--wrong-1 { background: $error 25%; color: $text; }
    ConfusionHeatmap > .heatmap--wrong-2 { background: $error 55%; color: $text; }
    ConfusionHeatmap > .heatmap--wrong-3 { background: $error 90%; color: $text; }
    ConfusionHeatmap > .heatmap--cursor { text-style: reverse bold; }
    """

    cursor: reactive[tuple[int, int]] = reactive((0, 0))

    class CellHighlighted(Message):
        """The cursor moved onto a cell."""

        def __init__(self, expected: str, picked: str, count: int) -> None:
            super().__init__()
            self.expected = expected
            self.picked = picked
            self.count = count

    class CellSelected(CellHighlighted):
        """Enter (or a click) on a cell: show the trials behind it."""

    def __init__(
        self,
        matrix: Mapping[str, Mapping[str, int]],
        rows: Sequence[str],
        columns: Sequence[str],
        *,
        id: str | None = None,
    ) -> None:
        super().__init__(id=id)
        self.matrix = matrix
        self.rows = list(rows)
        self.columns = list(columns)
        self.labels = abbreviate(self.columns)
        self.peak = max(
            (n for r, row in matrix.items() for c, n in row.items() if r != c), default=0
        )

    def count(self, row: int, column: int) -> int:
        """The number of trials in one cell."""
        return int(self.matrix.get(self.rows[row], {}).get(self.columns[column], 0))

    def get_content_width(self, container: object, viewport: object) -> int:
        return ROW_LABEL_WIDTH + 1 + CELL_WIDTH * len(self.columns)

    def get_content_height(self, container: object, viewport: object, width: int) -> int:
        return len(self.rows) + 1

    def _style(self, name: str) -> Style:
        return self.get_component_rich_style(name, partial=True)

    def _cell_style(self, row: int, column: int, value: int) -> Style:
        if value == 0:
            style = self._style("heatmap--zero")
        elif self.rows[row] == self.columns[column]:
            style = self._style("heatmap--correct")
        else:
            level = 1 + min(2, (3 * value - 1) // max(self.peak, 1))
            style = self._style(f"heatmap--wrong-{level}")
        if (row, column) == self.cursor and self.has_focus:
            style += self._style("heatmap--cursor")
        return style

    def render(self) -> Text:
        header_style = self._style("heatmap--header")
        text = Text(no_wrap=True, overflow="crop")
        text.append(" " * (ROW_LABEL_WIDTH + 1))
        for column in self.columns:
            text.append(
                self.labels[column][: CELL_WIDTH - 1].rjust(CELL_WIDTH - 1) + " ", header_style
            )
        for row_index, row in enumerate(self.rows):
            text.append("\n")
            label = row if len(row) <= ROW_LABEL_WIDTH else row[: ROW_LABEL_WIDTH - 1] + "…"
            text.append(label.ljust(ROW_LABEL_WIDTH) + " ", header_style)
            for column_index in range(len(self.columns)):
                value = self.count(row_index, column_index)
                shown = str(value) if value else "."
                style = self._cell_style(row_index, column_index, value)
                text.append(shown.rjust(CELL_WIDTH - 1), style)
                text.append(" ")
        return text

    def watch_cursor(self) -> None:
        row, column = self.cursor
        if self.rows and self.columns:
            self.post_message(
                self.CellHighlighted(self.rows[row], self.columns[column], self.count(row, column))
            )

    def action_move(self, rows: int, columns: int) -> None:
        row, column = self.cursor
        self.cursor = (
            min(max(row + rows, 0), len(self.rows) - 1),
            min(max(column + columns, 0), len(self.columns) - 1),
        )

    def action_select_cell(self) -> None:
        row, column = self.cursor
        if self.rows and self.columns:
            self.post_message(
                self.CellSelected(self.rows[row], self.columns[column], self.count(row, column))
            )

    def on_click(self, event: events.Click) -> None:
        row = event.y - 1
        column = (event.x - ROW_LABEL_WIDTH - 1) // CELL_WIDTH
        if 0 <= row < len(self.rows) and 0 <= column < len(self.columns):
            self.focus()
            self.cursor = (row, column)
            if event.chain >= 2:
                self.action_select_cell()

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()

    def legend(self) -> str:
        """Abbreviation -> tool name, for the tools whose label is not their full name."""
        pairs = [
            f"{label}={name}"
            for name, label in self.labels.items()
            if name not in SPECIAL_COLUMNS and label != name
        ]
        return " · ".join(pairs)
