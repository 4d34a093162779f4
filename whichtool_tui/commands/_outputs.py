"""The output rule for every command line, applied once before a command starts any work.

Every file a command is asked to write (``--out``, ``--output``, ``--patch-out``,
``--save-snapshot``, ``--host-fix-out``, ``--result-file``) is checked against every file named
on the same command line, so no command can overwrite its own input and none sends a request
before a bad output path is refused.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Iterator

# Namespace attributes that name a file the command writes.
OUTPUT_FILES = ("out", "output", "patch_out", "save_snapshot", "host_fix_out", "result_file")
# Commands whose ``--output`` is a folder they fill, not a file.
FOLDER_OUTPUTS = frozenset({"dataset"})


def _named_files(args: argparse.Namespace) -> Iterator[str]:
    """Every argument value that names an existing file, and the config file this folder
    would load: the command's inputs."""
    from whichtool_tui.config_files import CONFIG_FILE_NAMES

    yield from (name for name in CONFIG_FILE_NAMES if os.path.isfile(name))
    for name, value in vars(args).items():
        if name in OUTPUT_FILES:
            continue
        values = value if isinstance(value, list | tuple) else [value]
        for item in values:
            if isinstance(item, str | os.PathLike) and item not in ("", "-"):
                candidate = os.fspath(item)
                if os.path.isfile(candidate):
                    yield candidate


def check_command_outputs(args: argparse.Namespace) -> None:
    """Refuse (exit 2) any output of ``args`` that breaks the output rule (``files.py``)."""
    outputs = [
        (name, getattr(args, name))
        for name in OUTPUT_FILES
        if isinstance(getattr(args, name, None), str) and getattr(args, name)
    ]
    if not outputs:
        return
    from whichtool_tui.files import check_output_path, refuse_unsafe_output

    inputs = list(_named_files(args))
    for name, path in outputs:
        if name == "output" and args.command in FOLDER_OUTPUTS:
            refuse_unsafe_output(path, inputs=inputs)
            continue
        check_output_path(path, inputs=inputs)
