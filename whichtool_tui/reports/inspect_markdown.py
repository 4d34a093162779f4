"""The inspect report as GitHub-flavoured Markdown (job summaries, PR comments)."""

from __future__ import annotations

from whichtool_tui.diagnostics import Diagnostic, count_by_severity
from whichtool_tui.surface.aggregate import first_few
from whichtool_tui.surface.canonical import js_fixed
from whichtool_tui.surface.model import short_hash
from whichtool_tui.surface.overlap import NOTABLE_OVERLAP
from whichtool_tui.surface.report_model import InspectReport
from whichtool_tui.text_safety import markdown_cell, markdown_code

_ICON = {"error": "❌", "warning": "⚠️", "info": "ℹ️"}
MAX_FINDING_ROWS = 500
MAX_COST_ROWS = 100
"""Costliest tools listed; the rest is one line (a job summary holds at most 1 MiB)."""


def _target(diagnostic: Diagnostic) -> str:
    if diagnostic.tool is not None:
        return markdown_code(diagnostic.tool)
    if diagnostic.tools:
        shown, more = first_few(diagnostic.tools)
        named = ", ".join(markdown_code(name) for name in shown)
        return f"{named} and {more:,} more" if more else named
    return "(surface)"


def _finding_row(diagnostic: Diagnostic) -> str:
    return (
        f"| {_ICON[diagnostic.severity]} {diagnostic.severity} | {markdown_code(diagnostic.code)} "
        f"| {_target(diagnostic)} | {markdown_cell(diagnostic.message)} "
        f"| {markdown_cell(diagnostic.hint or '')} |"
    )


def render_inspect_markdown(report: InspectReport) -> str:
    """Header, counts, the three loudest findings, then details for cost, overlap and findings."""
    counts = count_by_severity(report.diagnostics)
    verdict = "✅ No error findings" if report.ok else "❌ Failing findings"
    lines = [
        "## whichtool inspect",
        "",
        f"**{verdict}** · {markdown_code(report.target.transport)} "
        f"{markdown_code(report.target.ref)} · surface `{short_hash(report.surface.hash)}` · "
        f"{report.surface.tool_count} tools · ~{report.tokens.total:,} tokens "
        f"(estimate, {report.tokens.tokenizer.id})",
        "",
        f"{counts['error']} errors · {counts['warning']} warnings · {counts['info']} info",
        "",
    ]
    loud = [d for d in report.diagnostics if d.severity != "info"][:3]
    if loud:
        lines.append("**Worst first**")
        lines.append("")
        for position, diagnostic in enumerate(loud, start=1):
            fix = f" **Fix:** {markdown_cell(diagnostic.hint)}" if diagnostic.hint else ""
            lines.append(
                f"{position}. {_ICON[diagnostic.severity]} {markdown_code(diagnostic.code)} "
                f"{_target(diagnostic)}: {markdown_cell(diagnostic.message)}{fix}"
            )
        lines.append("")
    rejected = report.header_params.rejected_tools
    if rejected:
        names = ", ".join(markdown_code(name) for name in rejected)
        lines += [
            f"> [!WARNING]\n> {len(rejected)} tool(s) have an invalid `x-mcp-header` and are "
            f"dropped by conforming Streamable HTTP clients: {names}",
            "",
        ]
    for check in report.thresholds:
        state = "✅ pass" if check.ok else "❌ FAIL"
        lines.append(f"- {state} `{check.name}`: ~{check.actual:,} / {check.limit:,}")
    if report.thresholds:
        lines.append("")
    lines += [
        "<details><summary>Context cost</summary>",
        "",
        "| tool | tokens | share | description | schema |",
        "|---|---:|---:|---:|---:|",
    ]
    costly = sorted(report.surface.tools, key=lambda t: (-t.tokens.total, t.name))
    for tool in costly[:MAX_COST_ROWS]:
        lines.append(
            f"| {markdown_code(tool.name)} | ~{tool.tokens.total:,} | "
            f"{tool.token_share * 100:.1f}% | ~{tool.tokens.description:,} | "
            f"~{tool.tokens.schema_:,} |"
        )
    if len(costly) > MAX_COST_ROWS:
        rest = sum(tool.tokens.total for tool in costly[MAX_COST_ROWS:])
        lines += ["", f"{len(costly) - MAX_COST_ROWS:,} more tools not shown, ~{rest:,} tokens."]
    lines += ["", markdown_cell(report.tokens.tokenizer.note), "", "</details>", ""]
    notable = [pair for pair in report.overlap.pairs if pair.score >= NOTABLE_OVERLAP]
    lines += [
        f"<details><summary>Lexical overlap ({report.overlap.pairs_considered:,} pairs scored, "
        f"{len(notable)} listed at or above {NOTABLE_OVERLAP:.2f})</summary>",
        "",
    ]
    if notable:
        lines += ["| score | pair | shared terms |", "|---:|---|---|"]
        for pair in notable:
            terms = (
                "identical description"
                if pair.identical_description
                else ", ".join(pair.distinctive_shared_terms)
            )
            lines.append(
                f"| {js_fixed(pair.score, 2)} | {markdown_code(pair.tools[0])} ↔ "
                f"{markdown_code(pair.tools[1])} | {markdown_cell(terms)} |"
            )
    else:
        lines.append("No pair scores at or above the notable threshold.")
    lines += ["", "</details>", ""]
    lines += [
        f"<details><summary>All findings ({len(report.diagnostics):,})</summary>",
        "",
        "| severity | code | target | message | fix |",
        "|---|---|---|---|---|",
    ]
    lines += [_finding_row(d) for d in report.diagnostics[:MAX_FINDING_ROWS]]
    hidden = len(report.diagnostics) - MAX_FINDING_ROWS
    if hidden > 0:
        lines += ["", f"{hidden:,} more findings are in the JSON report."]
    lines += ["", "</details>", ""]
    if report.findability is not None:
        from whichtool_tui.reports.findability_markdown import render_findability_markdown

        lines += render_findability_markdown(report.findability)
    if report.hosts is not None:
        from whichtool_tui.reports.hosts_markdown import render_hosts_markdown

        lines += render_hosts_markdown(report.hosts, [tool.name for tool in report.surface.tools])
    lines += [
        "_No tool was executed: whichtool-tui read tools/list and stopped there._",
    ]
    return "\n".join(lines) + "\n"
