"""What an agent may pass to each tool, validated strictly before anything runs.

These models are also the tools' published input schemas (``agent_input_schema``): field
names, types, descriptions and bounds are written once, here, with the agent caps from
``limits``. Repeat and concurrency publish their caps but are checked by the handler, so an
agent over a cap gets the named ``mcp/limit-exceeded`` rather than a schema error.
"""

from __future__ import annotations

from typing import Any, Literal, TypeVar

from pydantic import Field, StrictBool, StrictInt, ValidationError

from whichtool_tui import limits
from whichtool_tui.errors import WhichtoolError
from whichtool_tui.strict_model import StrictModel

AgentTransport = Literal["snapshot", "http", "stdio"]
Rate = float

TRANSPORT_HELP = "How to reach the target; inferred from it when omitted."
TARGET_HELP = (
    "A snapshot .json inside the working directory, an http(s) URL, or a server "
    "command line. Needs --allow-dynamic-targets; otherwise the configured target is used."
)
TASKS_HELP = "Task-set file inside the working directory (default: the configured one)."
REPEAT_HELP = "Trials per task on each side (default: the configured one)."
CONCURRENCY_HELP = "Model requests in flight (default: the configured one)."


def _published_bounds(low: int, high: int) -> dict[str, Any]:
    """Bounds shown in the schema but checked by the handler (a named error, not a schema one)."""
    return {"json_schema_extra": {"minimum": low, "maximum": high}}


def _agent_repeat(description: str | None = REPEAT_HELP) -> Any:
    """A ``repeat`` argument, bounded by the agent cap (one declaration for every tool)."""
    bounds = _published_bounds(limits.MIN_REPEAT, limits.AGENT_MAX_REPEAT)
    return Field(default=None, description=description, **bounds)


def _agent_concurrency(description: str | None = CONCURRENCY_HELP) -> Any:
    """A ``concurrency`` argument, bounded by the agent cap."""
    bounds = _published_bounds(limits.MIN_CONCURRENCY, limits.AGENT_MAX_CONCURRENCY)
    return Field(default=None, description=description, **bounds)


def _agent_seed(description: str) -> Any:
    """A ``seed`` argument: any integer JSON carries exactly."""
    return Field(
        default=None,
        ge=-limits.MAX_SAFE_INTEGER,
        le=limits.MAX_SAFE_INTEGER,
        description=description,
    )


_Arguments = StrictModel


ModelT = TypeVar("ModelT", bound=_Arguments)


class InspectArguments(_Arguments):
    """``inspect_surface`` input."""

    target: str | None = Field(default=None, min_length=1, description=TARGET_HELP)
    transport: AgentTransport | None = Field(default=None, description=TRANSPORT_HELP)
    max_context_tokens: StrictInt | None = Field(
        default=None,
        alias="maxContextTokens",
        ge=0,
        description="Fail when the estimated surface tokens exceed this.",
    )


class ValidateArguments(_Arguments):
    """``validate_task_file`` input."""

    tasks: str | None = Field(default=None, min_length=1, description=TASKS_HELP)
    target: str | None = Field(default=None, min_length=1, description=TARGET_HELP)
    transport: AgentTransport | None = Field(default=None, description=TRANSPORT_HELP)


class RunArguments(_Arguments):
    """``run_evaluation`` input; repeat and concurrency limits are checked later, by name."""

    target: str | None = Field(default=None, min_length=1, description=TARGET_HELP)
    transport: AgentTransport | None = Field(default=None, description=TRANSPORT_HELP)
    tasks: str | None = Field(default=None, min_length=1, description=TASKS_HELP)
    provider: str | None = Field(
        default=None,
        min_length=1,
        description="Provider name; needs --allow-provider-overrides.",
    )
    model: str | None = Field(
        default=None, min_length=1, description="Model name; needs --allow-provider-overrides."
    )
    repeat: StrictInt | None = _agent_repeat(description=None)
    concurrency: StrictInt | None = _agent_concurrency(description=None)
    dry_run: StrictBool = Field(
        default=False,
        alias="dryRun",
        description="Only plan and price the run; no model is called.",
    )
    min_accuracy: Rate | None = Field(default=None, alias="minAccuracy", ge=0, le=1)
    max_over_trigger: Rate | None = Field(default=None, alias="maxOverTrigger", ge=0, le=1)


class DiffArguments(_Arguments):
    """``diff_saved_results`` input."""

    base: str = Field(min_length=1, description="Base run JSON.")
    head: str = Field(min_length=1, description="Head run JSON.")
    max_accuracy_drop: Rate | None = Field(default=None, alias="maxAccuracyDrop", ge=0, le=1)
    # The paired test that gates: over tasks (default) or upstream's over trial pairs.
    paired_unit: Literal["task", "trial"] = Field(
        default="task",
        alias="pairedUnit",
        description="The paired test that gates: a sign-flip test over tasks (default), or "
        "upstream's sign test over trial pairs.",
    )


