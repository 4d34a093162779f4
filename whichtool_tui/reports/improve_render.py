"""One entry point for every improve format: terminal, markdown, html, json."""

from __future__ import annotations

from whichtool_tui.improve.model import ImproveReport

IMPROVE_FORMATS = ("terminal", "markdown", "html", "json")


def render_improve(report: ImproveReport, output_format: str) -> str:
    """The evidence report in the named format (json is ``whichtool.improve/1``)."""
    if output_format == "json":
        from whichtool_tui.improve.model import dump_improve_json

        return dump_improve_json(report)
    if output_format == "html":
        from whichtool_tui.reports.improve_html import render_improve_html

        return render_improve_html(report)
    from whichtool_tui.reports.improve_text import render_improve_markdown, render_improve_terminal

    if output_format == "markdown":
        return render_improve_markdown(report)
    return render_improve_terminal(report)
