"""The app's long work: inspect, run, bout, draft and the demo, as App workers (not screens).

Workers live on the App so that leaving a screen never cancels a run. Each makes its use-case
call and posts what came of it as a message (``ui/messages.py``); the App's handlers
(``ui/session_updates.py``) turn it into session state. Failures are messages too, never
tracebacks.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import TYPE_CHECKING

from textual import work
from textual.worker import get_current_worker

from whichtool_tui.errors import WhichtoolError
from whichtool_tui.gc_phases import keep_for_session, paused_gc
from whichtool_tui.redact import redact_paths
from whichtool_tui.text_safety import redact_message
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
    SettingsReloaded,
    SurfaceCosted,
    SurfaceListed,
    SurfaceReviewed,
    TasksOpened,
)
from whichtool_tui.ui.power_jobs import PowerJobs
from whichtool_tui.ui.recent import remember
from whichtool_tui.ui.session import TargetChoice, TaskSetState

ROW_CHUNK = 10_000  # rows read per step while a big receipt loads in the background

if TYPE_CHECKING:
    from whichtool_tui.ui.bout_model import BoutView
    from whichtool_tui.ui.modals.generate import GenerateRequest
    from whichtool_tui.ui.run_control import RunSetup
    from whichtool_tui.usecases.api import (
        BoutPlan,
        BoutReceipt,
        ProviderChoice,
        RunReport,
        ServedListing,
    )


def load_tasks_state(path: str) -> TaskSetState:
    """Load a task set for editing (validated strictly, like every other reader)."""
    from whichtool_tui.usecases.tasks import load_tasks

    loaded = load_tasks(path)
    task_set = loaded.task_set
    return TaskSetState(path, task_set.version, task_set.surface, list(task_set.tasks))


class JobsApp(PowerJobs):
    """The workers that fill the session; WhichtoolApp adds screens and keys."""

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
            tasks = load_tasks_state(str(folder / "demo-lab.tasks.yaml"))
        except WhichtoolError as error:
            await self.apply(JobFailed("Demo", error))
            return
        await self.apply(TasksOpened(tasks))
        try:
            setup = prepare_from_session(self.session)
        except WhichtoolError as error:
            await self.apply(JobFailed("Demo", error))
            return
        # The keyword baseline is offline and free, so the demo may raise budgets without asking.
        # No trial cache: a tour should leave no folder behind, and the keyword run is instant.
        from whichtool_tui.usecases.options import ProviderChoice

        keyword = ProviderChoice("keyword", None, None, "preset")
        self.start_run(raised(setup) if setup.needs_raise else setup, keyword, use_cache=False)
        self.run_fixture_bout(show=False)
        self.notify("Demo: surface inspected; watch the run (3) and the bout (5) live.")

    @work(exclusive=True, group="inspect", exit_on_error=False, description="inspect a target")
    async def inspect_target(
        self, choice: TargetChoice, section: str = "surface", listing: ServedListing | None = None
    ) -> None:
        """Load a target without blocking the UI and show its tools as served, then their costs,
        then the findings: at 10,000 tools the list is there at once, the review seconds later.

        ``listing``: the target's tools already read (a snapshot ``open`` parsed), not read
        again."""
        self.notify(f"Inspecting {redact_message(choice.label)}…", timeout=2)
        await self.apply(InspectStarted(choice))
        from whichtool_tui.ui import engine

        try:
            if choice == self.session.target:  # a re-inspect: an edited config shows at once
                await self.apply(SettingsReloaded(engine.review_settings(self.review)))
            if listing is None:
                listing = await engine.load_listing(choice, self.settings)
            view = engine.served_view(listing, self.settings)
        except WhichtoolError as error:
            retry = "r on Surface retries."
            hint = f"{error.hint} {retry}" if error.hint else retry
            failure = WhichtoolError(error.code, error.message, hint)
            await self.apply(JobFailed("Inspect failed", failure))
            return
        except Exception as error:  # a toast, never a traceback
            await self.apply(JobCrashed("Inspect failed", error))
            return
        await self.apply(SurfaceListed(choice, view, section))
        await self.painted()  # a thread started now would slow the first frame down
        try:
            costed = await asyncio.to_thread(engine.cost, listing)
            await self.apply(SurfaceCosted(view, costed))
            await self.painted()
            report = await asyncio.to_thread(engine.review, costed, self.settings, self.review)
        except Exception as error:  # the tools stay; the findings pane says why
            await self.apply(SurfaceReviewed(view, None, f"{type(error).__name__}: {error}"))
            await self.apply(JobCrashed("Review failed", error))
            return
        await self.apply(SurfaceReviewed(view, report))

    async def painted(self) -> None:
        """Return once the screen has drawn what the last message changed."""
        drawn = asyncio.Event()
        self.call_after_refresh(drawn.set)
        await drawn.wait()

    @work(exclusive=True, group="run", exit_on_error=False, description="a routing run")
    async def start_run(
        self,
        setup: RunSetup,
        choice: ProviderChoice,
        use_cache: bool = True,
    ) -> None:
        """Spend the plan: trials stream into the session's progress; no report on cancel.

        The trial cache is on as for a headless ``run``, with that command's ``--no-cache`` and
        ``--cache-dir`` (carried in the session's run form) when it opened the app.
        """
        from whichtool_tui.ui.run_control import RunProgress
        from whichtool_tui.usecases.api import RunEvent, TrialFinished
        from whichtool_tui.usecases.providers import (
            ProviderRequest,
            open_provider,
            open_trial_cache,
        )
        from whichtool_tui.usecases.run import spend

        form = self.session.run_form
        cache = open_trial_cache(form.cache, form.cache_dir) if use_cache else None
        progress = RunProgress(
            planned=setup.prepared.plan.planned,
            provider=choice.name or "keyword",
            tools=frozenset(tool.name for tool in setup.inputs.tools),
        )
        # Posted, not awaited: a cancel must not land between the session taking these tallies
        # and the try below that marks them cancelled (messages are applied in order).
        self.post_message(RunStarted(progress))

        def sink(event: RunEvent) -> None:
            if isinstance(event, TrialFinished):
                progress.add(event.trial)

        try:
            # The form merged over the config, each value with its source: a config's URL the
            # user did not edit stays "config", and the key rule treats it so.
            provider = open_provider(
                ProviderRequest.of(
                    choice,
                    default_name="keyword",
                    timeout=setup.options.timeout,
                    max_output_tokens=setup.options.max_output_tokens,
                )
            )
        except WhichtoolError as error:
            await self.apply(RunStopped(progress, "failed"))
            await self.apply(JobFailed("Provider", error))
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
            # Posted, not awaited: the worker is being cancelled (perhaps by quitting).
            self.post_message(RunStopped(progress, "cancelled"))
            raise
        except WhichtoolError as error:
            await self.apply(RunStopped(progress, "failed"))
            await self.apply(JobFailed("Run failed", error))
            return
        except Exception as error:  # a toast, never a traceback
            await self.apply(RunStopped(progress, "failed"))
            await self.apply(JobCrashed("Run failed", error))
            return
        await self.apply(RunCompleted(progress, report, cache.hits if cache is not None else 0))

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
        self.post_message(BoutLoaded(bout))

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
        from whichtool_tui.usecases.api import BoutEvent
        from whichtool_tui.usecases.bout import receipt_text, run_planned_bout

        live = LiveBout(label, plan.kind, str(getattr(plan.seat, "policy", "seat")))
        previous = self.session.bout
        await self.apply(BoutChanged(live.view))  # the Bout screen draws it as it grows

        def sink(event: BoutEvent) -> None:
            live.add(event)

        with tempfile.TemporaryDirectory(prefix="whichtool-bout-") as sandbox:
            if temp_sandbox:
                plan.sandbox = Path(sandbox)
            try:
                receipt = await run_planned_bout(plan, sink)
            except WhichtoolError as error:
                await self.apply(BoutChanged(previous))
                await self.apply(JobFailed("Bout failed", error))
                return
            except Exception as error:  # a toast, never a traceback
                await self.apply(BoutChanged(previous))
                await self.apply(JobCrashed("Bout failed", error))
                return
        text = receipt_text(receipt)
        if output:
            from whichtool_tui.files import write_atomic

            try:
                written = write_atomic(output, text)
            except WhichtoolError as error:
                await self.apply(JobFailed("Receipt not written", error))
            else:
                remember(str(written), "receipt", "saved before your call")
                self.notify(f"Receipt written to {redact_paths(str(written))}")
        from whichtool_tui.ui.bout_model import view_of_receipt

        # The receipt was just built from models: show it without validating it a second time.
        view = view_of_receipt(json.loads(text), label, validate=False)
        view.receipt = receipt
        view.output = output
        await self.apply(BoutChanged(view, finished=True, show=show))

    def save_receipt(self, bout: BoutView) -> None:
        """Ask for a path, then write the receipt (with the operator's guess, if made)."""
        from whichtool_tui.ui.modals.path_prompt import PathPrompt

        receipt = bout.receipt
        if receipt is None:
            return

        def save(path: str | None) -> None:
            if path:
                self.write_receipt(path, receipt, bout.guess)

        # ``-o`` is the bout's own output, saved again with the guess; an opened receipt is
        # an input (``files_in_use``), like every other file the session has open.
        prompt = PathPrompt(
            "Save receipt to",
            bout.output or "receipt.json",
            save=True,
            replaces=bout.output,
            inputs=self.session.files_in_use(),
        )
        self.push_screen(prompt, save)

    @work(thread=True, group="save", exit_on_error=False, description="write a receipt")
    def write_receipt(self, path: str, receipt: BoutReceipt, guess: str | None) -> None:
        """Serialise and write a receipt off the UI thread (100,000 wire events take seconds)."""
        from whichtool_tui.files import write_atomic
        from whichtool_tui.usecases.bout import receipt_text

        try:
            written = write_atomic(path, receipt_text(receipt, guess), create_folders=False)
        except WhichtoolError as error:
            self.fail("Not saved", error)
            return
        remember(str(written), "receipt", "saved with your call" if guess else "saved")
        self.notify(f"Receipt written to {redact_paths(str(written))}")

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
            # A URL in the dialog was typed there: "form"; an empty one is the preset's.
            provider=ProviderRequest(
                name=request.provider,
                model=request.model,
                base_url=request.base_url,
                base_url_source="form" if request.base_url else "preset",
            ),
        )

        def asking(_provider: object) -> None:
            self.notify(f"Asking {request.provider} for a draft…", timeout=3)

        try:
            drafted = await draft_tasks(draft, surface_of(view.raw_list), self.settings, asking)
        except WhichtoolError as error:
            await self.apply(JobFailed("Not drafted", error))
            return
        except Exception as error:  # a toast, never a traceback
            await self.apply(JobCrashed("Not drafted", error))
            return
        result, written = drafted.result, drafted.written
        task_set = result.task_set
        dropped = len(result.diagnostics)
        drafted_tasks = TaskSetState(
            str(written), task_set.version, task_set.surface, list(task_set.tasks)
        )
        note = (
            f"Drafted {len(task_set.tasks)} tasks into {redact_paths(str(written))}"
            + (f"; {dropped} notes on dropped entries" if dropped else "")
            + ". Review them before committing."
        )
        await self.apply(TasksOpened(drafted_tasks, note))

    def cancel_run(self) -> None:
        """Cancel a running benchmark (its worker); nothing partial is kept."""
        running = [w for w in self.workers if w.group == "run" and w.is_running]
        if not running:
            self.notify("No run in progress.")
            return
        for worker in running:
            worker.cancel()
