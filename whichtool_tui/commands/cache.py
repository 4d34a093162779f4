"""`cache info | clear`: look at or empty the trial cache (the platform cache folder by default)."""

from __future__ import annotations

import argparse
import sys

from whichtool_tui.errors import WhichtoolError

USAGE = """usage: whichtool-tui cache {info,clear} [--dir DIR]

  info   print the cache location, entry count and size
  clear  remove every cached trial

Options:
  --dir DIR  cache folder (default: the platform cache folder,
             ~/.cache/whichtool-tui on Linux, $XDG_CACHE_HOME honoured)
"""


def configure(parser: argparse.ArgumentParser) -> None:
    """Declare the flags of `cache`."""
    parser.add_argument("action", nargs="?", metavar="{info,clear}", help="what to do")
    parser.add_argument("--dir", dest="cache_dir", default=None, metavar="DIR", help="cache folder")


def execute(args: argparse.Namespace) -> int:
    """Print cache statistics, or remove the cached trials."""
    from whichtool_tui.places import default_cache_dir
    from whichtool_tui.redact import redact_paths
    from whichtool_tui.usecases.providers import (
        cache_size_text,
        clear_trial_cache,
        trial_cache_info,
    )

    if args.action is None:
        sys.stdout.write(USAGE)
        return 0
    directory = args.cache_dir or str(default_cache_dir())
    shown = redact_paths(directory)
    if args.action == "info":
        stats = trial_cache_info(directory)
        sys.stdout.write(
            f"location  {shown}\nentries   {stats.entries:,}\n"
            f"size      {cache_size_text(stats.size_bytes)}\n"
        )
        from whichtool_tui.usecases.batch import pending_batch_lines

        pending = pending_batch_lines(directory)
        sys.stdout.write(f"batches   {len(pending)} pending (run --resume-batch STATE)\n")
        sys.stdout.write("".join(line + "\n" for line in pending))
        return 0
    if args.action == "clear":
        removed = clear_trial_cache(directory)
        sys.stdout.write(f"Removed {removed:,} cached trials from {shown}.\n")
        return 0
    raise WhichtoolError(
        "cli/unknown-subcommand",
        f"Unknown subcommand `cache {args.action}`",
        "Subcommands: info, clear.",
    )
