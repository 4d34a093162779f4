"""The Surface screen's two long lists as virtual tables: the tools (name, kind, cost bar,
findability) and the findings (two lines each: what and about whom; message and fix).

Both render only the rows on screen, so Home, End, paging, search and sort act on all 10,000
tools at once; strings from the surface go through the text-safety module cell by cell.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar

from rich.text import Text

from whichtool_tui.text_safety import sanitize_text
from whichtool_tui.ui.surface_model import Finding, ToolRow
from whichtool_tui.ui.widgets.findability_column import COLUMN_TITLE
from whichtool_tui.ui.widgets.surface_rows import (
    BAR_WIDTH,
    FINDING_TITLE,
    cost_bar,
    finding_cells,
    finding_row,
    finding_widths,
)
from whichtool_tui.ui.widgets.tool_detail import SEMANTIC_STYLES
from whichtool_tui.ui.widgets.virtual_table import CELL_PADDING, VirtualTable

KIND_TITLE = "kind (by name)"
COST_TITLE = "cost"
COST_WIDTH = BAR_WIDTH + 5  # the bar, a space and the share ("100%")
NAME_MIN = 12  # a clipped name keeps this much; the detail pane shows it whole
COUNTING = Text("counting…", style="dim")


def _no_figures(name: str) -> Text:
    return Text("—", style="dim")


class ToolTable(VirtualTable):
    """The tools in the order asked for; the name column gives way so the cost stays in view."""

    class RowHighlighted(VirtualTable.RowHighlighted):
        """The cursor is on ``tools[index]``."""

    class RowSelected(VirtualTable.RowSelected):
        """Enter on ``tools[index]``."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.tools: Sequence[ToolRow] = ()
        self.biggest: float | None = 0.0  # None while the tokens are counted
        self.found: Callable[[str], Text] = _no_figures
        self._longest = 0
        self.empty_text = "No tool matches."

    @property
    def row_count(self) -> int:
        return len(self.tools)

    def show(
        self, tools: Sequence[ToolRow], biggest: float | None, found: Callable[[str], Text]
    ) -> None:
        """Show ``tools`` (bars scaled to ``biggest``; None: costs still being counted), the
        cursor on the first."""
        self.tools, self.biggest, self.found = tools, biggest, found
        self._longest = max((len(tool.name) for tool in tools), default=0)
        self._fit()
        self.reset_rows()

    def _fit(self) -> None:
        others = (len(KIND_TITLE), COST_WIDTH, len(COLUMN_TITLE))
        room = self.inside_width - sum(others) - 2 * CELL_PADDING * 4
        longest = max(self._longest, len("tool"))
        name = min(longest, max(NAME_MIN, room)) if room > 0 else longest
        self.set_columns(("tool", KIND_TITLE, COST_TITLE, COLUMN_TITLE), (name, *others))

    def on_resize(self) -> None:
        self._fit()

    def cells(self, position: int) -> Sequence[Text]:
        tool = self.tools[position]
        return (
            Text(sanitize_text(tool.name)),
            Text(tool.semantics[:8], style=SEMANTIC_STYLES.get(tool.semantics, "")),
            COUNTING if self.biggest is None else cost_bar(tool.share, self.biggest),
            self.found(tool.name),
        )


class FindingTable(VirtualTable):
    """Findings worst first, two lines a row; the message column takes the width left."""

    row_height: ClassVar[int] = 2

    class RowHighlighted(VirtualTable.RowHighlighted):
        """The cursor is on ``findings[index]``."""

    class RowSelected(VirtualTable.RowSelected):
        """Enter on ``findings[index]``: its pair or family opens."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.findings: Sequence[Finding] = ()
        self._cells: list[tuple[str, str, str]] = []

    @property
    def row_count(self) -> int:
        return len(self.findings)

    def show(self, findings: Sequence[Finding], empty_text: str) -> None:
        """Show ``findings`` (``empty_text`` when there are none), the cursor on the first."""
        self.findings, self.empty_text = findings, empty_text
        self._cells = [finding_cells(finding) for finding in findings]
        self._fit()
        self.reset_rows()

    def _fit(self) -> None:
        widths = finding_widths(self.inside_width, self._cells)
        self.set_columns((FINDING_TITLE, "message · fix"), widths)

    def on_resize(self) -> None:
        self._fit()

    def cells(self, position: int) -> Sequence[Text]:
        return finding_row(self.findings[position])
