"""`open FILE`: recognise a saved artefact and open it in the TUI, or describe it headless."""

from __future__ import annotations

import argparse
import sys


def configure(parser: argparse.ArgumentParser) -> None:
    """Declare the flags of `open`."""
    parser.add_argument(
        "file",
        metavar="FILE",
        help="an inspect/run/diff report, a bout receipt or tape, a task set, or a snapshot",
    )


def execute(args: argparse.Namespace) -> int:
    """Open the file on the right screen; with --no-ui (or no terminal) print what it is."""
    from whichtool_tui.commands._parser import wants_ui
    from whichtool_tui.usecases.artefacts import describe_artefact, open_artefact

    if not wants_ui(args):
        sys.stdout.write(describe_artefact(open_artefact(args.file)))
        return 0
    from whichtool_tui.ui.app import FIRST_ROWS, run_app

    # The Bout screen checks a big receipt's later wire events as it loads them, after the
    # first frame; a file nested too deeply still ends in one line (then a toast, not exit 2).
    artefact = open_artefact(args.file, wire_checked_to=FIRST_ROWS)
    return run_app(artefact, debug=bool(getattr(args, "debug", False)))
