"""What every command's flag parsing shares, kept here so commands never import ``cli`` back.

The argparse subclass that reports problems as one-line errors, the global flags, and the
choice between the TUI and the headless face (``wants_ui``). Imports nothing heavy.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, NoReturn

from whichtool_tui.errors import WhichtoolError

PROG = "whichtool-tui"


class ArgumentParser(argparse.ArgumentParser):
    """argparse that reports problems as WhichtoolError instead of printing usage and exiting."""

    def error(self, message: str) -> NoReturn:
        """Turn argparse's complaint into a one-line WhichtoolError (exit 2)."""
        if "invalid choice" in message and "COMMAND" in message:
            chosen = message.split("invalid choice: ", 1)[1].split(" ", 1)[0].strip("'")
            raise WhichtoolError(
                "cli/unknown-command",
                f"Unknown command `{chosen}`",
                f"Run `{PROG} --help` for the list of commands.",
            )
        if message.startswith("unrecognized arguments: "):
            rest = message.removeprefix("unrecognized arguments: ")
            raise WhichtoolError(
                "cli/unknown-flag",
                f"Unknown flag or extra argument `{rest}`",
                f"Run `{self.prog} --help` for the accepted flags.",
            )
        raise WhichtoolError(
            "cli/invalid-argument", message, f"Run `{self.prog} --help` for usage."
        )


def add_global_flags(parser: argparse.ArgumentParser, suppress: bool) -> None:
    """Add --no-ui and --debug; sub-parsers suppress the defaults so the top level's win."""
    default: Any = argparse.SUPPRESS if suppress else False
    parser.add_argument(
        "--no-ui",
        action="store_true",
        default=default,
        help="print results and exit instead of opening the TUI (implied when not a terminal)",
    )
    parser.add_argument(
        "--debug",
        action="store_true",
        default=default,
        help="show a traceback for errors",
    )
    parser.add_argument(
        "--theme",
        metavar="NAME",
        default=argparse.SUPPRESS if suppress else None,
        help="TUI colour theme, e.g. textual-light (remembered for the next session)",
    )


def wants_ui(args: argparse.Namespace) -> bool:
    """The TUI opens unless --no-ui was given or stdin/stdout is not a terminal."""
    if getattr(args, "no_ui", False):
        return False
    return sys.stdin.isatty() and sys.stdout.isatty()
