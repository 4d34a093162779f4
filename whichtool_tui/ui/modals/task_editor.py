"""Add or edit one task: id, prompt, expected (a surface tool or none), tags."""

from __future__ import annotations

from typing import ClassVar

from pydantic import ValidationError
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Select

from whichtool_tui.usecases.api import Task, first_problem

NONE_CHOICE = "(none)"


class TaskEditor(ModalScreen[Task | None]):
    """Dismisses with the validated task, or None on cancel."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, task: Task | None, tools: list[str] | None, taken_ids: set[str]) -> None:
        super().__init__()
        self._editing = task
        self._tools = tools
        self._taken = taken_ids

    def compose(self) -> ComposeResult:
        task = self._editing
        with Vertical(classes="dialog", id="task-editor") as box:
            box.border_title = "Edit task" if task else "New task"
            yield Label("id")
            yield Input(value=task.id if task else "", id="task-id")
            yield Label("prompt (sent verbatim)")
            yield Input(value=task.prompt if task else "", id="task-prompt")
            yield Label("expected tool (none = a distractor)")
            expected = task.expected if task else None
            if self._tools is not None:
                options = [(NONE_CHOICE, NONE_CHOICE), *((name, name) for name in self._tools)]
                if expected is not None and expected not in self._tools:
                    options.append((f"{expected} (not on the surface)", expected))
                yield Select(
                    options, value=expected or NONE_CHOICE, allow_blank=False, id="task-expected"
                )
            else:
                yield Input(value=expected or "", placeholder="empty = none", id="task-expected")
            yield Label("tags (comma separated)")
            yield Input(value=", ".join(task.tags) if task else "", id="task-tags")
            yield Label("", id="task-error")
            with Horizontal(classes="buttons"):
                yield Button("Save", id="task-save", variant="primary")
                yield Button("Cancel", id="task-cancel")

    def _expected(self) -> str | None:
        widget = self.query_one("#task-expected")
        if isinstance(widget, Select):
            value = widget.value
            return None if value == NONE_CHOICE or not isinstance(value, str) else value
        assert isinstance(widget, Input)
        return widget.value.strip() or None

    @on(Button.Pressed, "#task-save")
    @on(Input.Submitted)
    def save(self) -> None:
        task_id = self.query_one("#task-id", Input).value.strip()
        tags = [t.strip() for t in self.query_one("#task-tags", Input).value.split(",")]
        error = self.query_one("#task-error", Label)
        if task_id in self._taken:
            error.update(f"[b red]id `{task_id}` is already used[/]")
            return
        try:
            task = Task(
                id=task_id,
                prompt=self.query_one("#task-prompt", Input).value,
                expected=self._expected(),
                tags=[t for t in tags if t],
                derived_from=self._editing.derived_from if self._editing else None,
            )
        except ValidationError as exc:
            error.update(f"[b red]{first_problem(exc)}[/]")
            return
        self.dismiss(task)

    @on(Button.Pressed, "#task-cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)
