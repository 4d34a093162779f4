"""The temporary XDG cache and state homes every test runs under (see tests/conftest.py)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest


@dataclass(frozen=True)
class PlatformDirs:
    """The XDG cache and state homes a test runs under (never the user's own)."""

    cache_home: Path
    state_home: Path

    @property
    def cache(self) -> Path:
        """The trial cache's default folder under them."""
        return self.cache_home / "whichtool-tui"

    @property
    def sandbox(self) -> Path:
        """The bout sandbox's default folder under them."""
        return self.state_home / "whichtool-tui" / "arcade-sandbox"


def point_platform_dirs(patch: pytest.MonkeyPatch, root: Path) -> PlatformDirs:
    """Point ``$XDG_CACHE_HOME`` and ``$XDG_STATE_HOME`` (read by platformdirs) into ``root``."""
    dirs = PlatformDirs(cache_home=root / "cache", state_home=root / "state")
    patch.setenv("XDG_CACHE_HOME", str(dirs.cache_home))
    patch.setenv("XDG_STATE_HOME", str(dirs.state_home))
    return dirs
