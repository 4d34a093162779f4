"""Shared behaviour of commands that are registered but not built yet."""

from __future__ import annotations

import argparse

from whichtool_tui.errors import WhichtoolError


def configure_unbuilt(parser: argparse.ArgumentParser) -> None:
    """Accept any arguments so the user sees "not available yet" rather than a flag error."""
    parser.set_defaults(accepts_any_arguments=True)


def refuse_unbuilt(command: str) -> int:
    """Fail with exit 2 and say the command is not available in this version."""
    raise WhichtoolError(
        "cli/not-available",
        f"`{command}` is not available yet in this version",
        "README.md lists the commands that work today.",
    )
