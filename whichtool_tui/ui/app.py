"""The Textual app: sections as modes, app-level keys, and the workers that do long work."""

from __future__ import annotations

import asyncio
import importlib
import json
import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from textual import work
from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.worker import get_current_worker

from whichtool_tui.artefacts import Artefact, load_artefact, summarize
from whichtool_tui.errors import WhichtoolError
from whichtool_tui.redact import redact_message, redact_paths
from whichtool_tui.ui.bout_model import BoutView, view_of_receipt, view_of_tape
from whichtool_tui.ui.recent import remember
from whichtool_tui.ui.screens.base import SectionScreen
from whichtool_tui.ui.screens.help import HelpScreen
from whichtool_tui.ui.screens.home import HomeScreen
from whichtool_tui.ui.session import Session, TargetChoice, TaskSetState
from whichtool_tui.ui.surface_model import build_surface_view
from whichtool_tui.ui.widgets.section_bar import SECTIONS

if TYPE_CHECKING:
    from whichtool_tui.ui.run_control import RunSetup


def lazy_screen(module: str, name: str) -> Callable[[], Screen[Any]]:
    """A section screen factory that imports its module on first visit (keeps launch fast)."""

    def build() -> Screen[Any]:
        screen_class = getattr(importlib.import_module(f"whichtool_tui.ui.screens.{module}"), name)
        screen: Screen[Any] = screen_class()
        return screen

    return build


FIRST_ROWS = 2_000  # timeline rows built before the first frame; the rest load in a thread
ROW_CHUNK = 10_000
SECTION_NAMES = {section: label for _key, section, label in SECTIONS}


