"""The trials behind one heatmap cell: prompt, every proposed call, the reply."""

from __future__ import annotations

import json
from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import DataTable, Static

from whichtool_tui.text_safety import sanitize_text
from whichtool_tui.ui.widgets.row_table import RowTable
from whichtool_tui.ui.widgets.tool_detail import safe_multiline
from whichtool_tui.usecases.api import ScoredTrial


def describe_trial(trial: ScoredTrial, prompt: str) -> Text:
    """Prompt, each call with its arguments, and the model's text for one trial."""
    text = Text()
    text.append(f"{trial.task_id} #{trial.trial_index}  ", style="bold")
    text.append(trial.verdict, style="green" if trial.verdict.startswith("correct") else "red")
    text.append(f"   expected {trial.expected or '(none)'}\n", style="dim")
    text.append("prompt  ", style="bold")
    text.append(safe_multiline(prompt) + "\n")
    if trial.error is not None:
        text.append("error   ", style="bold red")
        text.append(sanitize_text(trial.error.message) + "\n")
    if not trial.calls:
        text.append("calls   none\n", style="dim")
    for index, call in enumerate(trial.calls):
        arguments = (
            json.dumps(call.arguments, ensure_ascii=False)
            if call.arguments is not None
            else (call.raw_arguments or "null")
        )
        text.append(f"call {index + 1}  ", style="bold")
        text.append(sanitize_text(call.name or "(no name)"), style="cyan")
        text.append(" " + sanitize_text(arguments)[:400] + "\n")
    text.append("reply   ", style="bold")
    text.append(safe_multiline(trial.text) if trial.text else "(empty)", style="italic")
    return text


class TrialsModal(ModalScreen[None]):
    """A table of trials and the full detail of the highlighted one."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q", "close", "Close")]

    def __init__(self, title: str, trials: list[ScoredTrial], prompts: dict[str, str]) -> None:
        super().__init__()
        self._heading = title
        self._trials = trials
        self._prompts = prompts

    def compose(self) -> ComposeResult:
        with Vertical(id="trials") as box:
            box.border_title = self._heading
            box.border_subtitle = "esc to close"
            table: DataTable[object] = RowTable(id="trial-table")
            table.add_columns("task", "#", "verdict", "calls")
            for trial in self._trials:
                names = ", ".join(sanitize_text(c.name or "?") for c in trial.calls) or "—"
                table.add_row(sanitize_text(trial.task_id), trial.trial_index, trial.verdict, names)
            yield table
            with VerticalScroll(id="trial-detail-pane"):
                yield Static("", id="trial-detail")

    def on_mount(self) -> None:
        self.show(0)

    def show(self, index: int) -> None:
        detail = self.query_one("#trial-detail", Static)
        if not self._trials:
            detail.update("No trials in this cell.")
            return
        trial = self._trials[min(max(index, 0), len(self._trials) - 1)]
        detail.update(describe_trial(trial, self._prompts.get(trial.task_id, "")))

    @on(DataTable.RowHighlighted, "#trial-table")
    def highlighted(self, event: DataTable.RowHighlighted) -> None:
        self.show(event.cursor_row)

    def action_close(self) -> None:
        self.dismiss(None)
