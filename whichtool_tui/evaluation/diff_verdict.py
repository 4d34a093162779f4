"""The verdict of the paired test that gates a diff, read once for every place that states one.

A diff carries two tests per comparison: upstream's sign test over trial pairs (``paired`` and
``distinguishable``, with upstream's meaning) and the task-level sign-flip test (``byTask``).
Only the one named by ``pairedUnit`` gates. Headlines, tables, per-tool marks, findings and
summaries state that one, and show the other only as a labelled reference, so a reader never
sees a regression the gate did not find.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeVar

from whichtool_tui.evaluation.diff_model import (
    ConfusionDelta,
    DiffReport,
    MetricDelta,
    PairedComparison,
    PairedUnit,
    TaskPairedComparison,
    ToolDelta,
)
from whichtool_tui.evaluation.wording import no_evidence, p_text


@dataclass(frozen=True)
class GateVerdict:
    """One comparison under the gating test: verdict, p-value (None: no evidence) and size."""

    unit: PairedUnit
    distinguishable: bool
    p_value: float | None
    count: int
    holm: bool = False

    @property
    def noun(self) -> str:
        """What was counted: tasks, or paired trials."""
        return "task" if self.unit == "task" else "paired trial"

    @property
    def label(self) -> str:
        """The test's name in a sentence: ``by task`` or ``by trial pair``."""
        return "by task" if self.unit == "task" else "by trial pair"

    @property
    def word(self) -> str:
        """``distinguishable by task`` or ``not distinguishable by task`` (likewise by trial)."""
        verdict = "distinguishable" if self.distinguishable else "not distinguishable"
        return f"{verdict} {self.label}"

    def p(self, spaced: bool = False) -> str:
        """``p=0.5`` (``Holm p=…`` per tool), ``p < 1e-6``, or ``no evidence (0 tasks)``."""
        if self.p_value is None:
            return no_evidence(self.count, self.noun)
        return ("Holm " if self.holm else "") + p_text(self.p_value, spaced)


def gate_unit(report: DiffReport) -> PairedUnit:
    """The unit that gated ``ok``; a diff without ``pairedUnit`` is upstream's (trial pairs)."""
    return report.paired_unit or "trial"


def task_verdict(by_task: TaskPairedComparison | None) -> GateVerdict:
    """The task-level verdict: Holm-adjusted where adjusted; no tasks paired is no evidence."""
    if by_task is None or by_task.tasks == 0:
        return GateVerdict("task", False, None, 0)
    adjusted = by_task.adjusted_p_value
    p_value = by_task.p_value if adjusted is None else adjusted
    return GateVerdict(
        "task", by_task.distinguishable, p_value, by_task.tasks, adjusted is not None
    )


def trial_verdict(paired: PairedComparison) -> GateVerdict:
    """Upstream's trial-level verdict; no matched pair is no evidence."""
    if paired.matched == 0:
        return GateVerdict("trial", False, None, 0)
    return GateVerdict("trial", paired.distinguishable, paired.p_value, paired.matched)


Reading = TypeVar("Reading")


def gate_and_reference(
    unit: PairedUnit, by_trial: Reading, by_task: Reading
) -> tuple[Reading, Reading]:
    """(the gating test's reading, the other's) of one comparison: the one rule that says which
    of the two tests gates, for verdicts and for the evidence every renderer prints."""
    return (by_trial, by_task) if unit == "trial" else (by_task, by_trial)


def comparison_verdict(
    unit: PairedUnit, paired: PairedComparison, by_task: TaskPairedComparison | None
) -> GateVerdict:
    """The verdict of a headline rate or a tool under ``unit``."""
    return gate_and_reference(unit, trial_verdict(paired), task_verdict(by_task))[0]


def reference_verdict(
    unit: PairedUnit, paired: PairedComparison, by_task: TaskPairedComparison | None
) -> GateVerdict:
    """The verdict of the test that does not gate, shown only as a labelled reference."""
    return gate_and_reference(unit, trial_verdict(paired), task_verdict(by_task))[1]


def metric_verdict(report: DiffReport, metric: MetricDelta | ToolDelta) -> GateVerdict:
    """A headline rate's or a tool's verdict under the report's gating unit."""
    return comparison_verdict(gate_unit(report), metric.paired, metric.by_task)


def confusion_verdict(unit: PairedUnit, confusion: ConfusionDelta) -> GateVerdict:
    """A confusion pair's verdict under ``unit`` (trial level: its own sign test)."""
    if unit == "task":
        return task_verdict(confusion.by_task)
    if confusion.denominator == 0:
        return GateVerdict("trial", False, None, 0)
    return GateVerdict("trial", confusion.distinguishable, confusion.p_value, confusion.denominator)
