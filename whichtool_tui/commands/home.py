"""The TUI home screen entry (``whichtool-tui`` with no command)."""

from __future__ import annotations

import argparse


def open_home(args: argparse.Namespace) -> int:
    """Open the interactive app on its home screen, or straight into the demo with --demo."""
    from whichtool_tui.config_files import config_to_load
    from whichtool_tui.ui.app import StartPoint, run_app

    settings = None  # no config file: the app builds the defaults when it first reads them
    if config_to_load():  # a broken config is a one-line error before the app opens
        from whichtool_tui.config import load_settings

        settings = load_settings()
    start = StartPoint(demo=bool(getattr(args, "demo", False)), settings=settings)
    return run_app(debug=bool(getattr(args, "debug", False)), start=start)
