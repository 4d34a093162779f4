"""The findability section of the markdown inspect report."""

from __future__ import annotations

from whichtool_tui.discovery.report_model import FindabilitySection
from whichtool_tui.reports.findability_terminal import SUMMARY_HEADERS, rank_text, summary_rows
from whichtool_tui.text_safety import markdown_cell, markdown_code


def render_findability_markdown(section: FindabilitySection) -> list[str]:
    """Ranks per task, found@k per tool, deferral rules and findings, as markdown lines."""
    names = section.retrievers
    lines = [
        "### Findability",
        "",
        f"Would a deferring host's tool search find each tool for its own prompts? Tasks: "
        f"{markdown_code(section.task_source)}; searches: {', '.join(names)}.",
        "",
    ]
    for name, reason in section.skipped_retrievers.items():
        lines += [f"_{name} skipped: {markdown_cell(reason)}_", ""]
    for name in names:
        lines.append(f"- {markdown_code(name)}: {markdown_cell(section.methods.get(name, ''))}")
    if names:
        lines.append("")
    if section.summary:
        lines += ["| " + " | ".join(SUMMARY_HEADERS) + " |", "|---|---:|---:|---|---|"]
        for summary_cells in summary_rows(section):
            lines.append("| " + " | ".join(markdown_cell(c) for c in summary_cells) + " |")
        lines.append("")
        for item in section.summary:
            if item.missed:
                missed = ", ".join(markdown_cell(task) for task in item.missed)
                lines.append(f"- {markdown_code(item.retriever)} misses at k {item.k}: {missed}")
        lines.append("")
    if section.tasks:
        lines.append("| task | expected | " + " | ".join(f"{n} rank" for n in names) + " |")
        lines.append("|---|---|" + "---:|" * len(names))
        for row in section.tasks:
            ranks = " | ".join(rank_text(row.ranks.get(name)) for name in names)
            lines.append(f"| {markdown_cell(row.id)} | {markdown_code(row.expected)} | {ranks} |")
        lines.append("")
    if section.tools:
        header = "| tool | tasks | " + " | ".join(f"{n} @1/@3/@5" for n in names) + " |"
        lines += [header, "|---|---:|" + "---:|" * len(names)]
        for tool in section.tools:
            cells = " | ".join(
                "/".join(f"{tool.found_at[name][f'at{k}'] * 100:.0f}%" for k in (1, 3, 5))
                for name in names
            )
            lines.append(f"| {markdown_code(tool.name)} | {tool.tasks} | {cells} |")
        lines.append("")
    if section.semantic_overlap:
        lines += ["| pair | Dice | semantic |", "|---|---:|---:|"]
        for pair in section.semantic_overlap[:10]:
            lines.append(
                f"| {markdown_code(pair.tools[0])} ~ {markdown_code(pair.tools[1])} | "
                f"{pair.dice:.2f} | {pair.semantic:.2f} |"
            )
        lines.append("")
    deferral = section.deferral
    lines += [
        f"**Deferral** (~{deferral.estimated_tokens:,} tokens, {deferral.tool_count} tools)",
        "",
    ]
    for rule in deferral.rules:
        verdict = "defers" if rule.defers else "loads upfront"
        lines.append(f"- {verdict}: {markdown_cell(rule.hosts)}: {markdown_cell(rule.rule)}")
    lines.append("")
    if section.findings:
        lines += ["| severity | code | message | fix |", "|---|---|---|---|"]
        for finding in section.findings:
            lines.append(
                f"| {finding.severity} | `{finding.code}` | {markdown_cell(finding.message)} | "
                f"{markdown_cell(finding.hint or '')} |"
            )
        lines.append("")
    return lines
