"""`surface-diff BASE.json HEAD.json`: which tools two snapshots disagree on, which tasks that
can move, and with --provider a paired re-run of only those tasks on both surfaces.

Exit 2 on bad input, 1 when --fail-on-regression or --max-accuracy-drop fails, otherwise 0.
"""

from __future__ import annotations

import argparse

from whichtool_tui.commands._argtypes import (
    add_allow_http_provider,
    add_rerun_flags,
    number_between,
)

SURFACE_DIFF_FORMATS = ("terminal", "json", "markdown")


def configure(parser: argparse.ArgumentParser) -> None:
    """Declare the flags of `surface-diff`."""
    add = parser.add_argument
    add("snapshots", nargs="*", metavar="SNAPSHOT.json", help="BASE.json then HEAD.json")
    add("--tasks", metavar="FILE", help="task set: list the tasks a change can affect")
    add("--provider", metavar="NAME", help="re-run the affected tasks on both surfaces")
    add("--model", metavar="NAME", help="model for the provider")
    add("--base-url", metavar="URL", help="provider base URL")
    add_allow_http_provider(parser)
    add_rerun_flags(parser)
    add(
        "--fail-on-regression",
        action="store_true",
        help="exit 1 when the re-run shows a distinguishable task-level drop in correctness",
    )
    add(
        "--max-accuracy-drop",
        type=number_between(0, 1),
        metavar="X",
        help="exit 1 when the mean per-task correctness falls by more than X (0-1)",
    )
    add("--format", choices=SURFACE_DIFF_FORMATS, default="terminal", help="output format")
    add("--out", metavar="FILE", help="write the diff to FILE instead of stdout")
    add("--config", metavar="FILE", help="whichtool.config.json or .yaml")
    add("--color", action=argparse.BooleanOptionalAction, default=None, help="colour output")


def execute(args: argparse.Namespace) -> int:
    """Diff the two surfaces (re-running the affected tasks if asked), render, and gate."""
    from whichtool_tui.config import load_settings
    from whichtool_tui.files import check_output_path
    from whichtool_tui.headless.output import deliver
    from whichtool_tui.reports.surface_diff_render import render_surface_diff
    from whichtool_tui.usecases.surface_diff import build_request, run_surface_diff

    settings = load_settings(args.config)
    request = build_request(args, settings)
    if args.out:
        check_output_path(args.out)
    report = run_surface_diff(request, settings)
    deliver(
        lambda colour: render_surface_diff(report, args.format),
        args.out,
        f"{args.format} surface diff",
        args.color,
    )
    return 1 if report.gate.failed else 0
