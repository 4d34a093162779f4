"""Plain-text output of the ``tasks`` commands: pure ASCII, optionally coloured, worst first.

Diagnostic messages can quote model output or file content, so every line is sanitised and any
non-ASCII character is escaped before it reaches the terminal.
"""

from __future__ import annotations

from collections.abc import Iterable

from whichtool_tui.diagnostics import Diagnostic, sort_diagnostics
from whichtool_tui.reports.colour import use_colour
from whichtool_tui.reports.plain_text import Styler
from whichtool_tui.tasks.lint import Coverage
from whichtool_tui.text_safety import ascii_safe

__all__ = ["Styler", "ascii_safe", "diagnostic_lines", "lint_report", "use_colour"]


def diagnostic_lines(diagnostics: Iterable[Diagnostic], style: Styler) -> list[str]:
    """Each finding as a severity-tagged line plus its indented hint, worst first."""
    lines: list[str] = []
    for diagnostic in sort_diagnostics(diagnostics):
        tag = style.severity(diagnostic.severity, f"{diagnostic.severity:<7}")
        lines.append(f"  {tag} {diagnostic.code}  {ascii_safe(diagnostic.message)}")
        if diagnostic.hint:
            lines.append(f"          {style('dim', ascii_safe(diagnostic.hint))}")
    return lines


def lint_report(
    source: str,
    coverage: Coverage,
    diagnostics: list[Diagnostic],
    surface_checked: bool,
    ok: bool,
    style: Styler,
) -> str:
    """The terminal form of ``tasks lint``: file, counts, surface coverage, findings, verdict."""
    lines = [style("bold", "whichtool-tui tasks lint")]
    lines.append(f"  {style('dim', 'file    ')}  {ascii_safe(source)}")
    lines.append(
        f"  {style('dim', 'tasks   ')}  {coverage.task_count} total, "
        f"{coverage.distractor_count} distractors"
    )
    if surface_checked:
        surface = (
            f"{coverage.tools_covered}/{coverage.tools_on_surface} tools covered by at least "
            "one task"
        )
    else:
        surface = style(
            "yellow",
            "surface not checked: no target given, so the expected-tool and coverage checks "
            "were skipped",
        )
    lines.append(f"  {style('dim', 'surface ')}  {surface}")
    lines.append("")
    lines.extend(diagnostic_lines(diagnostics, style) or [f"  {style('green', 'No findings.')}"])
    lines.append("")
    if ok:
        lines.append(
            style("dim", "No errors. Warnings do not block a run; they limit what it can show.")
        )
    else:
        lines.append(style("red", "Errors found: a run on this task set would be refused."))
    return "\n".join(lines) + "\n"
