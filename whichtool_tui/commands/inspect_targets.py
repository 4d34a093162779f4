"""`inspect --targets FILE [--shard I/N]`: a registry scan, one inspect review per target,
written as one ``whichtool.scan/1`` JSON; `report merge` combines the shards' scans.
"""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any

from whichtool_tui.errors import WhichtoolError

if TYPE_CHECKING:
    from whichtool_tui.config import Settings


def add_target_flags(parser: argparse.ArgumentParser) -> None:
    """Declare the scan flags of `inspect`."""
    from whichtool_tui.commands.run_batch import shard_text

    add = parser.add_argument
    add(
        "--targets",
        metavar="FILE",
        help="scan every target listed in FILE (one per line, or a JSON list of strings) and "
        "write one whichtool.scan/1 JSON",
    )
    add(
        "--shard",
        metavar="SHARD",
        type=shard_text,
        help="with --targets, I/N: scan every N-th target only (a CI matrix job); "
        "`report merge` combines the shards",
    )


def execute(args: argparse.Namespace, settings: Settings) -> int:
    """Review each of this shard's targets; exit 0 when every one is ok, else 1."""
    from whichtool_tui.commands.inspect import build_report
    from whichtool_tui.headless.output import deliver
    from whichtool_tui.reports.inspect_json import render_inspect
    from whichtool_tui.usecases.scan import read_targets, scan

    if args.target:
        raise WhichtoolError(
            "cli/bad-arguments",
            "inspect takes either TARGET or --targets FILE, not both",
            "Put every target in the --targets file.",
        )
    if args.format not in (None, "json"):
        raise WhichtoolError(
            "cli/unknown-format",
            f"A scan (--targets) is written as json only, not {args.format}",
            "Drop --format, or pass --format json.",
        )

    def review(target: str) -> tuple[bool, dict[str, Any]]:
        result = build_report(args, settings, target)
        data: dict[str, Any] = json.loads(render_inspect(result.report, "json"))
        return result.ok, data

    document = scan(read_targets(args.targets), args.shard, review)
    text = json.dumps(document, ensure_ascii=False, indent=2) + "\n"
    deliver(lambda _colour: text, args.out, "scan", None)
    return 0 if document["ok"] else 1
