"""Terminal and Markdown faces of a trial series (rates) and a conformance table.

JSON is the model dump. Every server- or user-supplied string goes through ``sanitize_text``
(terminal) or the Markdown cell escaper, never raw.
"""

from __future__ import annotations

from typing import Literal

from whichtool_tui.arcade.conformance import ConformanceReport
from whichtool_tui.arcade.receipt import canonical_json
from whichtool_tui.arcade.trials import TrialSeries
from whichtool_tui.reports.rates import format_proportion, percent
from whichtool_tui.text_safety import sanitize_text

SeriesFormat = Literal["terminal", "json", "markdown"]
SERIES_FORMATS: tuple[str, ...] = ("terminal", "json", "markdown")


def _cell(text: str) -> str:
    return sanitize_text(text).replace("|", "\\|")


def series_lines(series: TrialSeries) -> list[tuple[str, str, str, str]]:
    """(atom, kind, rate, counts) per atom: the rows every face shows."""
    rows = []
    for atom in series.atoms:
        kind = "follow-through" if atom.seated and atom.attack else "fail rate"
        counts = f"pass {atom.passed} fail {atom.failed} skip {atom.skipped} error {atom.errors}"
        rows.append((atom.atom_id, kind, format_proportion(atom.rate), counts))
    return rows


def _series_header(series: TrialSeries) -> list[str]:
    seat = series.seat
    who = f"seat {seat.model} (seed {seat.seed}+trial)" if seat else "scripted seat"
    lines = [
        f"Trials {series.trials} of {series.trials_requested}  policy={series.agent_policy}  {who}",
        f"  utility {format_proportion(series.utility)}",
        f"  NRP=1   {format_proportion(series.nrp)}",
        f"  attack  {format_proportion(series.attack_success)}",
    ]
    pooled = series.clustered
    if pooled is not None and pooled.get("ci95") is not None:
        low, high = pooled["ci95"]
        lines.append(
            f"  seated attacks pooled, clustered by atom: {pooled['successes']}/"
            f"{pooled['trials']} over {pooled['tasks']} atom(s)  "
            f"{percent(pooled['value'])}  [{percent(low)}-{percent(high)}]"
        )
    lines += [f"  note: {note}" for note in series.notes]
    return lines


def render_series(series: TrialSeries, fmt: SeriesFormat) -> str:
    """The series in one format (Wilson 95% intervals in brackets)."""
    if fmt == "json":
        return canonical_json(series.model_dump(mode="json"))
    if fmt == "markdown":
        out = [
            "# Bout trials",
            "",
            *(f"- {sanitize_text(line.strip())}" for line in _series_header(series)),
        ]
        out += ["", "| atom | measure | rate [Wilson 95%] | counts |", "|---|---|---|---|"]
        out += [f"| {a} | {k} | {_cell(r)} | {c} |" for a, k, r, c in series_lines(series)]
        return "\n".join(out) + "\n"
    out = [sanitize_text(line) for line in _series_header(series)]
    out.append(f"{'atom':<26}  {'measure':<15}  {'rate [Wilson 95%]':<28}  counts")
    out += [f"{a:<26}  {k:<15}  {r:<28}  {c}" for a, k, r, c in series_lines(series)]
    return "\n".join(out) + "\n"


def render_conformance(report: ConformanceReport, fmt: SeriesFormat) -> str:
    """The conformance table in one format."""
    if fmt == "json":
        return canonical_json(report.model_dump(mode="json"))
    defence = sanitize_text(" ".join(report.defence))
    summary = "  ".join(f"{key}={value}" for key, value in report.summary.items())
    if fmt == "markdown":
        out = [
            "# Defence conformance",
            "",
            f"- defence: `{defence}`",
            f"- policy: {report.agent_policy}",
            f"- {summary}",
            "",
            "| atom | attack | honest use | why |",
            "|---|---|---|---|",
        ]
        out += [
            f"| {r.atom_id} | {r.attack} | {r.honest} | "
            f"{_cell(r.attack_detail)}; {_cell(r.honest_detail)} |"
            for r in report.atoms
        ]
        return "\n".join(out) + "\n"
    out = [f"Conformance of {defence}  policy={report.agent_policy}", f"  {summary}"]
    out.append(f"{'atom':<26}  {'attack':<15}  {'honest use':<12}  why")
    for row in report.atoms:
        why = sanitize_text(f"{row.attack_detail}; {row.honest_detail}")
        out.append(f"{row.atom_id:<26}  {row.attack:<15}  {row.honest:<12}  {why}")
    return "\n".join(out) + "\n"
