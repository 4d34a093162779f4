"""A bout series (rates over N trials, or a defence's conformance table) as the text a face shows.

The face hands over the report or the saved artefact; which renderer draws it, and how a saved
artefact is read back, is decided here once for the headless face and the TUI.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from whichtool_tui.arcade.conformance import ConformanceReport
    from whichtool_tui.arcade.series_render import SeriesFormat
    from whichtool_tui.arcade.trials import TrialSeries


def series_report_text(report: ConformanceReport | TrialSeries, fmt: SeriesFormat) -> str:
    """The report in ``fmt`` (terminal, json, markdown); outside strings come out sanitized."""
    from whichtool_tui.arcade.conformance import ConformanceReport
    from whichtool_tui.arcade.series_render import render_conformance, render_series

    if isinstance(report, ConformanceReport):
        return render_conformance(report, fmt)
    return render_series(report, fmt)


def saved_series_text(kind: str, data: Any) -> tuple[str, str]:
    """(title, terminal body) of a saved ``bout-trials`` or ``conformance`` artefact."""
    from whichtool_tui.arcade.conformance import ConformanceReport
    from whichtool_tui.arcade.trials import TrialSeries

    if kind == "conformance":
        return "Defence conformance", series_report_text(
            ConformanceReport.model_validate(data), "terminal"
        )
    series = TrialSeries.model_validate(data)
    return f"Bout trials · {series.trials}", series_report_text(series, "terminal")
