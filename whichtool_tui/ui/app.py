"""The Textual app: sections as modes, app-level keys, and the workers that do long work."""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import sys
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from textual import work
from textual.app import SystemCommand
from textual.binding import Binding, BindingType
from textual.notifications import SeverityLevel
from textual.screen import Screen

from whichtool_tui.config_files import config_to_load
from whichtool_tui.errors import WhichtoolError
from whichtool_tui.gc_phases import keep_for_session, paused_gc
from whichtool_tui.redact import redact_paths
from whichtool_tui.text_safety import redact_message
from whichtool_tui.ui.jobs import JobsApp, load_tasks_state
from whichtool_tui.ui.messages import ArtefactRead
from whichtool_tui.ui.preferences import chosen_theme, remember_theme
from whichtool_tui.ui.recent import key_metric, remember
from whichtool_tui.ui.screens.help import SECTION_SCREENS, HelpScreen, bindings_of
from whichtool_tui.ui.session import (
    ReviewOptions,
    RunForm,
    Session,
    TargetChoice,
)
from whichtool_tui.ui.short_paths import shorten_paths_in
from whichtool_tui.ui.widgets.section_bar import SECTIONS
from whichtool_tui.usecases.artefacts import open_artefact, summarize_artefact

if TYPE_CHECKING:
    from whichtool_tui.config import Settings
    from whichtool_tui.usecases.api import Artefact, DiffReport


def lazy_screen(module: str, name: str) -> Callable[[], Screen[Any]]:
    """A section screen factory that imports its module on first visit (keeps launch fast)."""

    def build() -> Screen[Any]:
        screen_class = getattr(importlib.import_module(f"whichtool_tui.ui.screens.{module}"), name)
        screen: Screen[Any] = screen_class()
        return screen

    return build


WORK_LOST_ON_QUIT = {
    "inspect": "inspecting the target",
    "run": "a routing run in progress",
    "bout": "a bout in progress",
    "generate": "drafting a task set with a model",
    "improve": "measuring a proposed fix",
    "save": "writing a receipt",
}
CANCELLED_EXIT = 130  # quitting cancelled work in progress, as README's exit codes say
QUIT_GRACE_SECONDS = 5.0  # cancelled work gets this long to stop its servers before we exit
FIRST_ROWS = 2_000  # timeline rows built before the first frame; the rest load in a thread
FIRST_SCREEN_KINDS = ("receipt", "tape")  # opened straight on their section, not over the home
SECTION_NAMES = {section: label for _key, section, label in SECTIONS}
PALETTE_SKIPS = {"back", "escape", "demo"}  # back is not an action by name; the demo has its own


