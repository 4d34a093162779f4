"""RpcTimeline: the wire timeline as a virtual list (VirtualList: one Strip per visible row).

Only the visible lines are rendered, so a receipt with 100,000 wire events scrolls as fast as one
with ten. Filtering keeps a list of row indices; the rows themselves are never copied.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from rich.segment import Segment
from rich.style import Style
from textual.geometry import Size
from textual.message import Message
from textual.strip import Strip

from whichtool_tui.text_safety import sanitize_text
from whichtool_tui.ui.widgets.virtual_list import VirtualList

if TYPE_CHECKING:
    from whichtool_tui.usecases.api import TimelineRow

SEQ_WIDTH = 6  # 999,999 events before the columns move
METHOD_WIDTH = 24
ATOM_WIDTH = 22
METHOD_MIN = 12  # "tools/call", "(response)", "initialize" still whole
ATOM_MIN = 14
NOTE_MIN = 24  # the note ("tools/call echo  …") keeps this much before method and atom give way
ID_WIDTH = 6
NOTE_ROOM = 60  # columns scrollable to the right of the note's start


def seq_width(rows: Sequence[TimelineRow]) -> int:
    """Digits for the message-number column: at least SEQ_WIDTH, more for a longer wire."""
    last = max((rows[0].seq, rows[-1].seq, len(rows))) if rows else 0
    return max(SEQ_WIDTH, len(str(last)))


@dataclass(frozen=True)
class RowLayout:
    """Column widths of a timeline line (seq, method and atom; direction and id are fixed)."""

    seq: int = SEQ_WIDTH
    method: int = METHOD_WIDTH
    atom: int = ATOM_WIDTH

    @property
    def note_start(self) -> int:
        """Where the note column begins."""
        return self.seq + 1 + 4 + self.method + 1 + ID_WIDTH + 2 + self.atom + 1


def fit_layout(width: int, seq: int = SEQ_WIDTH) -> RowLayout:
    """Method, then atom, give way (down to their minimums) so the note keeps NOTE_MIN columns.

    The atom goes second: at 80 columns the atoms pane folds away and this column is all
    that names a row's atom, while most methods ("tools/call", "(response)") are short.
    """
    full = RowLayout(seq)
    room = width - (full.note_start - METHOD_WIDTH - ATOM_WIDTH) - NOTE_MIN
    if room >= METHOD_WIDTH + ATOM_WIDTH:
        return full
    atom = max(ATOM_MIN, min(ATOM_WIDTH, room - METHOD_MIN))
    return RowLayout(seq, max(METHOD_MIN, room - atom), atom)


def clip(text: str, width: int) -> str:
    """``text`` in at most ``width`` columns, an ellipsis marking a cut."""
    return text if len(text) <= width else text[: width - 1] + "…"


def columns_header(layout: RowLayout | None = None) -> str:
    """The column titles above the rows, aligned with ``format_row``."""
    layout = layout or RowLayout()
    return (
        f"{'#':>{layout.seq}} dir {'method':<{layout.method}} {'id':>{ID_WIDTH}}  "
        f"{'atom':<{layout.atom}} note"
    )


def format_row(row: TimelineRow, layout: RowLayout | None = None, number: int | None = None) -> str:
    """One fixed-width line: message number, direction, method, id, atom, note (notes
    sanitised). ``number`` is the message's place in the whole wire (a receipt's ``seq``
    restarts with each atom's session, so "#6" would name six messages); else its seq."""
    layout = layout or RowLayout()
    rpc_id = "" if row.rpc_id is None else str(row.rpc_id)
    atom = row.atom + (" (holdout)" if row.holdout else "")
    return (
        f"{row.seq if number is None else number:>{layout.seq}} {row.direction:<3} "
        f"{clip(sanitize_text(row.method), layout.method):<{layout.method}} "
        f"{sanitize_text(rpc_id)[:ID_WIDTH]:>{ID_WIDTH}}  "
        f"{clip(atom, layout.atom):<{layout.atom}} {sanitize_text(row.note)}"
    )


