"""The per-atom host sandbox: cleaned when an atom starts, snapshotted recursively as text."""

from __future__ import annotations

import shutil
from pathlib import Path

from whichtool_tui.arcade.receipt import EnvSnapshot

MAX_FILE_BYTES = 1024 * 1024


def prepare_atom_dir(root: Path, short: str) -> Path:
    """Empty ``root/short`` (only that folder is ours to clear) and return it."""
    folder = root / short
    if folder.is_symlink() or folder.is_file():
        folder.unlink()
    elif folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def snapshot_dir(folder: Path) -> EnvSnapshot:
    """Every regular file under ``folder`` by relative POSIX path (UTF-8 with replacement)."""
    files: dict[str, str] = {}
    if not folder.is_dir():
        return EnvSnapshot()
    for path in sorted(folder.rglob("*")):
        if path.is_symlink() or not path.is_file():
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
