"""What the Surface screen shows, read from a typed ``whichtool.inspect/1`` report and the raw
listing.

The screen renders only this view: the report gives costs, semantics and findings; the raw
``tools/list`` entries (when we have them, i.e. not for a report opened from disk) give the
description and schema text.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from whichtool_tui.diagnostics import SEVERITY_RANK, Diagnostic

if TYPE_CHECKING:
    from whichtool_tui.usecases.api import (
        CostedSurface,
        HostVerdict,
        InspectReport,
        NormalizedSurface,
        ServedListing,
        ServedTool,
    )

OVERLAP_CODES = ("descriptions/identical", "overlap/high", "overlap/notable")
# Findings about two tools (or a family of them) that the side-by-side view explains.
PAIR_CODES = (*OVERLAP_CODES, "descriptions/overlap-without-preference", "names/same-words")
SEVERITY_FILTERS = ("all", "error", "warning", "info")
TOOL_ORDERS = ("served", "cost", "name")
_WORD = re.compile(r"[a-z0-9]+")


@dataclass(frozen=True)
class ToolRow:
    """One tool line: cost, share and semantics."""

    name: str
    semantics: str
    tokens: int
    share: float
    parameters: int
    required: int
    annotations: dict[str, Any]
    title: str | None


@dataclass(frozen=True)
class Finding:
    """One diagnostic as shown in the findings table."""

    code: str
    severity: str
    message: str
    tools: tuple[str, ...]
    hint: str | None
    detail: Any

    @property
    def is_pair(self) -> bool:
        """Findings about exactly two tools open the side-by-side view."""
        return self.code in PAIR_CODES and len(self.tools) == 2

    @property
    def is_family(self) -> bool:
        """A family of near-duplicates (three or more tools): expandable into its members."""
        return self.code in PAIR_CODES and len(self.tools) > 2

    @property
    def member_count(self) -> int:
        """Every member of a family (the finding lists at most the first 50)."""
        detail = self.detail if isinstance(self.detail, dict) else {}
        counted = detail.get("members")
        return counted if isinstance(counted, int) else len(self.tools)

    def matches(self, query: str) -> bool:
        """Case-insensitive: the query appears in the code, a tool name or the message."""
        needle = query.lower()
        return (
            needle in self.code.lower()
            or any(needle in name.lower() for name in self.tools)
            or needle in self.message.lower()
        )


@dataclass(frozen=True)
class OverlapPair:
    """A scored pair from the report's overlap block."""

    tools: tuple[str, str]
    score: float
    shared_terms: tuple[str, ...]
    identical: bool


@dataclass
class SurfaceView:
    """Everything the Surface screen needs, independent of where it came from."""

    target: str
    transport: str
    surface_hash: str
    total_tokens: int
    tools: list[ToolRow]
    findings: list[Finding]
    pairs: list[OverlapPair]
    raw_tools: dict[str, dict[str, Any]] = field(default_factory=dict)
    raw_list: list[Any] | None = None
    ok: bool | None = None
    rules: dict[str, Any] = field(default_factory=dict)  # config ``inspect.rules`` in effect
    rules_known: bool = False  # False for a report opened from disk: its config is unknown
    # ``raw_list`` normalised once, on the first run plan (the plan is redrawn per keystroke).
    normalized: NormalizedSurface | None = field(default=None, repr=False, compare=False)
    # Host verdicts: a saved report's `hosts` section, or computed when the hosts view opens.
    hosts: list[HostVerdict] | None = None
    # False while the tokens are counted: the tools are listed as served, costs and hash follow.
    costed: bool = True
    # False while the static review is still running: the tools are there, the findings not.
    reviewed: bool = True
    review_failed: str | None = None  # why the review did not finish, when it did not

    @property
    def short_hash(self) -> str:
        """The 12-hex display form of the surface hash."""
        return self.surface_hash.removeprefix("sha256:")[:12]

    def pair(self, first: str, second: str) -> OverlapPair | None:
        """The scored pair for two tools, in either order."""
        wanted = {first, second}
        for pair in self.pairs:
            if set(pair.tools) == wanted:
                return pair
        return None

    def pair_score(self, first: str, second: str) -> float | None:
        """The overlap score of any two tools: the report's top pairs, else scored from the
        served descriptions (the same Dice score), else None (a report opened from disk)."""
        pair = self.pair(first, second)
        if pair is not None:
            return pair.score
        if first not in self.raw_tools or second not in self.raw_tools:
            return None
        from whichtool_tui.usecases.inspect import overlap_score

        return overlap_score(
            (first, self.description(first) or ""), (second, self.description(second) or "")
        )

    def raw_tool(self, name: str) -> dict[str, Any] | None:
        """The tool exactly as served (for the raw JSON view), when the listing is at hand."""
        return self.raw_tools.get(name)

    def description(self, name: str) -> str | None:
        """The served description of a tool, when the listing is at hand."""
        raw = self.raw_tools.get(name)
        value = raw.get("description") if raw else None
        return value if isinstance(value, str) else None

    def schema(self, name: str) -> dict[str, Any] | None:
        """The served inputSchema of a tool, when the listing is at hand."""
        raw = self.raw_tools.get(name)
        value = raw.get("inputSchema") if raw else None
        return value if isinstance(value, dict) else None


