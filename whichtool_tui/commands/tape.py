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

    from whichtool_tui.arcade.receipt import canonical_json, read_receipt_data, validate_receipt
    from whichtool_tui.arcade.tape import build_tape
    from whichtool_tui.files import write_atomic

    data = read_receipt_data(args.path)
    validate_receipt(data, args.path)
    text = canonical_json(build_tape(data))
    if args.output:
        write_atomic(args.output, text)
    else:
        sys.stdout.write(text)
    return 0
