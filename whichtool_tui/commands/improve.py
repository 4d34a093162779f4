"""`improve SNAPSHOT --tasks T`: description rewrites proposed from the findings and the failing
tuning prompts, kept only when the held-out routing measurement says they help; writes an
RFC 6902 patch and an evidence report. The server's code is never touched.

Exit 0 whether or not a rewrite was accepted, 2 on bad input.
"""

from __future__ import annotations

import argparse

from whichtool_tui import limits
from whichtool_tui.commands._argtypes import (
    add_allow_http_provider,
    add_rerun_flags,
    number_between,
)

IMPROVE_FORMATS = ("terminal", "markdown", "html", "json")


def configure(parser: argparse.ArgumentParser) -> None:
    """Declare the flags of `improve`."""
    add = parser.add_argument
    add("snapshot", nargs="?", metavar="SNAPSHOT.json", help="the surface to improve (a snapshot)")
    add("--tasks", metavar="FILE", help="task set, split into tuning and held-out tasks")
    add(
        "--provider",
        metavar="NAME",
        help="routes every trial and writes the rewrites (default keyword: rule-based rewrites)",
    )
    add("--model", metavar="NAME", help="model for the provider")
    add("--base-url", metavar="URL", help="provider base URL")
    add_allow_http_provider(parser)
    add(
        "--base-run",
        metavar="FILE",
        help="a saved run of this snapshot: its tuning trials supply the failures and confusions",
    )
    add(
        "--tool",
        action="append",
        metavar="NAME",
        help="rewrite only this tool (repeatable; default: every tool a finding or failure names)",
    )
    add_rerun_flags(
        parser,
        seed_help=f"seed of the split and of every run (default {limits.DEFAULT_SEED})",
        budget_scope=(
            "a paid loop that can send more trials than this, every candidate's held-out "
            "run counted; offline providers have no cap",
            "a paid loop on more tools than this; offline providers have none",
        ),
    )
    add(
        "--holdout-share",
        type=number_between(limits.MIN_HOLDOUT_SHARE, limits.MAX_HOLDOUT_SHARE),
        metavar="X",
        help="share of each tool's tasks kept back to measure with (default 0.5)",
    )
    add(
        "--max-token-growth",
        type=number_between(0, limits.MAX_TOKEN_GROWTH),
        metavar="X",
        help="largest accepted growth of a tool's token estimate (default 0.25)",
    )
    add(
        "--retriever",
        metavar="NAME",
        help="the host search that must not get worse for a rewrite to be accepted: bm25 "
        "(default), regex, or a search profile (anthropic-bm25, anthropic-regex, claude-code, "
        "codex, pi, fastmcp)",
    )
    add(
        "--dry-run",
        action="store_true",
        help="print the split and the trials the loop can send, and the caps that apply; "
        "send nothing",
    )
    add("--patch-out", metavar="FILE", help="write the RFC 6902 JSON Patch of accepted rewrites")
    add("--format", choices=IMPROVE_FORMATS, default="terminal", help="report format")
    add("--out", metavar="FILE", help="write the report to FILE instead of stdout")
    add("--config", metavar="FILE", help="whichtool.config.json or .yaml")
    add("--color", action=argparse.BooleanOptionalAction, default=None, help="colour output")


def execute(args: argparse.Namespace) -> int:
    """Check the outputs first, run the loop, then write the patch and the report."""
    import sys

    from whichtool_tui.config import load_settings
    from whichtool_tui.errors import WhichtoolError
    from whichtool_tui.files import check_output_path, write_atomic
    from whichtool_tui.headless.improve import ImproveProgress
    from whichtool_tui.headless.output import deliver
    from whichtool_tui.redact import redact_paths
    from whichtool_tui.reports.improve_render import render_improve
    from whichtool_tui.usecases.api import dump_patch_json
    from whichtool_tui.usecases.improve import build_request, run_improve

    settings = load_settings(args.config)
    request = build_request(args, settings)
    if args.out and args.patch_out and args.out == args.patch_out:
        raise WhichtoolError(
            "cli/bad-arguments",
            "--out and --patch-out name the same file",
            "Write the report and the patch to two files.",
        )
    if args.dry_run:
        from whichtool_tui.usecases.improve import dry_run_text, prepare_improve

        prepared = prepare_improve(request, check=False)
        sys.stdout.write(dry_run_text(request, prepared, settings))
        return 0
    for path in (args.out, args.patch_out):
        if path:
            check_output_path(path)
    progress = ImproveProgress()
    report = run_improve(request, settings, sink=progress, on_budget=progress.budget)
    if args.patch_out:
        write_atomic(args.patch_out, dump_patch_json(report.patch))
        sys.stderr.write(
            f"Wrote {len(report.patch)} patch operation(s) to {redact_paths(args.patch_out)}\n"
        )
    deliver(
        lambda colour: render_improve(report, args.format),
        args.out,
        f"{args.format} improve report",
        args.color,
    )
    return 0
