"""VirtualList: a row cursor over a long list drawn line by line (ScrollView + render_line).

Only the visible lines are rendered, so 100,000 rows scroll as fast as ten and no widget is
made per row. Subclasses say how many rows there are and draw one line of a row; this base
keeps the cursor, the keys (Home/End mean the first and last row), paging, clicks and scrolling
the cursor into view. A fixed header of ``header_height`` lines stays on top; every row takes
``row_height`` lines.
"""

from __future__ import annotations

from typing import ClassVar

from rich.style import Style
from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Region, Size, Spacing
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.widget import Widget


class VirtualList(ScrollView, can_focus=True):
    """A cursor over ``row_count`` rows; posts RowHighlighted when the cursor moves."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "move(-1)", "Up", show=False),
        Binding("down", "move(1)", "Down", show=False),
        Binding("pageup", "page(-1)", "Page up", show=False),
        Binding("pagedown", "page(1)", "Page down", show=False),
        Binding("home,ctrl+home", "jump(0)", "First", show=False),
        Binding("end,ctrl+end", "jump(-1)", "Last", show=False),
    ]
    row_height: ClassVar[int] = 1
    header_height: ClassVar[int] = 0

    cursor: reactive[int] = reactive(0, always_update=True)

    class RowHighlighted(Message):
        """The cursor is on row ``index`` (None when there are no rows)."""

        def __init__(self, widget: Widget, index: int | None) -> None:
            super().__init__()
            self.widget = widget
            self.index = index

        @property
        def control(self) -> Widget:
            """The list the cursor moved in (``@on(..., "#id")`` matches it)."""
            return self.widget

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.content_width = 0  # columns the rows take (wider than the view: scroll sideways)

    @property
    def row_count(self) -> int:
        """How many rows there are (subclasses say)."""
        raise NotImplementedError

    @property
    def selected(self) -> int | None:
        """The row under the cursor (None when there are none)."""
        return min(self.cursor, self.row_count - 1) if self.row_count else None

    def render_row_line(self, position: int, line: int) -> Strip:
        """Line ``line`` (0 to row_height - 1) of row ``position`` (subclasses draw it)."""
        raise NotImplementedError

    def render_header_line(self, line: int) -> Strip:
        """Line ``line`` of the fixed header (none by default)."""
        return Strip.blank(self.content_width, Style())

    def render_empty_line(self, line: int) -> Strip:
        """Content line ``line`` when there are no rows (blank by default)."""
        return Strip.blank(self.size.width, Style())

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        width = self.size.width
        # Every segment carries a style: NO_COLOR's monochrome filter reads each one's colour.
        if y < self.header_height:
            strip = self.render_header_line(y)
        else:
            content_line = scroll_y + y - self.header_height
            position, line = divmod(content_line, self.row_height)
            if not self.row_count:
                return self.render_empty_line(content_line)
            if position >= self.row_count:
                return Strip.blank(width, Style())
            strip = self.render_row_line(position, line)
        return strip.crop(scroll_x, scroll_x + width).extend_cell_length(width, Style())

    @property
    def rows_in_view(self) -> int:
        """Whole rows the view shows under the header."""
        lines = self.scrollable_content_region.height - self.header_height
        return max(1, lines // self.row_height)

    def resize_rows(self) -> None:
        """Take a new row count or content width, repainting only this widget when the
        scrollbars stay put.

        Setting ``virtual_size`` makes Textual lay out the whole screen again, which was half
        of each search keystroke's time; a different row count alone changes nothing outside
        this widget unless a scrollbar appears or goes, which still takes the full route.
        """
        size = Size(self.content_width, self.row_count * self.row_height + self.header_height)
        if size == self.virtual_size:
            return
        view = self.scrollable_content_region.size
        before = (self.virtual_size.width > view.width, self.virtual_size.height > view.height)
        after = (size.width > view.width, size.height > view.height)
        if before != after or not self.is_mounted:
            self.virtual_size = size
            return
        self.set_reactive(ScrollView.virtual_size, size)
        self._scroll_update(size)  # the scrollbars' thumbs follow the new height

    def reset_rows(self) -> None:
        """The rows were replaced: new size, cursor and scroll back to the top, repaint."""
        self.resize_rows()
        self.scroll_to(0, 0, animate=False, immediate=True)
        self.cursor = 0
        self.refresh()

    def watch_cursor(self, old: int, new: int) -> None:
        if self.row_count:
            self.refresh_row(old)
            self.refresh_row(new)
            self.scroll_to_row(new)
        self.post_message(self.RowHighlighted(self, self.selected))

    def scroll_to_row(self, position: int) -> None:
        """Scroll the least that shows every line of row ``position`` under the header."""
        region = Region(0, position * self.row_height + self.header_height, 1, self.row_height)
        self.scroll_to_region(
            region,
            animate=False,
            force=True,
            immediate=True,
            spacing=Spacing(top=self.header_height),
        )

    def refresh_row(self, position: int) -> None:
        """Repaint one row's lines if they are on screen."""
        top = position * self.row_height + self.header_height - self.scroll_offset.y
        if top + self.row_height > self.header_height and top < self.size.height:
            self.refresh(Region(0, top, self.size.width, self.row_height))

    def action_move(self, delta: int) -> None:
        if self.row_count:
            self.cursor = min(max(self.cursor + delta, 0), self.row_count - 1)

    def action_page(self, direction: int) -> None:
        self.action_move(direction * max(1, self.rows_in_view - 1))

    def action_jump(self, position: int) -> None:
        if self.row_count:
            self.cursor = position if position >= 0 else self.row_count - 1

    def on_click(self, event: events.Click) -> None:
        if event.y < self.header_height:
            return
        target = (self.scroll_offset.y + event.y - self.header_height) // self.row_height
        if 0 <= target < self.row_count:
            self.cursor = target
