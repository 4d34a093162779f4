"""`receipt`: print a saved receipt as canonical JSON, or its wire timeline."""

from __future__ import annotations

import argparse
from typing import Any


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
        raise WhichtoolError(
            "receipt/invalid-flag",
            "--score needs --timeline",
            "Add --timeline: the house call prints after the tape.",
        )
    data = read_receipt_data(args.path)
    if args.timeline and not args.score:
        # The score-free view reads the wire tolerantly; validating 100,000 events through the
        # model would double the time to first row, so only the rest of the receipt is checked.
        validate_receipt({**data, "wire": []}, args.path)
        receipt = None
    else:
        receipt = validate_receipt(data, args.path)
    from whichtool_tui.commands._parser import wants_ui

    if wants_ui(args):
        return open_receipt_screen(args.path, data)
    if not args.timeline:
        assert receipt is not None
        sys.stdout.write(receipt_json(receipt))
        return 0
    from whichtool_tui.arcade.render import score_panel, write_timeline
    from whichtool_tui.arcade.timeline import TapeView

    write_timeline(TapeView(data), sys.stdout, verbose=args.verbose, data=data)
    if receipt is not None:
        sys.stdout.write(score_panel(receipt))
    return 0


def open_receipt_screen(path: str | None, data: dict[str, Any]) -> int:
    """Open the TUI's bout section on a receipt (the verdicts stay hidden until a guess)."""
    from whichtool_tui.artefacts import Artefact
    from whichtool_tui.ui.app import run_app

    artefact = Artefact(
        path=path or "(unsaved bout)", kind="receipt", schema=data.get("schema_id"), data=data
    )
    return run_app(artefact)
