"""One dispatch point from a run format name to its renderer, importing only what is used."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # flag declarations import RUN_FORMATS: keep this module light
    from whichtool_tui.evaluation.report_model import RunReport

RUN_FORMATS = ("terminal", "json", "markdown", "html", "junit", "badge")
_RENDERERS = {
    "terminal": ("whichtool_tui.reports.run_terminal", "render_run_terminal"),
    "json": ("whichtool_tui.evaluation.report_model", "dump_report_json"),
    "markdown": ("whichtool_tui.reports.run_markdown", "render_run_markdown"),
    "html": ("whichtool_tui.reports.run_html", "render_run_html"),
    "junit": ("whichtool_tui.reports.run_junit", "render_run_junit"),
    "badge": ("whichtool_tui.reports.run_badge", "render_run_badge"),
}


def render_run(report: RunReport, report_format: str, color: bool = False) -> str:
    """The run in ``report_format``, ending with a newline; colour applies to terminal only."""
    module_name, function_name = _RENDERERS[report_format]
    renderer = getattr(importlib.import_module(module_name), function_name)
    text: str = renderer(report, color=color) if report_format == "terminal" else renderer(report)
    return text if text.endswith("\n") else text + "\n"
