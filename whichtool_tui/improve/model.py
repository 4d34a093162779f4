"""The ``whichtool.improve/1`` evidence report as pydantic models, camelCase on the wire.

Every candidate rewrite is kept, accepted or not, with the finding it addressed, its held-out
figures before and after, the paired task-level tests, its token cost change and the reason for
the decision; the RFC 6902 patch holds only the accepted ones.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from whichtool_tui.evaluation.diff_model import TaskPairedComparison
from whichtool_tui.evaluation.js_json import dump_js_json
from whichtool_tui.evaluation.report_model import ClosedModel

IMPROVE_SCHEMA_VERSION: Literal["whichtool.improve/1"] = "whichtool.improve/1"
TargetKind = Literal["confusion", "missed", "over-trigger", "static"]
RewriterKind = Literal["rules", "model"]


def _absent(value: Any) -> bool:
    return value is None


class Addressed(ClosedModel):
    """A finding, a confusion or a failing tuning trial that a candidate was written against."""

    code: str
    message: str


class Target(ClosedModel):
    """What a candidate must improve on held-out tasks to be accepted.

    ``confusion`` and ``missed``: correctness on the held-out tasks expecting one of ``tools``;
    ``over-trigger``: abstention on the held-out distractors; ``static``: nothing beyond the
    general gates (a finding that no routing failure was seen for).
    """

    kind: TargetKind
    tools: list[str]


class HeldOutRate(ClosedModel):
    """A rate over held-out trials with its task-clustered 95% interval (task as the unit)."""

    successes: int
    trials: int
    tasks: int
    value: float | None
    ci95: tuple[float, float] | None


class Measurement(ClosedModel):
    """Base and candidate on the held-out tasks with one seed, repeat and permutation."""

    accuracy_before: HeldOutRate
    accuracy_after: HeldOutRate
    over_trigger_before: HeldOutRate
    over_trigger_after: HeldOutRate
    accuracy_paired: TaskPairedComparison
    abstention_paired: TaskPairedComparison
    targeted_tasks: list[str]
    targeted_paired: TaskPairedComparison | None
    tokens_before: int
    tokens_after: int
    token_growth: float


class Candidate(ClosedModel):
    """One proposed rewrite of one tool, its figures, and whether (and why) it was accepted."""

    id: str
    tool: str
    rewriter: RewriterKind
    rule: str | None
    addressed: list[Addressed]
    target: Target
    description_before: str
    description_after: str
    title_before: str | None = Field(default=None, exclude_if=_absent)
    title_after: str | None = Field(default=None, exclude_if=_absent)
    measurement: Measurement | None
    accepted: bool
    reason: str


class PatchOperation(ClosedModel):
    """One RFC 6902 operation; improve only ever replaces a description or a title."""

    op: Literal["replace"]
    path: str
    value: str


class SplitBlock(ClosedModel):
    """The seeded split: tuning tasks were shown to the rewriter, held-out ones never were."""

    seed: int
    holdout_share: float
    tuning: list[str]
    held_out: list[str]


class TuningFailure(ClosedModel):
    """A tuning task the base surface got wrong at least once: what the rewriter is shown."""

    task_id: str
    prompt: str
    expected: str | None
    picked: list[str | None]


class ImproveReport(ClosedModel):
    """Rewrites proposed from the findings, measured on held-out tasks, and the patch."""

    schema_version: Literal["whichtool.improve/1"] = IMPROVE_SCHEMA_VERSION
    snapshot: str
    surface_hash: str
    task_set: str
    provider: str
    model: str
    baseline: bool
    rewriter: RewriterKind
    repeat: int
    permuted: bool
    max_token_growth: float
    base_run: str | None
    split: SplitBlock
    tuning_failures: list[TuningFailure]
    candidates: list[Candidate]
    accepted_tools: list[str]
    patch: list[PatchOperation]
    final: Measurement | None
    notes: list[str]
    method: str


def dump_improve_json(report: ImproveReport) -> str:
    """The report as two-space indented JSON plus a trailing newline."""
    return dump_js_json(report)


def dump_patch_json(operations: list[PatchOperation]) -> str:
    """The RFC 6902 patch document (a JSON array of operations) plus a trailing newline."""
    from whichtool_tui.improve.patch import patch_text

    return patch_text([operation.model_dump(mode="json") for operation in operations])
