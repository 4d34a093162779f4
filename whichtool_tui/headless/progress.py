"""Run progress on stderr: a rich bar on a terminal, plain lines otherwise.

Off a terminal (CI logs) a line is written for a trial only when it crosses a tenth of the plan,
so a 100,000-trial run logs about ten lines, and a short run still shows every trial.
"""

from __future__ import annotations

import sys
from typing import IO, TYPE_CHECKING

from whichtool_tui.text_safety import sanitize_text
from whichtool_tui.usecases.api import LiveTally, RunEvent, RunFinished, RunPlanned, TrialFinished

if TYPE_CHECKING:
    from rich.progress import Progress, TaskID

PROG = "whichtool-tui"


def trial_label(event: TrialFinished) -> str:
    """What a trial came to: the pick, ``(none)``, or ``error``."""
    trial = event.trial
    if trial.verdict == "error":
        return "error"
    return trial.pick if trial.pick is not None else "(none)"


class RunProgress:
    """An event sink that draws progress on ``stream`` (stderr by default)."""

    def __init__(self, stream: IO[str] | None = None, interactive: bool | None = None) -> None:
        self.stream = stream or sys.stderr
        self.interactive = self.stream.isatty() if interactive is None else interactive
        self._progress: Progress | None = None
        self._task: TaskID | None = None
        self._tally = LiveTally()
        self._tenths_logged = 0

    def __call__(self, event: RunEvent) -> None:
        """Consume one engine event."""
        if isinstance(event, RunPlanned):
            self._planned(event)
        elif isinstance(event, TrialFinished):
            self._finished(event)
        elif isinstance(event, RunFinished):
            self.close()

    def _planned(self, event: RunPlanned) -> None:
        floor = event.prompt_tokens_per_trial * event.planned
        self.stream.write(
            f"{PROG}: running {event.planned} trials against "
            f"{sanitize_text(event.provider)}/{sanitize_text(event.model)}; cold-cache prompt "
            f"floor ~{floor} tokens. Output and reasoning are additional.\n"
        )
        self.stream.flush()
        if self.interactive:
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
            )

            self._progress = Progress(
                TextColumn("trials"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("{task.fields[accuracy]}"),
                TimeElapsedColumn(),
                console=Console(file=self.stream, force_terminal=True),
                transient=True,
            )
            self._task = self._progress.add_task("trials", total=event.planned, accuracy="")
            self._progress.start()

    def _finished(self, event: TrialFinished) -> None:
        trial = event.trial
        tally = self._tally
        tally.add(trial)
        if self._progress is not None and self._task is not None:
            accuracy = (
                f"accuracy {tally.correct}/{tally.scored_targeted}" if tally.scored_targeted else ""
            )
            self._progress.update(self._task, completed=event.done, accuracy=accuracy)
            return
        tenths = event.done * 10 // max(event.planned, 1)
        if tenths == self._tenths_logged and event.done != event.planned:
            return
        self._tenths_logged = tenths
        self.stream.write(
            f"  [{event.done}/{event.planned}] {sanitize_text(trial.task_id)} -> "
            f"{sanitize_text(trial_label(event))}\n"
        )
        self.stream.flush()

    def close(self) -> None:
        """Stop the bar (safe to call more than once, and after a cancellation)."""
        if self._progress is not None:
            self._progress.stop()
            self._progress = None
