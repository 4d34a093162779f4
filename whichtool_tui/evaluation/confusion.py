"""The confusion matrix's axes and the names of its non-tool cells, decided once for every
renderer (terminal, Markdown, HTML) and the TUI's heatmaps.

Rows are the expected tools in name order, then the distractors (expected: no tool); columns
are the same tools, then the three outcomes that are not a tool: no call, a phantom (a name
not on the surface) and several calls. A renderer that shows only the measured cells filters
these axes; none reorders them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from whichtool_tui.evaluation.metrics import MULTIPLE_KEY, NONE_KEY, PHANTOM_KEY


@dataclass(frozen=True)
class OutcomeColumn:
    """A column that is not a tool, and how each view names it."""

    key: str  # the key in the report's confusion matrix
    mark: str  # a one-character header in the plain-text grid
    cell: str  # a header in the TUI heatmap (short, a cell wide)
    word: str  # a column header a reader sees in Markdown and HTML
    name: str  # the full name shown when the cell is selected


OUTCOME_COLUMNS = (
    OutcomeColumn(NONE_KEY, "-", "none", "no call", "none (no call)"),
    OutcomeColumn(PHANTOM_KEY, "?", "?", "phantom", "? (phantom)"),
    OutcomeColumn(MULTIPLE_KEY, "+", "+", "multiple", "+ (multiple calls)"),
)
OUTCOME_KEYS = tuple(column.key for column in OUTCOME_COLUMNS)
DISTRACTOR_ROW = NONE_KEY  # the row of trials that expected no tool
DISTRACTOR_LABEL = "(distractor)"
GRID_LEGEND = "- = no call, ? = phantom, + = multiple calls"
HEATMAP_LEGEND = "none = no call · ? = phantom (not on the surface) · + = multiple calls"


@dataclass(frozen=True)
class ConfusionAxes:
    """The rows (expected) and columns (picked) of a confusion matrix, in display order."""

    rows: list[str]
    columns: list[str]


def confusion_axes(tool_names: Iterable[str]) -> ConfusionAxes:
    """Tools in name order, then the distractor row and the three outcome columns."""
    tools = sorted(tool_names)
    return ConfusionAxes(rows=[*tools, DISTRACTOR_ROW], columns=[*tools, *OUTCOME_KEYS])


def row_label(row: str) -> str:
    """How a reader sees a row: the tool, or ``(distractor)`` for the no-tool row."""
    return DISTRACTOR_LABEL if row == DISTRACTOR_ROW else row


def column_word(column: str) -> str:
    """A column header for readers: the tool, or the outcome's word (``no call`` …)."""
    return _WORDS.get(column, column)


_WORDS = {column.key: column.word for column in OUTCOME_COLUMNS}
