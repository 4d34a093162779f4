"""A working folder with the demo surface, its task set and a config, for the face tests."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.support.paths import SNAPSHOTS


def demo_workspace(folder: Path, config: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> Path:
    """Copy the demo surface and tasks into ``folder``, write ``config`` beside them, and make
    the folder the working directory (where config discovery looks)."""
    shutil.copy(SNAPSHOTS / "demo-lab.json", folder / "demo-lab.json")
    shutil.copy(SNAPSHOTS / "demo-lab.tasks.yaml", folder / "demo-lab.tasks.yaml")
    (folder / "whichtool.config.json").write_text(json.dumps(config), encoding="utf-8")
    monkeypatch.chdir(folder)
    return folder
