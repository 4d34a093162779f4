"""`atoms`: the atom catalog."""

from __future__ import annotations

import argparse
import sys


def configure(parser: argparse.ArgumentParser) -> None:
    """`atoms` takes no flags of its own."""


def execute(args: argparse.Namespace) -> int:
    """Print each atom id with its title, question and holdout tag."""
    from whichtool_tui.arcade.atoms import CATALOG

    for spec in CATALOG:
        tag = " (holdout)" if spec.holdout else ""
        sys.stdout.write(f"{spec.id}  {spec.title}{tag}\n    {spec.question}\n")
    return 0
