"""`report merge SHARD.json ...`: the shards of one `run --shard i/N` plan as one report, equal
to the unsharded run's (metrics, intervals, statistics, findings, gates), in any run format.

Shards of different plans, a shard passed twice or a missing shard are refused in one line.
"""

from __future__ import annotations

import argparse


def execute(args: argparse.Namespace) -> int:
    """Read every shard strictly, merge, render (default json), exit per the merged verdict."""
    from whichtool_tui.gc_phases import keep_until_exit
    from whichtool_tui.headless.output import deliver
    from whichtool_tui.usecases.saved_runs import render_report, report_exit_code
    from whichtool_tui.usecases.shards import merge_reports

    report = merge_reports(args.run[1:])
    report_format = args.format or "json"
    deliver(
        lambda colour: render_report(report, report_format, color=colour),
        args.out,
        f"merged {report_format} report",
        args.color,
    )
    keep_until_exit(report)
    return report_exit_code(report)