def visible_tools(tools: list[ToolRow], query: str = "", order: str = "served") -> list[ToolRow]:
    """The tools the table shows: names containing ``query``, in served, cost or name order."""
    needle = query.lower()
    shown = [tool for tool in tools if needle in tool.name.lower()] if needle else list(tools)
    if order == "cost":
        shown.sort(key=lambda tool: (-tool.tokens, tool.name))
    elif order == "name":
        shown.sort(key=lambda tool: tool.name)
    return shown


def visible_findings(
    findings: list[Finding], query: str = "", severity: str = "all"
) -> list[Finding]:
    """The findings the table shows: one severity (or all), matching ``query`` if given."""
    return [
        finding
        for finding in findings
        if (severity == "all" or finding.severity == severity)
        and (not query or finding.matches(query))
    ]


def _fix_hint(finding: Diagnostic) -> str | None:
    """The finding's own hint, else its rule's fix from the catalog (older saved reports)."""
    from whichtool_tui.usecases.api import rule_for

    if finding.hint:
        return finding.hint
    rule = rule_for(finding.code)
    return rule.help if rule is not None else None


def _finding(item: Diagnostic) -> Finding:
    tools: tuple[str, ...] = ()
    if item.tools is not None:
        tools = tuple(item.tools)
    elif item.tool is not None:
        tools = (item.tool,)
    return Finding(
        code=item.code,
        severity=item.severity,
        message=item.message,
        tools=tools,
        hint=_fix_hint(item),
        detail=item.detail,
    )


def typed_report(report: InspectReport | Mapping[str, Any]) -> InspectReport:
    """An inspect report as its model: a saved file's JSON is validated (one-line error)."""
    from whichtool_tui.strict_model import validated
    from whichtool_tui.usecases.api import InspectReport

    if isinstance(report, InspectReport):
        return report
    return validated(
        InspectReport,
        report,
        code="open/invalid-report",
        what="not a valid inspect report",
        hint="Only files written by `inspect --format json` can be opened.",
    )


def _tool_rows(summaries: list[Any]) -> list[ToolRow]:
    return [
        ToolRow(
            name=tool.name,
            semantics=tool.semantics,
            tokens=tool.tokens.total,
            share=tool.token_share,
            parameters=tool.parameter_count,
            required=tool.required_parameter_count,
            annotations=dict(tool.annotations or {}),
            title=tool.title,
        )
        for tool in summaries
    ]


def _by_name(raw_tools: list[Any] | None) -> dict[str, dict[str, Any]]:
    return {
        str(entry["name"]): entry
        for entry in raw_tools or []
        if isinstance(entry, dict) and isinstance(entry.get("name"), str)
    }


