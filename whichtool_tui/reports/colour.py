"""Whether a report is coloured: one rule for every command that prints one.

An explicit ``--color``/``--no-color`` wins; then ``NO_COLOR`` set to a non-empty value turns
colour off (no-color.org: an empty ``NO_COLOR`` counts as unset);
then ``FORCE_COLOR`` (non-empty and not ``0``) turns it on; otherwise colour follows whether the
output stream is a terminal. A report written to a file (``--out``) is never coloured.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Mapping
from typing import IO

DEFAULT_WIDTH = 88


def use_colour(
    flag: bool | None,
    stream: IO[str] | None,
    *,
    to_file: bool = False,
    env: Mapping[str, str] | None = None,
) -> bool:
    """Decide colour for output going to ``stream`` (or to a file when ``to_file``)."""
    if to_file or stream is None:
        return False
    if flag is not None:
        return flag
    environ = os.environ if env is None else env
    if environ.get("NO_COLOR"):
        return False
    force = environ.get("FORCE_COLOR")
    if force is not None and force not in ("", "0"):
        return True
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def output_width(stream: IO[str] | None, *, to_file: bool = False) -> int:
    """The terminal's width when printing to one, else 88 columns."""
    if to_file or stream is None:
        return DEFAULT_WIDTH
    try:
        if not stream.isatty():
            return DEFAULT_WIDTH
    except (AttributeError, ValueError):
        return DEFAULT_WIDTH
    columns = shutil.get_terminal_size((DEFAULT_WIDTH, 24)).columns
    return columns if columns >= 40 else DEFAULT_WIDTH