class RpcTimeline(VirtualList):
    """A cursor over filtered rows; posts RowHighlighted with the index into ``rows``."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {"timeline--cursor", "timeline--holdout"}
    DEFAULT_CSS = """
    RpcTimeline {
        height: 1fr;
    }
    RpcTimeline > .timeline--cursor { background: $accent 50%; text-style: bold; }
    RpcTimeline > .timeline--holdout { color: $text-muted; }
    """

    class ColumnsChanged(Message):
        """The columns were refitted to a new width: ``header`` titles them."""

        def __init__(self, header: str) -> None:
            super().__init__()
            self.header = header

    class RowHighlighted(VirtualList.RowHighlighted):
        """The cursor is on ``rows[index]`` (None when the filter left nothing)."""

    def __init__(self, rows: Sequence[TimelineRow], *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.rows = rows
        self.shown_rows: list[int] = list(range(len(rows)))
        self._keep: Callable[[int], bool] | None = None
        self._scanned = len(rows)
        self.seq_width = seq_width(rows)
        self.columns = RowLayout(self.seq_width)
        self.content_width = self.columns.note_start + NOTE_ROOM
        self.virtual_size = Size(self.content_width, len(self.shown_rows))

    @property
    def row_count(self) -> int:
        """Rows the filter keeps."""
        return len(self.shown_rows)

    def _refit(self) -> None:
        """Fit the columns to the visible width (the note keeps room at 80 columns)."""
        layout = fit_layout(self.scrollable_content_region.width, self.seq_width)
        if layout != self.columns:
            self.columns = layout
            self.content_width = layout.note_start + NOTE_ROOM
            self.virtual_size = Size(self.content_width, len(self.shown_rows))
            self.refresh()
        self.post_message(self.ColumnsChanged(columns_header(layout)))

    def on_resize(self) -> None:
        self._refit()

    def set_filter(
        self, keep: Callable[[int], bool] | None, shown: list[int] | None = None
    ) -> None:
        """Show only the row indices ``keep`` accepts (all for None) and reset the cursor.

        ``shown`` is the answer already worked out (a search narrowed from the last one);
        ``keep`` still judges rows that arrive later.
        """
        self._keep = keep
        self._scanned = len(self.rows)
        if shown is not None:
            self.shown_rows = shown
        elif keep is None:
            self.shown_rows = list(range(self._scanned))
        else:
            self.shown_rows = [i for i in range(self._scanned) if keep(i)]
        self.reset_rows()

    def grow(self) -> None:
        """Take in rows appended to ``rows`` since the last look (a big receipt loads in chunks)."""
        new = range(self._scanned, len(self.rows))
        self._scanned = len(self.rows)
        keep = self._keep
        self.shown_rows.extend(new if keep is None else (i for i in new if keep(i)))
        if seq_width(self.rows) != self.seq_width:
            self.seq_width = seq_width(self.rows)
            self._refit()
        self.resize_rows()
        self.refresh()

    @property
    def scanned(self) -> int:
        """How many of ``rows`` the filter has looked at (fewer than ``len(rows)`` after growth)."""
        return self._scanned

    @property
    def selected(self) -> int | None:
        """Index into ``rows`` under the cursor."""
        if not self.shown_rows:
            return None
        return self.shown_rows[min(self.cursor, len(self.shown_rows) - 1)]

    def render_row_line(self, position: int, line: int) -> Strip:
        row = self.rows[self.shown_rows[position]]
        style = Style()
        if row.holdout:
            style += self.get_component_rich_style("timeline--holdout", partial=True)
        if position == self.cursor:
            style += self.get_component_rich_style("timeline--cursor", partial=True)
        text = format_row(row, self.columns, self.shown_rows[position] + 1)
        return Strip(
            [Segment(text.ljust(self.content_width) if position == self.cursor else text, style)]
        )

    def jump_to(self, wanted: Callable[[int], bool], direction: int) -> bool:
        """Move to the next (1) or previous (-1) shown row whose index ``wanted`` accepts."""
        shown = self.shown_rows
        position = self.cursor + direction
        while 0 <= position < len(shown):
            if wanted(shown[position]):
                self.cursor = position
                return True
            position += direction
        return False
