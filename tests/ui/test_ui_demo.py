"""The offline demo end to end in the app: inspect, keyword run, fixture bout; then save."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.widgets import DataTable, Input, Static

from tests.support.ui import live_children, static_text, wait_until
from whichtool_tui.ui.app import WhichtoolApp
from whichtool_tui.ui.widgets.heatmap import ConfusionHeatmap
from whichtool_tui.ui.widgets.surface_tables import ToolTable
from whichtool_tui.ui.widgets.timeline import RpcTimeline

pytestmark = pytest.mark.usefixtures("isolated_state")


@pytest.mark.slow
async def test_demo_fills_every_section(tmp_path: Path) -> None:
    app = WhichtoolApp()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("d")
        session = app.session
        # The demo worker starts the run and bout workers; wait for what they leave behind.
        await wait_until(
            pilot,
            lambda: session.run is not None and session.bout is not None,
            "the demo's run and bout finished",
        )
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert session.surface is not None and len(session.surface.tools) == 6
        assert session.tasks is not None and len(session.tasks.tasks) == 10
        assert session.run is not None and session.run.reproducibility.provider == "keyword"
        assert session.run.execution.planned == 50
        assert session.bout is not None and session.bout.receipt is not None
        assert app.current_mode == "surface"
        assert app.screen.query_one("#tools", ToolTable).row_count == 6
        await pilot.press("2")
        assert app.screen.query_one("#task-table", DataTable).row_count == 10
        await pilot.press("3")
        await wait_until(
            pilot,
            lambda: "finished" in static_text(app.screen.query_one("#run-stats", Static)),
            "the Run screen says the demo run finished",
        )
        await pilot.press("4")
        await pilot.pause()
        assert app.screen.query_one(ConfusionHeatmap).rows[-1] == "(none)"
        await pilot.press("5")
        await pilot.pause()
        assert len(app.screen.query_one(RpcTimeline).rows) > 10
        await pilot.press("f", "s")
        target = tmp_path / "r.json"
        app.screen.query_one("#path", Input).value = str(target)
        await pilot.press("enter")
        # The receipt is written off the UI thread, by a worker the prompt's answer starts (a
        # message after the key); the file appears whole (written aside, then renamed).
        await wait_until(pilot, target.exists, "the receipt was written")
        saved = json.loads(target.read_text())
        assert saved["operator_call"] == {"recorded": True, "guess": "followed", "skipped": False}
    assert live_children() == []  # every fixture server of the bout is gone


@pytest.mark.slow
async def test_start_point_demo_runs_the_demo_without_a_key_press() -> None:
    from whichtool_tui.ui.app import StartPoint

    app = WhichtoolApp(start=StartPoint(demo=True))
    async with app.run_test(size=(120, 40)) as pilot:
        session = app.session
        await wait_until(
            pilot,
            lambda: session.run is not None and session.bout is not None,
            "the demo started from the command line finished",
        )
        await app.workers.wait_for_complete()
        assert session.surface is not None and len(session.surface.tools) == 6
        assert session.run is not None and session.run.reproducibility.provider == "keyword"
