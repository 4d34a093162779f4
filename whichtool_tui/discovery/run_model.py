"""The ``discovery`` block of a deferred run (additive to ``whichtool.run/2``).

Each trial's two steps are kept: the search query (the model's, or the prompt for a baseline),
the tools the search returned, the expected tool's rank, and whether it was found; the final
call stays in ``trials[]`` and is scored there. The upfront arm's verdicts and the paired,
task-level comparison sit beside them.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel

from whichtool_tui.evaluation.stats import Proportion


def _absent(value: Any) -> bool:
    return value is None


# evaluation.report_model embeds this block, so its ClosedModel cannot be imported here (a
# cycle); this is the same configuration: closed layers, camelCase on the wire.
class _Closed(BaseModel):
    model_config = ConfigDict(
        extra="forbid", alias_generator=to_camel, populate_by_name=True, frozen=True
    )


class SearchStepCall(_Closed):
    """A call the model made at the search step, as it made it."""

    name: str | None
    arguments: Any


class DeferredTrial(_Closed):
    """Both steps of one deferred trial (paired with ``trials[]`` by task id and trial index)."""

    task_id: str
    trial_index: int
    query_source: Literal["model", "prompt"]
    searched: bool
    query: str | None
    search_calls: list[SearchStepCall]
    search_text: str
    retrieved: list[str]
    expected_rank: int | None
    found: bool | None
    offered: bool
    error: str | None = Field(default=None, exclude_if=_absent)


class UpfrontTrial(_Closed):
    """The same trial with every tool offered upfront: what it picked and its verdict."""

    task_id: str
    trial_index: int
    pick: str | None
    verdict: str


class TaskComparison(_Closed):
    """One task's accuracy deferred and upfront (trials with an error are left out)."""

    task_id: str
    expected: str
    deferred: Proportion
    upfront: Proportion
    found: Proportion


class DeferredComparison(_Closed):
    """Deferred against upfront, paired by task: the sign-flip test over tasks, a t interval."""

    method: str
    tasks: list[TaskComparison]
    deferred_accuracy: Proportion
    upfront_accuracy: Proportion
    improved: int
    regressed: int
    ties: int
    p_value: float
    distinguishable: bool
    mean_difference: float | None
    ci95: tuple[float, float] | None


class DiscoveryBlock(_Closed):
    """How tools were discovered in this run, and what deferral cost against upfront."""

    mode: Literal["deferred"]
    variant: Literal["search", "names"]
    retriever: str
    top_k: int
    search_tool: str
    found: Proportion
    picked: Proportion
    picked_when_found: Proportion
    trials: list[DeferredTrial]
    upfront: list[UpfrontTrial] | None = Field(default=None, exclude_if=_absent)
    comparison: DeferredComparison | None = Field(default=None, exclude_if=_absent)
