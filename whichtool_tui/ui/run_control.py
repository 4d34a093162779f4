"""Preparing a routing run from what the session holds, and tallying its progress live."""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass, field, replace

from whichtool_tui.diagnostics import Diagnostic
from whichtool_tui.errors import WhichtoolError
from whichtool_tui.evaluation.confusion import DISTRACTOR_ROW
from whichtool_tui.evaluation.engine import PreparedRun, RunInputs, RunOptions
from whichtool_tui.evaluation.metrics import picked_column
from whichtool_tui.evaluation.report_model import ScoredTrial
from whichtool_tui.evaluation.stats import wilson_interval
from whichtool_tui.limits import ABSOLUTE_MAX_TOOLS, ABSOLUTE_MAX_TRIALS
from whichtool_tui.surface.listing import ServedListing
from whichtool_tui.ui.session import Session
from whichtool_tui.usecases.options import RunOverrides, merge_run_options, with_overrides
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
    session: Session, repeat: int | None = None, seconds_per_trial: float | None = None
) -> RunSetup:
    """Plan a run of the session's task set on the session's surface (served listing needed).

    The options are the one merge's (``run_form_options``); the screen's repeat and
    seconds-per-trial, when given, go on top like flags.
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
    screen_values = RunOverrides(repeat=repeat, seconds_per_trial=seconds_per_trial)
    options = with_overrides(run_form_options(session), screen_values)
    plan = draft_plan(listing, surface, loaded, options)
    return RunSetup(plan.inputs, options, plan.prepared, plan.blocking)


def run_form_options(session: Session) -> RunOptions:
    """The run options the form starts from: the ``run`` command's merge, else the config's."""
    form = session.run_form
    if form is not None and form.options is not None:
        return form.options
    return merge_run_options(RunOverrides(), session.settings)


def raised(setup: RunSetup) -> RunSetup:
    """The same run with budgets raised just enough (never past the absolute 1,000)."""
    options = replace(
        setup.options,
        max_trials=min(
            ABSOLUTE_MAX_TRIALS, max(setup.options.max_trials, setup.prepared.plan.planned)
        ),
        max_tools=min(ABSOLUTE_MAX_TOOLS, max(setup.options.max_tools, len(setup.inputs.tools))),
    )
    return RunSetup(setup.inputs, options, prepare(setup.inputs, options), setup.blocking)


@dataclass
class RunProgress:
    """Live tallies fed by TrialFinished events; the screen redraws from it on a timer.

    Besides the running rates it keeps the confusion counts and per-tool tallies, so the Run
    screen can draw the heatmap while trials arrive; leaving ``running`` stamps the end time,
    which freezes the rate.
    """

    planned: int
    provider: str = ""
    tools: frozenset[str] = frozenset()  # the surface's tool names (phantom picks are others)
    done: int = 0
    correct: int = 0
    scored_targeted: int = 0
    over_triggered: int = 0
    distractors: int = 0
    errors: int = 0
    started: float = field(default_factory=time.monotonic)
    ended: float | None = None
    latest: deque[ScoredTrial] = field(default_factory=lambda: deque(maxlen=LATEST_SHOWN))
    confusion: dict[str, dict[str, int]] = field(default_factory=dict)
    by_tool: dict[str, tuple[int, int]] = field(default_factory=dict)  # tool -> (right, scored)
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
        """Count one finished trial."""
        self.done += 1
        self.latest.appendleft(trial)
        if trial.error is not None:
            self.errors += 1
            return
        expected = trial.expected or DISTRACTOR_ROW
        row = self.confusion.setdefault(expected, {})
        column = picked_column(trial, set(self.tools))
        row[column] = row.get(column, 0) + 1
        if trial.expected is None:
            self.distractors += 1
            self.over_triggered += trial.verdict == "over-triggered"
        else:
            self.scored_targeted += 1
            right = trial.verdict == "correct"
            self.correct += right
            hits, scored = self.by_tool.get(trial.expected, (0, 0))
            self.by_tool[trial.expected] = (hits + right, scored + 1)

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

    def accuracy(self) -> tuple[float, tuple[float, float]] | None:
        """Running single-call accuracy with its Wilson interval, once anything is scored."""
        interval = wilson_interval(self.correct, self.scored_targeted)
        if interval is None:
            return None
        return self.correct / self.scored_targeted, interval

    def over_trigger(self) -> tuple[float, tuple[float, float]] | None:
        """Running over-trigger rate on distractors with its Wilson interval."""
        interval = wilson_interval(self.over_triggered, self.distractors)
        if interval is None:
            return None
        return self.over_triggered / self.distractors, interval
