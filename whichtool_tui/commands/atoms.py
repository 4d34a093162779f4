"""`atoms`: the atom catalog."""

from __future__ import annotations

import argparse
import sys
import textwrap


def configure(parser: argparse.ArgumentParser) -> None:
    """`atoms --rationale` adds each atom's one-paragraph rationale."""
    parser.add_argument("--rationale", action="store_true", help="why each atom exists")


def execute(args: argparse.Namespace) -> int:
    """Print each atom id with its title, question and tags (holdout, extended)."""
    from whichtool_tui.usecases.models import CATALOG

    for spec in CATALOG:
        tag = " (holdout)" if spec.holdout else ""
        tag += " (extended)" if spec.extended else ""
        sys.stdout.write(f"{spec.id}  {spec.title}{tag}\n    {spec.question}\n")
        if getattr(args, "rationale", False):
            wrapped = textwrap.fill(
                spec.rationale, 96, initial_indent="    ", subsequent_indent="    "
            )
            sys.stdout.write(wrapped + "\n")
    sys.stdout.write(
        "Bouts run the first four (mcp-arcade's) unless --atoms names others or says all.\n"
    )
    return 0
