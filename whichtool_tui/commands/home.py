"""The TUI home screen entry (``whichtool-tui`` with no command)."""

from __future__ import annotations

import argparse


def open_home(args: argparse.Namespace) -> int:
    """Open the interactive app on its home screen, or straight into the demo with --demo."""
    from whichtool_tui.ui.app import StartPoint, run_app

    start = StartPoint(demo=True) if getattr(args, "demo", False) else None
    return run_app(debug=bool(getattr(args, "debug", False)), start=start)
