"""`fixture`: run the bundled lab MCP server on stdio (or HTTP on 127.0.0.1 with --http)."""

from __future__ import annotations

import argparse


def configure(parser: argparse.ArgumentParser) -> None:
    """The fixture's switches, each defaulting to its ARCADE_* environment variable."""
    from whichtool_tui.arcade.fixture import add_switch_flags

    add_switch_flags(parser)


def execute(args: argparse.Namespace) -> int:
    """Serve until stdin closes."""
    from whichtool_tui.arcade.fixture import run

    return run(args)
