"""The run report as one standalone HTML page: inline CSS and JS, data embedded, nothing fetched."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from string import Template
from typing import Any

from whichtool_tui.evaluation.confusion import column_word, confusion_axes, row_label
from whichtool_tui.evaluation.report_model import ClusteredRate, RunReport
from whichtool_tui.evaluation.stats import Proportion
from whichtool_tui.reports.rates import clustered_interval, interval, percent
from whichtool_tui.reports.run_rows import reproducibility_rows
from whichtool_tui.reports.run_statistics import (
    clustered_by_tool,
    clustered_headline,
    consistency_rows,
    position_test_line,
)
from whichtool_tui.reports.run_verdict import run_verdict
from whichtool_tui.text_safety import html_text, json_for_display

# Up to this many tools the heatmap shows every expected x picked cell, even empty ones.
FULL_GRID_MAX_TOOLS = 30
_BANNER_CLASS = {
    "invalid": "fail",
    "thresholds": "fail",
    "failed": "fail",
    "unconfigured": "info",
    "passed": "pass",
}


@cache
def _asset(name: str) -> str:
    return resources.files("whichtool_tui.reports").joinpath("assets", name).read_text("utf-8")


def _text(value: object) -> str:
    """Untrusted text for HTML: controls made visible, markup escaped."""
    return html_text(str(value))


def embed_json(data: Any) -> str:
    """JSON that cannot close its <script> element or open a comment inside it."""
    text = data if isinstance(data, str) else json.dumps(data, ensure_ascii=False)
    return (
        json_for_display(text)
        .replace("&", "\\u0026")
        .replace("<", "\\u003c")
        .replace(">", "\\u003e")
    )


def _card(label: str, rate: Proportion, clustered: ClusteredRate | None = None) -> str:
    if rate.value is None:
        value, detail = "n/a", "0 trials"
    else:
        value = percent(rate.value)
        detail = f"{rate.numerator}/{rate.denominator} · 95% CI {interval(rate)}"
        if clustered is not None and clustered.ci95 is not None:
            detail += f" · by task {clustered_interval(clustered)} ({clustered.tasks} tasks)"
    return (
        f'<div class="card"><div class="label">{label}</div>'
        f'<div class="value">{value}</div><div class="detail">{detail}</div></div>'
    )


def _cards(report: RunReport) -> str:
    metrics = report.metrics

    def card(label: str, name: str) -> str:
        return _card(label, getattr(metrics, name), clustered_headline(report, name))

    cards = [
        card("Single-call accuracy", "accuracy"),
        card("Over-trigger", "over_trigger"),
        card("Abstention", "abstention"),
        card("Phantom", "phantom"),
        card("Multi-call", "multi_call_rate"),
        _card("Clarified", metrics.clarification),
        _card("Errored", report.execution.error_rate),
    ]
    return '<div class="cards">' + "".join(cards) + "</div>"


def _heatmap(report: RunReport) -> str:
    matrix = report.metrics.confusion_matrix
    axes = confusion_axes(row.tool for row in report.metrics.by_tool)
    rows, columns = axes.rows, axes.columns
    if len(report.metrics.by_tool) > FULL_GRID_MAX_TOOLS:
        # A big surface would make a grid of mostly empty cells: keep what was measured.
        used = {column for cells in matrix.values() for column in cells}
        rows = [row for row in rows if row in matrix]
        columns = [column for column in columns if column in used]
    peak = max((count for cells in matrix.values() for count in cells.values()), default=0)
    head = "".join(f'<th scope="col" class="col">{_text(column_word(c))}</th>' for c in columns)
    body: list[str] = []
    first = True
    for r, row in enumerate(rows):
        label = row_label(row)
        cells: list[str] = []
        for c, col in enumerate(columns):
            count = matrix.get(row, {}).get(col, 0)
            alpha = 0.0 if peak == 0 else 0.12 + 0.78 * count / peak if count else 0.0
            classes = [name for name, on in (("diag", row == col), ("zero", not count)) if on]
            col_label = column_word(col)
            aria = f"expected {label}, picked {col_label}: {count} trials"
            cells.append(
                f'<td><button type="button" class="{" ".join(classes)}" '
                f'data-row="{_text(row)}" data-col="{_text(col)}" data-r="{r}" data-c="{c}" '
                f'tabindex="{0 if first else -1}" aria-pressed="false" '
                f'aria-label="{_text(aria)}" style="--a:{alpha:.3f}">{count}</button></td>'
            )
            first = False
        body.append(f'<tr><th scope="row">{_text(label)}</th>{"".join(cells)}</tr>')
    return (
        '<div class="heatmap-wrap"><table class="heatmap" aria-describedby="heatmap-help">'
        f'<thead><tr><th scope="col">expected ↓ / picked →</th>{head}</tr></thead>'
        f"<tbody>{''.join(body)}</tbody></table></div>"
        '<p id="heatmap-help" class="sub">Select a cell (click, or Tab then arrow keys and '
        "Enter) to list the trials behind it.</p>"
        '<section id="cell-trials" aria-live="polite"><p class="hint">No cell selected.</p>'
        "</section>"
    )


def _pairs(report: RunReport) -> str:
    pairs = report.metrics.confusion_pairs
    if not pairs:
        return "<p>No confusion pairs: no wrong-tool picks.</p>"
    rows = "".join(
        f"<tr><td>{_text(p.tools[0])} ↔ {_text(p.tools[1])}</td>"
        f'<td class="num">{p.swaps}</td><td class="num">{percent(p.rate.value)}</td>'
        f"<td>{_text(p.tools[0])} for {_text(p.tools[1])} ×{p.a_chosen_when_b_expected}; "
        f"{_text(p.tools[1])} for {_text(p.tools[0])} ×{p.b_chosen_when_a_expected}</td></tr>"
        for p in pairs
    )
    return (
        "<table><thead><tr><th>pair</th><th>swaps</th><th>rate</th><th>direction</th></tr>"
        f"</thead><tbody>{rows}</tbody></table>"
    )


def _per_tool(report: RunReport) -> str:
    rows = []
    clustered = clustered_by_tool(report)
    for tool in report.metrics.by_tool:
        rate = tool.accuracy
        single = "n/a" if rate.value is None else f"{rate.numerator}/{rate.denominator}"
        confused = ", ".join(f"{_text(c.tool)} ×{c.count}" for c in tool.confused_with) or "–"
        rows.append(
            f"<tr><td>{_text(tool.tool)}</td><td class='num'>{single}</td>"
            f"<td class='num'>{percent(rate.value)}</td><td>{interval(rate)}</td>"
            f"<td>{clustered_interval(clustered.get(tool.tool))}</td>"
            f"<td>{confused}</td><td class='num'>{percent(tool.argument_accuracy.value)}</td>"
            f"<td class='num'>{tool.abstained}</td><td class='num'>{tool.phantom}</td>"
            f"<td class='num'>{tool.errors}</td><td class='num'>{tool.context_tokens}</td></tr>"
        )
    return (
        "<table><thead><tr><th>tool</th><th>correct</th><th>single-call</th><th>95% CI</th>"
        "<th>by task</th><th>confused with</th><th>args ok</th><th>abstained</th><th>phantom</th>"
        "<th>errors</th><th>tokens</th></tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table>"
    )


def _consistency(report: RunReport) -> str:
    rows = "".join(
        f"<tr><th>{_text(label)}</th><td>{_text(value)}</td></tr>"
        for label, value in consistency_rows(report)
    )
    tested = position_test_line(report)
    return f"<table><tbody>{rows}</tbody></table><p>{_text(tested)}</p>" if rows else ""


def _findings(report: RunReport) -> str:
    if not report.diagnostics:
        return "<p>No findings.</p>"
    rows = "".join(
        f'<tr><td class="sev-{d.severity}">{d.severity}</td><td><code>{_text(d.code)}</code></td>'
        f"<td>{_text(d.message)}</td></tr>"
        for d in report.diagnostics
    )
    return (
        "<table><thead><tr><th>severity</th><th>code</th><th>finding</th></tr></thead>"
        f"<tbody>{rows}</tbody></table>"
    )


def _thresholds(report: RunReport) -> str:
    if not report.thresholds:
        return "<p>No thresholds configured.</p>"
    rows = "".join(
        f"<tr><td>{t.name}</td><td class='num'>{t.actual:.3f}</td><td class='num'>{t.limit:g}"
        f'</td><td class="{"sev-info" if t.ok else "sev-error"}">{"pass" if t.ok else "FAIL"}'
        "</td></tr>"
        for t in report.thresholds
    )
    return (
        "<table><thead><tr><th>threshold</th><th>actual</th><th>limit</th><th>result</th>"
        f"</tr></thead><tbody>{rows}</tbody></table>"
    )


def _reproducibility(report: RunReport) -> str:
    rows = "".join(
        f"<tr><th>{k}</th><td class='mono'>{_text(v)}</td></tr>"
        for k, v in reproducibility_rows(report)
    )
    return f"<table><tbody>{rows}</tbody></table>"


def _discovery(report: RunReport) -> list[str]:
    if report.discovery is None:
        return []
    from whichtool_tui.reports.discovery_run import discovery_html

    return [discovery_html(report.discovery)]


def render_run_html(report: RunReport) -> str:
    """The complete page; the embedded JSON in #whichtool-data is the full run/2 report."""
    verdict = run_verdict(report)
    repro = report.reproducibility
    execution = report.execution
    short_hash = repro.surface_hash.removeprefix("sha256:")[:12]
    body = "\n".join(
        [
            "<header><h1>whichtool run</h1>",
            f'<p class="sub">{_text(repro.provider)}/{_text(repro.model)} on '
            f"{_text(report.target.ref)} · surface <code>{short_hash}</code> · "
            f"{len(report.metrics.by_tool)} tools, ~{report.context_cost.total} tokens · "
            f"{report.tasks.selected} tasks × {repro.repeat} = {execution.planned} trials, "
            f"{execution.scored} scored</p></header>",
            f'<div class="banner {_BANNER_CLASS[verdict.kind]}" role="status" id="verdict">'
            f"{verdict.text}</div>",
            _cards(report),
            '<h2 id="heatmap-title">Confusion matrix</h2>',
            _heatmap(report),
            "<h2>Confusion pairs</h2>",
            _pairs(report),
            *_discovery(report),
            "<h2>Per tool</h2>",
            _per_tool(report),
            *(
                ["<h2>Consistency and position</h2>", _consistency(report)]
                if report.statistics is not None
                else []
            ),
            "<h2>Thresholds</h2>",
            _thresholds(report),
            f"<h2>Findings ({len(report.diagnostics)})</h2>",
            _findings(report),
            "<h2>Reproducibility</h2>",
            _reproducibility(report),
            "<footer>Every proposed call was recorded and none was executed. Rates exclude "
            "errored trials; intervals are Wilson 95%, and by task with the task as the unit."
            "</footer>",
        ]
    )
    return Template(_asset("run_report.html")).substitute(
        title=_text(f"whichtool run: {verdict.text}"),
        body=body,
        # Serialised by pydantic (fast at 100,000 trials); the page reads it with JSON.parse.
        data=embed_json(report.model_dump_json(by_alias=True)),
        script=_asset("run_report.js"),
    )
