"""The home screen's first frame loads no engine, report model or receipt code (launch speed)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # starts a fresh Python process

# Modules the home screen does not need: each costs launch time, and each loads on first use.
DEFERRED = (
    "whichtool_tui.evaluation.engine",
    "whichtool_tui.evaluation.report_model",
    "whichtool_tui.tasks.model",
    "whichtool_tui.arcade.receipt",
    "whichtool_tui.ui.bout_model",
    "whichtool_tui.ui.run_control",
)

PROBE = """
import asyncio, sys
from whichtool_tui.config import load_settings
from whichtool_tui.ui.app import StartPoint, WhichtoolApp

async def main():
    app = WhichtoolApp(start=StartPoint(settings=load_settings()))  # as `whichtool-tui` does
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert app.screen.query_one("#demo-panel") is not None
        assert app.session.run_form is not None
        print("provider", app.session.run_form.provider)
        print("loaded", *sorted(name for name in DEFERRED if name in sys.modules))

DEFERRED = {deferred!r}
asyncio.run(main())
"""


def test_home_first_frame_defers_the_engine_and_models(tmp_path: Path) -> None:
    probe = PROBE.format(deferred=DEFERRED)
    result = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        cwd=tmp_path,
        stdin=subprocess.DEVNULL,
        env={**os.environ, "WHICHTOOL_TUI_STATE_DIR": str(tmp_path / "state")},
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert "provider keyword" in lines
    assert lines[-1] == "loaded", f"imported before the home screen's first frame: {lines[-1]}"
