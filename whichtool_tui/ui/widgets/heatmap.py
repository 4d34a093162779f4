"""ConfusionHeatmap: a run's confusion matrix (expected x picked) as a navigable grid of cells.

It computes nothing: rows, columns and counts come from the report's ``confusionMatrix``. Column
headers are abbreviated so a ten-tool surface fits 80 columns; a legend spells them out, and
the screen names the cursor's row and column in full. Colours come from the theme: off-diagonal
cells step through five blends of the theme's ``error`` colour by their share of the worst cell.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.color import Color
from textual.geometry import Region
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from whichtool_tui.text_safety import sanitize_text
from whichtool_tui.usecases.api import HEATMAP_LEGEND, OUTCOME_COLUMNS

SPECIAL_COLUMNS = {column.key: column.cell for column in OUTCOME_COLUMNS}
SPECIAL_NAMES = {column.key: column.name for column in OUTCOME_COLUMNS}
SPECIAL_LEGEND = HEATMAP_LEGEND
CELL_WIDTH = 5
ROW_LABEL_WIDTH = 16
LEVELS = 5  # intensity steps for off-diagonal cells
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
        words = [w for w in _SPLIT.split(name) if w] or [sanitize_text(name)]
        candidates = [
            # Three words or more share prefixes (get-resource-links, get-resource-reference):
            # the first word's start plus the others' initials tells them apart.
            (words[0][:2] + "".join(w[0] for w in words[1:]))[:width]
            if len(words) > 2
            else words[0][:width],
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


def row_labels(names: Sequence[str], width: int = ROW_LABEL_WIDTH) -> dict[str, str]:
    """Row labels that fit ``width`` and stay distinct: long names lose their middle, not
    their end (``get-resource-reference`` and ``get-resource-links`` keep their tails)."""
    labels: dict[str, str] = {}
    used: set[str] = set()
    for name in names:
        shown = sanitize_text(name)  # a tool name is outside text
        if len(shown) <= width:
            label = shown
        else:
            head = (width - 1) // 2
            label = shown[:head] + "…" + shown[-(width - 1 - head) :]
        counter = 2
        while label in used:
            suffix = f"~{counter}"
            label = label[: width - len(suffix)] + suffix
            counter += 1
        used.add(label)
        labels[name] = label
    return labels


def intensity(value: int, peak: int) -> int:
    """Which of the LEVELS steps a count falls in, relative to the largest off-diagonal cell."""
    if value <= 0 or peak <= 0:
        return 0
    return max(1, min(LEVELS, -(-value * LEVELS // peak)))


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
        "heatmap--cursor",
    }
    DEFAULT_CSS = """
    ConfusionHeatmap {
        width: auto;
        height: auto;
    }
    ConfusionHeatmap > .heatmap--header { text-style: bold; color: $foreground; }
    ConfusionHeatmap > .heatmap--zero { color: $foreground-muted; }
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
        self._palette_for = ""
        self._palette_cache: dict[str, Style] = {}
        self._set_axes(rows, columns)
        self._set_counts(matrix)

    def _set_axes(self, rows: Sequence[str], columns: Sequence[str]) -> None:
        self.rows = list(rows)
        self.columns = list(columns)
        self.labels = abbreviate(self.columns)
        self.row_names = row_labels(self.rows)

    def _set_counts(self, matrix: Mapping[str, Mapping[str, int]]) -> None:
        self.matrix = matrix
        self.peak = max(
            (n for r, row in matrix.items() for c, n in row.items() if r != c), default=0
        )

    def update_counts(self, matrix: Mapping[str, Mapping[str, int]]) -> None:
        """New counts for the same rows and columns (a live run adds trials)."""
        self._set_counts(matrix)
        self.refresh()

    def show(
        self, matrix: Mapping[str, Mapping[str, int]], rows: Sequence[str], columns: Sequence[str]
    ) -> None:
        """Another matrix (another report, a run over other tools) in this same grid, cursor on
        its first cell: replacing the widget instead would clash with its id while the old one
        is still being removed, and a focused one's removal hands the focus along the chain."""
        self._set_axes(rows, columns)
        self._set_counts(matrix)
        self.refresh(layout=True)
        if self.cursor == (0, 0):
            self.watch_cursor()  # the first cell of the new matrix is highlighted all the same
        else:
            self.cursor = (0, 0)

    def count(self, row: int, column: int) -> int:
        """The number of trials in one cell."""
        return int(self.matrix.get(self.rows[row], {}).get(self.columns[column], 0))

    def get_content_width(self, container: object, viewport: object) -> int:
        return ROW_LABEL_WIDTH + 1 + CELL_WIDTH * len(self.columns)

    def get_content_height(self, container: object, viewport: object, width: int) -> int:
        return len(self.rows) + 1

    def _style(self, name: str) -> Style:
        if name.startswith(("heatmap--wrong-", "heatmap--correct")):
            return self._palette()[name]
        return self.get_component_rich_style(name, partial=True)

    def _palette(self) -> dict[str, Style]:
        """Cell styles blended from the theme's error/success over its background, with text
        in the contrasting colour, so every step reads in light and dark themes alike."""
        theme = self.app.theme
        if self._palette_for != theme:
            variables = self.app.theme_variables
            background = Color.parse(variables.get("background", "#000000"))
            error = Color.parse(variables.get("error", "#ff0000"))
            success = Color.parse(variables.get("success", "#00ff00"))
            palette: dict[str, Style] = {}
            for level in range(1, LEVELS + 1):
                cell = background.blend(error, 0.12 + 0.88 * level / LEVELS)
                palette[f"heatmap--wrong-{level}"] = Style(
                    bgcolor=cell.rich_color,
                    color=cell.get_contrast_text(1.0).rich_color,
                    bold=level == LEVELS,
                )
            right = background.blend(success, 0.55)
            palette["heatmap--correct"] = Style(
                bgcolor=right.rich_color, color=right.get_contrast_text(1.0).rich_color
            )
            self._palette_cache = palette
            self._palette_for = theme
        return self._palette_cache

    def _cell_style(self, row: int, column: int, value: int) -> Style:
        if value == 0:
            style = self._style("heatmap--zero")
        elif self.rows[row] == self.columns[column]:
            style = self._style("heatmap--correct")
        else:
            style = self._style(f"heatmap--wrong-{intensity(value, self.peak)}")
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
            text.append(self.row_names[row].ljust(ROW_LABEL_WIDTH) + " ", header_style)
            for column_index in range(len(self.columns)):
                value = self.count(row_index, column_index)
                shown = str(value) if value else "."
                style = self._cell_style(row_index, column_index, value)
                text.append(shown.rjust(CELL_WIDTH - 1), style)
                text.append(" ")
        return text

    def watch_cursor(self) -> None:
        row, column = self.cursor
        # A matrix wider than the pane scrolls: keep the cursor's cell in view.
        x = ROW_LABEL_WIDTH + 1 + column * CELL_WIDTH
        self.scroll_visible_region(Region(x, row + 1, CELL_WIDTH, 1))
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
            self.screen.set_focus(self)
            self.cursor = (row, column)
            if event.chain >= 2:
                self.action_select_cell()

    def scroll_visible_region(self, region: Region) -> None:
        """Scroll the containers around the heatmap so ``region`` (in its own cells) shows."""
        parent = self.parent
        if isinstance(parent, Widget) and parent.is_scrollable:
            parent.scroll_to_region(
                region.translate(self.region.offset - parent.region.offset + parent.scroll_offset),
                animate=False,
                force=True,
            )

    def legend_for_cursor(self) -> str:
        """The full names behind the cursor: ``row get-resource-reference · column none``."""
        row, column = self.cursor
        if not self.rows or not self.columns:
            return ""
        picked = self.columns[column]
        shown = sanitize_text(f"row {self.rows[row]} · column {SPECIAL_NAMES.get(picked, picked)}")
        return shown

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()

    def scale(self) -> Text:
        """The intensity key: each off-diagonal step with the counts it stands for."""
        text = Text("wrong picks ", style=self._style("heatmap--header"))
        if self.peak <= 0:
            text.append("none", style=self._style("heatmap--zero"))
            return text
        bounds = [
            (level, [v for v in range(1, self.peak + 1) if intensity(v, self.peak) == level])
            for level in range(1, LEVELS + 1)
        ]
        for level, values in bounds:
            if not values:
                continue
            shown = str(values[0]) if len(values) == 1 else f"{values[0]}-{values[-1]}"
            text.append(f" {shown} ", style=self._style(f"heatmap--wrong-{level}"))
            text.append(" ")
        text.append(" right ", style=self._style("heatmap--correct"))
        return text

    def legend(self) -> str:
        """Abbreviation -> tool name, for the tools whose label is not their full name."""
        pairs = [
            f"{label}={sanitize_text(name)}"
            for name, label in self.labels.items()
            if name not in SPECIAL_COLUMNS and label != name
        ]
        return " · ".join(pairs)
