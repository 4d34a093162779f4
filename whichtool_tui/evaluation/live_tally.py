"""Running tallies of a routing run while its trials arrive, for a face's live view.

The counts are the report's own rules applied one trial at a time: the confusion column of a
trial (``metrics.picked_column``), targeted accuracy and over-trigger on distractors, each with
its Wilson interval, so a live view never decides a verdict the finished report would not.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from whichtool_tui.evaluation.confusion import DISTRACTOR_ROW
from whichtool_tui.evaluation.metrics import picked_column
from whichtool_tui.evaluation.report_model import ScoredTrial
from whichtool_tui.evaluation.stats import wilson_interval

Rate = tuple[float, tuple[float, float]]  # the rate and its Wilson interval


@dataclass(kw_only=True)
class LiveTally:
    """Counts fed one finished trial at a time (``TrialFinished``); errors count apart.

    ``confusion`` is expected row -> picked column -> trials (the heatmap's cells so far);
    ``by_tool`` is tool -> (right, scored).
    """

    tools: frozenset[str] = frozenset()  # the surface's tool names (phantom picks are others)
    done: int = 0
    correct: int = 0
    scored_targeted: int = 0
    over_triggered: int = 0
    distractors: int = 0
    errors: int = 0
    confusion: dict[str, dict[str, int]] = field(default_factory=dict)
    by_tool: dict[str, tuple[int, int]] = field(default_factory=dict)

    def add(self, trial: ScoredTrial) -> None:
        """Count one finished trial."""
        self.done += 1
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

    def accuracy(self) -> Rate | None:
        """Running single-call accuracy with its Wilson interval, once anything is scored."""
        interval = wilson_interval(self.correct, self.scored_targeted)
        if interval is None:
            return None
        return self.correct / self.scored_targeted, interval

    def over_trigger(self) -> Rate | None:
        """Running over-trigger rate on distractors with its Wilson interval."""
        interval = wilson_interval(self.over_triggered, self.distractors)
        if interval is None:
            return None
        return self.over_triggered / self.distractors, interval
