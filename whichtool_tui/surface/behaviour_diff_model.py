"""The ``whichtool.surface-diff/1`` report as pydantic models, camelCase on the wire."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from whichtool_tui.evaluation.diff_model import TaskPairedComparison
from whichtool_tui.evaluation.js_json import dump_js_json
from whichtool_tui.evaluation.report_model import ClosedModel

SURFACE_DIFF_SCHEMA_VERSION: Literal["whichtool.surface-diff/1"] = "whichtool.surface-diff/1"
ChangeKind = Literal["changed", "renamed", "added", "removed"]
ChangedField = Literal["description", "title", "inputSchema", "outputSchema", "annotations"]
RenameMatch = Literal["content", "similarity"]


def _absent(value: Any) -> bool:
    return value is None


class SurfaceRef(ClosedModel):
    """One side of the diff: which snapshot, its surface hash and how many tools it serves."""

    source: str
    surface_hash: str
    tools: int


class ToolChange(ClosedModel):
    """One tool that differs between base and head, and in which fields.

    A rename pairs a base-only name with a head-only name: ``content`` when description, input
    schema and annotations are identical, ``similarity`` when the descriptions' trigram score
    reaches the rename threshold (``similarity`` holds that score).
    """

    kind: ChangeKind
    base_name: str | None
    head_name: str | None
    fields: list[ChangedField]
    rename_match: RenameMatch | None = Field(default=None, exclude_if=_absent)
    similarity: float | None = Field(default=None, exclude_if=_absent)
    description_before: str | None = Field(default=None, exclude_if=_absent)
    description_after: str | None = Field(default=None, exclude_if=_absent)


class ConfusablePartner(ClosedModel):
    """A tool whose name-plus-description overlaps a changed tool on one of the surfaces."""

    changed: str
    partner: str
    score: float
    side: Literal["base", "head"]


class AffectedTask(ClosedModel):
    """A task a change can move, why, and whether the re-run could send it to both surfaces.

    ``headExpected`` differs from ``expected`` when the expected tool was renamed.
    """

    task_id: str
    expected: str | None
    head_expected: str | None
    reasons: list[str]
    runnable: bool
    not_runnable_reason: str | None = Field(default=None, exclude_if=_absent)


class TaskRerun(ClosedModel):
    """One re-run task: correct over scored trials on each side, and the per-task change."""

    task_id: str
    base_correct: int
    base_scored: int
    head_correct: int
    head_scored: int
    change: float | None


class SurfaceRerun(ClosedModel):
    """The affected tasks sent to both surfaces with one seed, repeat and permutation."""

    provider: str
    model: str
    seed: int
    repeat: int
    permuted: bool
    trials_per_side: int
    tasks: list[TaskRerun]
    paired: TaskPairedComparison
    method: str


class SurfaceDiffGate(ClosedModel):
    """The CI verdict: which gate was asked for and why it failed (empty when it passed)."""

    checked: list[str]
    failed: bool
    failures: list[str]


class SurfaceDiffReport(ClosedModel):
    """What changed between two tool surfaces, which tasks it can move, and (with a provider)
    what a paired re-run of those tasks measured."""

    schema_version: Literal["whichtool.surface-diff/1"] = SURFACE_DIFF_SCHEMA_VERSION
    base: SurfaceRef
    head: SurfaceRef
    changes: list[ToolChange]
    unchanged_tools: int
    partners: list[ConfusablePartner]
    partner_threshold: float
    task_set: str | None
    affected_tasks: list[AffectedTask]
    unaffected_tasks: int
    rerun: SurfaceRerun | None
    notes: list[str]
    gate: SurfaceDiffGate


def dump_surface_diff_json(report: SurfaceDiffReport) -> str:
    """The surface diff as two-space indented JSON plus a trailing newline."""
    return dump_js_json(report)
