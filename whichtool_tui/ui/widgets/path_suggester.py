"""Path completion for the path prompts: the rest of the one entry (or the shared start of
several) in the typed folder, shown dim after the cursor and taken with the right arrow."""

from __future__ import annotations

import os
from pathlib import Path

from textual.suggester import Suggester

MAX_ENTRIES = 2_000  # a huge folder is not listed past this many names


def shared_start(names: list[str]) -> str:
    """The characters every name starts with."""
    first, last = min(names), max(names)
    length = next((i for i, (a, b) in enumerate(zip(first, last, strict=False)) if a != b), None)
    return first[: len(first) if length is None else length]


def complete_path(typed: str) -> str | None:
    """``typed`` completed against the file system, or None when nothing extends it."""
    folder_text, separator, start = typed.rpartition(os.sep)
    if separator and not folder_text:
        folder = Path(os.sep)  # "/et": the root folder
    else:
        folder = Path(os.path.expanduser(folder_text or "."))
    try:
        with os.scandir(folder) as entries:
            names = []
            for count, entry in enumerate(entries):
                if count >= MAX_ENTRIES:
                    break
                if entry.name.startswith(start) and (start or not entry.name.startswith(".")):
                    names.append(entry.name + (os.sep if entry.is_dir() else ""))
    except OSError:
        return None
    if not names:
        return None
    shared = shared_start(names)
    if len(shared) <= len(start):
        return None
    return typed[: len(typed) - len(start)] + shared


class PathSuggester(Suggester):
    """Suggests completions of a typed path (never cached: the folder may change)."""

    def __init__(self) -> None:
        super().__init__(use_cache=False, case_sensitive=True)

    async def get_suggestion(self, value: str) -> str | None:
        return complete_path(value) if value else None
