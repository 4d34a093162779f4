"""The ``whichtool.inspect/1`` report as pydantic models (field names are the wire names)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from whichtool_tui.diagnostics import Diagnostic
from whichtool_tui.discovery.report_model import FindabilitySection
from whichtool_tui.hosts.report_model import HostVerdict

INSPECT_SCHEMA_VERSION = "whichtool.inspect/1"


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class TokenBreakdown(_Model):
    """Estimated tokens of one tool and of its parts."""

    total: int
    name: int
    description: int
    schema_: int = Field(alias="schema")
    envelope: int


class ToolSummary(_Model):
    """One tool as the report shows it."""

    name: str
    title: str | None = None
    has_description: bool = Field(alias="hasDescription")
    description_length: int = Field(alias="descriptionLength")
    semantics: Literal["read", "mutate", "destructive", "unknown"]
    parameter_count: int = Field(alias="parameterCount")
    required_parameter_count: int = Field(alias="requiredParameterCount")
    annotations: dict[str, Any] | None = None
    tokens: TokenBreakdown
    token_share: float = Field(alias="tokenShare")
    served_index: int = Field(alias="servedIndex")


class SurfaceSection(_Model):
    """Identity and contents of the surface."""

    hash: str
    tool_count: int = Field(alias="toolCount")
    tools: list[ToolSummary]


class TokenizerInfo(_Model):
    """Which estimator produced the token numbers, and how far to trust them."""

    id: str
    exact: bool
    approximates: str | None
    note: str


class TokensSection(_Model):
    """Context cost of the whole surface."""

    tokenizer: TokenizerInfo
    serialization: str
    total: int
    by_tool: dict[str, TokenBreakdown] = Field(alias="byTool")


class HintCoverage(_Model):
    """How many tools declare each boolean hint."""

    read_only_hint: int = Field(alias="readOnlyHint")
    destructive_hint: int = Field(alias="destructiveHint")
    idempotent_hint: int = Field(alias="idempotentHint")
    open_world_hint: int = Field(alias="openWorldHint")


class AnnotationCoverage(_Model):
    """Annotation coverage across the surface."""

    tool_count: int = Field(alias="toolCount")
    annotated: int
    by_hint: HintCoverage = Field(alias="byHint")


class AnnotationsSection(_Model):
    """Coverage plus the reminder that hints are not guarantees."""

    coverage: AnnotationCoverage
    caveat: str


class OverlapPair(_Model):
    """Two tools whose name-plus-description text overlaps."""

    tools: tuple[str, str]
    score: float
    name_score: float = Field(alias="nameScore")
    description_score: float = Field(alias="descriptionScore")
    identical_description: bool = Field(alias="identicalDescription")
    distinctive_shared_terms: list[str] = Field(alias="distinctiveSharedTerms")


class OverlapSection(_Model):
    """Every pair was scored; the worst few are listed."""

    method: str
    pairs_considered: int = Field(alias="pairsConsidered")
    pairs_reported: int = Field(alias="pairsReported")
    pairs: list[OverlapPair]


class DeprecationsSection(_Model):
    """The deprecated-feature check (no rule can fire on a tools/list today)."""

    checked: bool
    spec_revision: str = Field(alias="specRevision")
    verified_on: str = Field(alias="verifiedOn")
    rule_count: int = Field(alias="ruleCount")
    registry_size: int = Field(alias="registrySize")
    note: str
    diagnostics: list[Diagnostic]


class HeaderParamsSection(_Model):
    """Tools a conforming Streamable HTTP client drops because of a bad ``x-mcp-header``."""

    rejected_tools: list[str] = Field(alias="rejectedTools")


class ThresholdCheck(_Model):
    """One configured quality gate and whether it held."""

    name: str
    limit: int
    actual: int
    ok: bool


class TargetInfo(_Model):
    """What was inspected (the ref is already redacted)."""

    transport: str
    ref: str


class InspectReport(_Model):
    """The static review of one surface; byte-deterministic when written as JSON."""

    schema_version: str = Field(default=INSPECT_SCHEMA_VERSION, alias="schemaVersion")
    target: TargetInfo
    surface: SurfaceSection
    tokens: TokensSection
    annotations: AnnotationsSection
    overlap: OverlapSection
    deprecations: DeprecationsSection
    header_params: HeaderParamsSection = Field(alias="headerParams")
    diagnostics: list[Diagnostic]
    thresholds: list[ThresholdCheck]
    analysis_ok: bool = Field(alias="analysisOk")
    thresholds_ok: bool = Field(alias="thresholdsOk")
    ok: bool
    # Present only with `inspect --tasks`: additive to whichtool.inspect/1.
    findability: FindabilitySection | None = None
    # Present only with `inspect --host`: additive to whichtool.inspect/1.
    hosts: list[HostVerdict] | None = None

    def to_json_data(self) -> dict[str, Any]:
        """The wire form: camelCase names, absent optional fields left out."""
        # Findings can number tens of thousands (every notable pair of 1,000 tools): they are
        # plain values already, so they skip the generic dump.
        data: dict[str, Any] = self.model_dump(
            mode="json", by_alias=True, exclude_none=True, exclude={"diagnostics", "hosts"}
        )
        # `approximates` is part of the contract even when null.
        tokenizer = self.tokens.tokenizer
        data["tokens"]["tokenizer"] = {
            "id": tokenizer.id,
            "exact": tokenizer.exact,
            "approximates": tokenizer.approximates,
            "note": tokenizer.note,
        }
        findings = [item.to_upstream_json() for item in self.diagnostics]
        ordered: dict[str, Any] = {}
        for key, value in data.items():
            if key == "thresholds":
                ordered["diagnostics"] = findings
            ordered[key] = value
        if self.hosts is not None:
            ordered["hosts"] = [verdict.to_json_data() for verdict in self.hosts]
        return ordered

    def to_json_text(self) -> str:
        """``JSON.stringify(report, null, 2)`` plus newline: the same bytes on every run."""
        from whichtool_tui.evaluation.js_json import dump_js_value

        return dump_js_value(self.to_json_data())

    def to_json_chunks(self) -> list[bytes | memoryview]:
        """``to_json_text()`` as UTF-8 pieces to write in order (no whole-document copies)."""
        from whichtool_tui.evaluation.js_json import dump_js_value_chunks

        return dump_js_value_chunks(self.to_json_data())