class WhichtoolApp(App[int]):
    """whichtool-tui's interactive face."""

    CSS_PATH = "app.tcss"
    TITLE = "whichtool-tui"
    MODES: ClassVar[dict[str, str | Callable[[], Screen[Any]]]] = {
        "home": HomeScreen,
        "surface": lazy_screen("surface", "SurfaceScreen"),
        "tasks": lazy_screen("tasks", "TasksScreen"),
        "run": lazy_screen("run", "RunScreen"),
        "results": lazy_screen("results", "ResultsScreen"),
        "bout": lazy_screen("bout", "BoutScreen"),
    }
    DEFAULT_MODE = "home"
    HORIZONTAL_BREAKPOINTS = [  # noqa: RUF012 - Textual declares it an instance-level ClassVar
        (0, "-narrow"),
        (100, "-wide"),
    ]
    BINDINGS: ClassVar[list[BindingType]] = [
        *[
            Binding(key, f"switch_section('{section}')", label, show=False)
            for key, section, label in SECTIONS
        ],
        Binding("0,h", "switch_section('home')", "Home", show=False),
        Binding("question_mark,f1", "help", "Help"),
        Binding("ctrl+q", "quit", "Quit", priority=True),
    ]

    def __init__(self, artefact: Artefact | None = None, theme: str | None = None) -> None:
        super().__init__()
        self.session = Session()
        self._initial = artefact
        if theme:
            self.theme = theme

    def on_mount(self) -> None:
        if self._initial is not None:
            self.show_artefact(self._initial)

    # -- sections -----------------------------------------------------------------------------

    def action_switch_section(self, section: str) -> None:
        """Show a section (or home); the same screen instance keeps its state across visits."""
        if section != self.current_mode:
            self.switch_mode(section)

    def action_help(self) -> None:
        """Show every binding active on the current screen."""
        if isinstance(self.screen, HelpScreen):
            return
        self.push_screen(HelpScreen(self.screen.active_bindings))

    def refresh_sections(self) -> None:
        """Tell the visible section that the session changed."""
        screen = self.screen
        if isinstance(screen, SectionScreen):
            screen.on_screen_resume()

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        """Palette entries: every section and action, plus Textual's own."""
        yield SystemCommand("Home", "Pick a target, recent files, the demo", self._to("home"))
        for key, section, label in SECTIONS:
            yield SystemCommand(f"Go to {label}", f"Section {key}", self._to(section))
        yield SystemCommand("Open the demo", "Offline, no key", self.open_demo)
        yield SystemCommand(
            "Open a file…", "A report, receipt, tape, task set or snapshot", self.ask_open_file
        )
        yield SystemCommand("Help", "Every key binding on this screen", self.action_help)
        for binding_key, active in screen.active_bindings.items():
            binding = active.binding
            if active.node is screen and binding.description and binding.show:
                action = binding.action
                yield SystemCommand(
                    f"{SECTION_NAMES.get(self.current_mode, 'Home')}: {binding.description}",
                    f"key {binding_key}",
                    lambda action=action: self.run_action(action, screen),
                )
        yield from super().get_system_commands(screen)

    def _to(self, section: str) -> Callable[[], None]:
        return lambda: self.action_switch_section(section)

    # -- opening things -----------------------------------------------------------------------

    def ask_open_file(self) -> None:
        """Ask for a path and open it (the palette's "Open a file…")."""
        from whichtool_tui.ui.modals.path_prompt import PathPrompt

        def chosen(path: str | None) -> None:
            if path:
                self.open_path(path)

        self.push_screen(PathPrompt("Open a saved file", ""), chosen)

    def open_path(self, path: str) -> None:
        """Open a saved artefact from disk (recent list), reporting problems as a toast."""
        try:
            artefact = load_artefact(path)
        except WhichtoolError as error:
            self.notify(error.message, title="Cannot open", severity="error")
            return
        self.show_artefact(artefact)

    def show_artefact(self, artefact: Artefact) -> None:
        """Put an artefact in the session and switch to the section that shows it."""
        if artefact.kind == "snapshot":
            self.inspect_target(TargetChoice("snapshot", artefact.path))
            return
        try:
            self._store(artefact)
        except WhichtoolError as error:
            self.notify(error.message, title="Cannot open", severity="error")
            return
        facts = summarize(artefact)
        summary = " · ".join(value for _label, value in facts[:2])
        remember(artefact.path, artefact.kind, summary[:60])
        self.switch_mode(artefact.section)
        self.refresh_sections()

    def _store(self, artefact: Artefact) -> None:
        session = self.session
        if artefact.kind == "inspect-report":
            session.surface = build_surface_view(artefact.data)
            session.target = None
            session.target_label = redact_paths(artefact.path)
            ref = session.surface.target
            if session.surface.transport == "snapshot" and ref and Path(ref).is_file():
                session.target = TargetChoice("snapshot", ref)
        elif artefact.kind == "task-set":
            session.tasks = load_tasks_state(artefact.path)
        elif artefact.kind == "run-report":
            from whichtool_tui.evaluation.reader import parse_run_report

            session.run = parse_run_report(artefact.data, redact_paths(artefact.path))
        elif artefact.kind == "diff-report":
            session.diff = artefact.data
        elif artefact.kind == "receipt":
            session.bout = view_of_receipt(
                artefact.data, redact_paths(artefact.path), validate=False, first_rows=FIRST_ROWS
            )
            self.finish_bout(session.bout)
        else:
            session.bout = view_of_tape(artefact.data, redact_paths(artefact.path))

    def open_demo(self) -> None:
        """Inspect the lab surface, run its task set with the keyword baseline, run a bout."""
        self.run_demo()

    # -- workers ------------------------------------------------------------------------------

    @work(exclusive=True, group="demo", exit_on_error=False)
    async def run_demo(self) -> None:
        """The offline demo: every step is the real engine on bundled files, no key, no network."""
        from whichtool_tui.ui import engine
        from whichtool_tui.ui.run_control import prepare_from_session, raised

        folder = engine.demo_folder()
        if folder is None:
            self.notify("The demo files are not installed.", severity="error")
            return
        choice = TargetChoice("snapshot", str(folder / "demo-lab.json"))
        await self.inspect_target(choice).wait()
        if self.session.target != choice:
            return  # inspect failed and said so
        try:
            self.session.tasks = load_tasks_state(str(folder / "demo-lab.tasks.yaml"))
            setup = prepare_from_session(self.session, repeat=5)
        except WhichtoolError as error:
            self.notify(error.message, title="Demo", severity="error")
            return
        # The keyword baseline is offline and free, so the demo may raise budgets without asking.
        self.start_run(raised(setup) if setup.needs_raise else setup, "keyword", None)
        self.run_fixture_bout(show=False)
        self.notify("Demo: surface inspected; the run (3) and the bout (5) are under way.")

    @work(exclusive=True, group="inspect", exit_on_error=False)
    async def inspect_target(self, choice: TargetChoice) -> None:
        """Load and inspect a target without blocking the UI, then show the Surface section."""
        self.notify(f"Inspecting {redact_message(choice.label)}…", timeout=2)
        try:
            from whichtool_tui.ui import engine

            view = await engine.inspect_target(choice)
        except WhichtoolError as error:
            self.notify(error.message, title="Inspect failed", severity="error", timeout=8)
            return
        except Exception as error:
            self.notify(
                f"{type(error).__name__}: {error}", title="Inspect failed", severity="error"
            )
            return
        self.session.target = choice
        self.session.target_label = redact_message(view.target or choice.value)
        self.session.surface = view
        if choice.kind == "snapshot":
            remember(choice.value, "snapshot", f"{len(view.tools)} tools")
        if self.current_mode != "surface":
            self.switch_mode("surface")
        self.refresh_sections()

    @work(exclusive=True, group="run", exit_on_error=False)
    async def start_run(
        self, setup: RunSetup, provider_name: str, model: str | None, base_url: str | None = None
    ) -> None:
        """Spend the plan: trials stream into the session's progress; no report on cancel."""
        from whichtool_tui.evaluation.engine import run_evaluation
        from whichtool_tui.evaluation.events import RunEvent, TrialFinished
        from whichtool_tui.providers.factory import build_provider
        from whichtool_tui.ui.run_control import RunProgress

        progress = RunProgress(planned=setup.prepared.plan.planned, provider=provider_name)
        self.session.progress = progress

        def sink(event: RunEvent) -> None:
            if isinstance(event, TrialFinished):
                progress.add(event.trial)

        try:
            provider = build_provider(provider_name, model, base_url, env=os.environ)
        except WhichtoolError as error:
            progress.state = "failed"
            self.notify(error.message, title="Provider", severity="error", timeout=8)
            return
        try:
            report = await run_evaluation(
                setup.inputs, setup.options, provider, prepared=setup.prepared, sink=sink
            )
        except asyncio.CancelledError:
            progress.state = "cancelled"
            self.notify("Run cancelled; no report was kept.", severity="warning")
            raise
        except WhichtoolError as error:
            progress.state = "failed"
            self.notify(error.message, title="Run failed", severity="error", timeout=8)
            return
        except Exception as error:  # a toast, never a traceback
            progress.state = "failed"
            self.notify(f"{type(error).__name__}: {error}", title="Run failed", severity="error")
            return
        finally:
            await provider.aclose()
        self.session.run = report
        progress.state = "finished"
        self.notify(f"Run finished: {progress.done} trials. Press 4 for the results.")
        self.refresh_sections()

    @work(thread=True, exclusive=True, group="bout-load", exit_on_error=False)
    def finish_bout(self, bout: BoutView) -> None:
        """Read the rest of a receipt's rows, then validate it, off the UI thread."""
        worker = get_current_worker()
        while bout.load_more(ROW_CHUNK):
            if worker.is_cancelled:
                return
            self.call_from_thread(self._bout_rows_grew)
        self.call_from_thread(self._bout_rows_grew)
        bout.validate()
        if bout.invalid is not None:
            self.call_from_thread(
                self.notify, bout.invalid, title="Not a valid receipt", severity="error"
            )
        self.call_from_thread(self.refresh_sections)

    def _bout_rows_grew(self) -> None:
        from whichtool_tui.ui.screens.bout import BoutScreen

        screen = self.screen
        if isinstance(screen, BoutScreen):
            screen.rows_grew()

    @work(exclusive=True, group="bout", exit_on_error=False)
    async def run_fixture_bout(self, show: bool = True) -> None:
        """Every atom against the bundled lab fixture (offline, naive seat) in a temp sandbox."""
        import tempfile

        from whichtool_tui.arcade.atoms import ATOM_IDS
        from whichtool_tui.arcade.bout import BoutPlan, fixture_argv, run_bout
        from whichtool_tui.arcade.receipt import receipt_json
        from whichtool_tui.arcade.seats import NaiveSeat
        from whichtool_tui.mcp_client.command import child_environment

        self.notify("Running a bout against the lab fixture…", timeout=3)
        with tempfile.TemporaryDirectory(prefix="whichtool-bout-") as sandbox:
            plan = BoutPlan(
                kind="fixture",
                argv=fixture_argv(),
                seat=NaiveSeat(),
                atom_ids=list(ATOM_IDS),
                sandbox=Path(sandbox),
                base_env=child_environment(),
            )
            try:
                receipt = await run_bout(plan)
            except WhichtoolError as error:
                self.notify(error.message, title="Bout failed", severity="error", timeout=8)
                return
            except Exception as error:  # a toast, never a traceback
                message = f"{type(error).__name__}: {error}"
                self.notify(message, title="Bout failed", severity="error")
                return
        data = json.loads(receipt_json(receipt))
        self.session.bout = view_of_receipt(data, "lab fixture bout")
        if show and self.current_mode != "bout":
            self.switch_mode("bout")
        elif not show:
            self.notify("The lab bout finished: press 5 to review it.")
        self.refresh_sections()

    def save_receipt(self, bout: BoutView) -> None:
        """Ask for a path and write the receipt (with the operator's guess, if made)."""
        from whichtool_tui.arcade.receipt import OperatorCall, receipt_json
        from whichtool_tui.files import write_atomic
        from whichtool_tui.ui.modals.path_prompt import PathPrompt

        receipt = bout.receipt
        if receipt is None:
            return

        def save(path: str | None) -> None:
            if not path:
                return
            copy = receipt.model_copy(deep=True)
            if bout.guess is not None:
                copy.operator_call = OperatorCall(recorded=True, guess=bout.guess, skipped=False)
            try:
                written = write_atomic(path, receipt_json(copy))
            except WhichtoolError as error:
                self.notify(error.message, title="Not saved", severity="error")
                return
            self.notify(f"Receipt written to {redact_paths(str(written))}")

        self.push_screen(PathPrompt("Save receipt to", "receipt.json"), save)

    def cancel_run(self) -> None:
        """Cancel a running benchmark (its worker); nothing partial is kept."""
        running = [w for w in self.workers if w.group == "run" and w.is_running]
        if not running:
            self.notify("No run in progress.")
            return
        for worker in running:
            worker.cancel()


def load_tasks_state(path: str) -> TaskSetState:
    """Load a task set for editing (validated strictly, like every other reader)."""
    from whichtool_tui.tasks.load import load_task_set

    loaded = load_task_set(path)
    task_set = loaded.task_set
    return TaskSetState(path, task_set.version, task_set.surface, list(task_set.tasks))


def run_app(artefact: Artefact | None = None) -> int:
    """Run the app in the terminal and return its exit code."""
    app = WhichtoolApp(artefact)
    result = app.run()
    return int(result or 0)
