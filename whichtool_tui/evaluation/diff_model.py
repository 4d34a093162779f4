"""The ``whichtool.diff/2`` report as pydantic models: closed layers, camelCase on the wire."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from whichtool_tui.evaluation.js_json import dump_js_json
from whichtool_tui.evaluation.report_model import ClosedModel, ReportDiagnostic, wire_dict

DIFF_SCHEMA_VERSION: Literal["whichtool.diff/2"] = "whichtool.diff/2"
PairedUnit = Literal["task", "trial"]


def _absent(value: Any) -> bool:
    return value is None


class DiffRunRef(ClosedModel):
    """Which run a side of the diff is, in enough detail to recognise it."""

    source: str
    provider: str
    model: str
    surface_hash: str
    repeat: int


class PairedComparison(ClosedModel):
    """Trials matched by (task, trial index): who flipped which way, and the sign-test p-value."""

    matched: int
    improved: int
    regressed: int
    excluded: int
    p_value: float
    distinguishable: bool


class TaskPairedComparison(ClosedModel):
    """The paired change with the task as the unit, oriented so that positive is better.

    Each task's change is the mean over its matched trial pairs of (passes in head) minus
    (passes in base); the p-value is a two-sided sign-flip permutation test over tasks.
    ``adjustedPValue`` (per-tool rows only) is Holm-adjusted over the tools compared, and there
    ``distinguishable`` uses it.
    """

    tasks: int
    improved: int
    regressed: int
    unchanged: int
    mean_delta: float | None
    ci95: tuple[float, float] | None
    p_value: float
    test: str
    adjusted_p_value: float | None = Field(default=None, exclude_if=_absent)
    distinguishable: bool


class MetricDelta(ClosedModel):
    """A headline rate before and after, its change, and whether the paired change is real."""

    before: float | None
    after: float | None
    delta: float | None
    distinguishable: bool
    paired: PairedComparison
    by_task: TaskPairedComparison | None = Field(default=None, exclude_if=_absent)


class ContextTokensDelta(ClosedModel):
    """The surface's estimated context cost before and after; reported, never gating."""

    before: int
    after: int
    delta: int


class ToolDelta(ClosedModel):
    """One tool's single-call accuracy before and after (null where absent or unmeasured)."""

    tool: str
    before: float | None
    after: float | None
    delta: float | None
    distinguishable: bool
    paired: PairedComparison
    by_task: TaskPairedComparison | None = Field(default=None, exclude_if=_absent)


class ConfusionDelta(ClosedModel):
    """A confusion pair that appeared or disappeared, with its paired evidence."""

    tools: tuple[str, str]
    swaps: int
    denominator: int
    introduced: int
    resolved: int
    p_value: float
    distinguishable: bool
    by_task: TaskPairedComparison | None = Field(default=None, exclude_if=_absent)


class DiffReport(ClosedModel):
    """A paired comparison of two saved runs of the same plan."""

    schema_version: Literal["whichtool.diff/2"] = DIFF_SCHEMA_VERSION
    base: DiffRunRef
    head: DiffRunRef
    comparable: bool
    incomparable: list[str]
    accuracy: MetricDelta
    over_trigger: MetricDelta
    multi_call: MetricDelta
    context_tokens: ContextTokensDelta
    by_tool: list[ToolDelta]
    new_confusions: list[ConfusionDelta]
    resolved_confusions: list[ConfusionDelta]
    diagnostics: list[ReportDiagnostic]
    ok: bool
    # Additive: which paired test gated ``ok`` ("task" by default; "trial" is upstream's rule).
    paired_unit: PairedUnit | None = Field(default=None, exclude_if=_absent)


def diff_to_dict(report: DiffReport) -> dict[str, Any]:
    """The diff as plain JSON data with wire key names and JavaScript-style numbers."""
    return wire_dict(report)


def dump_diff_json(report: DiffReport) -> str:
    """The diff as two-space indented JSON plus a trailing newline."""
    return dump_js_json(report)
