"""The Surface screen's findability column: would BM25 tool search find each tool (top 5) for
its own prompts in the task set that is open? Computed once per surface and task set."""

from __future__ import annotations

from rich.text import Text

from whichtool_tui.discovery.column import found_at_k
from whichtool_tui.evaluation.plan import TaskSpec
from whichtool_tui.surface.normalize import normalize_surface
from whichtool_tui.ui.session import Session

COLUMN_TITLE = "found@5"
_memo: dict[tuple[int, tuple[tuple[str, str, str | None], ...]], dict[str, tuple[int, int]]] = {}


def _figures(session: Session) -> dict[str, tuple[int, int]] | None:
    view, tasks = session.surface, session.tasks
    if view is None or tasks is None or view.raw_list is None:
        return None
    key = (id(view), tuple((t.id, t.prompt, t.expected) for t in tasks.tasks))
    if key not in _memo:
        surface = view.normalized or normalize_surface(view.raw_list)
        wanted = [TaskSpec(task_id, prompt, expected) for task_id, prompt, expected in key[1]]
        _memo.clear()  # one surface and task set at a time
        _memo[key] = found_at_k(surface, wanted, view.total_tokens)
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
