"""The saved-run use cases: ``report`` (a saved run re-read strictly and rendered) and ``diff``
(two saved runs, or a saved base and the run just finished, compared pairwise), for the
command line, the TUI's Results screen and the MCP server's ``diff_saved_results``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from whichtool_tui.evaluation.diff_model import DiffReport
    from whichtool_tui.evaluation.report_model import RunReport

DIFF_FORMATS = ("terminal", "json", "markdown")
PairedUnit = Literal["task", "trial"]


def load_report(path: str | Path) -> RunReport:
    """A saved run, validated strictly (every refusal is a one-line WhichtoolError)."""
    from whichtool_tui.evaluation.reader import load_run_report

    return load_run_report(path)


def parse_report(data: object, source: str) -> RunReport:
    """An already parsed saved run (``open``'s JSON), validated like ``load_report``."""
    from whichtool_tui.evaluation.reader import parse_run_report

    return parse_run_report(data, source)


def render_report(report: RunReport, report_format: str, color: bool = False) -> str:
    """The run in one of the run formats (terminal, json, markdown, html, junit, badge)."""
    from whichtool_tui.reports.run_formats import render_run

    return render_run(report, report_format, color)


def report_exit_code(report: RunReport) -> int:
    """The run's own verdict as an exit code: 2 invalid, 1 not ok, 0 ok."""
    from whichtool_tui.reports.run_verdict import run_exit_code

    return run_exit_code(report)


@dataclass(frozen=True)
class DiffRequest:
    """Two saved runs and the gates the comparison applies."""

    base: str | Path
    head: str | Path
    max_accuracy_drop: float | None = None
    paired_unit: PairedUnit = "task"
    runs_live_until_exit: bool = False
    """The caller is a command line that ends after this diff: the runs read are held until
    then (``gc_phases.keep_until_exit``) instead of being freed first."""


def diff_saved(request: DiffRequest) -> DiffReport:
    """Read both runs strictly (named by their redacted paths) and compare them.

    Both files are read first. In a process of our own on two cores, a forked helper then
    proves the head run's bytes (every invariant and statistic) while the base run is read
    here, and the head is only validated as the model here: a strict read is mostly those
    checks, so two 100,000-trial runs are read in about the time of one and a half. A head the
    helper could not prove is read here the whole way, which names what is wrong with it.
    """
    from functools import partial

    from whichtool_tui.evaluation.diff import DiffInput, diff_runs
    from whichtool_tui.evaluation.reader import (
        parse_proven_run_report,
        parse_run_report_text,
        read_run_bytes,
        run_report_proven,
    )
    from whichtool_tui.redact import redact_paths
    from whichtool_tui.surface.second_core import Pending, second_core_free

    base_name, head_name = redact_paths(str(request.base)), redact_paths(str(request.head))
    base_raw, head_raw = read_run_bytes(request.base), read_run_bytes(request.head)
    proving = Pending(
        partial(run_report_proven, head_raw, head_name),
        fork=second_core_free(),
        fallback=lambda: False,
    )
    with proving:
        base = parse_run_report_text(base_raw, base_name)
        proven = proving.result()
    read = parse_proven_run_report if proven else parse_run_report_text
    head = read(head_raw, head_name)
    if request.runs_live_until_exit:
        from whichtool_tui.gc_phases import keep_until_exit

        keep_until_exit(base, head)
    return diff_runs(
        DiffInput(base, base_name),
        DiffInput(head, head_name),
        request.max_accuracy_drop,
        request.paired_unit,
    )


def diff_against_saved(base_path: str, head: RunReport) -> DiffReport:
    """A saved base run against a run held in memory ("this run"), with the default gates."""
    from whichtool_tui.evaluation.diff import DiffInput, diff_runs
    from whichtool_tui.redact import redact_paths

    base = DiffInput(load_report(base_path), redact_paths(base_path))
    return diff_runs(base, DiffInput(head, "this run"))


def parse_diff(data: object, source: str) -> DiffReport:
    """An already parsed saved diff (``open``'s JSON) as its model; a file the model refuses
    is a one-line error."""
    from whichtool_tui.evaluation.diff_model import DiffReport
    from whichtool_tui.strict_model import validated

    return validated(
        DiffReport,
        data,
        code="diff/invalid",
        what=f"{source} is not a valid diff report",
        hint="Only files written by `diff --format json` can be opened.",
    )


def render_diff(report: DiffReport, diff_format: str, color: bool = False) -> str:
    """The diff as ``whichtool.diff/2`` JSON, markdown or the terminal view."""
    if diff_format == "json":
        from whichtool_tui.evaluation.diff_model import dump_diff_json

        return dump_diff_json(report)
    if diff_format == "markdown":
        from whichtool_tui.reports.diff_markdown import render_diff_markdown

        return render_diff_markdown(report)
    from whichtool_tui.reports.diff_terminal import render_diff_terminal

    return render_diff_terminal(report, color=color)


def diff_exit_code(report: DiffReport) -> int:
    """2 when the runs cannot be compared, 1 when the diff is not ok, otherwise 0."""
    from whichtool_tui.evaluation.diff import diff_exit_code as exit_code

    return exit_code(report)
