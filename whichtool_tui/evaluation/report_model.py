"""The ``whichtool.run/2`` report as pydantic models: closed layers, camelCase on the wire.

Optional keys (``rawArguments?``, ``usage?``, ``error?`` ...) are left out when absent, while
nullable keys (``pick``, ``value``, ``endpoint`` ...) are always written, as the format requires.
"""

from __future__ import annotations

from typing import Any, Final, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator
from pydantic.alias_generators import to_camel

from whichtool_tui.diagnostics import Diagnostic
from whichtool_tui.discovery.run_model import DiscoveryBlock
from whichtool_tui.evaluation.js_json import dump_js_json
from whichtool_tui.evaluation.stats import Proportion, proportion
from whichtool_tui.strict_model import StrictModel

RUN_SCHEMA_VERSION: Final = "whichtool.run/2"

Verdict = Literal[
    "correct",
    "wrong-tool",
    "phantom",
    "abstained",
    "correct-abstention",
    "over-triggered",
    "unexpected-additional-calls",
    "error",
]
VERDICTS: tuple[Verdict, ...] = get_args(Verdict)


def _absent(value: Any) -> bool:
    return value is None


class ClosedModel(StrictModel):
    """Every layer of the report rejects unknown keys and speaks camelCase."""

    model_config = ConfigDict(alias_generator=to_camel)


class Capabilities(ClosedModel):
    """What the provider honours, as recorded for reproducibility."""

    seed: bool
    temperature_zero: bool
    logprobs: bool
    disable_thinking: bool


class Reproducibility(ClosedModel):
    """Everything needed to rerun, and to decide whether two runs are comparable."""

    whichtool_version: str
    provider: str
    model: str
    endpoint: str | None
    request_fingerprint: str | None
    provider_capabilities: Capabilities
    temperature: float
    reasoning_effort: str | None
    seed: int
    repeat: int
    permuted: bool
    concurrency: int
    surface_hash: str
    task_set_version: int
    task_set_source: str
    task_set_surface: str | None


class TargetRef(ClosedModel):
    """How the surface was reached; ``ref`` is already redacted."""

    transport: str
    ref: str


class TaskEntry(ClosedModel):
    """One selected task as it was run."""

    id: str
    prompt: str
    expected: str | None
    tags: list[str]


class TasksBlock(ClosedModel):
    """The task file's size, the selection and the tags that made it."""

    in_file: int
    selected: int
    distractors: int
    only: list[str]
    skip: list[str]
    list: list[TaskEntry]


class TrialCounts(ClosedModel):
    """Planned, scored and errored trials."""

    planned: int
    scored: int
    errored: int


class ToolCount(ClosedModel):
    """A tool and how often something happened with it."""

    tool: str
    count: int


class ToolMetrics(ClosedModel):
    """Routing quality for one surface tool, over the trials expecting it."""

    tool: str
    accuracy: Proportion
    confused_with: list[ToolCount]
    abstained: int
    phantom: int
    errors: int
    argument_accuracy: Proportion
    hallucinated_parameters: int
    context_tokens: int


class ConfusionPair(ClosedModel):
    """Two tools swapped for each other in wrong-tool trials; ``tools`` sorted by name.

    ``rate`` is swaps over the trials that expected either tool, as a proportion (upstream's
    shape). Files written before we matched it carry a bare number; it is read back into the
    same proportion, its denominator rebuilt as ``swaps / rate``.
    """

    tools: tuple[str, str]
    swaps: int
    rate: Proportion

    @field_validator("rate", mode="before")
    @classmethod
    def _rate_from_bare_number(cls, value: Any, info: ValidationInfo) -> Any:
        if isinstance(value, bool) or not isinstance(value, int | float):
            return value
        swaps = info.data.get("swaps")
        if not isinstance(swaps, int) or not 0 < value <= 1:
            raise ValueError("a bare confusion-pair rate needs swaps > 0 and 0 < rate <= 1")
        return proportion(swaps, round(swaps / value))

    a_chosen_when_b_expected: int = Field(alias="aChosenWhenBExpected")
    b_chosen_when_a_expected: int = Field(alias="bChosenWhenAExpected")


class PositionBucket(ClosedModel):
    """Pooled single-call accuracy of trials whose expected tool sat at this index."""

    position: int
    accuracy: Proportion


class PositionSensitivity(ClosedModel):
    """Whether where a tool appears in the list changes whether it is picked."""

    buckets: list[PositionBucket]
    spread: float | None
    comparable_tasks: int
    method: str


class Metrics(ClosedModel):
    """Every rate of the run, recomputable from the trials."""

    trials: TrialCounts
    accuracy: Proportion
    abstention: Proportion
    over_trigger: Proportion
    phantom: Proportion
    multi_call_rate: Proportion
    clarification: Proportion
    by_tool: list[ToolMetrics]
    confusion_matrix: dict[str, dict[str, int]]
    confusion_pairs: list[ConfusionPair]
    position: PositionSensitivity
    min_trials_per_tool: int


