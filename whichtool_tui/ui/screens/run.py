"""Section 3: the dry-run plan first, then a live run with throttled progress and cancel."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Input, Label, ProgressBar, Select, Static

from whichtool_tui.errors import WhichtoolError
from whichtool_tui.limits import REPEAT
from whichtool_tui.text_safety import sanitize_text
from whichtool_tui.ui.modals.confirm import ConfirmModal
from whichtool_tui.ui.run_control import (
    RunProgress,
    RunSetup,
    prepare_from_session,
    raised,
    run_form_options,
)
from whichtool_tui.ui.screens.base import SectionScreen
from whichtool_tui.ui.widgets.heatmap import ConfusionHeatmap
from whichtool_tui.ui.widgets.run_plan import hanging, plan_lines, plan_summary
from whichtool_tui.usecases.api import PROVIDER_NAMES, confusion_axes
from whichtool_tui.usecases.run import power_inputs

if TYPE_CHECKING:
    from whichtool_tui.usecases.api import ProviderChoice

REDRAW_SECONDS = 0.25  # progress redraws are throttled to this period, whatever the trial rate
SHORT_LATEST = 3  # latest trials shown on a 24-row terminal
VERDICT_MARKS = {"correct": "✓", "correct-abstention": "✓"}


def provider_choices() -> list[str]:
    """Provider names in the form's order: the two offline ones first."""
    return ["keyword", "mock", *(n for n in PROVIDER_NAMES if n not in ("keyword", "mock"))]


