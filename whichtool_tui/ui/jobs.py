"""The app's long work: inspect, run, bout, draft and the demo, as App workers (not screens).

Workers live on the App so that leaving a screen never cancels a run; they report through the
shared Session and toasts, never through tracebacks.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import TYPE_CHECKING

from textual import work
from textual.message import Message
from textual.worker import Worker, get_current_worker

from whichtool_tui.config import Settings
from whichtool_tui.errors import WhichtoolError
from whichtool_tui.gc_phases import keep_for_session, paused_gc
from whichtool_tui.redact import redact_message, redact_paths
from whichtool_tui.ui.improve_jobs import ImproveJobs
from whichtool_tui.ui.recent import remember
from whichtool_tui.ui.screens.base import SectionScreen
from whichtool_tui.ui.session import (
    ReviewOptions,
    RunForm,
    Session,
    TargetChoice,
    TaskSetState,
)

ROW_CHUNK = 10_000  # rows read per step while a big receipt loads in the background

if TYPE_CHECKING:
    from whichtool_tui.ui.bout_model import BoutView
    from whichtool_tui.ui.modals.generate import GenerateRequest
    from whichtool_tui.ui.run_control import RunSetup
    from whichtool_tui.usecases.models import BoutPlan, DiffReport, RunReport


def load_tasks_state(path: str) -> TaskSetState:
    """Load a task set for editing (validated strictly, like every other reader)."""
    from whichtool_tui.usecases.tasks import load_tasks

    loaded = load_tasks(path)
    task_set = loaded.task_set
    return TaskSetState(path, task_set.version, task_set.surface, list(task_set.tasks))


class JobFailed(Message):
    """A job ended on a WhichtoolError: the App remembers it in the session and shows a toast."""

    def __init__(self, title: str, error: WhichtoolError) -> None:
        super().__init__()
        self.title = title
        self.error = error


class DiffComputed(Message):
    """A diff against a base run finished (its typed whichtool.diff/2 report) and may be shown."""

    def __init__(self, diff: DiffReport) -> None:
        super().__init__()
        self.diff = diff


class JobsApp(ImproveJobs):
    """The session and the workers that fill it; WhichtoolApp adds screens and keys."""

    def __init__(self, settings: Settings | None = None) -> None:
        super().__init__()
        self.session = Session(settings=settings or Settings())
        self.review = ReviewOptions()  # config file and inspect flags every review runs under

    @property
    def settings(self) -> Settings:
        """The config, loaded once at start (and again only by a re-inspect)."""
        return self.session.settings

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """A finished inspect or bout (even a failed one) changes what the sections say."""
        if event.worker.is_finished and event.worker.group in ("inspect", "bout"):
            self.refresh_sections()

    def fail(self, title: str, error: WhichtoolError) -> None:
        """Report a job's failure as a message; ``on_job_failed`` turns it into state."""
        self.post_message(JobFailed(title, error))

    def on_job_failed(self, message: JobFailed) -> None:
        """The last failure is kept (its stable code too), then said in a toast."""
        self.session.last_error = message.error
        error = message.error
        # The hint says what to do, and for a failed stdio server carries its stderr tail.
        said = f"{error.message}\n{error.hint}" if error.hint else error.message
        self.notify(said, title=message.title, severity="error", timeout=8)

    @work(thread=True, exclusive=True, group="diff", exit_on_error=False, description="a diff")
    def diff_against_base(self, base_path: str, head: RunReport) -> None:
        """Read a base run and diff ``head`` against it, off the UI thread (100k trials: seconds).

        One call: the result arrives as ``DiffComputed``, a failure as ``JobFailed``.
        """
        from whichtool_tui.usecases.saved_runs import diff_against_saved

        try:
            diff = diff_against_saved(base_path, head)
        except WhichtoolError as error:
            self.post_message(JobFailed("Cannot diff", error))
            return
        self.post_message(DiffComputed(diff))

    def on_diff_computed(self, message: DiffComputed) -> None:
        """The diff becomes the session's, and the visible section redraws."""
        self.session.diff = message.diff
        self.refresh_sections()

    def refresh_sections(self) -> None:
        """Tell the visible section that the session changed."""
        screen = self.screen
        if isinstance(screen, SectionScreen):
            screen.on_screen_resume()

    @work(exclusive=True, group="demo", exit_on_error=False, description="the offline demo")
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
            setup = prepare_from_session(self.session)
        except WhichtoolError as error:
            self.fail("Demo", error)
            return
        # The keyword baseline is offline and free, so the demo may raise budgets without asking.
        # No trial cache: a tour should leave no folder behind, and the keyword run is instant.
        self.start_run(
            raised(setup) if setup.needs_raise else setup, "keyword", None, use_cache=False
        )
        self.run_fixture_bout(show=False)
        self.notify("Demo: surface inspected; watch the run (3) and the bout (5) live.")

    @work(exclusive=True, group="inspect", exit_on_error=False, description="inspect a target")
    async def inspect_target(self, choice: TargetChoice, section: str = "surface") -> None:
        """Load and inspect a target without blocking the UI, then show the Surface section."""
        self.notify(f"Inspecting {redact_message(choice.label)}…", timeout=2)
        self.session.attempted = choice
        try:
            from whichtool_tui.ui import engine

            if choice == self.session.target:  # a re-inspect: an edited config shows at once
                self.session.settings = engine.review_settings(self.review)
            view = await engine.inspect_target(choice, self.settings, self.review)
        except WhichtoolError as error:
            retry = "r on Surface retries."
            hint = f"{error.hint} {retry}" if error.hint else retry
            self.fail("Inspect failed", WhichtoolError(error.code, error.message, hint))
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
        if self.current_mode != section:
            self.switch_mode(section)
        self.refresh_sections()

    @work(exclusive=True, group="run", exit_on_error=False, description="a routing run")
    async def start_run(
        self,
        setup: RunSetup,
        provider_name: str,
        model: str | None,
        base_url: str | None = None,
        use_cache: bool = True,
    ) -> None:
        """Spend the plan: trials stream into the session's progress; no report on cancel.

        The trial cache is on as for a headless ``run``, with that command's ``--no-cache`` and
        ``--cache-dir`` (carried in the session's run form) when it opened the app.
        """
        from whichtool_tui.ui.run_control import RunProgress
        from whichtool_tui.usecases.models import RunEvent, TrialFinished
        from whichtool_tui.usecases.providers import (
            ProviderRequest,
            open_provider,
            open_trial_cache,
        )
        from whichtool_tui.usecases.run import spend

        form = self.session.run_form or RunForm()
        cache = open_trial_cache(form.cache, form.cache_dir) if use_cache else None
        progress = RunProgress(
            planned=setup.prepared.plan.planned,
            provider=provider_name,
            tools=frozenset(tool.name for tool in setup.inputs.tools),
        )
        self.session.progress = progress

        def sink(event: RunEvent) -> None:
            if isinstance(event, TrialFinished):
                progress.add(event.trial)

        try:
            # The form is already merged over the config: its values are taken as typed.
            provider = open_provider(
                ProviderRequest(
                    name=provider_name,
                    model=model,
                    base_url=base_url,
                    timeout=setup.options.timeout,
                    max_output_tokens=setup.options.max_output_tokens,
                    config_fallback=False,
                ),
                self.settings,
            )
        except WhichtoolError as error:
            progress.state = "failed"
            self.fail("Provider", error)
            return
        try:
            report = await spend(
                setup.inputs,
                setup.options,
                setup.prepared,
                provider,
                cache=cache,
                sink=sink,
            )
        except asyncio.CancelledError:
            progress.state = "cancelled"
            self.notify("Run cancelled; no report was kept.", severity="warning")
            raise
        except WhichtoolError as error:
            progress.state = "failed"
            self.fail("Run failed", error)
            return
        except Exception as error:  # a toast, never a traceback
            progress.state = "failed"
            self.notify(f"{type(error).__name__}: {error}", title="Run failed", severity="error")
            return
        self.session.run = report
        progress.state = "finished"
        reused = f" ({cache.hits} from the cache)" if cache is not None and cache.hits else ""
        self.notify(f"Run finished: {progress.done} trials{reused}. Press 4 for the results.")
        self.refresh_sections()

    @work(
        thread=True,
        exclusive=True,
        group="bout-load",
        exit_on_error=False,
        description="read a big receipt",
    )
    def finish_bout(self, bout: BoutView) -> None:
        """Read the rest of a receipt's rows, then validate it, off the UI thread."""
        if bout.loading_started:
            return
        bout.loading_started = True
        worker = get_current_worker()
        with paused_gc():  # rows and models all stay alive: scanning them finds nothing
            while bout.load_more(ROW_CHUNK):
                if worker.is_cancelled:
                    return
                self.call_from_thread(self._bout_rows_grew)
            self.call_from_thread(self._bout_rows_grew)
            bout.validate()
            bout.search_texts()  # the body-search index, so the first keystroke is quick
        # The receipt lives as long as the session: keep the collector from rescanning it.
        keep_for_session()
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

    def run_fixture_bout(self, show: bool = True) -> None:
        """Every atom against the bundled lab fixture (offline, naive seat) in a temp sandbox."""
        from whichtool_tui.usecases.bout import lab_fixture_plan

        self.run_bout_plan(lab_fixture_plan(), "lab fixture bout", show=show, temp_sandbox=True)

    @work(exclusive=True, group="bout", exit_on_error=False, description="a bout")
    async def run_bout_plan(
        self,
        plan: BoutPlan,
        label: str,
        show: bool = True,
        temp_sandbox: bool = False,
        output: str | None = None,
    ) -> None:
        """Run a planned bout (the ``bout`` command's plan, or the lab fixture's) and show it.

        ``output`` (``bout -o``) receives the receipt as soon as the bout ends, before any guess;
        ``s`` on the Bout screen saves it again with the guess.
        """
        import tempfile

        from whichtool_tui.ui.live_bout import LiveBout
        from whichtool_tui.usecases.bout import receipt_text, run_planned_bout
        from whichtool_tui.usecases.models import BoutEvent

        live = LiveBout(label, plan.kind, str(getattr(plan.seat, "policy", "seat")))
        previous = self.session.bout
        self.session.bout = live.view  # the Bout screen draws it as it grows
        self.refresh_sections()

        def sink(event: BoutEvent) -> None:
            live.add(event)

        with tempfile.TemporaryDirectory(prefix="whichtool-bout-") as sandbox:
            if temp_sandbox:
                plan.sandbox = Path(sandbox)
            try:
                receipt = await run_planned_bout(plan, sink)
            except WhichtoolError as error:
                self.session.bout = previous
                self.fail("Bout failed", error)
                return
            except Exception as error:  # a toast, never a traceback
                self.session.bout = previous
                message = f"{type(error).__name__}: {error}"
                self.notify(message, title="Bout failed", severity="error")
                return
        text = receipt_text(receipt)
        if output:
            from whichtool_tui.files import write_atomic

            try:
                written = write_atomic(output, text)
            except WhichtoolError as error:
                self.fail("Receipt not written", error)
            else:
                self.notify(f"Receipt written to {redact_paths(str(written))}")
        from whichtool_tui.ui.bout_model import view_of_receipt

        # The receipt was just built from models: show it without validating it a second time.
        view = view_of_receipt(json.loads(text), label, validate=False)
        view.receipt = receipt
        view.output = output
        self.session.bout = view
        if show and self.current_mode != "bout":
            self.switch_mode("bout")
        elif not show:
            self.notify("The bout finished: press 5 to review it.")
        self.refresh_sections()

    def save_receipt(self, bout: BoutView) -> None:
        """Ask for a path and write the receipt (with the operator's guess, if made)."""
        from whichtool_tui.files import write_atomic
        from whichtool_tui.ui.modals.path_prompt import PathPrompt
        from whichtool_tui.usecases.bout import receipt_text

        receipt = bout.receipt
        if receipt is None:
            return

        def save(path: str | None) -> None:
            if not path:
                return
            try:
                written = write_atomic(
                    path, receipt_text(receipt, bout.guess), create_folders=False
                )
            except WhichtoolError as error:
                self.fail("Not saved", error)
                return
            self.notify(f"Receipt written to {redact_paths(str(written))}")

        prompt = PathPrompt(
            "Save receipt to", bout.output or "receipt.json", save=True, replaces=bout.output
        )
        self.push_screen(prompt, save)

    @work(exclusive=True, group="generate", exit_on_error=False, description="draft a task set")
    async def generate_tasks(self, request: GenerateRequest) -> None:
        """Draft a task set from the loaded surface with a model; never overwrites a file."""
        from whichtool_tui.usecases.providers import ProviderRequest
        from whichtool_tui.usecases.tasks import DraftRequest, draft_tasks, surface_of

        view = self.session.surface
        if view is None or view.raw_list is None:
            return
        draft = DraftRequest(
            out=request.path,
            provider=ProviderRequest(
                name=request.provider,
                model=request.model,
                base_url=request.base_url,
                config_fallback=False,
            ),
        )

        def asking(_provider: object) -> None:
            self.notify(f"Asking {request.provider} for a draft…", timeout=3)

        try:
            drafted = await draft_tasks(draft, surface_of(view.raw_list), self.settings, asking)
        except WhichtoolError as error:
            self.fail("Not drafted", error)
            return
        except Exception as error:  # a toast, never a traceback
            message = f"{type(error).__name__}: {error}"
            self.notify(message, title="Not drafted", severity="error")
            return
        result, written = drafted.result, drafted.written
        task_set = result.task_set
        self.session.tasks = TaskSetState(
            str(written), task_set.version, task_set.surface, list(task_set.tasks)
        )
        dropped = len(result.diagnostics)
        self.notify(
            f"Drafted {len(task_set.tasks)} tasks into {redact_paths(str(written))}"
            + (f"; {dropped} notes on dropped entries" if dropped else "")
            + ". Review them before committing.",
            timeout=8,
        )
        self.refresh_sections()

    def cancel_run(self) -> None:
        """Cancel a running benchmark (its worker); nothing partial is kept."""
        running = [w for w in self.workers if w.group == "run" and w.is_running]
        if not running:
            self.notify("No run in progress.")
            return
        for worker in running:
            worker.cancel()
