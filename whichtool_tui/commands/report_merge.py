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
    from whichtool_tui.usecases.scan import is_scan
    from whichtool_tui.usecases.shards import merge_reports

    if len(args.run) > 1 and is_scan(args.run[1]):
        return _merge_scans(args)
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


def _merge_scans(args: argparse.Namespace) -> int:
    """The shards of one `inspect --targets` scan as one scan (json only)."""
    import json

    from whichtool_tui.errors import WhichtoolError
    from whichtool_tui.headless.output import deliver
    from whichtool_tui.usecases.scan import merge_scans

    if args.format not in (None, "json"):
        raise WhichtoolError(
            "cli/unknown-format", "A merged scan is written as json only", "Drop --format."
        )
    merged = merge_scans(args.run[1:])
    text = json.dumps(merged, ensure_ascii=False, indent=2) + "\n"
    deliver(lambda _colour: text, args.out, "merged scan", None)
    return 0 if merged["ok"] else 1
