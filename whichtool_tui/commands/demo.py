"""`demo init [DIR]`: write the bundled demo files into a folder (the README tour starts here)."""

from __future__ import annotations

import argparse
import sys

from whichtool_tui.errors import WhichtoolError

USAGE = """usage: whichtool-tui demo init [DIR] [--force]

  init   write the demo surface, task sets, an edited head snapshot, a config,
         an MCP server config and a GitHub workflow into DIR (default: .)
"""


def configure(parser: argparse.ArgumentParser) -> None:
    """Declare the flags of `demo`."""
    parser.add_argument("action", nargs="?", metavar="{init}", help="what to do")
    parser.add_argument("folder", nargs="?", default=".", metavar="DIR", help="where (default .)")
    parser.add_argument(
        "--force", action="store_true", help="overwrite demo files that already exist"
    )


def execute(args: argparse.Namespace) -> int:
    """Write the demo folder and say what is in it and what to try first."""
    from whichtool_tui.redact import redact_paths
    from whichtool_tui.usecases.demo import write_demo

    if args.action is None:
        sys.stdout.write(USAGE)
        return 0
    if args.action != "init":
        raise WhichtoolError(
            "cli/unknown-subcommand",
            f"Unknown subcommand `demo {args.action}`",
            "Subcommands: init.",
        )
    done = write_demo(args.folder, force=args.force)
    shown = redact_paths(str(done.folder))
    lines = [f"Wrote the demo into {shown}:"] + [f"  {name}" for name in done.written]
    lines.append(f"Next: cd {shown} && whichtool-tui --no-ui inspect demo-lab.json")
    sys.stdout.write("\n".join(lines) + "\n")
    return 0
