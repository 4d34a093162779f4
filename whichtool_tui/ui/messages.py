"""What the App's workers report: one message per result, turned into session state by the App.

A worker makes its use-case call and posts what came of it; only the App's handlers (in
``ui/session_updates.py``) change the session and redraw the visible section. A worker that
awaits ``JobsApp.apply`` resumes once its message was applied, so a finished worker has always
changed the session (``app.workers.wait_for_complete()`` then means the state is there).
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from textual.message import Message

from whichtool_tui.errors import WhichtoolError

if TYPE_CHECKING:
    from whichtool_tui.config import Settings
    from whichtool_tui.ui.bout_model import BoutView
    from whichtool_tui.ui.modals.proposal import ProposalModal
    from whichtool_tui.ui.run_control import RunProgress
    from whichtool_tui.ui.session import TargetChoice, TaskSetState
    from whichtool_tui.ui.surface_model import SurfaceView
    from whichtool_tui.usecases.api import (
        Artefact,
        CostedSurface,
        DiffReport,
        ImproveEvent,
        ImproveReport,
        InspectReport,
        PowerInputs,
        PowerPlan,
        RunReport,
    )


class SessionUpdate(Message):
    """A result for the session; its handler sets ``applied`` once the session holds it."""

    def __init__(self) -> None:
        super().__init__()
        self.applied = asyncio.Event()


class JobFailed(SessionUpdate):
    """A job ended on a WhichtoolError: the App remembers it in the session and shows a toast."""

    def __init__(self, title: str, error: WhichtoolError) -> None:
        super().__init__()
        self.title = title
        self.error = error


class JobCrashed(SessionUpdate):
    """A job ended on an unexpected exception: said in a toast, never as a traceback."""

    def __init__(self, title: str, error: Exception) -> None:
        super().__init__()
        self.title = title
        self.text = f"{type(error).__name__}: {error}"


class DiffComputed(SessionUpdate):
    """A diff against a base run finished (its typed whichtool.diff/2 report) and may be shown."""

    def __init__(self, diff: DiffReport) -> None:
        super().__init__()
        self.diff = diff


class InspectStarted(SessionUpdate):
    """A target is being inspected: it is the one ``r`` retries, even if this attempt fails."""

    def __init__(self, choice: TargetChoice) -> None:
        super().__init__()
        self.choice = choice


class SettingsReloaded(SessionUpdate):
    """A re-inspect read the config again: an edited config applies from now on."""

    def __init__(self, settings: Settings) -> None:
        super().__init__()
        self.settings = settings


class SurfaceListed(SessionUpdate):
    """A target's tools were read (as served, costs and review to come); ``section`` is shown."""

    def __init__(self, choice: TargetChoice, view: SurfaceView, section: str) -> None:
        super().__init__()
        self.choice = choice
        self.view = view
        self.section = section


class SurfaceCosted(SessionUpdate):
    """A listed surface was normalised and its tokens counted (``costed``)."""

    def __init__(self, view: SurfaceView, costed: CostedSurface) -> None:
        super().__init__()
        self.view = view
        self.costed = costed


class SurfaceReviewed(SessionUpdate):
    """The static review of a listed surface finished (``report``) or failed (``failure``)."""

    def __init__(
        self, view: SurfaceView, report: InspectReport | None, failure: str | None = None
    ) -> None:
        super().__init__()
        self.view = view
        self.report = report
        self.failure = failure


class TasksOpened(SessionUpdate):
    """A task set is the session's (loaded by the demo, or drafted); ``note`` is a toast."""

    def __init__(self, tasks: TaskSetState, note: str | None = None) -> None:
        super().__init__()
        self.tasks = tasks
        self.note = note


class RunStarted(SessionUpdate):
    """A run started: its live tallies (fed by the worker's event sink) are the session's."""

    def __init__(self, progress: RunProgress) -> None:
        super().__init__()
        self.progress = progress


class RunCompleted(SessionUpdate):
    """A run finished with its report; ``cache_hits`` trials were answered from the cache."""

    def __init__(self, progress: RunProgress, report: RunReport, cache_hits: int) -> None:
        super().__init__()
        self.progress = progress
        self.report = report
        self.cache_hits = cache_hits


class RunStopped(SessionUpdate):
    """A run ended without a report: ``cancelled`` or ``failed`` (the failure follows)."""

    def __init__(self, progress: RunProgress, state: str) -> None:
        super().__init__()
        self.progress = progress
        self.state = state


class BoutChanged(SessionUpdate):
    """The bout to show: the live view, the one before a failed bout, or a finished receipt.

    ``finished`` bouts are revealed: the Bout section is shown when ``show``, else a toast
    says where to find it.
    """

    def __init__(self, bout: BoutView | None, finished: bool = False, show: bool = True) -> None:
        super().__init__()
        self.bout = bout
        self.finished = finished
        self.show = show


class BoutLoaded(SessionUpdate):
    """Every row of a big receipt was read and checked in the background (``invalid`` says)."""

    def __init__(self, bout: BoutView) -> None:
        super().__init__()
        self.bout = bout


class ArtefactRead(SessionUpdate):
    """A saved file was read and checked in the background, and is to be shown."""

    def __init__(self, artefact: Artefact) -> None:
        super().__init__()
        self.artefact = artefact


class PowerSized(SessionUpdate):
    """A run plan's power was simulated (or could not be: ``plan`` is then the error)."""

    def __init__(self, inputs: PowerInputs, plan: PowerPlan | WhichtoolError) -> None:
        super().__init__()
        self.inputs = inputs
        self.plan = plan


class FixProgressed(Message):
    """The improve loop proposed or measured a candidate, for the proposal on screen."""

    def __init__(self, modal: ProposalModal, event: ImproveEvent) -> None:
        super().__init__()
        self.modal = modal
        self.event = event


class FixMeasured(Message):
    """The improve loop ended with its report (which rewrites the patch would hold)."""

    def __init__(self, modal: ProposalModal, report: ImproveReport) -> None:
        super().__init__()
        self.modal = modal
        self.report = report


class FixNotMeasured(Message):
    """The improve loop could not run (a bad task set, provider errors): ``reason`` says why."""

    def __init__(self, modal: ProposalModal, reason: str) -> None:
        super().__init__()
        self.modal = modal
        self.reason = reason
