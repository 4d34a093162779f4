"""Pilot tests: the Results screen shows the task-level numbers; the Run plan shows its power."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from textual.widgets import Static

from tests.support.ui import UI_DATA, static_text
from tests.support.ui_run import SIZE, open_lab_run, power_sized
from whichtool_tui.artefacts import load_artefact
from whichtool_tui.evaluation.engine import RunOptions
from whichtool_tui.ui.app import WhichtoolApp
from whichtool_tui.ui.session import RunForm

pytestmark = pytest.mark.usefixtures("isolated_state")


async def test_results_show_clustered_intervals_consistency_and_position() -> None:
    # lab-run.json predates the statistics block: the reader fills it in.
    app = WhichtoolApp(load_artefact(UI_DATA / "lab-run.json"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        text = static_text(app.screen.query_one("#results-statistics", Static))
        assert "By task: accuracy [" in text and " tasks" in text
        assert "pass^1 " in text and "unchanged: " in text
        assert "First-position advantage" in text


async def test_run_plan_shows_the_power_of_the_task_level_gate(tmp_path: Path) -> None:
    app = WhichtoolApp()
    async with app.run_test(size=SIZE) as pilot:
        await open_lab_run(app, pilot, tmp_path, "3")
        await pilot.press("p")
        await power_sized(app, pilot)
        plan = static_text(app.screen.query_one("#run-plan", Static))
        assert "sizing" not in plan
        assert "to detect a 5-point drop" in plan and "no pilot run given" in plan
        assert "can never gate: fewer than 6 changed tasks" in plan
        assert "80% power (spread):" in plan
    options = dataclasses.replace(RunOptions(), detect=0.2, baseline=str(UI_DATA / "lab-run.json"))
    app = WhichtoolApp()
    async with app.run_test(size=SIZE) as pilot:
        form = RunForm(cache_dir=str(tmp_path / "cache"), options=options)
        await open_lab_run(app, pilot, tmp_path, "3", form)
        await pilot.press("p")
        await power_sized(app, pilot)
        plan = static_text(app.screen.query_one("#run-plan", Static))
        assert "sizing" not in plan
        assert "to detect a 20-point drop" in plan and "per-task rates of the pilot run" in plan