class RunScreen(SectionScreen):
    """Plan (p), run (r), cancel (c); the run itself is an App worker and survives leaving."""

    _url_edited = False  # the user changed the pre-filled base URL (see base_url_changed)
    _prefilled: Mapping[str, str] = MappingProxyType({})  # the run fields' pre-filled texts
    _edited: frozenset[str] = frozenset()  # the run fields the user changed: ``form`` values
    _plan_open = False  # p unfolded the full plan over a run's summary line
    _refusal_shown = False  # the plan's place says why the key rule refused the run
    _run_setup: RunSetup | None = None  # what the last run started here planned (its limits)

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q", "back", "Back"),
        Binding("p", "plan", "Plan"),
        Binding("r", "run", "Run"),
        Binding("c", "cancel", "Cancel run"),
    ]

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """``c`` only while a run is going, ``r`` only when none is (``p`` unfolds the plan);
        with no surface or task set there is nothing to plan or run."""
        running = self._run_going()
        if action == "cancel":
            return running
        if action in ("run", "plan"):
            session = self.wapp.session
            ready = session.surface is not None and session.tasks is not None
            return ready and (action == "plan" or not running)
        return True

    def _run_going(self) -> bool:
        """A run is going from the moment its worker starts, before its tallies arrive (the
        worker posts them), until they say it stopped."""
        progress = self.wapp.session.progress
        if progress is not None and progress.state == "running":
            return True
        return self.busy("run") and (progress is None or self._stale())

    def _stale(self) -> bool:
        """The session's tallies are a previous run's: a new run's worker has not posted its own."""
        progress = self.wapp.session.progress
        return progress is not None and id(progress) == self._stopped_progress

    _stopped_progress: int | None = None  # id of the tallies shown stopped when r was pressed

    def compose_body(self) -> ComposeResult:
        with VerticalScroll(id="run-body"):
            with Horizontal(id="run-form"):
                yield Label("provider")
                yield Select(
                    [(name, name) for name in provider_choices()],
                    value="keyword",
                    allow_blank=False,
                    id="run-provider",
                    compact=True,
                )
                yield Label("model")
                yield Input(placeholder="default", id="run-model", compact=True)
                yield Label("repeat")
                yield Input(
                    value="5", id="run-repeat", restrict=r"[0-9]*", max_length=4, compact=True
                )
            with Horizontal(id="run-form-2"):
                yield Label("base URL")
                yield Input(placeholder="provider default", id="run-base-url", compact=True)
                yield Label("s/trial")
                yield Input(
                    placeholder="?",
                    id="run-seconds",
                    restrict=r"[0-9.]*",
                    max_length=6,
                    compact=True,
                )
                yield Button("Run", id="run-start", variant="primary", compact=True)
            yield Static("", id="run-plan")
            yield ProgressBar(id="run-progress", show_eta=False, show_percentage=True)
            yield Static("", id="run-stats")
            yield Static("", id="run-latest")
            with Horizontal(id="run-live"):
                with Vertical(id="run-heatmap-pane") as pane:
                    pane.border_title = "Confusion so far"
                    yield Vertical(id="run-heatmap-holder")
                with Vertical(id="run-per-tool-pane") as tools:
                    tools.border_title = "Per tool so far"
                    yield Static("", id="run-per-tool")

    def on_mount(self) -> None:
        self._apply_form()
        self._drawn: tuple[object, ...] | None = None
        self.frames_drawn = 0  # progress redraws so far (an idle screen adds none)
        self._live_heatmap: ConfusionHeatmap | None = None  # one grid, shown again per run
        # Redraws only while a run is going: an idle screen costs no CPU.
        self._ticker = self.set_interval(REDRAW_SECONDS, self.draw_progress, pause=True)

    def _apply_form(self) -> None:
        """Pre-fill the form from the ``run`` command's flags and config (nothing runs yet)."""
        form = self.wapp.session.run_form
        provider = self.query_one("#run-provider", Select)
        if form.provider in provider_choices():
            provider.value = form.provider
        self.query_one("#run-model", Input).value = form.model or ""
        self.query_one("#run-base-url", Input).value = form.base_url or ""
        options = run_form_options(self.wapp.session)  # the command's merge, else the config's
        seconds = options.seconds_per_trial
        self._prefilled = {
            "repeat": str(options.repeat),
            "seconds_per_trial": "" if seconds is None else f"{seconds:g}",
        }
        self._edited = frozenset()
        self.query_one("#run-repeat", Input).value = self._prefilled["repeat"]
        self.query_one("#run-seconds", Input).value = self._prefilled["seconds_per_trial"]

    def repeat(self) -> int:
        """The repeat field; a value outside ``limits.REPEAT`` is refused by name, never
        clamped (``prepare_from_session`` would plan what the user did not ask for)."""
        text = self.query_one("#run-repeat", Input).value.strip()
        if not text:
            return REPEAT.default
        if not text.isdigit() or not REPEAT.contains(int(text)):
            raise WhichtoolError("run/invalid-repeat", REPEAT.outside(text), REPEAT.hint())
        return int(text)

    def refresh_from_session(self) -> None:
        self.refresh_bindings()  # p and r follow whether a surface and a task set are loaded
        self._redraw_unless_refused()
        if self._run_going():
            self._ticker.resume()  # a run started elsewhere (the demo): follow it
        self.draw_progress()

    def seconds_per_trial(self) -> float | None:
        text = self.query_one("#run-seconds", Input).value.strip()
        try:
            value = float(text)
        except ValueError:
            return None
        return value if value > 0 else None

    def _setup(self, quiet: bool) -> RunSetup | None:
        try:
            repeat = self.repeat()
            return prepare_from_session(
                self.wapp.session, repeat, self.seconds_per_trial(), self._edited
            )
        except WhichtoolError as error:
            self.query_one("#run-plan", Static).update(
                Text.assemble(("Plan  ", "bold"), (error.message, "yellow"))
            )
            if not quiet:
                self.notify(error.message, severity="warning")
            return None

    def action_plan(self, quiet: bool = False) -> None:
        """``p``: the full plan; pressed again while a run is shown, back to its summary line."""
        if not quiet:
            self._plan_open = not self._plan_open if self._shows_run() else True
        self._draw_plan(quiet)

    def _shows_run(self) -> bool:
        return self.wapp.session.progress is not None or self._run_going()

    def _draw_plan(self, quiet: bool = True) -> None:
        """The plan in full before a run (or on ``p``); one summary line during and after."""
        setup = self._setup(quiet)
        if setup is None:
            return
        self._refusal_shown = False
        plan = self.query_one("#run-plan", Static)
        if self._shows_run() and not self._plan_open:
            plan.update(hanging("Plan", [plan_summary(self._run_setup or setup)]))
            return
        provider = str(self.query_one("#run-provider", Select).value)
        # The power is the App's to simulate (seconds on a first plan): None while it is.
        power = self.wapp.power_plan_for(power_inputs(setup.prepared, setup.options))
        plan.update(hanging("Plan", plan_lines(setup, provider, power)))

    def power_sized(self) -> None:
        """A power plan arrived: redrawn from the form as it is now (so one for an older form
        shows nothing new)."""
        self._redraw_unless_refused()

    def _redraw_unless_refused(self) -> None:
        """The plan redrawn for news from elsewhere (a power plan, a surface's costs or
        findings arriving), unless a key-rule refusal is on show: it stays until the form
        changes or p or r is pressed again."""
        if not self._refusal_shown:
            self._draw_plan()

    @on(Input.Changed, "#run-base-url")
    def base_url_changed(self, event: Input.Changed) -> None:
        """Once the user has changed the pre-filled base URL, it is theirs (source ``form``),
        even if they type the same text back: only then may it redirect a vendor key."""
        if event.value.strip() != (self.wapp.session.run_form.base_url or ""):
            self._url_edited = True

    @on(Input.Changed, "#run-repeat, #run-seconds")
    def field_edited(self, event: Input.Changed) -> None:
        """A run field changed from its pre-filled text is the user's (source ``form``), even
        typed back; one never touched keeps its source (a config's repeat stays ``config``)."""
        name = "repeat" if event.input.id == "run-repeat" else "seconds_per_trial"
        # A change the field no longer shows is stale (the composed text, replaced by the
        # pre-fill before its event arrived), not the user's.
        current = event.value == event.input.value
        if current and event.value.strip() != self._prefilled.get(name, ""):
            self._edited = self._edited | {name}
        self.plan_inputs_changed()

    @on(Select.Changed, "#run-provider")
    def plan_inputs_changed(self) -> None:
        """A changed form is a new plan: shown in full (unless a run is going)."""
        self._plan_open = not self._run_going()
        self._draw_plan()

    @on(Button.Pressed, "#run-start")
    def action_run(self) -> None:
        progress = self.wapp.session.progress
        if progress is not None and progress.state == "running":
            self.notify("A run is already going; press c to cancel it.", severity="warning")
            return
        setup = self._setup(quiet=False)
        if setup is None:
            return
        if setup.blocking:
            self.notify("The task set has lint errors; fix them in Tasks first.", severity="error")
            return
        provider = self._provider_choice()
        if provider is None:
            return
        if not setup.needs_raise:
            self._start(setup, provider)
            return
        bigger = raised(setup)
        question = (
            f"This run needs {setup.prepared.plan.planned} trials on {len(setup.inputs.tools)} "
            f"tools; the limits are {setup.options.max_trials} trials and "
            f"{setup.options.max_tools} tools. Raise them to {bigger.options.max_trials} and "
            f"{bigger.options.max_tools} for this run?"
        )

        def decided(yes: bool | None) -> None:
            if yes:
                self._start(bigger, provider)

        self.app.push_screen(ConfirmModal("Raise limits?", question, "Raise and run"), decided)

    def _provider_choice(self) -> ProviderChoice | None:
        """The form's provider, checked by the key rule before anything runs; a refusal is
        shown under the plan with how to proceed, and None is returned."""
        from whichtool_tui.ui.session import form_provider_choice
        from whichtool_tui.usecases.providers import ProviderRequest, provider_route

        choice = form_provider_choice(
            self.wapp.session,
            str(self.query_one("#run-provider", Select).value),
            self.query_one("#run-model", Input).value.strip() or None,
            self.query_one("#run-base-url", Input).value.strip() or None,
            self._url_edited,
        )
        try:
            provider_route(ProviderRequest.of(choice))
        except WhichtoolError as refusal:
            said = f"{refusal.message}. {refusal.hint}" if refusal.hint else refusal.message
            text = Text(f"✖ {refusal.code}: {sanitize_text(said)}", style="red")
            self.query_one("#run-plan", Static).update(text)
            self._refusal_shown = True
            self.notify(sanitize_text(said), title="Not run", severity="error", timeout=8)
            return None
        return choice

    def _start(self, setup: RunSetup, provider: ProviderChoice) -> None:
        progress = self.wapp.session.progress
        self._stopped_progress = id(progress) if progress is not None else None
        self._run_setup = setup
        self._plan_open = False  # the run takes the screen: the plan folds to one line
        self.wapp.start_run(setup, provider)
        self._ticker.resume()
        self._draw_plan()
        self.refresh_bindings()

    def action_cancel(self) -> None:
        self.wapp.cancel_run()

    def draw_progress(self) -> None:
        progress: RunProgress | None = self.wapp.session.progress
        going = self._run_going()
        if not going:
            # Paused only once no run is starting either: a run started from a dialog (or
            # after a cancel) posts its tallies a moment after r, and the ticker must see them.
            self._ticker.pause()
        if going and self._stale():
            progress = None  # the previous run's last frame is not this run's
        key = None if progress is None else (id(progress), progress.done, progress.state, going)
        if key == self._drawn and key is not None:
            return  # nothing new since the last frame
        self._drawn = key
        self.frames_drawn += 1
        self.refresh_bindings()
        bar = self.query_one("#run-progress", ProgressBar)
        stats = self.query_one("#run-stats", Static)
        latest = self.query_one("#run-latest", Static)
        self.query_one("#run-live").display = progress is not None and progress.done > 0
        if progress is None:
            bar.update(total=1, progress=0)
            said = "Starting the run…" if going else "Nothing run yet: r runs the plan above."
            stats.update(Text(said, style="dim"))
            latest.update("")
            return
        bar.update(total=progress.planned, progress=progress.done)
        short = self.has_class("-short")  # 24 rows: the footer says c cancels; 3 latest trials
        stats.update(stats_text(progress, hint=not short))
        latest.update(latest_text(progress, SHORT_LATEST if short else None))
        self._draw_live(progress)

    def _draw_live(self, progress: RunProgress) -> None:
        """The confusion heatmap and per-tool rates, as far as the run has got."""
        axes = confusion_axes(progress.tools)
        rows, columns = axes.rows, axes.columns
        heatmap = self._live_heatmap
        if heatmap is None:
            heatmap = ConfusionHeatmap(progress.confusion, rows, columns, id="run-heatmap")
            self.query_one("#run-heatmap-holder", Vertical).mount(heatmap)
            self._live_heatmap = heatmap
        elif heatmap.columns == columns:
            heatmap.update_counts(progress.confusion)
        else:  # a run over other tools: the same grid (its focus and id stay with it)
            heatmap.show(progress.confusion, rows, columns)
        text = Text()
        ranked = sorted(progress.by_tool.items(), key=lambda item: item[1][0] / item[1][1])
        width = max((len(tool) for tool in progress.by_tool), default=11)
        for tool, (right, scored) in ranked:
            text.append(sanitize_text(tool).ljust(width), style="bold")
            text.append(f"  {right / scored:.2f} ({right}/{scored})\n")
        if progress.distractors:
            text.append("distractors".ljust(width), style="bold")
            text.append(f"  over-trigger {progress.over_triggered}/{progress.distractors}\n")
        self.query_one("#run-per-tool", Static).update(text)


