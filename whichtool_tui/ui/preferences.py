"""The user's lasting TUI choices (the theme), kept as a small JSON file beside the recent list.

Read through the bounded reader (no pydantic): the app picks its theme before its first frame.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path

from whichtool_tui.errors import WhichtoolError
from whichtool_tui.places import read_state_json, write_state_file
from whichtool_tui.ui.recent import state_dir

THEME_ENV = "WHICHTOOL_TUI_THEME"  # set by ``--theme``; wins over the saved choice


@dataclass
class Preferences:
    """What is remembered between sessions (unknown keys in the file are ignored)."""

    version: int = 1
    theme: str | None = None


def parse_preferences(data: object) -> Preferences:
    """The saved preferences; ``ValueError`` when the file is not a preferences object."""
    if not isinstance(data, dict):
        raise ValueError("not a preferences object")
    version = data.get("version", 1)
    theme = data.get("theme")
    if type(version) is not int or not (theme is None or isinstance(theme, str)):
        raise ValueError("not a preferences object")
    return Preferences(version=version, theme=theme)


def preferences_path() -> str:
    """Where the preferences live (the same state folder as the recent list)."""
    return str(state_dir() / "preferences.json")


def load_preferences() -> Preferences:
    """The saved preferences; a missing or damaged file gives the defaults, never an error."""
    try:
        return parse_preferences(read_state_json(Path(preferences_path())))
    except ValueError:
        return Preferences()


def chosen_theme() -> str | None:
    """``--theme`` for this session if given, else the theme picked last time."""
    return os.environ.get(THEME_ENV) or load_preferences().theme


def choose_theme(name: str) -> None:
    """``--theme NAME``: check the name now (bad input exits 2 before any screen) and use it."""
    from textual.theme import BUILTIN_THEMES

    if name not in BUILTIN_THEMES:
        raise WhichtoolError(
            "cli/unknown-theme",
            f"unknown theme {name!r}",
            "Themes: " + ", ".join(sorted(BUILTIN_THEMES)),
        )
    os.environ[THEME_ENV] = name
    remember_theme(name)


def remember_theme(theme: str) -> None:
    """Save the theme for the next session (a read-only home only loses the convenience)."""
    preferences = load_preferences()
    if preferences.theme == theme:
        return
    preferences.theme = theme
    text = json.dumps(asdict(preferences), indent=2, ensure_ascii=False) + "\n"
    write_state_file(Path(preferences_path()), text)
