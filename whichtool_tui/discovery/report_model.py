"""The ``findability`` section of an inspect report (additive to ``whichtool.inspect/1``)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from whichtool_tui.diagnostics import Diagnostic
from whichtool_tui.discovery.deferral import DeferralSection


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class TaskFindability(_Model):
    """One task: where each search ranked the expected tool (absent: not returned), and its top."""

    id: str
    expected: str
    ranks: dict[str, int | None]
    top: dict[str, list[str]]


class DistractorRetrieval(_Model):
    """A distractor prompt (no tool should answer) and the tool each search returned first."""

    id: str
    top: dict[str, str | None]
    confident: list[str]


class ToolFindability(_Model):
    """One tool over its own tasks: found@k per search, and the searches that never found it."""

    name: str
    tasks: int
    found_at: dict[str, dict[str, float]] = Field(alias="foundAt")
    never_found_by: list[str] = Field(alias="neverFoundBy")


class SemanticOverlap(_Model):
    """An overlap pair with its Dice score beside the embedding model's cosine similarity."""

    tools: tuple[str, str]
    dice: float
    semantic: float


class SearchSummary(_Model):
    """One search over the whole task set: found within its host's k, the found@k curve, and
    exact-name recall (tasks whose prompt spells the expected tool's name)."""

    retriever: str
    k: int
    found_at_k: float = Field(alias="foundAtK")
    curve: list[float]
    missed: list[str]
    exact_name_tasks: int = Field(alias="exactNameTasks")
    exact_name_at1: float | None = Field(default=None, alias="exactNameAt1")
    exact_name_missed: list[str] = Field(alias="exactNameMissed")


class FindabilitySection(_Model):
    """Whether a deferring host's searches find each tool for its own task prompts."""

    task_source: str = Field(alias="taskSource")
    retrievers: list[str]
    methods: dict[str, str]
    ks: list[int]
    top_k: int = Field(alias="topK")
    min_similarity: float | None = Field(default=None, alias="minSimilarity")
    skipped_retrievers: dict[str, str] = Field(default_factory=dict, alias="skippedRetrievers")
    tasks: list[TaskFindability]
    distractors: list[DistractorRetrieval]
    tools: list[ToolFindability]
    never_found: dict[str, list[str]] = Field(alias="neverFound")
    deferral: DeferralSection
    semantic_overlap: list[SemanticOverlap] | None = Field(default=None, alias="semanticOverlap")
    curve_ks: list[int] = Field(default_factory=list, alias="curveKs")
    summary: list[SearchSummary] = Field(default_factory=list)
    findings: list[Diagnostic]
