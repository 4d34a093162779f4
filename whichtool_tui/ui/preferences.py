"""The user's lasting TUI choices (the theme), kept as a small JSON file beside the recent list."""

from __future__ import annotations

import contextlib
import os

from pydantic import BaseModel, ConfigDict, ValidationError

from whichtool_tui.errors import WhichtoolError
from whichtool_tui.files import write_atomic
from whichtool_tui.ui.recent import state_dir

THEME_ENV = "WHICHTOOL_TUI_THEME"  # set by ``--theme``; wins over the saved choice


class Preferences(BaseModel):
    """What is remembered between sessions."""

    model_config = ConfigDict(extra="ignore")

    version: int = 1
    theme: str | None = None


def preferences_path() -> str:
    """Where the preferences live (the same state folder as the recent list)."""
    return str(state_dir() / "preferences.json")


def load_preferences() -> Preferences:
    """The saved preferences; a missing or damaged file gives the defaults, never an error."""
    try:
        with open(preferences_path(), encoding="utf-8") as handle:
            return Preferences.model_validate_json(handle.read())
    except (OSError, ValidationError, ValueError):
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
    with contextlib.suppress(WhichtoolError):
        write_atomic(preferences_path(), preferences.model_dump_json(indent=2) + "\n")
