"""`tape`: export the score-free tape of a receipt."""

from __future__ import annotations

import argparse


def configure(parser: argparse.ArgumentParser) -> None:
    """Declare the flags of `tape`."""
    parser.add_argument("path", metavar="RECEIPT", help="a receipt written by `bout -o`")
    parser.add_argument("-o", "--output", default=None, metavar="PATH", help="write here")


def execute(args: argparse.Namespace) -> int:
    """Write the tape to -o or stdout."""
    import sys

    from whichtool_tui.usecases.receipts import export_tape

    text = export_tape(args.path, args.output)
    if not args.output:
        from whichtool_tui.text_safety import json_for_stream

        sys.stdout.write(json_for_stream(text, sys.stdout))
    return 0
