"""`atoms`: the atom catalog."""

from __future__ import annotations

import argparse
import sys
import textwrap


def configure(parser: argparse.ArgumentParser) -> None:
    """`atoms --rationale` adds each atom's one-paragraph rationale."""
    parser.add_argument("--rationale", action="store_true", help="why each atom exists")
    parser.add_argument(
        "--evaluate",
        action="store_true",
        help="run the catalog over the bundled labelled corpus (every fixture mode, honest and "
        "hostile, plus installed reference servers) and print per-atom precision/recall",
    )
    parser.add_argument(
        "--no-reference",
        action="store_true",
        help="with --evaluate: the fixture modes only",
    )


def execute(args: argparse.Namespace) -> int:
    """Print each atom id with its title, question and tags (holdout, extended)."""
    if getattr(args, "evaluate", False):
        from whichtool_tui.usecases.atom_corpus import evaluate_corpus

        def progress(line: str) -> None:
            sys.stderr.write(line + "\n")

        table = evaluate_corpus(progress, with_reference=not args.no_reference)
        sys.stdout.write(table)
        return 0
    from whichtool_tui.usecases.api import CATALOG

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