class ImproveArguments(_Arguments):
    """``improve_descriptions`` input; repeat and concurrency limits are checked later, by name."""

    snapshot: str | None = Field(
        default=None,
        min_length=1,
        description="Snapshot .json inside the working directory (default: the configured "
        "target, when it is a snapshot).",
    )
    tasks: str | None = Field(default=None, min_length=1, description=TASKS_HELP)
    provider: str | None = Field(
        default=None,
        min_length=1,
        description="Routes every trial and writes the rewrites (default keyword: rule-based, "
        "offline); needs --allow-provider-overrides.",
    )
    model: str | None = Field(
        default=None, min_length=1, description="Model name; needs --allow-provider-overrides."
    )
    base_run: str | None = Field(
        default=None,
        alias="baseRun",
        min_length=1,
        description="A saved run of this snapshot inside the working directory: its tuning "
        "trials supply the failures and confusions.",
    )
    tools: list[str] | None = Field(
        default=None,
        max_length=limits.ABSOLUTE_MAX_TOOLS,
        description="Rewrite only these tools (default: every tool a finding or failure names).",
    )
    seed: StrictInt | None = _agent_seed(
        "Seed of the split and of every run (default: the configured one)."
    )
    repeat: StrictInt | None = _agent_repeat()
    concurrency: StrictInt | None = _agent_concurrency()
    holdout_share: Rate | None = Field(
        default=None,
        alias="holdoutShare",
        ge=limits.MIN_HOLDOUT_SHARE,
        le=limits.MAX_HOLDOUT_SHARE,
        description="Share of each tool's tasks kept back to measure with (default 0.5).",
    )
    max_token_growth: Rate | None = Field(
        default=None,
        alias="maxTokenGrowth",
        ge=0,
        le=limits.MAX_TOKEN_GROWTH,
        description="Largest accepted growth of a tool's token estimate (default 0.25).",
    )
    dry_run: StrictBool = Field(
        default=False,
        alias="dryRun",
        description="Only split the tasks and count every trial the loop can send against the "
        "caps (a paid provider's; offline ones have none); nothing is sent.",
    )


class SurfaceDiffArguments(_Arguments):
    """``diff_surfaces`` input; the re-run's repeat and concurrency are checked later, by name."""

    base: str = Field(min_length=1, description="Base snapshot .json (before the change).")
    head: str = Field(min_length=1, description="Head snapshot .json (after the change).")
    tasks: str | None = Field(
        default=None,
        min_length=1,
        description="Task-set file inside the working directory: which tasks each change can "
        "affect (none: only the changed tools).",
    )
    rerun: StrictBool = Field(
        default=False,
        description="Re-run only the affected tasks against both surfaces (needs tasks) with "
        "the keyword baseline, or with provider.",
    )
    provider: str | None = Field(
        default=None,
        min_length=1,
        description="Provider of the re-run (default keyword); needs --allow-provider-overrides.",
    )
    model: str | None = Field(
        default=None, min_length=1, description="Model name; needs --allow-provider-overrides."
    )
    seed: StrictInt | None = _agent_seed(
        "Run seed shared by both sides (default: the configured one)."
    )
    repeat: StrictInt | None = _agent_repeat()
    concurrency: StrictInt | None = _agent_concurrency()
    fail_on_regression: StrictBool = Field(
        default=False,
        alias="failOnRegression",
        description="Not ok when the re-run shows a distinguishable task-level drop.",
    )
    max_accuracy_drop: Rate | None = Field(
        default=None,
        alias="maxAccuracyDrop",
        ge=0,
        le=1,
        description="Not ok when the mean per-task drop in correctness exceeds this.",
    )


def _published(schema: dict[str, Any]) -> dict[str, Any]:
    """One property as agents read it: optional fields without their null branch, no titles
    or defaults (an omitted argument means the operator's value)."""
    branches = schema.pop("anyOf", None)
    if branches is not None:
        kept = [branch for branch in branches if branch != {"type": "null"}]
        schema = {**kept[0], **schema} if len(kept) == 1 else {"anyOf": kept, **schema}
    return {key: value for key, value in schema.items() if key not in ("title", "default")}


def agent_input_schema(model: type[_Arguments]) -> dict[str, Any]:
    """The JSON Schema a tool publishes for ``model``: camelCase names, bounds from the model
    (and ``limits``), unknown arguments refused."""
    generated = model.model_json_schema(by_alias=True)
    schema: dict[str, Any] = {
        "type": "object",
        "properties": {
            name: _published(dict(value)) for name, value in generated["properties"].items()
        },
        "additionalProperties": False,
    }
    if generated.get("required"):
        schema["required"] = list(generated["required"])
    return schema


def parse_arguments(model: type[ModelT], tool: str, raw: dict[str, Any] | None) -> ModelT:
    """Validate ``raw`` into ``model``; the first problem becomes ``mcp/invalid-arguments``."""
    try:
        return model.model_validate(raw or {})
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "arguments"
        problem = (
            "is not an accepted argument"
            if first["type"] == "extra_forbidden"
            else first["msg"].lower()
        )
        raise WhichtoolError(
            "mcp/invalid-arguments",
            f"{tool}: `{where}` {problem}",
            f"See the input schema of {tool} in tools/list.",
        ) from None
