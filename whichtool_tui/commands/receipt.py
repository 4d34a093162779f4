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

    from whichtool_tui.errors import WhichtoolError
    from whichtool_tui.usecases.receipts import (
        read_receipt,
        receipt_text,
        write_receipt_timeline,
    )

    if args.score and not args.timeline:
        raise WhichtoolError(
            "receipt/invalid-flag",
            "--score needs --timeline",
            "Add --timeline: the house call prints after the tape.",
        )
    # The score-free timeline reads the wire tolerantly (only the rest is validated).
    read = read_receipt(args.path, score_free_wire=args.timeline and not args.score)
    from whichtool_tui.commands._parser import wants_ui

    if wants_ui(args):
        return open_receipt_screen(args.path, read.data)
    if not args.timeline:
        assert read.receipt is not None
        from whichtool_tui.text_safety import json_for_stream

        sys.stdout.write(json_for_stream(receipt_text(read.receipt), sys.stdout))
        return 0
    write_receipt_timeline(read, sys.stdout, verbose=args.verbose)
    return 0


def open_receipt_screen(path: str | None, data: dict[str, Any]) -> int:
    """Open the TUI's bout section on a receipt (the verdicts stay hidden until a guess)."""
    from whichtool_tui.ui.app import run_app
    from whichtool_tui.usecases.artefacts import receipt_artefact

    return run_app(receipt_artefact(path, data))