class Tokenizer(ClosedModel):
    """Which token estimate was used, and an honest note that it is an estimate."""

    id: str
    exact: bool
    approximates: str | None
    note: str


class ToolTokens(ClosedModel):
    """Estimated tokens one tool adds to every request."""

    total: int
    name: int
    description: int
    schema_: int = Field(alias="schema")
    envelope: int


class ContextCost(ClosedModel):
    """The inspect token block: what the surface costs per request."""

    tokenizer: Tokenizer
    serialization: str
    total: int
    by_tool: dict[str, ToolTokens]


class ThresholdResult(ClosedModel):
    """One quality gate, its limit, the measured value and whether it held."""

    name: Literal["minAccuracy", "maxOverTrigger", "maxContextTokens"]
    limit: float
    actual: float
    ok: bool


class Execution(ClosedModel):
    """Whether the run measured enough to be trusted at all."""

    ok: bool
    planned: int
    completed: int
    scored: int
    errored: int
    error_rate: Proportion
    max_error_rate: float
    min_scored: int


class Call(ClosedModel):
    """One proposed call, normalised: arguments an object or null, raw text kept when unparsable."""

    name: str | None
    arguments: dict[str, Any] | None
    raw_arguments: str | None = Field(default=None, exclude_if=_absent)


class TrialUsage(ClosedModel):
    """Token usage the provider reported for one trial."""

    prompt_tokens: int | None = Field(default=None, exclude_if=_absent)
    completion_tokens: int | None = Field(default=None, exclude_if=_absent)


class TrialError(ClosedModel):
    """Why a trial produced no answer; errored trials are excluded from every rate."""

    message: str
    retryable: bool
    hint: str | None = Field(default=None, exclude_if=_absent)


class WrongType(ClosedModel):
    """An argument whose JSON type does not match the schema."""

    name: str
    expected: str
    got: str


class ArgumentCheck(ClosedModel):
    """How the first call's arguments fit the picked tool's input schema."""

    missing_required: list[str]
    hallucinated: list[str]
    wrong_type: list[WrongType]
    parsed: bool
    vacuous: bool


class ScoredTrial(ClosedModel):
    """One trial: what was shown, every call proposed, and its verdict."""

    task_id: str
    trial_index: int
    expected: str | None
    pick: str | None
    arguments: dict[str, Any] | None
    raw_arguments: str | None = Field(default=None, exclude_if=_absent)
    calls: list[Call]
    text: str
    call_count: int
    order: list[str]
    expected_position: int
    latency_ms: float
    usage: TrialUsage | None = Field(default=None, exclude_if=_absent)
    reasoning_chars: int | None = Field(default=None, exclude_if=_absent)
    error: TrialError | None = Field(default=None, exclude_if=_absent)
    verdict: Verdict
    unexpected_additional_calls: bool
    argument_check: ArgumentCheck | None = Field(default=None, exclude_if=_absent)
    asked_for_clarification: bool


class ReportDiagnostic(ClosedModel):
    """A finding in the report: the shared Diagnostic shape without its hint."""

    code: str
    severity: Literal["error", "warning", "info"]
    message: str
    tool: str | None = Field(default=None, exclude_if=_absent)
    tools: list[str] | None = Field(default=None, exclude_if=_absent)
    detail: Any = Field(default=None, exclude_if=_absent)

    @classmethod
    def of(cls, diagnostic: Diagnostic) -> ReportDiagnostic:
        """Project a shared Diagnostic onto the report's closed diagnostic layer."""
        return cls(
            code=diagnostic.code,
            severity=diagnostic.severity,
            message=diagnostic.message,
            tool=diagnostic.tool,
            tools=diagnostic.tools,
            detail=diagnostic.detail,
        )


class ClusteredRate(ClosedModel):
    """A rate with the task as the unit: its 95% interval and the sizes behind it (additive)."""

    value: float | None
    tasks: int
    trials: int
    design_effect: float | None
    effective_size: float | None
    ci95: tuple[float, float] | None


class ToolClusteredRate(ClosedModel):
    """One surface tool's single-call accuracy with the task as the unit."""

    tool: str
    accuracy: ClusteredRate


class ClusteredRates(ClosedModel):
    """The headline rates of ``metrics`` again, with task-clustered intervals."""

    accuracy: ClusteredRate
    abstention: ClusteredRate
    over_trigger: ClusteredRate
    phantom: ClusteredRate
    multi_call_rate: ClusteredRate
    by_tool: list[ToolClusteredRate]


class PassHatK(ClosedModel):
    """pass^k: the chance that k repeats of a task all succeed, averaged over tasks."""

    k: int
    value: float | None
    tasks: int


