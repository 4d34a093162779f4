"""The App's "propose a fix" job: the improve loop for a few tools, shown in ProposalModal.

It runs on the App (leaving a screen does not cancel it), in a thread because the loop drives
its own event loop, and posts each candidate as a message as it is proposed and measured; the
App's handlers hand them to the modal while it is open.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from textual import work
from textual.app import App
from textual.worker import get_current_worker

from whichtool_tui.errors import WhichtoolError
from whichtool_tui.redact import redact_paths
from whichtool_tui.ui.messages import FixMeasured, FixNotMeasured, FixProgressed

if TYPE_CHECKING:
    from whichtool_tui.ui.modals.proposal import ProposalModal
    from whichtool_tui.ui.session import Session
    from whichtool_tui.usecases.api import ImproveEvent, ImproveReport, RunReport


class ImproveJobs(App[int]):
    """Start the measured-rewrite job and write its patch; JobsApp provides the session."""

    session: Session

    def propose_fix(self, tools: tuple[str, ...], base_run: RunReport | None = None) -> None:
        """Open the proposal for ``tools`` and measure it, or say what is missing first."""
        from whichtool_tui.ui.modals.proposal import ProposalModal

        session = self.session
        target, tasks = session.target, session.tasks
        if target is None or target.kind != "snapshot":
            self.notify("Propose a fix works on a snapshot: save the surface (s) and open it.")
            return
        if tasks is None:
            self.notify("Open a task set (2) first: a fix is measured on held-out tasks.")
            return
        if any(worker.group == "improve" and worker.is_running for worker in self.workers):
            self.notify("A fix is still being measured.")
            return
        modal = ProposalModal(tools)
        self.push_screen(modal)
        self.measure_fix(modal, target.value, tasks.path, tools, base_run)

    @work(thread=True, exclusive=True, group="improve", exit_on_error=False, description="fix")
    def measure_fix(
        self,
        modal: ProposalModal,
        snapshot: str,
        tasks: str,
        tools: tuple[str, ...],
        base_run: RunReport | None,
    ) -> None:
        """The improve use case with the session's provider choice, events to the modal."""
        from whichtool_tui.ui.session import form_provider_choice
        from whichtool_tui.usecases.improve import request_for, run_improve

        form = self.session.run_form
        # The Run form as it was pre-filled: a config's URL keeps its "config" source.
        provider = form_provider_choice(self.session, form.provider, form.model, form.base_url)

        worker = get_current_worker()

        def forward(event: ImproveEvent) -> None:
            if worker.is_cancelled:  # quitting: stop at the next candidate, keep nothing
                raise WhichtoolError("improve/cancelled", "the measurement was cancelled")
            self.post_message(FixProgressed(modal, event))

        try:
            request = request_for(snapshot, tasks, tools, self.session.settings, provider)
            report = run_improve(request, self.session.settings, base_report=base_run, sink=forward)
        except WhichtoolError as error:
            self.post_message(FixNotMeasured(modal, error.message))
            return
        self.post_message(FixMeasured(modal, report))

    def on_fix_progressed(self, message: FixProgressed) -> None:
        """A candidate joins the proposal, if it is still open."""
        if message.modal.is_attached:
            message.modal.add_event(message.event)

    def on_fix_measured(self, message: FixMeasured) -> None:
        """The proposal shows what was accepted, if it is still open."""
        if message.modal.is_attached:
            message.modal.finish(message.report)

    def on_fix_not_measured(self, message: FixNotMeasured) -> None:
        """The proposal says why nothing was measured, if it is still open."""
        if message.modal.is_attached:
            message.modal.fail(message.reason)

    def write_improve_patch(self, report: ImproveReport) -> None:
        """Ask where, then write the RFC 6902 patch of the accepted rewrites."""
        from whichtool_tui.files import write_atomic
        from whichtool_tui.ui.modals.path_prompt import PathPrompt
        from whichtool_tui.usecases.api import dump_patch_json

        def save(path: str | None) -> None:
            if not path:
                return
            try:
                written = write_atomic(path, dump_patch_json(report.patch), create_folders=False)
            except WhichtoolError as error:
                self.notify(error.message, title="Not written", severity="error")
                return
            self.notify(
                f"Patch written to {redact_paths(str(written))}: apply it to the snapshot to "
                "review, then edit the descriptions in the server."
            )

        default = Path(report.snapshot).with_suffix(".patch.json").name
        # The patch must not replace the snapshot it patches, nor the task set that measured it.
        inputs = self.session.files_in_use()
        prompt = PathPrompt("Write the patch to", default, save=True, inputs=inputs)
        self.push_screen(prompt, save)
