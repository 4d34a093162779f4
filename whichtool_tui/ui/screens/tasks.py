"""Section 2: the task set as an editable table, lint findings kept current as you edit."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import DataTable, Input, Static

from whichtool_tui.errors import WhichtoolError
from whichtool_tui.redact import redact_paths
from whichtool_tui.text_safety import sanitize_text
from whichtool_tui.ui.modals.confirm import ConfirmModal
from whichtool_tui.ui.modals.generate import GenerateDialog, GenerateRequest
from whichtool_tui.ui.modals.mutation_preview import MutationPreview
from whichtool_tui.ui.modals.path_prompt import PathPrompt
from whichtool_tui.ui.modals.task_editor import TaskEditor
from whichtool_tui.ui.recent import remember
from whichtool_tui.ui.screens.base import SectionScreen
from whichtool_tui.ui.session import TaskSetState
from whichtool_tui.ui.short_paths import shorten, shorten_path
from whichtool_tui.ui.widgets.row_table import RowTable
from whichtool_tui.usecases.api import TASK_SET_VERSION, Task
from whichtool_tui.usecases.tasks import lint_findings, mutate_in_memory, save_tasks

PROMPT_WIDTH = 52  # the prompt column at 120 columns; narrower terminals give it less
MIN_PROMPT_WIDTH = 16
UNDO_DEPTH = 50
NEW_TASK_SET = "whichtool.tasks.yaml"
HEAD_PADDING = 2  # the header's own padding, in cells
NARROW_HEAD = 100  # under this many columns the header packs its facts tighter
NEEDS_TASKS = {"edit", "delete", "copy", "mutate", "save"}


def save_default(path: str) -> str:
    """Where ``s`` offers to save: the file the set came from, unless that is a bundled demo
    file inside the installed package (then its name, in the working folder)."""
    from whichtool_tui.ui.engine import demo_folder

    folder = demo_folder()
    source = Path(path).resolve()
    if folder is not None and source.is_relative_to(folder.resolve()):
        return source.name
    return path


LINT_MARKS = {"error": ("✖", "bold red"), "warning": ("▲", "yellow"), "info": ("ℹ", "dim")}


class TasksScreen(SectionScreen):
    """Add, edit, delete, copy, preview mutations, save."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q", "back", "Back"),
        Binding("a", "add", "Add"),
        Binding("e,enter", "edit", "Edit"),  # enter on a row arrives as RowSelected
        Binding("d", "delete", "Delete"),
        Binding("u", "undo", "Undo"),
        Binding("c", "copy", "Copy"),
        Binding("m", "mutate", "Mutations"),
        Binding("s", "save", "Save"),
        Binding("g", "generate", "Generate"),
        Binding("n", "new", "New set"),
    ]

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Only what applies now is in the footer: no edits without a set, no undo with nothing."""
        if action in NEEDS_TASKS and self.state is None:
            return False
        return action != "undo" or bool(self._undo)

    def compose_body(self) -> ComposeResult:
        yield Static("", id="tasks-empty", classes="empty")
        with Vertical(id="tasks-body"):
            yield Static("", id="tasks-head")
            yield RowTable(id="task-table")
            yield Static("", id="tasks-lint")

    def __init__(self) -> None:
        super().__init__()
        self._undo: list[tuple[str, list[Task]]] = []  # (what changed, the tasks before it)
        self._revision = 0  # bumped by every edit, so a revisit redraws only after a change
        self._drawn: tuple[object, ...] | None = None

    @on(DataTable.RowSelected, "#task-table")
    def row_chosen(self) -> None:
        """Enter on a row edits it, as the help says (the table takes enter before the screen)."""
        self.action_edit()

    @property
    def state(self) -> TaskSetState | None:
        return self.wapp.session.tasks

    def on_resize(self) -> None:
        if self._section_ready:
            self.refresh_from_session()

    def surface_tools(self) -> list[str] | None:
        surface = self.wapp.session.surface
        return [tool.name for tool in surface.tools] if surface else None

    def refresh_from_session(self) -> None:
        state = self.state
        self.query_one("#tasks-empty").display = state is None
        self.query_one("#tasks-body").display = state is not None
        if state is None:
            self.query_one("#tasks-empty", Static).update(
                "No task set loaded. Press [b]n[/b] to start an empty one and [b]a[/b] to add "
                "tasks, [b]g[/b] to draft one with a model from the loaded surface, open one "
                "with [b]whichtool-tui open FILE[/b], or run the demo (home, [b]d[/b])."
            )
            return
        table = self.query_one("#task-table", DataTable)
        if not isinstance(self.focused, DataTable | Input):
            self.set_focus(table)  # keys work on arrival, on a visible cursor row
        surface = self.wapp.session.surface
        key = (id(state), self._revision, state.dirty, state.path, id(surface), self.size.width)
        if key == self._drawn:
            return  # nothing changed since the last visit: keep the table as it is
        self._drawn = key
        self._fill_table(state)
        self._update_head_and_lint(state)

    def _fill_table(self, state: TaskSetState) -> None:
        table = self.query_one("#task-table", DataTable)
        row = table.cursor_row
        ids = [sanitize_text(task.id) for task in state.tasks]
        expected_names = [sanitize_text(task.expected or "— none —") for task in state.tasks]
        tag_texts = [", ".join(task.tags) for task in state.tasks]
        id_width = min(max((len(i) for i in ids), default=2), 28)
        expected_width = min(max((len(e) for e in expected_names), default=8), 28)
        tags_cap = 16 if self.size.width >= 100 else 10  # at 80 columns the prompt needs it more
        tags_width = min(max((len(t) for t in tag_texts), default=4), tags_cap)
        # Borders, scrollbar and one cell of padding each side of the four columns.
        spare = self.size.width - 4 - 8 - id_width - expected_width - tags_width
        prompt_width = max(MIN_PROMPT_WIDTH, min(PROMPT_WIDTH, spare))
        table.clear(columns=True)
        table.add_column("id", width=id_width)
        table.add_column("prompt", width=prompt_width)
        table.add_column("expected", width=expected_width)
        table.add_column("tags", width=tags_width)
        for task, task_id, expected_name, tags in zip(
            state.tasks, ids, expected_names, tag_texts, strict=True
        ):
            expected = Text(
                shorten(expected_name, expected_width),
                style="italic dim" if task.expected is None else "",
            )
            table.add_row(
                Text(shorten(task_id, id_width)),
                Text(shorten(sanitize_text(task.prompt), prompt_width)),
                expected,
                Text(shorten(tags, tags_width), style="dim"),
                key=task.id,
            )
        if state.tasks:
            table.move_cursor(row=min(max(row, 0), len(state.tasks) - 1))

    def _update_head_and_lint(self, state: TaskSetState) -> None:
        surface = self.wapp.session.surface
        distractors = sum(1 for task in state.tasks if task.expected is None)
        narrow = self.size.width < NARROW_HEAD
        facts = Text()
        facts.append(f"{'  (modified)' if state.dirty else ''}", style="yellow")
        gap = "  " if narrow else "   "
        facts.append(f"{gap}{len(state.tasks)} tasks · {distractors} distractors · surface ")
        digits = 8 if narrow else 12
        pinned = state.surface.removeprefix("sha256:")[:digits] if state.surface else "not pinned"
        facts.append(pinned)
        if surface is not None and state.surface:
            matches = state.surface == surface.surface_hash
            facts.append(
                "  (matches)" if matches else "  (differs)", style="green" if matches else "yellow"
            )
        # The path gives way (leading folders first) before the counts and the surface match.
        path = redact_paths(state.path)
        whole_name = len(path.rsplit("/", 1)[-1]) + 2  # "…/" and the file name, never less
        room = max(self.size.width - HEAD_PADDING - facts.cell_len, whole_name)
        head = Text(shorten_path(path, room), style="bold")
        head.append_text(facts)
        self.query_one("#tasks-head", Static).update(head)
        tools = self.surface_tools()
        findings = lint_findings(
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

    def _remember(self, what: str) -> None:
        """Keep the tasks as they are before a change, so ``u`` can put them back."""
        if self.state is not None:
            self._undo.append((what, list(self.state.tasks)))
            del self._undo[:-UNDO_DEPTH]

    def _changed(self) -> None:
        if self.state is not None:
            self.state.dirty = True
        self._revision += 1
        self.refresh_from_session()
        self.refresh_bindings()

    def action_undo(self) -> None:
        """Put the task list back as it was before the last change."""
        if not self._undo or self.state is None:
            return
        what, tasks = self._undo.pop()
        self.state.tasks[:] = tasks
        self.notify(f"Undid: {what}")
        self._changed()

    def action_new(self) -> None:
        """Start an empty task set (pinned to the loaded surface) without asking a model."""
        surface = self.wapp.session.surface

        def start(yes: bool | None = True) -> None:
            if not yes:
                return
            pinned = surface.surface_hash if surface is not None else None
            self.wapp.session.tasks = TaskSetState(NEW_TASK_SET, TASK_SET_VERSION, pinned, [])
            self._undo.clear()
            self._drawn = None
            self.refresh_from_session()
            self.refresh_bindings()
            self.set_focus(self.query_one("#task-table", DataTable))
            self.notify("Empty task set: press a to add a task, s to save it.")

        current = self.state
        if current is not None and current.dirty:
            question = (
                f"{redact_paths(current.path)} has unsaved edits. Drop them and start an empty "
                "task set?"
            )
            self.app.push_screen(ConfirmModal("Drop unsaved edits?", question, "Drop"), start)
            return
        start()

    def action_add(self) -> None:
        if self.state is None:
            self.action_new()
        state = self.state
        if state is None:
            return
        taken = {task.id for task in state.tasks}

        def added(task: Task | None) -> None:
            if task is not None and self.state is not None:
                self._remember(f"add {task.id}")
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
                self._remember(f"edit {current.id}")
                self.state.tasks[index] = task
                self._changed()

        self.app.push_screen(TaskEditor(current, self.surface_tools(), taken), edited)

    def action_delete(self) -> None:
        index = self.selected_index()
        if index is None or self.state is None:
            return
        self._remember(f"delete {self.state.tasks[index].id}")
        removed = self.state.tasks.pop(index)
        self.notify(f"Deleted {sanitize_text(removed.id)} · u undoes it")
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
        self._remember(f"copy {original.id}")
        state.tasks.insert(index + 1, original.model_copy(update={"id": new_id}))
        self._changed()
        self.query_one("#task-table", DataTable).move_cursor(row=index + 1)

    def action_mutate(self) -> None:
        state = self.state
        if state is None:
            return
        try:
            result = mutate_in_memory(state.tasks, seed=0)
        except WhichtoolError as error:
            self.notify(error.message, severity="error")
            return
        variants = result.tasks[len(state.tasks) :]

        def decided(accept: bool | None) -> None:
            if accept and self.state is not None and variants:
                self._remember(f"add {len(variants)} variants")
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
                written = save_tasks(self.state.as_task_set(), path, comments_from=self.state.path)
            except WhichtoolError as error:
                self.notify(error.message, title="Not saved", severity="error")
                return
            self.state.path = str(written)
            self.state.dirty = False
            remember(str(written), "task-set", f"{len(self.state.tasks)} tasks")
            self._revision += 1
            self.notify(f"Saved {len(self.state.tasks)} tasks to {redact_paths(str(written))}")
            self.refresh_from_session()

        offered = save_default(state.path)
        # Saving back over the task file is the editor's save; every other open file is an
        # input (the snapshot the tasks are written for, a run, the config).
        inputs = self.wapp.session.files_in_use()
        prompt = PathPrompt(
            "Save task set to", offered, save=True, replaces=state.path, inputs=inputs
        )
        self.app.push_screen(prompt, save)

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
