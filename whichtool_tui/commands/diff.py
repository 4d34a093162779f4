"""`diff BASE.json HEAD.json`: paired comparison of two saved runs of the same plan.

Exit 2 when the runs cannot be compared, 1 when the head regressed in a way that gates
(distinguishable new confusion, multi-call regression, --max-accuracy-drop), otherwise 0.
"""

from __future__ import annotations

import argparse
import sys

from whichtool_tui.commands._argtypes import number_between
from whichtool_tui.errors import WhichtoolError
from whichtool_tui.usecases.saved_runs import DIFF_FORMATS

USAGE = (
    "Usage: whichtool-tui diff BASE.json HEAD.json [--format F] [--max-accuracy-drop X] "
    "[--paired-unit task|trial]"
)


def configure(parser: argparse.ArgumentParser) -> None:
    """Declare the flags of `diff`."""
    parser.add_argument("runs", nargs="*", metavar="RUN.json", help="BASE.json then HEAD.json")
    parser.add_argument("--format", choices=DIFF_FORMATS, default="terminal", help="output format")
    parser.add_argument("--out", metavar="FILE", help="write the diff to FILE instead of stdout")
    parser.add_argument(
        "--max-accuracy-drop",
        type=number_between(0, 1),
        default=None,
        metavar="X",
        help="fail when single-call accuracy drops by more than X (0-1) and the paired "
        "change is distinguishable",
    )
    parser.add_argument(
        "--paired-unit",
        choices=("task", "trial"),
        default="task",
        help="the paired test that gates: a sign-flip test over tasks (default), or "
        "upstream's sign test over trial pairs",
    )
    parser.add_argument(
        "--color", action=argparse.BooleanOptionalAction, default=None, help="colour output"
    )


def opens_tui(args: argparse.Namespace) -> bool:
    """The Results screen's diff view opens on a terminal unless --out or a non-terminal
    --format asks for output."""
    from whichtool_tui.commands._parser import wants_ui

    return args.out is None and args.format == "terminal" and wants_ui(args)


def execute(args: argparse.Namespace) -> int:
    """Read both runs strictly, compare them, render, and return the gate's exit code."""
    if len(args.runs) != 2:
        raise WhichtoolError(
            "cli/bad-arguments", f"`diff` needs exactly 2 run files, got {len(args.runs)}", USAGE
        )
    from whichtool_tui.headless.output import deliver
    from whichtool_tui.usecases.saved_runs import (
        DiffRequest,
        diff_exit_code,
        diff_saved,
        render_diff,
    )

    base_path, head_path = args.runs
    in_ui = opens_tui(args)
    request = DiffRequest(
        base_path,
        head_path,
        args.max_accuracy_drop,
        args.paired_unit,
        runs_live_until_exit=not in_ui,
    )
    report = diff_saved(request)
    if report.comparable and in_ui:
        # Runs that cannot be compared print their reasons below instead (exit 2).
        from whichtool_tui.ui.app import StartPoint, run_app

        debug = bool(getattr(args, "debug", False))
        code = run_app(debug=debug, start=StartPoint(diff=report, section="results"))
        return code or diff_exit_code(report)

    deliver(
        lambda colour: render_diff(report, args.format, colour),
        args.out,
        f"{args.format} diff",
        args.color,
    )
    if not report.comparable:
        sys.stderr.write("whichtool-tui: the runs are not comparable\n")
        for reason in report.incomparable:
            sys.stderr.write(f"  {reason}\n")
    return diff_exit_code(report)
