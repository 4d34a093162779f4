"""`receipt`: print a saved receipt as canonical JSON, or its wire timeline."""

from __future__ import annotations

import argparse


def configure(parser: argparse.ArgumentParser) -> None:
    """Declare the flags of `receipt`."""
    parser.add_argument("path", metavar="RECEIPT", help="a receipt written by `bout -o`")
    parser.add_argument("--timeline", action="store_true", help="the wire, one row per event")
    parser.add_argument("--score", action="store_true", help="with --timeline: the house call")
    parser.add_argument("--verbose", action="store_true", help="with --timeline: run args, seat")


def execute(args: argparse.Namespace) -> int:
    """Print the receipt."""
    import sys

    from whichtool_tui.arcade.receipt import read_receipt_data, receipt_json, validate_receipt
    from whichtool_tui.errors import WhichtoolError

    if args.score and not args.timeline:
        raise WhichtoolError("receipt/invalid-flag", "--score needs --timeline", None)
    data = read_receipt_data(args.path)
    receipt = validate_receipt(data, args.path)
    if not args.timeline:
        sys.stdout.write(receipt_json(receipt))
        return 0
    from whichtool_tui.arcade.render import score_panel, write_timeline
    from whichtool_tui.arcade.timeline import TapeView

    write_timeline(TapeView(data), sys.stdout, verbose=args.verbose, data=data)
    if args.score:
        sys.stdout.write(score_panel(receipt))
    return 0
