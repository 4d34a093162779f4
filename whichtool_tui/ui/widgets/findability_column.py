"""The Surface screen's findability column: would BM25 tool search find each tool (top 5) for
its own prompts in the task set that is open? Computed once per surface and task set."""

from __future__ import annotations

from rich.text import Text

from whichtool_tui.ui.session import Session
from whichtool_tui.usecases.inspect import found_at_five

COLUMN_TITLE = "found@5"
_memo: dict[tuple[int, tuple[tuple[str, str, str | None], ...]], dict[str, tuple[int, int]]] = {}


def _figures(session: Session) -> dict[str, tuple[int, int]] | None:
    view, tasks = session.surface, session.tasks
    if view is None or tasks is None or view.raw_list is None:
        return None
    key = (id(view), tuple((t.id, t.prompt, t.expected) for t in tasks.tasks))
    if key not in _memo:
        _memo.clear()  # one surface and task set at a time
        _memo[key] = found_at_five(view.raw_list, view.normalized, key[1], view.total_tokens)
    return _memo[key]


def findability_cell(session: Session, tool: str) -> Text:
    """``2/2`` green when BM25 finds the tool for every task, red when for none, dim dash
    when no task set is open or the tool has no task."""
    figures = _figures(session)
    if figures is None or tool not in figures:
        return Text("—", style="dim")
    found, total = figures[tool]
    style = "green" if found == total else ("bold red" if found == 0 else "yellow")
    return Text(f"{found}/{total}", style=style)
