"""Preparing a routing run from what the session holds, and tallying its progress live."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field

from whichtool_tui.diagnostics import Diagnostic
from whichtool_tui.errors import WhichtoolError
from whichtool_tui.limits import ABSOLUTE_MAX_TOOLS, ABSOLUTE_MAX_TRIALS
from whichtool_tui.ui.session import Session
from whichtool_tui.usecases.api import (
    LiveTally,
    PreparedRun,
    RunInputs,
    RunOptions,
    ScoredTrial,
    ServedListing,
)
from whichtool_tui.usecases.options import (
    RunOverrides,
    from_mapping,
    merge_run_options,
    with_overrides,
)
from whichtool_tui.usecases.run import draft_plan, normalize, prepare
from whichtool_tui.usecases.tasks import in_memory

LATEST_SHOWN = 6


@dataclass(frozen=True)
class RunSetup:
    """Inputs, options and plan of a run that has not started."""

    inputs: RunInputs
    options: RunOptions
    prepared: PreparedRun
    blocking: list[Diagnostic]

    @property
    def needs_raise(self) -> bool:
        """True when the plan exceeds the default trial or tool budget."""
        return not (self.prepared.within_tool_limit and self.prepared.within_trial_limit)


def prepare_from_session(
    session: Session,
    repeat: int | None = None,
    seconds_per_trial: float | None = None,
    edited: Collection[str] = (),
) -> RunSetup:
    """Plan a run of the session's task set on the session's surface (served listing needed).

    The options are the one merge's (``run_form_options``); the screen's repeat and
    seconds-per-trial go on top (``form_run_options``: ``edited`` names the fields the user
    changed).
    """
    view = session.surface
    state = session.tasks
    if view is None or view.raw_list is None:
        raise WhichtoolError(
            "ui/no-surface", "Load a live target or snapshot first (a saved report has no tools)"
        )
    if state is None:
        raise WhichtoolError("ui/no-tasks", "Open a task set first (Tasks, or the demo)")
    listing = ServedListing(view.transport or "snapshot", view.target, view.raw_list)  # type: ignore[arg-type]
    surface = view.normalized
    if surface is None:
        surface = view.normalized = normalize(listing)
    loaded = in_memory(state.as_task_set(), state.path)
    screen_values = {"repeat": repeat, "seconds_per_trial": seconds_per_trial}
    options = form_run_options(session, screen_values, edited)
    plan = draft_plan(listing, surface, loaded, options)
    return RunSetup(plan.inputs, options, plan.prepared, plan.blocking)


def run_form_options(session: Session) -> RunOptions:
    """The run options the form starts from: the ``run`` command's merge, else the config's."""
    form = session.run_form
    if form.options is not None:
        return form.options
    return merge_run_options(RunOverrides(), session.settings, face="form")


def form_run_options(
    session: Session, values: Mapping[str, object], edited: Collection[str] = ()
) -> RunOptions:
    """The Run form's fields over the options they were pre-filled from, with their sources.

    As for the base URL (``form_provider_choice``): a field the user never edited keeps the
    source it was pre-filled from (a config's repeat stays ``config``, a flag's ``flag``); one
    they edited, even back to the same text, or that differs from its pre-filled value, is
    ``form``. An empty field (None) leaves the pre-filled value.
    """
    base = run_form_options(session)
    typed = {
        name: value
        for name, value in values.items()
        if name in edited or value != getattr(base, name)
    }
    return with_overrides(base, from_mapping(RunOverrides, typed), "form")


def raised(setup: RunSetup) -> RunSetup:
    """The same run with budgets raised just enough (never past the absolute 1,000); a raised
    limit is the user's (``form``): they confirmed it."""
    was = setup.options
    trials = min(ABSOLUTE_MAX_TRIALS, max(was.max_trials, setup.prepared.plan.planned))
    tools = min(ABSOLUTE_MAX_TOOLS, max(was.max_tools, len(setup.inputs.tools)))
    raise_to = RunOverrides(
        max_trials=trials if trials != was.max_trials else None,
        max_tools=tools if tools != was.max_tools else None,
    )
    options = with_overrides(was, raise_to, "form")
    return RunSetup(setup.inputs, options, prepare(setup.inputs, options), setup.blocking)


@dataclass(kw_only=True)
class RunProgress(LiveTally):
    """Live tallies fed by TrialFinished events; the screen redraws from it on a timer.

    The counts (rates, confusion cells, per-tool tallies) are the engine's ``LiveTally``, so
    the Run screen can draw the heatmap while trials arrive; this adds the plan, the latest
    trials and the clock: leaving ``running`` stamps the end time, which freezes the rate.
    """

    planned: int
    provider: str = ""
    started: float = field(default_factory=time.monotonic)
    ended: float | None = None
    latest: deque[ScoredTrial] = field(default_factory=lambda: deque(maxlen=LATEST_SHOWN))
    _state: str = "running"

    @property
    def state(self) -> str:
        """running | finished | cancelled | failed."""
        return self._state

    @state.setter
    def state(self, value: str) -> None:
        if value != "running" and self.ended is None:
            self.ended = time.monotonic()
        self._state = value

    def add(self, trial: ScoredTrial) -> None:
        """Count one finished trial and keep it among the latest shown."""
        self.latest.appendleft(trial)
        super().add(trial)

    @property
    def elapsed(self) -> float:
        """Seconds from start to now, or to the end once the run stopped."""
        return (self.ended if self.ended is not None else time.monotonic()) - self.started

    @property
    def rate(self) -> float:
        """Trials per second (frozen once the run ended)."""
        elapsed = self.elapsed
        return self.done / elapsed if elapsed > 0 else 0.0

    @property
    def eta_seconds(self) -> float | None:
        """Seconds left at the current rate, while running and once a trial finished."""
        if self.state != "running" or self.done == 0 or self.rate <= 0:
            return None
        return (self.planned - self.done) / self.rate
