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
