"""The per-atom host sandbox: cleaned when an atom starts, snapshotted recursively as text."""

from __future__ import annotations

import contextlib
import shutil
from pathlib import Path

from whichtool_tui.arcade.receipt import EnvSnapshot
from whichtool_tui.errors import WhichtoolError

MAX_FILE_BYTES = 1024 * 1024


# Written into every atom folder a bout creates: only a folder carrying it is ours to empty.
MARKER = ".whichtool-sandbox"
# Held (flock) by the bout using the folder: two bouts on one sandbox would see each other's files.
LOCK_NAME = ".whichtool-sandbox.lock"


def lock_sandbox(root: Path) -> contextlib.AbstractContextManager[object]:
    """Hold ``root`` for one bout, or refuse it when another bout holds it.

    Every atom's verdict reads the files its folder gained; a second bout in the same folder
    (easy now that the default lives in the platform state folder, shared by every working
    directory) would mix its servers' writes into them. Where files cannot be locked (no
    ``fcntl``, a file system without locks) the bout runs unlocked, as before.
    """
    try:
        import fcntl
    except ImportError:
        return contextlib.nullcontext()
    try:
        root.mkdir(parents=True, exist_ok=True)
        handle = (root / LOCK_NAME).open("a+b")
    except OSError:
        return contextlib.nullcontext()
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        handle.close()
        raise WhichtoolError(
            "bout/sandbox-busy",
            f"the sandbox {root} is in use by another bout",
            "Give each bout that runs at the same time its own --sandbox folder.",
        ) from None
    except OSError:
        handle.close()
        return contextlib.nullcontext()
    return contextlib.closing(handle)  # closing the file releases the lock


def foreign_atom_dir(root: Path, short: str) -> Path | None:
    """``root/short`` when something is there that a bout did not create, else None."""
    folder = root / short
    if not (folder.exists() or folder.is_symlink()):
        return None
    if folder.is_dir() and not folder.is_symlink() and (folder / MARKER).is_file():
        return None
    return folder


def prepare_atom_dir(root: Path, short: str) -> Path:
    """Empty ``root/short`` when a bout made it, create it marked otherwise; never delete a
    file or folder someone else put there."""
    foreign = foreign_atom_dir(root, short)
    if foreign is not None:
        raise WhichtoolError(
            "bout/sandbox-not-ours",
            f"{foreign} already exists and was not made by a bout; nothing was deleted",
            "Pass an empty or new folder to --sandbox.",
        )
    folder = root / short
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / MARKER).write_text("made by whichtool-tui bout; emptied at each atom\n")
    return folder


def snapshot_dir(folder: Path) -> EnvSnapshot:
    """Every regular file under ``folder`` by relative POSIX path (UTF-8 with replacement)."""
    files: dict[str, str] = {}
    if not folder.is_dir():
        return EnvSnapshot()
    for path in sorted(folder.rglob("*")):
        if path.is_symlink() or not path.is_file() or path.name == MARKER:
            continue
        try:
            with path.open("rb") as handle:
                data = handle.read(MAX_FILE_BYTES + 1)
        except OSError:
            continue
        text = data[:MAX_FILE_BYTES].decode("utf-8", "replace")
        if len(data) > MAX_FILE_BYTES:
            text += "\n[truncated at 1 MiB]"
        files[path.relative_to(folder).as_posix()] = text
    return EnvSnapshot(files=files)