class TaskConsistency(ClosedModel):
    """One task's repeats: scored and correct counts, pass^k for k = 1..scored, stability."""

    task_id: str
    scored: int
    correct: int
    pass_hat_k: list[float]
    unchanged: bool


class Consistency(ClosedModel):
    """How repeatable the answers are: pass^k overall and per task, and unchanged tasks."""

    pass_hat_k: list[PassHatK]
    unchanged_tasks: int
    compared_tasks: int
    unchanged_share: float | None
    by_task: list[TaskConsistency]


class PositionTest(ClosedModel):
    """First-position advantage within tasks, averaged over tasks, with its interval and test."""

    tasks: int
    advantage: float | None
    ci95: tuple[float, float] | None
    p_value: float | None
    test: str
    significant: bool


class RunStatistics(ClosedModel):
    """Additive numbers with the task as the unit; recomputed by the reader when absent."""

    unit: Literal["task"]
    interval_method: str
    rates: ClusteredRates
    consistency: Consistency
    position: PositionTest


class BatchBlock(ClosedModel):
    """How a ``run --batch`` was executed: the provider's batches, what they returned, and the
    published discount the price was billed at (with its source)."""

    api: str
    batch_ids: list[str]
    lines_sent: int  # distinct requests submitted (a repeated request is sent once)
    answered_from_cache: int  # trials the trial cache answered before anything was sent
    errored_lines: int
    expired_lines: int
    discount: float  # the share of the direct price each batch request is billed at
    discount_source: str
    verified_on: str


class PacingBlock(ClosedModel):
    """What rate limits did to a direct run: its concurrency cut and regrown (AIMD), and how
    many times a trial waited before it was sent again. Present only when one waited."""

    max_concurrency: int  # --concurrency: never exceeded
    lowest_concurrency: int
    settled_concurrency: int  # where the limit stood when the run ended
    rate_limit_waits: int


class ShardBlock(ClosedModel):
    """Which part of a planned run this report holds (``run --shard i/N``)."""

    index: int  # 1-based
    count: int
    plan_fingerprint: str
    planned_total: int  # trials of the whole plan, every shard together
    tasks_total: int
    task_ids: list[str]  # the whole plan's tasks, in plan order (the merge's trial order)
    tool_names: list[str]  # the surface's tools in served order
    surface_diagnostics: list[ReportDiagnostic]  # the surface's own findings, in every shard


class RunReport(ClosedModel):
    """A complete routing run, as saved by ``run --format json`` and read by report and diff."""

    schema_version: Literal["whichtool.run/2"] = RUN_SCHEMA_VERSION
    reproducibility: Reproducibility
    target: TargetRef
    tasks: TasksBlock
    metrics: Metrics
    context_cost: ContextCost
    diagnostics: list[ReportDiagnostic]
    thresholds: list[ThresholdResult]
    thresholds_ok: bool
    execution: Execution
    ok: bool
    duration_ms: float
    trials: list[ScoredTrial]
    # Present only in `run --discovery deferred`: the search step of every trial and the
    # comparison with the upfront arm (additive to whichtool.run/2).
    discovery: DiscoveryBlock | None = Field(default=None, exclude_if=_absent)
    # Task-level statistics (additive to whichtool.run/2); the reader recomputes them when absent.
    statistics: RunStatistics | None = Field(default=None, exclude_if=_absent)
    # Present only in `run --batch` (additive to whichtool.run/2).
    batch: BatchBlock | None = Field(default=None, exclude_if=_absent)
    # Present only when rate limits made a direct run wait (additive).
    pacing: PacingBlock | None = Field(default=None, exclude_if=_absent)
    # Present only in one shard of `run --shard i/N`; `report merge` drops it (additive).
    shard: ShardBlock | None = Field(default=None, exclude_if=_absent)


def js_numbers(value: Any) -> Any:
    """Write whole floats as integers, as JavaScript's JSON.stringify does."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {key: js_numbers(item) for key, item in value.items()}
    if isinstance(value, list):
        return [js_numbers(item) for item in value]
    return value


def wire_dict(model: BaseModel) -> dict[str, Any]:
    """A report model as plain JSON data: wire key names, JavaScript-style whole numbers."""
    data: dict[str, Any] = js_numbers(model.model_dump(mode="json", by_alias=True))
    return data


def report_to_dict(report: RunReport) -> dict[str, Any]:
    """The run report as plain JSON data with wire key names."""
    return wire_dict(report)


def dump_report_json(report: RunReport) -> str:
    """The report as ``JSON.stringify(report, null, 2)`` plus a trailing newline."""
    return dump_js_json(report)


def parse_report_json(text: str) -> RunReport:
    """Parse a saved run strictly (closed layers); semantic re-checks belong to the reader."""
    return RunReport.model_validate_json(text, by_alias=True)
