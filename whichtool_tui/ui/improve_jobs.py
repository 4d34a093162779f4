"""The App's "propose a fix" job: the improve loop for a few tools, shown in ProposalModal.

It runs on the App (leaving a screen does not cancel it), in a thread because the loop drives
its own event loop, and forwards each candidate to the modal as it is proposed and measured.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from textual import work
from textual.app import App
from textual.worker import get_current_worker

from whichtool_tui.errors import WhichtoolError
from whichtool_tui.redact import redact_paths

if TYPE_CHECKING:
    from whichtool_tui.ui.modals.proposal import ProposalModal
    from whichtool_tui.ui.session import Session
    from whichtool_tui.usecases.models import ImproveEvent, ImproveReport, RunReport


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
        from whichtool_tui.usecases.improve import request_for, run_improve
        from whichtool_tui.usecases.options import ProviderChoice

        form = self.session.run_form
        provider = (
            ProviderChoice(form.provider, form.model, form.base_url) if form is not None else None
        )

        worker = get_current_worker()

        def forward(event: ImproveEvent) -> None:
            if worker.is_cancelled:  # quitting: stop at the next candidate, keep nothing
                raise WhichtoolError("improve/cancelled", "the measurement was cancelled")
            if modal.is_attached:
                self.call_from_thread(modal.add_event, event)

        try:
            request = request_for(snapshot, tasks, tools, self.session.settings, provider)
            report = run_improve(request, self.session.settings, base_report=base_run, sink=forward)
        except WhichtoolError as error:
            if modal.is_attached:
                self.call_from_thread(modal.fail, error.message)
            return
        if modal.is_attached:
            self.call_from_thread(modal.finish, report)

    def write_improve_patch(self, report: ImproveReport) -> None:
        """Ask where, then write the RFC 6902 patch of the accepted rewrites."""
        from whichtool_tui.files import write_atomic
        from whichtool_tui.ui.modals.path_prompt import PathPrompt
        from whichtool_tui.usecases.models import dump_patch_json

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
        self.push_screen(PathPrompt("Write the patch to", default, save=True), save)
