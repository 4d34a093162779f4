"""The inspect report as ``whichtool.inspect/1`` JSON, and every inspect format by name."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from whichtool_tui.gc_phases import paused_gc
from whichtool_tui.surface.report_model import InspectReport

if TYPE_CHECKING:
    from whichtool_tui.reports.inspect_sarif import SarifArtifact

INSPECT_FORMATS = ("terminal", "json", "markdown", "junit", "badge", "sarif")
FORMAT_EXTENSIONS = {
    "terminal": "txt",
    "json": "json",
    "markdown": "md",
    "html": "html",
    "junit": "xml",
    "badge": "badge.json",
    "sarif": "sarif",
}


def render_inspect_json(report: InspectReport) -> str:
    """Byte-deterministic JSON: no timestamps or durations, indent 2, trailing newline."""
    return report.to_json_text()


def render_inspect_json_chunks(report: InspectReport) -> list[bytes | memoryview]:
    """``render_inspect_json`` as UTF-8 pieces, written one after another by ``deliver``."""
    with paused_gc():
        return report.to_json_chunks()


def render_inspect(
    report: InspectReport,
    fmt: str,
    *,
    color: bool = False,
    width: int = 88,
    sarif_artifact: SarifArtifact | None = None,
) -> str:
    """Render ``report`` in one of INSPECT_FORMATS (imports only the renderer it needs).

    ``sarif_artifact`` is where SARIF results point (see ``inspect_sarif.sarif_artifact``).
    The collector is paused meanwhile: a renderer builds only strings, lists and dicts, and
    scanning the live report for them cost more than rendering (about 0.13 s of a first
    terminal rendering at 1,000 tools).
    """
    with paused_gc():
        return _render(report, fmt, color=color, width=width, sarif_artifact=sarif_artifact)


def _render(
    report: InspectReport,
    fmt: str,
    *,
    color: bool,
    width: int,
    sarif_artifact: SarifArtifact | None,
) -> str:
    renderer: Callable[[InspectReport], str]
    if fmt == "terminal":
        from whichtool_tui.reports.inspect_terminal import render_inspect_terminal

        return render_inspect_terminal(report, color=color, width=width)
    if fmt == "json":
        renderer = render_inspect_json
    elif fmt == "markdown":
        from whichtool_tui.reports.inspect_markdown import render_inspect_markdown

        renderer = render_inspect_markdown
    elif fmt == "junit":
        from whichtool_tui.reports.inspect_junit import render_inspect_junit

        renderer = render_inspect_junit
    elif fmt == "badge":
        from whichtool_tui.reports.inspect_badge import render_inspect_badge

        renderer = render_inspect_badge
    elif fmt == "sarif":
        from whichtool_tui.reports.inspect_sarif import render_inspect_sarif

        return render_inspect_sarif(report, sarif_artifact)
    else:
        raise ValueError(f"unknown inspect format {fmt!r}")
    return renderer(report)
