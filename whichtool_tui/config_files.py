"""Where the config file is, found without the config's models.

A start-up that finds no config (the TUI's home, a file opened in the TUI) runs on the built-in
defaults and so need not load pydantic before its first frame; ``config.load_settings`` uses
the same discovery.
"""

from __future__ import annotations

from pathlib import Path

from whichtool_tui.errors import WhichtoolError

CONFIG_FILE_NAMES = ("whichtool.config.json", "whichtool.config.yaml", "whichtool.config.yml")


def discover_config(cwd: Path) -> Path | None:
    """Return the config file in ``cwd``, or None; two candidates at once is an error."""
    found = [cwd / name for name in CONFIG_FILE_NAMES if (cwd / name).is_file()]
    if len(found) > 1:
        raise WhichtoolError(
            "config/ambiguous",
            f"Found more than one config file: {', '.join(p.name for p in found)}",
            "Keep one, or choose with --config <file>.",
        )
    return found[0] if found else None


def config_to_load(explicit: str | None = None, cwd: Path | None = None) -> bool:
    """True when ``load_settings(explicit, cwd)`` has a file to read; False when it would
    return the built-in defaults (raises as it does when two config files compete)."""
    return explicit is not None or discover_config(cwd or Path.cwd()) is not None
