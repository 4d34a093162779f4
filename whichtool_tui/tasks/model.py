"""The task-set file format (``whichtool.tasks.yaml`` or JSON) as strict pydantic models.

Unknown keys are errors rather than ignored: a misspelt ``expeted`` that silently dropped out
would turn a routing task into something else without anyone noticing.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, field_validator
from pydantic_core import PydanticCustomError

TASK_SET_VERSION = 1


def _non_blank(value: str) -> str:
    if value.strip() == "":
        raise PydanticCustomError("blank", "must not be blank")
    return value


NonBlank = Annotated[str, AfterValidator(_non_blank)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, populate_by_name=True)


class DerivedFrom(_Strict):
    """Which original task and mutation a variant came from (written by ``tasks mutate``)."""

    task_id: str = Field(alias="taskId")
    mutation: str


class Task(_Strict):
    """One routing task: a prompt sent verbatim and the tool that should answer it.

    ``expected`` has no default on purpose: the key must be written, and ``None`` (a distractor,
    no tool should be called) is a decision, not an omission.
    """

    id: NonBlank
    prompt: NonBlank
    expected: NonBlank | None
    tags: list[str] = Field(default_factory=list)
    derived_from: DerivedFrom | None = Field(default=None, alias="derivedFrom")

    @property
    def is_distractor(self) -> bool:
        """True when no tool should be called for this prompt."""
        return self.expected is None

    def to_json(self) -> dict[str, object]:
        """The file form: camelCase keys, ``derivedFrom`` only when present."""
        data: dict[str, object] = {
            "id": self.id,
            "prompt": self.prompt,
            "expected": self.expected,
            "tags": list(self.tags),
        }
        if self.derived_from is not None:
            data["derivedFrom"] = {
                "taskId": self.derived_from.task_id,
                "mutation": self.derived_from.mutation,
            }
        return data


class TaskSet(_Strict):
    """A versioned list of tasks, optionally pinned to the surface hash it was written against."""

    version: int
    surface: str | None = None
    tasks: list[Task]

    @field_validator("version")
    @classmethod
    def _known_version(cls, value: int) -> int:
        if value > TASK_SET_VERSION:
            raise PydanticCustomError(
                "version_too_new",
                "declares task-set version {version}, newer than the {known} this build reads; "
                "upgrade whichtool-tui",
                {"version": value, "known": TASK_SET_VERSION},
            )
        if value != TASK_SET_VERSION:
            raise PydanticCustomError(
                "version_unsupported",
                "declares unsupported task-set version {version}; this build reads {known}",
                {"version": value, "known": TASK_SET_VERSION},
            )
        return value

    @property
    def distractor_count(self) -> int:
        """How many tasks expect no call."""
        return sum(1 for task in self.tasks if task.expected is None)

    def expected_tools(self) -> list[str]:
        """The distinct tool names some task expects, sorted."""
        return sorted({task.expected for task in self.tasks if task.expected is not None})

    def to_json(self) -> dict[str, object]:
        """The file form, keys in the order the writer emits them."""
        return {
            "version": self.version,
            "surface": self.surface,
            "tasks": [task.to_json() for task in self.tasks],
        }
