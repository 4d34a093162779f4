"""`report RUN.json`: re-read a saved run strictly and render it in any run format.

It calls no model and reads no server; its exit code is the run's own verdict.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from whichtool_tui.errors import WhichtoolError
from whichtool_tui.reports.run_formats import RUN_FORMATS as REPORT_FORMATS


def configure(parser: argparse.ArgumentParser) -> None:
    """Declare the flags of `report`."""
    parser.add_argument(
        "run",
        nargs="*",
        metavar="RUN.json",
        help="a saved run report, or `merge SHARD.json ...`: the shards of `run --shard i/N` "
        "as one report (default format json)",
    )
    parser.add_argument(
        "--format", choices=REPORT_FORMATS, default=None, help="output format (default terminal)"
    )
    parser.add_argument("--out", metavar="FILE", help="write the report to FILE instead of stdout")
    parser.add_argument(
        "--color", action=argparse.BooleanOptionalAction, default=None, help="colour output"
    )


def _opens_tui(args: argparse.Namespace) -> bool:
    """Only a plain `report RUN.json` on a terminal opens the TUI; any format or --out prints."""
    from whichtool_tui.commands._parser import wants_ui

    return args.out is None and args.format is None and wants_ui(args)


def execute(args: argparse.Namespace) -> int:
    """Validate the saved run, render it, and exit 2 if invalid, 1 if not ok, else 0."""
    if args.run and args.run[0] == "merge" and not Path("merge").is_file():
        from whichtool_tui.commands.report_merge import execute as merge

        return merge(args)
    if not args.run:
        raise WhichtoolError(
            "cli/missing-argument",
            "`report` needs the saved run file",
            "Usage: whichtool-tui report RUN.json [--format F] [--out FILE]",
        )
    if len(args.run) > 1:
        raise WhichtoolError(
            "cli/too-many-arguments",
            f"`report` takes one run file, got {len(args.run)}",
            "Usage: whichtool-tui report RUN.json [--format F] [--out FILE]",
        )
    from whichtool_tui.headless.output import deliver
    from whichtool_tui.usecases.saved_runs import load_report, render_report, report_exit_code

    report = load_report(args.run[0])
    report_format = args.format or "terminal"
    if _opens_tui(args):
        # The interactive face: the same file, strictly validated above, on the results screen.
        from whichtool_tui.ui.app import run_app
        from whichtool_tui.usecases.artefacts import open_artefact

        run_app(open_artefact(args.run[0]))
        return report_exit_code(report)
    deliver(
        lambda colour: render_report(report, report_format, color=colour),
        args.out,
        f"{report_format} report",
        args.color,
    )
    from whichtool_tui.gc_phases import keep_until_exit

    keep_until_exit(report)  # the command ends here: the run is not freed object by object
    return report_exit_code(report)
