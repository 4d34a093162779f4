"""What an agent may pass to each tool, validated strictly before anything runs."""

from __future__ import annotations

from typing import Any, Literal, TypeVar

from pydantic import Field, StrictBool, StrictInt, ValidationError

from whichtool_tui.errors import WhichtoolError
from whichtool_tui.strict_model import StrictModel

AgentTransport = Literal["snapshot", "http", "stdio"]
Rate = float


_Arguments = StrictModel


ModelT = TypeVar("ModelT", bound=_Arguments)


class InspectArguments(_Arguments):
    """``inspect_surface`` input."""

    target: str | None = Field(default=None, min_length=1)
    transport: AgentTransport | None = None
    max_context_tokens: StrictInt | None = Field(default=None, alias="maxContextTokens", ge=0)


class ValidateArguments(_Arguments):
    """``validate_task_file`` input."""

    tasks: str | None = Field(default=None, min_length=1)
    target: str | None = Field(default=None, min_length=1)
    transport: AgentTransport | None = None


class RunArguments(_Arguments):
    """``run_evaluation`` input; repeat and concurrency limits are checked later, by name."""

    target: str | None = Field(default=None, min_length=1)
    transport: AgentTransport | None = None
    tasks: str | None = Field(default=None, min_length=1)
    provider: str | None = Field(default=None, min_length=1)
    model: str | None = Field(default=None, min_length=1)
    repeat: StrictInt | None = None
    concurrency: StrictInt | None = None
    dry_run: StrictBool = Field(default=False, alias="dryRun")
    min_accuracy: Rate | None = Field(default=None, alias="minAccuracy", ge=0, le=1)
    max_over_trigger: Rate | None = Field(default=None, alias="maxOverTrigger", ge=0, le=1)


class DiffArguments(_Arguments):
    """``diff_saved_results`` input."""

    base: str = Field(min_length=1)
    head: str = Field(min_length=1)
    max_accuracy_drop: Rate | None = Field(default=None, alias="maxAccuracyDrop", ge=0, le=1)
    # The paired test that gates: over tasks (default) or upstream's over trial pairs.
    paired_unit: Literal["task", "trial"] = Field(default="task", alias="pairedUnit")


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
