"""The deferred-discovery section of a run report, in terminal, markdown and HTML.

One set of rows feeds the three formats: found / picked rates, the paired comparison with the
upfront arm, then per task the found rate and both accuracies.
"""

from __future__ import annotations

from html import escape

from whichtool_tui.discovery.run_model import DiscoveryBlock
from whichtool_tui.evaluation.stats import Proportion
from whichtool_tui.reports.rates import format_proportion
from whichtool_tui.text_safety import markdown_cell


def _signed(value: float) -> str:
    return f"{value * 100:+.1f} pts"


def summary_rows(block: DiscoveryBlock) -> list[tuple[str, str]]:
    """(label, value) rows: how discovery went and what it cost against upfront."""
    rows = [
        (
            "discovery",
            f"deferred, {block.variant} variant, {block.retriever} search, top {block.top_k}",
        ),
        ("found", format_proportion(block.found)),
        ("picked", format_proportion(block.picked)),
        ("picked when found", format_proportion(block.picked_when_found)),
    ]
    comparison = block.comparison
    if comparison is not None:
        rows.append(("upfront accuracy", format_proportion(comparison.upfront_accuracy)))
        rows.append(("deferred accuracy", format_proportion(comparison.deferred_accuracy)))
        if comparison.mean_difference is not None and comparison.ci95 is not None:
            low, high = comparison.ci95
            rows.append(
                (
                    "deferred - upfront",
                    f"{_signed(comparison.mean_difference)} per task "
                    f"[{_signed(low)} to {_signed(high)}]",
                )
            )
        verdict = "distinguishable" if comparison.distinguishable else "not distinguishable"
        rows.append(
            (
                "paired by task",
                f"{comparison.improved} better, {comparison.regressed} worse, "
                f"{comparison.ties} same; sign-flip p={comparison.p_value:.3g} ({verdict})",
            )
        )
    return rows


def _short(rate: Proportion) -> str:
    if rate.denominator == 0 or rate.value is None:
        return "n/a"
    return f"{rate.numerator}/{rate.denominator}"


def task_rows(block: DiscoveryBlock) -> list[list[str]]:
    """Per task: expected tool, found, deferred and upfront correct counts."""
    if block.comparison is None:
        return []
    return [
        [row.task_id, row.expected, _short(row.found), _short(row.deferred), _short(row.upfront)]
        for row in block.comparison.tasks
    ]


TASK_HEADERS = ["task", "expected", "found", "deferred", "upfront"]


def discovery_terminal_lines(block: DiscoveryBlock) -> list[str]:
    """The section as plain lines for the terminal report."""
    rows = summary_rows(block)
    width = max(len(label) for label, _ in rows)
    lines = ["Deferred discovery"]
    lines += [f"  {label.ljust(width)}  {value}" for label, value in rows]
    tasks = task_rows(block)
    if tasks:
        widths = [
            max(len(cell) for cell in column) for column in zip(TASK_HEADERS, *tasks, strict=True)
        ]
        for row in [TASK_HEADERS, *tasks]:
            lines.append(
                "  "
                + "  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip()
            )
    return lines


def discovery_markdown_lines(block: DiscoveryBlock) -> list[str]:
    """The section as markdown lines."""
    lines = ["", "### Deferred discovery", "", "| | |", "|---|---|"]
    lines += [f"| {label} | {markdown_cell(value)} |" for label, value in summary_rows(block)]
    tasks = task_rows(block)
    if tasks:
        lines += ["", "| " + " | ".join(TASK_HEADERS) + " |", "|---|---|---:|---:|---:|"]
        lines += ["| " + " | ".join(markdown_cell(cell) for cell in row) + " |" for row in tasks]
    return lines


def discovery_html(block: DiscoveryBlock) -> str:
    """The section as an HTML fragment (a heading and two tables)."""
    summary = "".join(
        f"<tr><th>{escape(label)}</th><td>{escape(value)}</td></tr>"
        for label, value in summary_rows(block)
    )
    parts = ["<h2>Deferred discovery</h2>", f"<table><tbody>{summary}</tbody></table>"]
    tasks = task_rows(block)
    if tasks:
        head = "".join(f"<th>{escape(cell)}</th>" for cell in TASK_HEADERS)
        body = "".join(
            "<tr>" + "".join(f"<td>{escape(cell)}</td>" for cell in row) + "</tr>" for row in tasks
        )
        parts.append(f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>")
    return "\n".join(parts)
