"""The TUI home screen entry (``whichtool-tui`` with no command)."""

from __future__ import annotations

import argparse


def open_home(args: argparse.Namespace) -> int:
    """Open the interactive app on its home screen."""
    from whichtool_tui.ui.app import run_app

    return run_app(debug=bool(getattr(args, "debug", False)))
