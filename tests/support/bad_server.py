"""The deliberately misbehaving stdio server (misbehaving_server.py) as a config target."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from tests.support.paths import MISBEHAVING_SERVER
from whichtool_tui.config import parse_config
from whichtool_tui.targets import TargetSpec, resolve_target


def bad_server_spec(mode: str, pidfile: Path | None = None) -> TargetSpec:
    """The misbehaving server as a config target, so its env comes from config `env`."""
    target: dict[str, Any] = {
        "transport": "stdio",
        "command": sys.executable,
        "args": [str(MISBEHAVING_SERVER), mode],
    }
    if pidfile is not None:
        target["env"] = {"MISBEHAVE_PIDFILE": str(pidfile)}
    return resolve_target(None, None, parse_config({"target": target}, "test"))
