"""Typed progress events of a run, pushed into a sink callable (TUI messages, progress bar)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from whichtool_tui.evaluation.report_model import RunReport, ScoredTrial


@dataclass(frozen=True)
class RunPlanned:
    """The plan is fixed and a provider is about to be called."""

    planned: int
    provider: str
    model: str
    concurrency: int
    prompt_tokens_per_trial: int


@dataclass(frozen=True)
class TrialFinished:
    """One trial was judged; ``done`` counts finished trials so far (in completion order)."""

    done: int
    planned: int
    trial: ScoredTrial
    from_cache: bool


@dataclass(frozen=True)
class RunFinished:
    """Every trial finished and the report is built."""

    report: RunReport


RunEvent = RunPlanned | TrialFinished | RunFinished
EventSink = Callable[[RunEvent], None]


def discard_event(event: RunEvent) -> None:
    """A sink that ignores everything, for callers that want no progress."""
    del event