class WhichtoolApp(JobsApp):
    """whichtool-tui's interactive face."""

    CSS_PATH = "app.tcss"
    TITLE = "whichtool-tui"
    MODES: ClassVar[dict[str, str | Callable[[], Screen[Any]]]] = {
        "home": lazy_screen("home", "HomeScreen"),  # a receipt opened at launch skips it
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
    VERTICAL_BREAKPOINTS = [(0, "-short"), (32, "-tall")]  # noqa: RUF012 - as above
    BINDINGS: ClassVar[list[BindingType]] = [
        *[
            Binding(key, f"switch_section('{section}')", label, show=False)
            for key, section, label in SECTIONS
        ],
        Binding("0,h", "switch_section('home')", "Home", show=False),
        Binding("question_mark,f1", "help", "Help"),
        Binding("ctrl+q", "quit", "Quit", priority=True),
    ]

    def __init__(
        self,
        artefact: Artefact | None = None,
        theme: str | None = None,
        debug: bool = False,
        start: StartPoint | None = None,
        settings: Settings | None = None,
    ) -> None:
        if artefact is not None and artefact.kind in FIRST_SCREEN_KINDS:
            # Textual builds the first screen from DEFAULT_MODE, read once in App.__init__: a
            # receipt opens on the Bout screen without building the home screen behind it.
            setattr(self, "DEFAULT_MODE", artefact.section)  # noqa: B010 - a ClassVar, per app
        settings_error: WhichtoolError | None = None
        if settings is None and start is not None:
            settings = start.settings
        explicit = start.review.config if start and start.review else None
        try:
            # No config file: the defaults, built when first read (pydantic after the first frame).
            if settings is None and config_to_load(explicit):
                from whichtool_tui.config import load_settings

                settings = load_settings(explicit)
        except WhichtoolError as error:  # opened on a saved file: say so, run on defaults
            settings_error = error
        super().__init__(settings)
        self._settings_error = settings_error
        self._initial = artefact
        if artefact is not None and artefact.kind == "receipt":
            # A parsed receipt is millions of acyclic objects kept for the session: frozen, the
            # collections Textual's start-up triggers no longer rescan them (~0.4 s of a
            # 100,000-event receipt's first frame). Reference counting still frees them.
            keep_for_session()
        self._start = start
        self._debug_errors = debug
        self.cancelled_on_quit: list[str] = []  # what quitting stopped, said on the way out
        wanted = theme or chosen_theme()
        if wanted and wanted in self.available_themes:
            self.theme = wanted

    def _print_error_renderables(self) -> None:
        """An internal error ends the app with one line (the traceback only with --debug)."""
        if self._debug_errors or not self._exit_renderables:
            super()._print_error_renderables()
            return
        error = self._exception
        what = f"{type(error).__name__}: {error}" if error is not None else "unknown error"
        self.error_console.print(
            f"whichtool-tui: the interactive app stopped on an internal error ({what})\n"
            "  Run it again with --debug to see the traceback, and report it.",
            markup=False,
            highlight=False,
            soft_wrap=True,
        )
        self._exit_renderables.clear()

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        """Every toast, from any screen or job, is redacted as stderr is (one function); its
        text is never read as markup (no toast of ours uses any, and outside text may hold
        ``[link=…]`` or a stray ``[/]``), and its long paths are shortened from the left so it
        stays a few lines over the content."""
        del markup
        super().notify(
            shorten_paths_in(redact_message(message)),
            title=redact_message(title),
            severity=severity,
            timeout=timeout,
            markup=False,
        )

    def on_mount(self) -> None:
        self.theme_changed_signal.subscribe(self, lambda theme: remember_theme(theme.name))
        if self._settings_error is not None:
            self.notify(self._settings_error.message, title="Config", severity="error", timeout=8)
        shown = self._initial is None or self.show_artefact(self._initial)
        if not shown and self.current_mode != "home":  # a file that cannot be shown: the home
            self.switch_mode("home")
        start = self._start
        if start is None:
            return
        if start.review is not None:
            self.review = start.review
            self.session.config_file = start.review.config
        if start.run_form is not None:
            self.session.run_form = start.run_form
        if start.diff is not None:
            from whichtool_tui.usecases.saved_runs import parse_diff

            diff = start.diff
            self.session.diff = diff if not isinstance(diff, dict) else parse_diff(diff, "diff")
        if start.tasks is not None:
            try:
                self.session.tasks = load_tasks_state(start.tasks)
            except WhichtoolError as error:
                self.notify(error.message, title="Task set", severity="error", timeout=8)
        if start.bout is not None:
            self.run_bout_plan(start.bout, "bout", output=start.bout_output)
            self.switch_mode("bout")
        if start.target is not None:
            kind, value = start.target
            self.inspect_target(TargetChoice(kind, value), start.section or "surface")
        if start.section is not None and start.bout is None:
            self.switch_mode(start.section)
        if start.demo:
            self.open_demo()

    # -- quitting -----------------------------------------------------------------------------

    def work_at_risk(self) -> list[str]:
        """What quitting now would lose: work in progress and unsaved edits, one line each."""
        at_risk = []
        progress = self.session.progress
        for worker in self.workers:
            if worker.is_finished or worker.group not in WORK_LOST_ON_QUIT:
                continue
            what = WORK_LOST_ON_QUIT[worker.group]
            if worker.group == "run" and progress is not None:
                what += f" ({progress.done}/{progress.planned} trials; no report is kept)"
            at_risk.append(what)
        tasks = self.session.tasks
        if tasks is not None and tasks.dirty:
            at_risk.append(f"unsaved edits to the task set {redact_paths(tasks.path)}")
        return at_risk

    async def action_quit(self) -> None:
        """Quit at once when nothing would be lost; otherwise ask first, Cancel focused (ctrl+q
        twice quits; unsaved task edits can be saved on the way out)."""
        from whichtool_tui.ui.modals.quit import QuitChoice, QuitModal

        at_risk = self.work_at_risk()
        if not at_risk or isinstance(self.screen, QuitModal):
            await self.quit_now(at_risk)
            return

        async def decided(choice: QuitChoice | None) -> None:
            if choice == "save" and not self.save_task_edits():
                return  # not saved (said in a toast): nothing is lost, the app stays
            if choice is not None:
                await self.quit_now(self.work_at_risk())

        tasks = self.session.tasks
        question = "Quitting now loses:\n" + "\n".join(f"  • {item}" for item in at_risk)
        self.push_screen(QuitModal(question, tasks is not None and tasks.dirty), decided)

    def save_task_edits(self) -> bool:
        """Write the edited task set back to its file; False (and a toast) when it cannot be."""
        from whichtool_tui.usecases.tasks import save_tasks

        tasks = self.session.tasks
        if tasks is None or not tasks.dirty:
            return True
        try:
            save_tasks(tasks.as_task_set(), tasks.path, comments_from=tasks.path)
        except WhichtoolError as error:
            self.notify(error.message, title="Not saved", severity="error")
            return False
        tasks.dirty = False
        return True

    async def quit_now(self, at_risk: list[str]) -> None:
        """Stop the work in progress (its servers with it), then exit; the terminal is told
        what was cancelled once the app has closed."""
        self.cancelled_on_quit = [item for item in at_risk if not item.startswith("unsaved")]
        running = [worker for worker in self.workers if not worker.is_finished]
        for worker in running:
            worker.cancel()
        if running:
            waits = asyncio.gather(*(w.wait() for w in running), return_exceptions=True)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(waits, QUIT_GRACE_SECONDS)
        self.exit(0)

    # -- sections -----------------------------------------------------------------------------

    def action_switch_section(self, section: str) -> None:
        """Show a section (or home); the same screen instance keeps its state across visits."""
        if section != self.current_mode:
            self.switch_mode(section)

    def action_help(self) -> None:
        """Show every binding active on the current screen."""
        if isinstance(self.screen, HelpScreen):
            return
        here = SECTION_NAMES.get(self.current_mode, "Home")
        self.push_screen(HelpScreen(self.screen.active_bindings, here))

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        """Palette entries: every section, then every action of every screen by name (run on
        its section, which is shown first), plus Textual's own."""
        yield SystemCommand("Home", "Pick a target, recent files, the demo", self._to("home"))
        for key, section, label in SECTIONS:
            yield SystemCommand(f"Go to {label}", f"Section {key}", self._to(section))
        yield SystemCommand("Open the demo", "Offline, no key", self.open_demo)
        yield SystemCommand(
            "Open a file…", "A report, receipt, tape, task set or snapshot", self.ask_open_file
        )
        yield SystemCommand("Help", "Every key binding on this screen", self.action_help)
        for label, mode, screen_class in SECTION_SCREENS:
            for binding in bindings_of(mode, screen_class):
                if binding.action in PALETTE_SKIPS:
                    continue
                keys = ", ".join(
                    self.get_key_display(Binding(key.strip(), binding.action))
                    for key in binding.key.split(",")
                )
                yield SystemCommand(
                    f"{label.lstrip('0123456789 ')}: {binding.description}",
                    f"key {keys}" + ("" if mode == self.current_mode else f" on {label}"),
                    self._in_section(mode, binding.action),
                )
        yield from super().get_system_commands(screen)

    def _in_section(self, mode: str, action: str) -> Callable[[], Awaitable[None]]:
        """A palette entry's callback: show the action's section, then run it there."""

        async def run() -> None:
            if self.current_mode != mode:
                await self.switch_mode(mode)
            await self.run_action(action, self.screen)

        return run

    def _to(self, section: str) -> Callable[[], None]:
        return lambda: self.action_switch_section(section)

    # -- opening things -----------------------------------------------------------------------

    def ask_open_file(self) -> None:
        """Ask for a path and open it (the palette's "Open a file…")."""
        from whichtool_tui.ui.modals.path_prompt import PathPrompt

        def chosen(path: str | None) -> None:
            if path:
                self.read_artefact(path)

        self.push_screen(PathPrompt("Open a saved file", ""), chosen)

    @work(thread=True, exclusive=True, group="open", exit_on_error=False, description="open")
    def read_artefact(self, path: str) -> None:
        """Read and check a saved file off the UI thread (a 100,000-event receipt: seconds);
        ``ArtefactRead`` then shows it, as ``open_path`` does at once."""
        try:
            artefact = open_artefact(path, wire_checked_to=FIRST_ROWS)
        except WhichtoolError as error:
            self.notify(error.message, title="Cannot open", severity="error")
            return
        self.post_message(ArtefactRead(artefact))

    def on_artefact_read(self, message: ArtefactRead) -> None:
        """A file read in the background is put in the session and its section shown."""
        self.show_artefact(message.artefact)
        message.applied.set()

    def open_path(self, path: str) -> None:
        """Open a saved artefact from disk (recent list), reporting problems as a toast."""
        try:
            artefact = open_artefact(path, wire_checked_to=FIRST_ROWS)
        except WhichtoolError as error:
            self.notify(error.message, title="Cannot open", severity="error")
            return
        self.show_artefact(artefact)

    def show_artefact(self, artefact: Artefact) -> bool:
        """Put an artefact in the session and switch to the section that shows it; False when
        it cannot be shown (said in a toast)."""
        if artefact.kind == "snapshot":
            from whichtool_tui.ui.engine import opened_listing

            listing = opened_listing(artefact.path, artefact.data)
            self.inspect_target(TargetChoice("snapshot", artefact.path), listing=listing)
            return True
        if artefact.kind in ("bout-trials", "conformance"):
            return self._show_series(artefact)
        try:
            self._store(artefact)
        except WhichtoolError as error:
            self.notify(error.message, title="Cannot open", severity="error")
            return False
        facts = summarize_artefact(artefact)
        metric = key_metric(artefact.kind, artefact.data)
        summary = metric or (facts[0][1] if facts else "")
        remember(artefact.path, artefact.kind, summary[:60])
        self.switch_mode(artefact.section)
        self.refresh_sections()
        return True

    def _show_series(self, artefact: Artefact) -> bool:
        """Rates or a conformance table: over the Bout section, which keeps its own receipt."""
        from pydantic import ValidationError

        from whichtool_tui.ui.modals.series import SeriesModal

        try:
            modal = SeriesModal(artefact.kind, artefact.data)
        except ValidationError as error:
            self.notify(str(error.errors()[0]["msg"]), title="Cannot open", severity="error")
            return False
        self.switch_mode(artefact.section)
        self.push_screen(modal)
        return True

    def _store(self, artefact: Artefact) -> None:
        from whichtool_tui.ui.bout_model import view_of_receipt, view_of_tape

        session = self.session
        if artefact.kind == "inspect-report":
            from whichtool_tui.ui.surface_model import build_surface_view

            session.surface = build_surface_view(artefact.data)
            session.target = None
            session.target_label = redact_paths(artefact.path)
            ref = session.surface.target
            if session.surface.transport == "snapshot" and ref and Path(ref).is_file():
                session.target = TargetChoice("snapshot", ref)
        elif artefact.kind == "task-set":
            session.tasks = load_tasks_state(artefact.path)
        elif artefact.kind == "run-report":
            from whichtool_tui.usecases.saved_runs import parse_report

            session.run = parse_report(artefact.data, redact_paths(artefact.path))
        elif artefact.kind == "diff-report":
            from whichtool_tui.usecases.saved_runs import parse_diff

            session.diff = parse_diff(artefact.data, redact_paths(artefact.path))
        elif artefact.kind == "receipt":
            # Attributing and answering a 100,000-event wire makes ~100,000 small objects and
            # the heap is the parsed receipt: a collection then scans millions and frees none
            # (half a second of the first frame).
            with paused_gc():
                session.bout = view_of_receipt(
                    artefact.data,
                    redact_paths(artefact.path),
                    validate=False,
                    first_rows=FIRST_ROWS,
                    wire_checked_to=artefact.wire_checked_to,
                )
            bout = session.bout
            if bout.total <= FIRST_ROWS:
                bout.load_more(FIRST_ROWS)
                bout.validate()
                if bout.invalid is not None:
                    raise WhichtoolError("receipt/invalid", bout.invalid)
            else:
                keep_for_session()  # the parsed receipt lives as long as the session
                # The Bout screen starts reading the rest once its first frame is painted.
        else:
            session.bout = view_of_tape(artefact.data, redact_paths(artefact.path))
        if artefact.kind in ("receipt", "tape") and session.bout is not None:
            session.bout.file = artefact.path
        elif artefact.kind != "task-set":  # a task set's file is its own path
            session.read_from[artefact.kind] = artefact.path

    def open_config_target(self, kind: str) -> None:
        """Inspect the config's target as it says (headers, env) and open its task set, as the
        commands do without a TARGET or ``--tasks``."""
        from whichtool_tui.usecases.tasks import task_file

        settings = self.session.loaded_settings
        if settings is not None and settings.tasks:
            try:
                self.session.tasks = load_tasks_state(str(task_file(None, settings)))
            except WhichtoolError as error:
                self.notify(error.message, title="Task set", severity="error", timeout=8)
        self.inspect_target(TargetChoice(kind, ""))

    def open_demo(self) -> None:
        """Inspect the lab surface, run its task set with the keyword baseline, run a bout."""
        self.run_demo()


@dataclass(frozen=True)
class StartPoint:
    """Where a command opens the app: a target to inspect, a task set, and the section to show.

    ``target`` is (kind, value) with kind snapshot, stdio, http or legacy-sse, as on the home
    screen; an empty value means the config's target. ``review`` carries ``--config`` and the
    inspect flags, ``run_form`` the run command's provider and options (the Run screen shows
    the plan and waits for ``r``), ``diff`` a computed whichtool.diff/2 report for Results.
    """

    target: tuple[str, str] | None = None
    tasks: str | None = None
    section: str | None = None
    bout: Any = None  # an arcade BoutPlan to run and show on the Bout screen
    bout_output: str | None = None  # ``bout -o``: where the finished receipt is written
    review: ReviewOptions | None = None
    run_form: RunForm | None = None
    settings: Settings | None = None  # the command's loaded config; None: the app loads it
    diff: DiffReport | dict[str, Any] | None = None  # a saved diff's JSON is validated
    demo: bool = False  # ``whichtool-tui --demo``: start the offline demo at once
    # The command's exit code from what the session holds when the app closes (a finished
    # run's verdict, ``bout --strict`` on the receipt); None keeps the app's own code.
    exit_code: Callable[[Session], int] | None = None


def run_app(
    artefact: Artefact | None = None,
    debug: bool = False,
    start: StartPoint | None = None,
    settings: Settings | None = None,
) -> int:
    """Run the app in the terminal and return its exit code (2 if it stopped on an error, 130
    if quitting cancelled work in progress).

    Commands with a screen call this when ``wants_ui(args)``: ``open``, ``report`` and
    ``receipt`` pass the artefact; ``inspect``/``run``/``tasks``/``bout``/``diff`` a StartPoint.
    """
    from whichtool_tui import shutdown

    app = WhichtoolApp(artefact, debug=debug, start=start, settings=settings)
    with shutdown.quit_hook(app.exit):  # SIGTERM/SIGHUP quit the app, cancelling its work
        result = app.run()
    if shutdown.received_signal():
        raise KeyboardInterrupt  # the command line reports it and exits 143 or 129
    for cancelled in app.cancelled_on_quit:
        sys.stderr.write(f"whichtool-tui: quit while {cancelled}: it was cancelled\n")
    if app.return_code not in (None, 0):
        return 2
    if app.cancelled_on_quit:
        return CANCELLED_EXIT  # whatever was going (a run, a bout, an inspect): one code
    if start is not None and start.exit_code is not None:
        return start.exit_code(app.session)
    return int(result or 0)
