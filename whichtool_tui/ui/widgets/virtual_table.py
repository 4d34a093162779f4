"""VirtualTable: a VirtualList drawn as columns under a fixed title line, like a DataTable,
but rendering only the rows on screen (10,000 tools page as fast as ten, with no batches).

Subclasses give the column titles and widths and a row's cells (rich Text); a cell wraps
within its column over the row's ``row_height`` lines and is cut there. A row's lines are
rendered once and cached until the rows or the widths change; the cursor's style goes on top.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.binding import Binding, BindingType
from textual.strip import Strip

from whichtool_tui.ui.widgets.virtual_list import VirtualList

CELL_PADDING = 1  # a space each side of a cell, as DataTable pads
CACHED_ROWS = 512  # rendered rows kept; a few screens' worth of paging back and forth


class VirtualTable(VirtualList):
    """Columns of cells, one title line, a row cursor; Enter posts RowSelected."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "select_row", "Select", show=False),
    ]
    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "virtual-table--header",
        "virtual-table--cursor",
        "virtual-table--empty",
    }
    DEFAULT_CSS = """
    VirtualTable {
        background: $surface;
        color: $foreground;
        &:focus {
            background-tint: $foreground 5%;
            & > .virtual-table--cursor {
                background: $block-cursor-background;
                color: $block-cursor-foreground;
                text-style: $block-cursor-text-style;
            }
            & > .virtual-table--header {
                background-tint: $foreground 5%;
            }
        }
        & > .virtual-table--header {
            text-style: bold;
            background: $panel;
            color: $foreground;
        }
        &:ansi > .virtual-table--header {
            background: ansi_bright_blue;
            color: ansi_default;
        }
        & > .virtual-table--cursor {
            background: $block-cursor-blurred-background;
            color: $block-cursor-blurred-foreground;
            text-style: $block-cursor-blurred-text-style;
        }
        & > .virtual-table--empty {
            color: $text-muted;
            text-style: italic;
        }
    }
    """
    header_height: ClassVar[int] = 1

    class RowSelected(VirtualList.RowHighlighted):
        """Enter on row ``index``."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.titles: tuple[str, ...] = ()
        self.widths: tuple[int, ...] = ()
        self.empty_text = ""  # said on the first line when there are no rows
        self._rendered: dict[int, list[list[Segment]]] = {}

    @property
    def inside_width(self) -> int:
        """Columns the rows may take without scrolling sideways: the widget's inside less
        the vertical scrollbar (kept aside even before the rows need it, so widths stay put)."""
        return max(0, self.content_region.width - self.styles.scrollbar_size_vertical)

    def cells(self, position: int) -> Sequence[Text]:
        """The cells of row ``position``, one per column (subclasses give them)."""
        raise NotImplementedError

    def set_columns(self, titles: Sequence[str], widths: Sequence[int]) -> None:
        """Column titles and content widths (cells are padded by one space each side)."""
        self.titles, self.widths = tuple(titles), tuple(widths)
        self.content_width = sum(width + 2 * CELL_PADDING for width in self.widths)
        self.forget_rendered()

    def forget_rendered(self) -> None:
        """Drop the rendered rows (new rows, widths or cell content): redrawn when shown."""
        self._rendered.clear()
        self.resize_rows()
        self.refresh()

    def _layout(self, pieces: Sequence[Text]) -> list[Segment]:
        """One line: each piece (a single line of text) cut or padded to its column."""
        joined = Text()
        for piece, width in zip(pieces, self.widths, strict=False):
            cell = piece.copy()
            cell.truncate(width, overflow="ellipsis", pad=True)
            joined.append(" " * CELL_PADDING)
            joined.append_text(cell)
            joined.append(" " * CELL_PADDING)
        return list(joined.render(self.app.console))

    def _row_lines(self, position: int) -> list[list[Segment]]:
        rendered = self._rendered.get(position)
        if rendered is not None:
            return rendered
        if len(self._rendered) >= CACHED_ROWS:
            self._rendered.clear()
        texts = self.cells(position)
        if self.row_height == 1:
            rendered = [self._layout(texts)]
        else:
            console = self.app.console
            wrapped = [
                text.wrap(console, width, overflow="fold")
                for text, width in zip(texts, self.widths, strict=False)
            ]
            rendered = [
                self._layout([lines[line] if line < len(lines) else Text() for lines in wrapped])
                for line in range(self.row_height)
            ]
        self._rendered[position] = rendered
        return rendered

    def render_row_line(self, position: int, line: int) -> Strip:
        strip = Strip(self._row_lines(position)[line])
        if position == self.cursor:  # under the cells' own colours, as DataTable's cursor
            return strip.apply_style(self.get_component_rich_style("virtual-table--cursor"))
        return strip

    def render_header_line(self, line: int) -> Strip:
        style = self.get_component_rich_style("virtual-table--header")
        strip = Strip(self._layout([Text(title) for title in self.titles])).apply_style(style)
        return strip.extend_cell_length(max(self.content_width, self.size.width), style)

    def render_empty_line(self, line: int) -> Strip:
        if line != 0 or not self.empty_text:
            return Strip.blank(self.size.width, Style())
        style = self.get_component_rich_style("virtual-table--empty")
        text = Text(" " * CELL_PADDING + self.empty_text, style=style)
        text.truncate(self.size.width, overflow="ellipsis")
        return Strip(list(text.render(self.app.console))).extend_cell_length(
            self.size.width, Style()
        )

    def action_select_row(self) -> None:
        if self.row_count:
            self.post_message(self.RowSelected(self, self.selected))
