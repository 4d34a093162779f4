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

    artefact = open_artefact(args.file)
    if not wants_ui(args):
        sys.stdout.write(describe_artefact(artefact))
        return 0
    from whichtool_tui.ui.app import run_app

    return run_app(artefact, debug=bool(getattr(args, "debug", False)))
