"""`bout`: not built yet; registered so that help and errors are already right."""

from __future__ import annotations

import argparse

from whichtool_tui.commands._unbuilt import configure_unbuilt, refuse_unbuilt


def configure(parser: argparse.ArgumentParser) -> None:
    """Declare the flags of `bout`."""
    configure_unbuilt(parser)


def execute(args: argparse.Namespace) -> int:
    """Run `bout`."""
    return refuse_unbuilt("bout")
