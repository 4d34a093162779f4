"""The App's handlers that turn its workers' messages into session state (and nothing else does).

Each handler applies one result to the session, redraws the visible section once, and marks
the message applied so the worker that posted it can finish.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from textual.worker import Worker

from whichtool_tui.errors import WhichtoolError
from whichtool_tui.text_safety import redact_message
from whichtool_tui.ui.improve_jobs import ImproveJobs
from whichtool_tui.ui.messages import (
    BoutChanged,
    BoutLoaded,
    DiffComputed,
    InspectStarted,
    JobCrashed,
    JobFailed,
    RunCompleted,
    RunStarted,
    RunStopped,
    SessionUpdate,
    SettingsReloaded,
    SurfaceCosted,
    SurfaceListed,
    SurfaceReviewed,
    TasksOpened,
)
from whichtool_tui.ui.recent import remember
from whichtool_tui.ui.screens.base import SectionScreen
from whichtool_tui.ui.session import ReviewOptions, Session

if TYPE_CHECKING:
    from whichtool_tui.config import Settings


class SessionApp(ImproveJobs):
    """The session, and the handlers that change it; JobsApp adds the workers."""

    def __init__(self, settings: Settings | None = None) -> None:
        """``settings`` None: no config file, the defaults are built when first read."""
        super().__init__()
        self.session = Session(loaded_settings=settings)
        self.review = ReviewOptions()  # config file and inspect flags every review runs under

    @property
    def settings(self) -> Settings:
        """The config, loaded once at start (and again only by a re-inspect)."""
        return self.session.settings

    async def apply(self, message: SessionUpdate) -> None:
        """Post a worker's result and wait until its handler applied it to the session."""
        if self.post_message(message):
            await message.applied.wait()

    def fail(self, title: str, error: WhichtoolError) -> None:
        """Report a failure as a message; ``on_job_failed`` turns it into state."""
        self.post_message(JobFailed(title, error))

    def refresh_sections(self) -> None:
        """Tell the visible section that the session changed."""
        if not self.screen_stack:  # closing: a late result has nothing to redraw
            return
        screen = self.screen
        if isinstance(screen, SectionScreen):
            screen.on_screen_resume()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """A finished inspect, run or bout (even a failed one) changes what the sections say."""
        if event.worker.is_finished and event.worker.group in ("inspect", "bout", "run"):
            self.refresh_sections()

    def on_job_failed(self, message: JobFailed) -> None:
        """The last failure is kept (its stable code too), then said in a toast."""
        self.session.last_error = message.error
        error = message.error
        # The hint says what to do, and for a failed stdio server carries its stderr tail.
        said = f"{error.message}\n{error.hint}" if error.hint else error.message
        self.notify(said, title=message.title, severity="error", timeout=8)
        message.applied.set()

    def on_job_crashed(self, message: JobCrashed) -> None:
        """An unexpected error is a toast, never a traceback."""
        self.notify(message.text, title=message.title, severity="error")
        message.applied.set()

    def on_diff_computed(self, message: DiffComputed) -> None:
        """The diff becomes the session's, and the visible section redraws."""
        self.session.diff = message.diff
        self.session.read_from.pop("diff-report", None)
        self.refresh_sections()
        message.applied.set()

    def on_inspect_started(self, message: InspectStarted) -> None:
        """The target being tried is the one a retry (``r`` on Surface) tries again."""
        self.session.attempted = message.choice
        message.applied.set()

    def on_settings_reloaded(self, message: SettingsReloaded) -> None:
        """A re-read config replaces the one loaded at start."""
        self.session.settings = message.settings
        message.applied.set()

    def on_surface_listed(self, message: SurfaceListed) -> None:
        """The listed surface is the session's (its review follows); a snapshot joins the
        recent files."""
        choice, view, session = message.choice, message.view, self.session
        session.target = choice
        session.target_label = redact_message(view.target or choice.value)
        session.surface = view
        session.read_from.pop("inspect-report", None)
        snapshot = Path(choice.value or view.target or "")  # "": the config's target
        if choice.kind == "snapshot" and snapshot.is_file():  # a file, never a folder
            remember(str(snapshot), "snapshot", f"{len(view.tools)} tools")
        if self.current_mode != message.section:
            self.switch_mode(message.section)
        self.refresh_sections()
        message.applied.set()

    def on_surface_costed(self, message: SurfaceCosted) -> None:
        """The costs, normalised tools and hash go into the surface they were counted for."""
        from whichtool_tui.ui.surface_model import apply_costs

        apply_costs(message.view, message.costed)
        if self.session.surface is message.view:
            self.refresh_sections()
        message.applied.set()

    def on_surface_reviewed(self, message: SurfaceReviewed) -> None:
        """The review fills in the surface it was run for (unless another replaced it)."""
        view = message.view
        if message.report is not None:
            from whichtool_tui.ui.surface_model import apply_review

            apply_review(view, message.report)
        else:
            view.review_failed = message.failure
        if self.session.surface is view:
            self.refresh_sections()
        message.applied.set()

    def on_tasks_opened(self, message: TasksOpened) -> None:
        """The task set is the session's (the one a run plans with)."""
        self.session.tasks = message.tasks
        if message.note is not None:
            self.notify(message.note, timeout=8)
        self.refresh_sections()
        message.applied.set()

    def on_run_started(self, message: RunStarted) -> None:
        """The Run screen draws these tallies on its timer while the worker feeds them (told
        now, so a screen shown again after a dialog follows this run, not the last one)."""
        self.session.progress = message.progress
        self.refresh_sections()
        message.applied.set()

    def on_run_completed(self, message: RunCompleted) -> None:
        """The report is the session's; the toast says where to look."""
        progress = message.progress
        self.session.run = message.report
        self.session.read_from.pop("run-report", None)
        progress.state = "finished"
        reused = f" ({message.cache_hits} from the cache)" if message.cache_hits else ""
        self.notify(f"Run finished: {progress.done} trials{reused}. Press 4 for the results.")
        self.refresh_sections()
        message.applied.set()

    def on_run_stopped(self, message: RunStopped) -> None:
        """A cancelled run keeps no report (and says so); a failed one is followed by why."""
        message.progress.state = message.state
        if message.state == "cancelled":
            self.notify("Run cancelled; no report was kept.", severity="warning")
        message.applied.set()

    def on_bout_changed(self, message: BoutChanged) -> None:
        """The Bout section shows this bout; a finished one is revealed or pointed at."""
        self.session.bout = message.bout
        if message.finished and message.show and self.current_mode != "bout":
            self.switch_mode("bout")
        elif message.finished and not message.show:
            self.notify("The bout finished: press 5 to review it.")
        self.refresh_sections()
        message.applied.set()

    def on_bout_loaded(self, message: BoutLoaded) -> None:
        """A big receipt is whole: an invalid one says why, and the section redraws."""
        if message.bout.invalid is not None:
            self.notify(message.bout.invalid, title="Not a valid receipt", severity="error")
        self.refresh_sections()
        message.applied.set()
