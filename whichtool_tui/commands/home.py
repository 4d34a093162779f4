"""The TUI home screen entry (``whichtool-tui`` with no command)."""

from __future__ import annotations

import argparse

from whichtool_tui.errors import WhichtoolError


def open_home(args: argparse.Namespace) -> int:
    """Open the interactive home screen."""
    raise WhichtoolError(
        "cli/not-available",
        "the interactive TUI is not available yet in this version",
        "Use `whichtool-tui --no-ui <command>`; `whichtool-tui --help` lists the commands.",
    )