def served_surface_view(listing: ServedListing, served: list[ServedTool]) -> SurfaceView:
    """The first view of a listing: its tools as served, no costs, hash or findings yet
    (``apply_costs`` then ``apply_review`` fill them in)."""
    tools = [
        ToolRow(
            name=tool.name,
            semantics=tool.semantics,
            tokens=0,
            share=0.0,
            parameters=tool.parameters,
            required=tool.required,
            annotations=tool.annotations,
            title=tool.title,
        )
        for tool in served
    ]
    return SurfaceView(
        target=listing.ref,
        transport=listing.transport,
        surface_hash="",
        total_tokens=0,
        tools=tools,
        findings=[],
        pairs=[],
        raw_tools=_by_name(listing.raw_tools),
        raw_list=list(listing.raw_tools),
        costed=False,
        reviewed=False,
    )


def apply_costs(view: SurfaceView, costed: CostedSurface) -> None:
    """Put the normalised tools, their costs and the surface hash into a served view."""
    view.tools = _tool_rows(costed.tools)
    view.total_tokens = costed.total_tokens
    view.surface_hash = costed.surface.hash
    view.normalized = costed.surface
    view.costed = True


def apply_review(view: SurfaceView, report: InspectReport) -> None:
    """Fill a listed view in with its review: findings worst first, scored pairs, the verdict
    and any hosts section (the tools and their costs are the report's already)."""
    findings = [_finding(item) for item in report.diagnostics]
    findings.sort(key=lambda f: (SEVERITY_RANK.get(f.severity, 3), f.code, ",".join(f.tools)))
    view.findings = findings
    view.pairs = [
        OverlapPair(
            tools=pair.tools,
            score=pair.score,
            shared_terms=tuple(pair.distinctive_shared_terms),
            identical=pair.identical_description,
        )
        for pair in report.overlap.pairs
    ]
    view.ok = report.ok
    view.hosts = list(report.hosts) if report.hosts is not None else None
    view.reviewed = True
    view.review_failed = None


def build_surface_view(
    report: InspectReport | Mapping[str, Any], raw_tools: list[Any] | None = None
) -> SurfaceView:
    """Map an inspect report (its model, or a saved file's JSON) plus optional raw tool entries
    to the screen's view."""
    review = typed_report(report)
    surface = review.surface
    view = SurfaceView(
        target=review.target.ref,
        transport=review.target.transport,
        surface_hash=surface.hash,
        total_tokens=review.tokens.total,
        tools=_tool_rows(surface.tools),
        findings=[],
        pairs=[],
        raw_tools=_by_name(raw_tools),
        raw_list=list(raw_tools) if raw_tools is not None else None,
    )
    apply_review(view, review)
    return view


@dataclass(frozen=True)
class RuleState:
    """One inspect rule as the rules pane lists it: default and effective severity."""

    code: str
    default: str
    effective: str  # error | warning | info | off
    configurable: bool
    ignored_tools: tuple[str, ...]

    @property
    def is_off(self) -> bool:
        """Switched off by config (its findings are not reported)."""
        return self.effective == "off"


def rule_states(rules: dict[str, Any]) -> list[RuleState]:
    """Every catalog rule with the severity config gives it; switched-off and changed first."""
    from whichtool_tui.usecases.api import RULES

    states = []
    for code, rule in RULES.items():
        setting = rules.get(code)
        effective = rule.severity
        ignored: tuple[str, ...] = ()
        if isinstance(setting, str):
            effective = setting
        elif setting is not None:
            level = getattr(setting, "severity", None)
            if level is None and isinstance(setting, dict):
                level = setting.get("severity")
            effective = str(level) if level else rule.severity
            tools = getattr(setting, "ignore_tools", None)
            if tools is None and isinstance(setting, dict):
                tools = setting.get("ignoreTools")
            ignored = tuple(str(name) for name in tools or ())
        states.append(RuleState(code, rule.severity, effective, rule.configurable, ignored))
    states.sort(
        key=lambda state: (
            not state.is_off,
            state.effective == state.default,
            not state.configurable,
        )
    )
    return states


def shared_words(first: str, second: str) -> set[str]:
    """Words of three or more characters present in both texts (the highlight fallback)."""
    common = set(_WORD.findall(first.lower())) & set(_WORD.findall(second.lower()))
    return {word for word in common if len(word) >= 3}
