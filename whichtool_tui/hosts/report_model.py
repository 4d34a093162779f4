"""The ``hosts`` section of an inspect report (present only when hosts were asked for)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from whichtool_tui.hosts.profile_model import Effect


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True, frozen=True)


class TruncationInfo(_Model):
    """Where the host cuts a description and the text the model never sees."""

    at: int
    unseen: str


class HostFinding(_Model):
    """One broken rule on one tool (``tool`` None: the whole surface) and its effect."""

    tool: str | None
    rule: str
    effect: Effect
    message: str
    source: str
    verified: str
    fixable: bool
    pointer: str | None = None
    truncation: TruncationInfo | None = None


class ToolSearchReadiness(_Model):
    """Would the host's tool search find each task's tool (from the findability review)?"""

    search: str
    k: int
    found_at_k: float = Field(alias="foundAtK")
    missed: list[str]


class HostReadiness(_Model):
    """What the host would load: tools it would show the model and their estimated tokens."""

    tool_count: int = Field(alias="toolCount")
    tools_seen: int = Field(alias="toolsSeen")
    tokens_loaded: int = Field(alias="tokensLoaded")
    tool_search: ToolSearchReadiness | None = Field(default=None, alias="toolSearch")


class HostVerdict(_Model):
    """One host's verdict on the surface."""

    host: str
    title: str
    compatible: bool
    findings: list[HostFinding]
    readiness: HostReadiness
    assumptions: list[str] = Field(default_factory=list)

    def to_json_data(self) -> dict[str, Any]:
        """Wire form: a finding's ``tool`` stays null for surface-wide rules, other nulls go."""
        findings = [
            {"tool": finding.tool}
            | finding.model_dump(mode="json", by_alias=True, exclude_none=True, exclude={"tool"})
            for finding in self.findings
        ]
        return {
            "host": self.host,
            "title": self.title,
            "compatible": self.compatible,
            "findings": findings,
            "readiness": self.readiness.model_dump(mode="json", by_alias=True, exclude_none=True),
            "assumptions": list(self.assumptions),
        }
