"""Where whichtool-tui keeps folders of its own: the platform's cache and state folders.

The trial cache and the bout sandbox used to live in the working directory (upstream's
``./.whichtool-cache`` and ``./.arcade-sandbox``), where they ended up committed or backed up;
they now follow the platform's rules (``$XDG_CACHE_HOME`` and ``$XDG_STATE_HOME`` on Linux),
and ``--cache-dir`` / ``--sandbox`` still choose any folder.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

APP_NAME = "whichtool-tui"

CACHEDIR_TAG_SIGNATURE = "Signature: 8a477f597d28d172789f06886806bc55\n"


def cache_home() -> Path:
    """The platform cache folder for this program (``$XDG_CACHE_HOME/whichtool-tui`` on Linux)."""
    from platformdirs import user_cache_path

    return user_cache_path(APP_NAME, appauthor=False)


def state_home() -> Path:
    """The platform state folder for this program (``$XDG_STATE_HOME/whichtool-tui`` on Linux)."""
    from platformdirs import user_state_path

    return user_state_path(APP_NAME, appauthor=False)


def default_cache_dir() -> Path:
    """The trial cache's folder when ``--cache-dir`` is not given (entries go in ``trials/``)."""
    return cache_home()


def default_sandbox_dir() -> Path:
    """The bout sandbox's folder when ``--sandbox`` is not given."""
    return state_home() / "arcade-sandbox"


def tag_as_cache(folder: Path, purpose: str) -> None:
    """Write a ``CACHEDIR.TAG`` (https://bford.info/cachedir/) so backups and archivers skip
    ``folder``; a folder that cannot be tagged is left as it is."""
    from whichtool_tui.errors import WhichtoolError
    from whichtool_tui.files import write_atomic

    tag = folder / "CACHEDIR.TAG"
    if tag.exists():
        return
    text = (
        f"{CACHEDIR_TAG_SIGNATURE}"
        f"# This file is a cache directory tag created by whichtool-tui ({purpose}).\n"
        "# For information about cache directory tags, see https://bford.info/cachedir/\n"
    )
    with contextlib.suppress(OSError, WhichtoolError):
        write_atomic(tag, text)


# A state file of ours holds a theme or a few dozen recent paths; anything larger is not one.
MAX_STATE_FILE_BYTES = 1 << 20


def read_state_json(path: Path) -> object | None:
    """A small JSON state file of ours (preferences, the recent list) through the one bounded
    reader: ``None`` when it is missing, damaged, too large, nested too deeply, or not a regular
    file (a FIFO or ``/dev/zero`` put in its place is refused, never read)."""
    from whichtool_tui.bounded_read import InputFileError, parse_json_text, read_input_bytes

    try:
        data = read_input_bytes(
            path, prefix="state", what="state file", max_bytes=MAX_STATE_FILE_BYTES
        )
        value: object = parse_json_text(data, str(path), prefix="state", strict=False)
    except InputFileError:
        return None
    return value


def write_state_file(path: Path, text: str) -> None:
    """Save a state file of ours; a FIFO, device or folder put in its place is left alone (a
    write would block on the FIFO or go to the device), and a read-only home only loses the
    convenience."""
    import os
    import stat

    from whichtool_tui.errors import WhichtoolError
    from whichtool_tui.files import write_atomic

    with contextlib.suppress(FileNotFoundError):
        if not stat.S_ISREG(os.stat(path).st_mode):
            return
    with contextlib.suppress(OSError, WhichtoolError):
        write_atomic(path, text)