def duration(seconds: float) -> str:
    """``42 s``, ``3 min 05 s``."""
    whole = round(seconds)
    return f"{whole} s" if whole < 60 else f"{whole // 60} min {whole % 60:02d} s"


def stats_text(progress: RunProgress, hint: bool = True) -> Text:
    """Counts, rate, ETA (frozen rate once ended), the running rates and the state line."""
    text = Text()
    text.append(f"{progress.done}/{progress.planned}  {progress.rate:.1f} trials/s  ")
    eta = progress.eta_seconds
    if eta is not None:
        text.append(f"eta {duration(eta)}  ")
    elif progress.state != "running":
        text.append(f"took {duration(progress.elapsed)}  ")
    text.append(progress.state, style="bold")
    accuracy = progress.accuracy()
    text.append("\naccuracy ", style="bold")
    text.append(
        f"{accuracy[0]:.2f} [{accuracy[1][0]:.2f}–{accuracy[1][1]:.2f}]" if accuracy else "n/a"
    )
    over = progress.over_trigger()
    text.append("   over-trigger ", style="bold")
    text.append(f"{over[0]:.2f} [{over[1][0]:.2f}–{over[1][1]:.2f}]" if over else "n/a")
    text.append(f"   errors {progress.errors}", style="bold red" if progress.errors else "")
    if progress.state == "finished":
        text.append("\nfinished: press 4 for the results", style="green")
    elif progress.state == "cancelled":
        text.append("\ncancelled: no report was kept", style="yellow")
    elif progress.state == "failed":
        text.append("\nfailed: see the message above; no report was kept", style="red")
    elif progress.state == "running" and hint:
        text.append("\nc cancels (no partial report)", style="dim")
    return text


def latest_text(progress: RunProgress, shown: int | None = None) -> Text:
    """The last few trials (``shown`` of them, else all kept), newest first; an errored trial
    shows its error."""
    rows = Text()
    for index, trial in enumerate(list(progress.latest)[:shown]):
        rows.append("latest  " if index == 0 else "        ", style="bold")
        rows.append(f"{sanitize_text(trial.task_id)} #{trial.trial_index}".ljust(28))
        if trial.error is not None:
            rows.append(f"✖ error: {sanitize_text(trial.error.message)[:200]}\n", style="red")
            continue
        pick = trial.pick or "(none)"
        mark = VERDICT_MARKS.get(trial.verdict, "✖ " + trial.verdict)
        rows.append(f"→ {sanitize_text(pick)}".ljust(22))
        rows.append(mark + "\n", style="green" if mark == "✓" else "red")
    rows.rstrip()  # no blank line under the last trial
    return rows
