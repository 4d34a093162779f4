"""Build the ``whichtool.inspect/1`` report: the free, static review of one served surface."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

from whichtool_tui.diagnostics import Diagnostic, sort_diagnostics
from whichtool_tui.gc_phases import paused_gc
from whichtool_tui.limits import DEFAULT_MAX_TOOLS
from whichtool_tui.surface.aggregate import aggregate_findings
from whichtool_tui.surface.annotations import analyze_annotations
from whichtool_tui.surface.canonical import js_length
from whichtool_tui.surface.checks import CheckOptions, load_builtin_checks, run_checks
from whichtool_tui.surface.deprecations import analyze_deprecations
from whichtool_tui.surface.headers import analyze_header_params
from whichtool_tui.surface.listing import ServedListing
from whichtool_tui.surface.model import NormalizedSurface, Tool
from whichtool_tui.surface.naming import classify_name
from whichtool_tui.surface.normalize import normalize_surface
from whichtool_tui.surface.overlap import OverlapAnalysis, analyze_overlap_families
from whichtool_tui.surface.pair_scores import load_numpy
from whichtool_tui.surface.report_model import (
    HeaderParamsSection,
    InspectReport,
    SurfaceSection,
    TargetInfo,
    ThresholdCheck,
    TokenBreakdown,
    TokenizerInfo,
    TokensSection,
    ToolSummary,
)
from whichtool_tui.surface.rule_settings import apply_rule_settings, with_fix_hints
from whichtool_tui.surface.second_core import Fed, Pending, second_core_free
from whichtool_tui.surface.text_helper import TextInput, TextResult, text_input, text_review
from whichtool_tui.surface.tokens import (
    SERIALIZATION,
    TOKENIZER_ID,
    TOKENIZER_NOTE,
    ToolTokens,
    tool_tokens,
)

if TYPE_CHECKING:
    from whichtool_tui.surface.rule_settings import RuleSetting


SECOND_CORE_MIN_TOOLS = 300
"""Below this the overlap costs less than a fork and a pickled result; it is scored here."""


def surface_token_counts(surface: NormalizedSurface) -> dict[str, ToolTokens]:
    """Per-tool token breakdowns keyed by name (the run report's contextCost reads these too)."""
    return {tool.name: tool_tokens(tool) for tool in surface.tools}


def _breakdown(tokens: ToolTokens) -> TokenBreakdown:
    return TokenBreakdown(
        total=tokens.total,
        name=tokens.name,
        description=tokens.description,
        schema_=tokens.schema,
        envelope=tokens.envelope,
    )


def _parameter_counts(tool: Tool) -> tuple[int, int]:
    properties = tool.input_schema_resolved.get("properties")
    required = tool.input_schema_resolved.get("required")
    return (
        len(properties) if isinstance(properties, dict) else 0,
        len(required) if isinstance(required, list) else 0,
    )


def _summary(tool: Tool, tokens: TokenBreakdown, surface_total: int) -> ToolSummary:
    parameters, required = _parameter_counts(tool)
    return ToolSummary(
        name=tool.name,
        title=tool.title,
        has_description=tool.has_description,
        description_length=js_length(tool.description_text),
        semantics=classify_name(tool.name)[0],
        parameter_count=parameters,
        required_parameter_count=required,
        annotations=tool.annotations,
        tokens=tokens,
        token_share=tokens.total / surface_total if surface_total > 0 else 0,
        served_index=tool.served_index,
    )


@dataclass(frozen=True)
class CostedSurface:
    """A listing normalised and costed, not yet reviewed: what a face shows first.

    The review (``review_costed``) reuses the normalised surface and its token counts, so
    showing the tools before the findings costs nothing extra.
    """

    listing: ServedListing
    surface: NormalizedSurface
    tokens: dict[str, ToolTokens]
    tools: list[ToolSummary]
    total_tokens: int


def cost_surface(listing: ServedListing) -> CostedSurface:
    """Normalise what a target served and count each tool's tokens (no checks run)."""
    with paused_gc():
        surface = normalize_surface(listing.raw_tools)
        tokens = surface_token_counts(surface)
        total = sum(item.total for item in tokens.values())
        tools = [_summary(tool, _breakdown(tokens[tool.name]), total) for tool in surface.tools]
    return CostedSurface(listing, surface, tokens, tools, total)


def review_costed(
    costed: CostedSurface,
    *,
    max_tools: int = DEFAULT_MAX_TOOLS,
    max_context_tokens: int | None = None,
    approximates: str | None = None,
    rules: Mapping[str, RuleSetting] | None = None,
) -> InspectReport:
    """The static review of a costed surface: the report ``inspect_surface`` gives, the same
    bytes, reusing the normalisation and the token counts already made."""
    listing = costed.listing
    fork = len(costed.surface.tools) >= SECOND_CORE_MIN_TOOLS and second_core_free()
    helper: Fed[TextInput, TextResult] | None = (
        Fed(_warm_helper, text_review, fork=True) if fork else None
    )
    try:
        with paused_gc():
            if helper is not None:
                helper.feed(text_input(costed.surface.tools))
            return _inspect_normalized(
                costed.surface,
                TargetInfo(transport=listing.transport, ref=listing.ref),
                extra_diagnostics=list(listing.diagnostics),
                max_tools=max_tools,
                max_context_tokens=max_context_tokens,
                approximates=approximates,
                rules=rules or {},
                early=helper,
                costed=costed,
            )
    finally:
        if helper is not None:
            helper.close()


def inspect_normalized(
    surface: NormalizedSurface,
    target: TargetInfo,
    *,
    extra_diagnostics: list[Diagnostic] | None = None,
    max_tools: int = DEFAULT_MAX_TOOLS,
    max_context_tokens: int | None = None,
    approximates: str | None = None,
    rules: Mapping[str, RuleSetting] | None = None,
) -> InspectReport:
    """Run every check over an already normalised surface and assemble the report.

    ``rules`` is the config's ``inspect.rules``: rules switched off, re-graded or ignored for
    named tools; it is applied before ``ok`` is decided.
    """
    with paused_gc():
        return _inspect_normalized(
            surface,
            target,
            extra_diagnostics=extra_diagnostics or [],
            max_tools=max_tools,
            max_context_tokens=max_context_tokens,
            approximates=approximates,
            rules=rules or {},
            early=None,
        )


def _inspect_normalized(
    surface: NormalizedSurface,
    target: TargetInfo,
    *,
    extra_diagnostics: list[Diagnostic],
    max_tools: int,
    max_context_tokens: int | None,
    approximates: str | None,
    rules: Mapping[str, RuleSetting],
    early: Pending[TextResult] | None,
    costed: CostedSurface | None = None,
) -> InspectReport:
    # The all-pairs overlap is the one pass nothing but the overlap rules reads: on a big
    # surface in a process of our own it scores in a child on the second core meanwhile.
    # ``early``: a helper already started and fed, which also runs the text-only rules; else
    # one is forked now for the overlap alone (or it is scored here).
    helper: Pending[TextResult] | Pending[OverlapAnalysis] = early or Pending(
        partial(analyze_overlap_families, surface.tools),
        fork=len(surface.tools) >= SECOND_CORE_MIN_TOOLS and second_core_free(),
    )
    with helper as pending:

        def overlap_result() -> OverlapAnalysis:
            done = pending.result()
            return done.overlap if isinstance(done, TextResult) else done

        tokens = costed.tokens if costed is not None else surface_token_counts(surface)
        annotations, annotation_findings = analyze_annotations(surface.tools)
        rejected, header_findings = analyze_header_params(surface.tools)
        options = CheckOptions(
            max_tools=max_tools,
            tool_tokens={name: item.total for name, item in tokens.items()},
        )
        check_findings = run_checks(
            surface,
            options,
            lambda: overlap_result().high_families,
            None if early is None else lambda: early.result().findings,
        )
        overlap_analysis = overlap_result()
    total = sum(item.total for item in tokens.values())
    overlap, overlap_findings = overlap_analysis.section, overlap_analysis.diagnostics
    deprecations = analyze_deprecations()
    analysis = aggregate_findings(
        [
            *(extra_diagnostics or []),
            *apply_rule_settings(
                with_fix_hints(
                    [
                        *surface.diagnostics,
                        *check_findings,
                        *annotation_findings,
                        *overlap_findings,
                        *deprecations.diagnostics,
                        *header_findings,
                    ]
                ),
                rules,
            ),
        ],
        len(surface.tools),
    )
    thresholds = []
    if max_context_tokens is not None:
        thresholds.append(
            ThresholdCheck(
                name="maxContextTokens",
                limit=max_context_tokens,
                actual=total,
                ok=total <= max_context_tokens,
            )
        )
    failed = [
        Diagnostic(
            code=f"threshold/{check.name}",
            severity="error",
            message=f"The surface costs ~{check.actual} tokens, over the budget of {check.limit}",
            detail={"limit": check.limit, "actual": check.actual},
        )
        for check in thresholds
        if not check.ok
    ]
    analysis_ok = not any(item.severity == "error" for item in analysis)
    # One model per tool, shared by the tool summary and the per-tool token table.
    if costed is not None:
        breakdowns = {summary.name: summary.tokens for summary in costed.tools}
        summaries = costed.tools
    else:
        breakdowns = {name: _breakdown(item) for name, item in tokens.items()}
        summaries = [_summary(tool, breakdowns[tool.name], total) for tool in surface.tools]
    thresholds_ok = all(check.ok for check in thresholds)
    return InspectReport(
        target=target,
        surface=SurfaceSection(
            hash=surface.hash,
            tool_count=len(surface.tools),
            tools=summaries,
        ),
        tokens=TokensSection(
            tokenizer=TokenizerInfo(
                id=TOKENIZER_ID, exact=False, approximates=approximates, note=TOKENIZER_NOTE
            ),
            serialization=SERIALIZATION,
            total=total,
            by_tool=breakdowns,
        ),
        annotations=annotations,
        overlap=overlap,
        deprecations=deprecations,
        header_params=HeaderParamsSection(rejected_tools=rejected),
        diagnostics=sort_diagnostics([*analysis, *failed]),
        thresholds=thresholds,
        analysis_ok=analysis_ok,
        thresholds_ok=thresholds_ok,
        ok=analysis_ok and thresholds_ok,
    )


def _warm_helper() -> None:
    """What the early helper loads while the listing is normalised: numpy and the rules."""
    load_numpy()
    load_builtin_checks()


def inspect_surface(
    listing: ServedListing,
    *,
    max_tools: int = DEFAULT_MAX_TOOLS,
    max_context_tokens: int | None = None,
    approximates: str | None = None,
    rules: Mapping[str, RuleSetting] | None = None,
) -> InspectReport:
    """Normalise what a target served and review it; no model, no key, no tool executed.

    A big listing's overlap helper is forked first: it imports numpy on the second core while
    the listing is normalised here, then scores what it is sent.
    """
    fork = len(listing.raw_tools) >= SECOND_CORE_MIN_TOOLS and second_core_free()
    helper: Fed[TextInput, TextResult] | None = (
        Fed(_warm_helper, text_review, fork=True) if fork else None
    )
    try:
        with paused_gc():
            surface = normalize_surface(listing.raw_tools)
            if helper is not None:
                helper.feed(text_input(surface.tools))
            return _inspect_normalized(
                surface,
                TargetInfo(transport=listing.transport, ref=listing.ref),
                extra_diagnostics=list(listing.diagnostics),
                max_tools=max_tools,
                max_context_tokens=max_context_tokens,
                approximates=approximates,
                rules=rules or {},
                early=helper,
            )
    finally:
        if helper is not None:
            helper.close()
