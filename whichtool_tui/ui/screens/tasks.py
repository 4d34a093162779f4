"""Section 2: the task set as an editable table, lint findings kept current as you edit."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import DataTable, Static

from whichtool_tui.errors import WhichtoolError
from whichtool_tui.redact import redact_paths, sanitize_text
from whichtool_tui.tasks.lint import lint_task_set
from whichtool_tui.tasks.model import Task
from whichtool_tui.tasks.mutate import mutate_tasks
from whichtool_tui.tasks.writer import write_task_set
from whichtool_tui.ui.modals.generate import GenerateDialog, GenerateRequest
from whichtool_tui.ui.modals.mutation_preview import MutationPreview
from whichtool_tui.ui.modals.path_prompt import PathPrompt
from whichtool_tui.ui.modals.task_editor import TaskEditor
from whichtool_tui.ui.screens.base import SectionScreen
from whichtool_tui.ui.session import TaskSetState

PROMPT_WIDTH = 52


def shorten(text: str, width: int) -> str:
    """Clip to ``width`` characters with an ellipsis."""
    return text if len(text) <= width else text[: width - 1] + "…"


LINT_MARKS = {"error": ("✖", "bold red"), "warning": ("▲", "yellow"), "info": ("ℹ", "dim")}


class TasksScreen(SectionScreen):
    """Add, edit, delete, copy, preview mutations, save."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q", "back", "Back"),
        Binding("a", "add", "Add"),
        Binding("e,enter", "edit", "Edit"),
        Binding("d", "delete", "Delete"),
        Binding("c", "copy", "Copy"),
        Binding("m", "mutate", "Mutations"),
        Binding("s", "save", "Save"),
        Binding("g", "generate", "Generate"),
    ]

    def compose_body(self) -> ComposeResult:
        yield Static("", id="tasks-empty", classes="empty")
        with Vertical(id="tasks-body"):
            yield Static("", id="tasks-head")
            table: DataTable[object] = DataTable(id="task-table", cursor_type="row")
            table.add_columns("id", "prompt", "expected", "tags")
            yield table
            yield Static("", id="tasks-lint")

    @property
    def state(self) -> TaskSetState | None:
        return self.wapp.session.tasks

    def surface_tools(self) -> list[str] | None:
        surface = self.wapp.session.surface
        return [tool.name for tool in surface.tools] if surface else None

    def refresh_from_session(self) -> None:
        state = self.state
        self.query_one("#tasks-empty").display = state is None
        self.query_one("#tasks-body").display = state is not None
        if state is None:
            self.query_one("#tasks-empty", Static).update(
                "No task set loaded. Open one with [b]whichtool-tui open FILE[/b], "
                "run the demo (home, [b]d[/b]), or press [b]g[/b] to draft one with a model "
                "from the loaded surface."
            )
            return
        table = self.query_one("#task-table", DataTable)
        row = table.cursor_row
        table.clear()
        for task in state.tasks:
            expected = (
                Text("— none —", style="italic dim")
                if task.expected is None
                else Text(sanitize_text(task.expected))
            )
            table.add_row(
                Text(sanitize_text(task.id)),
                Text(shorten(sanitize_text(task.prompt), PROMPT_WIDTH)),
                expected,
                Text(", ".join(task.tags), style="dim"),
                key=task.id,
            )
        if state.tasks:
            table.move_cursor(row=min(max(row, 0), len(state.tasks) - 1))
        self._update_head_and_lint(state)

    def _update_head_and_lint(self, state: TaskSetState) -> None:
        surface = self.wapp.session.surface
        distractors = sum(1 for task in state.tasks if task.expected is None)
        head = Text()
        head.append(redact_paths(state.path), style="bold")
        head.append(f"{'  (modified)' if state.dirty else ''}", style="yellow")
        head.append(f"   {len(state.tasks)} tasks · {distractors} distractors · surface ")
        pinned = state.surface.removeprefix("sha256:")[:12] if state.surface else "not pinned"
        head.append(pinned)
        if surface is not None and state.surface:
            matches = state.surface == surface.surface_hash
            head.append(
                "  (matches)" if matches else "  (differs)", style="green" if matches else "yellow"
            )
        self.query_one("#tasks-head", Static).update(head)
        tools = self.surface_tools()
        findings = lint_task_set(
            state.as_task_set(), tools, surface.surface_hash if surface else None
        )
        lint = Text()
        lint.append("Lint: ", style="bold")
        if not findings:
            lint.append("clean", style="green")
        for finding in findings:
            mark, style = LINT_MARKS.get(finding.severity, ("?", ""))
            lint.append(f"{mark} {finding.code} ", style=style)
            lint.append(sanitize_text(finding.message) + "\n")
        if tools is None:
            lint.append("(no surface loaded: expected tools are not checked)", style="dim")
        self.query_one("#tasks-lint", Static).update(lint)

    def selected_index(self) -> int | None:
        state = self.state
        if state is None or not state.tasks:
            return None
        return min(
            max(self.query_one("#task-table", DataTable).cursor_row, 0), len(state.tasks) - 1
        )

    def _changed(self) -> None:
        if self.state is not None:
            self.state.dirty = True
        self.refresh_from_session()

    def action_add(self) -> None:
        state = self.state
        if state is None:
            self.notify("Open a task set first.", severity="warning")
            return
        taken = {task.id for task in state.tasks}

        def added(task: Task | None) -> None:
            if task is not None and self.state is not None:
                self.state.tasks.append(task)
                self._changed()
                table = self.query_one("#task-table", DataTable)
                table.move_cursor(row=len(self.state.tasks) - 1)

        self.app.push_screen(TaskEditor(None, self.surface_tools(), taken), added)

    def action_edit(self) -> None:
        index = self.selected_index()
        state = self.state
        if index is None or state is None:
            return
        current = state.tasks[index]
        taken = {task.id for task in state.tasks} - {current.id}

        def edited(task: Task | None) -> None:
            if task is not None and self.state is not None:
                self.state.tasks[index] = task
                self._changed()

        self.app.push_screen(TaskEditor(current, self.surface_tools(), taken), edited)

    def action_delete(self) -> None:
        index = self.selected_index()
        if index is None or self.state is None:
            return
        removed = self.state.tasks.pop(index)
        self.notify(f"Deleted {removed.id}")
        self._changed()

    def action_copy(self) -> None:
        index = self.selected_index()
        state = self.state
        if index is None or state is None:
            return
        original = state.tasks[index]
        taken = {task.id for task in state.tasks}
        new_id = f"{original.id}.copy"
        counter = 2
        while new_id in taken:
            new_id = f"{original.id}.copy{counter}"
            counter += 1
        state.tasks.insert(index + 1, original.model_copy(update={"id": new_id}))
        self._changed()
        self.query_one("#task-table", DataTable).move_cursor(row=index + 1)

    def action_mutate(self) -> None:
        state = self.state
        if state is None:
            return
        try:
            result = mutate_tasks(state.tasks, seed=0)
        except WhichtoolError as error:
            self.notify(error.message, severity="error")
            return
        variants = result.tasks[len(state.tasks) :]

        def decided(accept: bool | None) -> None:
            if accept and self.state is not None and variants:
                self.state.tasks.extend(variants)
                self.notify(f"Added {len(variants)} variants")
                self._changed()

        self.app.push_screen(MutationPreview(variants), decided)

    def action_save(self) -> None:
        state = self.state
        if state is None:
            return

        def save(path: str | None) -> None:
            if not path or self.state is None:
                return
            try:
                written = write_task_set(self.state.as_task_set(), path)
            except WhichtoolError as error:
                self.notify(error.message, title="Not saved", severity="error")
                return
            self.state.path = str(written)
            self.state.dirty = False
            self.notify(f"Saved {len(self.state.tasks)} tasks to {redact_paths(str(written))}")
            self.refresh_from_session()

        self.app.push_screen(PathPrompt("Save task set to", state.path), save)

    def action_generate(self) -> None:
        surface = self.wapp.session.surface
        if surface is None or surface.raw_list is None:
            self.notify(
                "Load a target first: the draft is written from its tools.", severity="warning"
            )
            return

        def chosen(request: GenerateRequest | None) -> None:
            if request is not None:
                self.wapp.generate_tasks(request)

        self.app.push_screen(GenerateDialog(), chosen)
