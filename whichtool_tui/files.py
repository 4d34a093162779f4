"""The one writer for files: write beside the target, then rename over it atomically."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

from whichtool_tui.errors import WhichtoolError


def _read_umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


# Read once at import (single-threaded): os.umask can only be read by setting it.
_UMASK = _read_umask()


def write_atomic(path: str | os.PathLike[str], data: str | bytes) -> Path:
    """Write ``data`` to ``path`` so that readers see either the old file or the whole new one."""
    target = Path(path)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    folder = target.parent if str(target.parent) else Path(".")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        handle, temp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise WhichtoolError(
            "output/unwritable",
            f"Cannot write {target}: {exc.strerror or exc}",
            "Check that the folder exists and is writable.",
        ) from None
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(payload)
        # mkstemp creates 0600; give the file the mode a plain open() would have.
        os.chmod(temp_name, 0o666 & ~_UMASK)
        os.replace(temp_name, target)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(temp_name)
        raise WhichtoolError(
            "output/unwritable",
            f"Cannot write {target}: {exc.strerror or exc}",
            "Check that the folder exists and is writable.",
        ) from None
    return target
