"""The home screen's first frame loads no engine, report model, receipt code or pydantic (launch
speed); neither does a big receipt's."""

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
    "whichtool_tui.config",  # the config's models: with no config file, built when first read
    "pydantic",
)

PROBE = """
import asyncio, sys
from whichtool_tui.ui.app import StartPoint, WhichtoolApp

async def main():
    app = WhichtoolApp(start=StartPoint())  # as `whichtool-tui` does where there is no config
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert app.screen.query_one("#demo-panel") is not None
        loaded = sorted(name for name in DEFERRED if name in sys.modules)
        print("provider", app.session.run_form.provider)  # the defaults, built now
        print("loaded", *loaded)

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


# What a big receipt's first frame does without: its models load with its validation, after it;
# it opens on the Bout screen, with no home screen built behind it.
RECEIPT_DEFERRED = (
    "whichtool_tui.arcade.receipt",
    "whichtool_tui.config",
    "pydantic",
    "whichtool_tui.ui.screens.home",
)

RECEIPT_PROBE = """
import asyncio, os, sys
from whichtool_tui.usecases.artefacts import open_artefact
from whichtool_tui.ui.app import FIRST_ROWS, WhichtoolApp

def first_frame_drawn(app, bout):  # the app calls it once the receipt's first frame is drawn
    print("rows", len(bout.rows), "total", bout.total, flush=True)
    print("loaded", *sorted(name for name in DEFERRED if name in sys.modules), flush=True)
    os._exit(0)

WhichtoolApp.finish_bout = first_frame_drawn
DEFERRED = {deferred!r}

async def main():
    app = WhichtoolApp(open_artefact(sys.argv[1], wire_checked_to=FIRST_ROWS))  # as `open` does
    async with app.run_test(size=(120, 40)):
        await asyncio.sleep(120)

asyncio.run(main())
"""


def test_a_big_receipts_first_frame_comes_before_its_models(tmp_path: Path) -> None:
    """The receipt's pydantic models (and the config's) load after the first frame."""
    from tests.support.ui import big_receipt

    receipt = tmp_path / "big-receipt.json"
    big_receipt(receipt, 5_000)
    result = subprocess.run(
        [sys.executable, "-c", RECEIPT_PROBE.format(deferred=RECEIPT_DEFERRED), str(receipt)],
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
    assert "total 5000" in lines[0]
    assert lines[-1] == "loaded", f"imported before the receipt's first frame: {lines[-1]}"
