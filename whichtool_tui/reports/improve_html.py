"""The improve evidence report as one standalone HTML page: inline CSS, nothing fetched."""

from __future__ import annotations

import difflib
from html import escape

from whichtool_tui.improve.model import Candidate, ImproveReport
from whichtool_tui.reports.improve_text import measurement_lines
from whichtool_tui.text_safety import html_text, sanitize_text

_STYLE = """
body{font:15px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:70rem;padding:0 1rem}
h1{font-size:1.4rem}h2{font-size:1.15rem;margin-top:2rem}
.card{border:1px solid #d0d7de;border-radius:6px;padding:.6rem 1rem;margin:.8rem 0}
.accepted{border-left:6px solid #1a7f37}.rejected{border-left:6px solid #cf222e}
table{border-collapse:collapse;width:100%}
td,th{border:1px solid #d0d7de;padding:.4rem;vertical-align:top;text-align:left}
del{background:#ffebe9}ins{background:#dafbe1;text-decoration:none}
code,.mono{font-family:ui-monospace,monospace;font-size:.9em}
"""


def word_diff_cells(before: str, after: str) -> tuple[str, str]:
    """Both descriptions as HTML, removed words in <del>, added words in <ins>."""
    old, new = sanitize_text(before).split(), sanitize_text(after).split()
    left: list[str] = []
    right: list[str] = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=old, b=new, autojunk=False).get_opcodes():
        if tag == "equal":
            left.append(escape(" ".join(old[i1:i2])))
            right.append(escape(" ".join(new[j1:j2])))
            continue
        if i2 > i1:
            left.append(f"<del>{escape(' '.join(old[i1:i2]))}</del>")
        if j2 > j1:
            right.append(f"<ins>{escape(' '.join(new[j1:j2]))}</ins>")
    return " ".join(left), " ".join(right)


def _candidate(candidate: Candidate) -> str:
    state = "accepted" if candidate.accepted else "rejected"
    how = candidate.rule or "model rewrite"
    parts = [
        f'<div class="card {state}"><strong>{state.upper()}</strong> '
        f"<code>{html_text(candidate.id)}</code> ({html_text(how)}; target "
        f"{html_text(candidate.target.kind)}: {html_text(', '.join(candidate.target.tools))})<ul>"
    ]
    parts += [
        f"<li>addresses <code>{html_text(item.code)}</code>: {html_text(item.message)}</li>"
        for item in candidate.addressed
    ]
    if candidate.measurement is not None:
        parts += [
            f"<li>{html_text(line)}</li>" for line in measurement_lines(candidate.measurement)
        ]
    parts.append(f"<li>reason: {html_text(candidate.reason)}</li></ul>")
    left, right = word_diff_cells(candidate.description_before, candidate.description_after)
    parts.append(
        f"<table><tr><th>before</th><th>after</th></tr><tr><td>{left}</td><td>{right}</td></tr>"
        "</table></div>"
    )
    return "".join(parts)


def render_improve_html(report: ImproveReport) -> str:
    """The whole report: header, tuning failures, every candidate, the final figures, the patch."""
    split = report.split
    body = [
        "<h1>Description rewrites measured on held-out tasks</h1>",
        f"<p>snapshot <code>{html_text(report.snapshot)}</code>, task set "
        f"<code>{html_text(report.task_set)}</code>: {len(split.tuning)} tuning tasks shown to the "
        f"rewriter, {len(split.held_out)} held-out never shown (seed {split.seed}). Provider "
        f"{html_text(report.provider)} ({html_text(report.model)}"
        f"{', a baseline, not a model' if report.baseline else ''}); rewriter "
        f"{html_text(report.rewriter)}; repeat {report.repeat}.</p>",
        f"<h2>Tuning failures ({len(report.tuning_failures)})</h2><ul>",
        *(
            f"<li><code>{html_text(f.task_id)}</code> {html_text(f.prompt)} (expects "
            f"{html_text(f.expected or 'no call')})</li>"
            for f in report.tuning_failures
        ),
        "</ul>",
        f"<h2>Candidates ({len(report.candidates)}, "
        f"{sum(1 for c in report.candidates if c.accepted)} accepted)</h2>",
        *(_candidate(candidate) for candidate in report.candidates),
    ]
    if report.final is not None:
        body.append("<h2>Accepted surface against the base</h2><ul>")
        body += [f"<li>{html_text(line)}</li>" for line in measurement_lines(report.final)]
        body.append("</ul>")
    body.append(f"<h2>Patch ({len(report.patch)} operations, RFC 6902)</h2><ul>")
    body += [f'<li class="mono">{html_text(op.path)}</li>' for op in report.patch]
    body.append("</ul>")
    body += [f"<p>{html_text(note)}</p>" for note in report.notes]
    body.append(f"<p><small>Method: {html_text(report.method)}</small></p>")
    return (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
        "<title>whichtool-tui improve</title>"
        f"<style>{_STYLE}</style></head><body>{''.join(body)}</body></html>\n"
    )
