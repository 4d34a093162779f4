"""The one-line verdict of a run, shared by the markdown, html, junit and badge renderers."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from whichtool_tui.evaluation.report_model import RunReport

VerdictKind = Literal["invalid", "thresholds", "failed", "unconfigured", "passed"]


@dataclass(frozen=True)
class RunVerdict:
    """Which of the five outcomes a run had, with its plain-text wording."""

    kind: VerdictKind
    text: str

    @property
    def passed(self) -> bool:
        """True for the two outcomes that exit 0."""
        return self.kind in ("unconfigured", "passed")


def error_count(report: RunReport) -> int:
    """How many error-severity findings the run carries."""
    return sum(1 for diagnostic in report.diagnostics if diagnostic.severity == "error")


def run_verdict(report: RunReport) -> RunVerdict:
    """Invalid beats violated thresholds, which beat other failures; then pass or unconfigured."""
    if not report.execution.ok:
        return RunVerdict("invalid", "Invalid run")
    violated = sum(1 for threshold in report.thresholds if not threshold.ok)
    if violated:
        noun = "threshold" if violated == 1 else "thresholds"
        return RunVerdict("thresholds", f"{violated} {noun} violated")
    if not report.ok:
        return RunVerdict("failed", "Run failed")
    if not report.thresholds:
        return RunVerdict("unconfigured", "No thresholds configured")
    return RunVerdict("passed", "All thresholds met")


def run_exit_code(report: RunReport) -> int:
    """2 when the run is not valid, 1 when it is not ok, otherwise 0."""
    if not report.execution.ok:
        return 2
    return 0 if report.ok else 1
