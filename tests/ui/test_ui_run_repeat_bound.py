"""The Run screen refuses a repeat outside the declared range by name instead of clamping it
(issue 25, item 5: no silent clamping anywhere)."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Static

from tests.support.ui_run import SIZE, open_lab_run
from whichtool_tui.ui.app import WhichtoolApp

pytestmark = pytest.mark.slow  # runs the whole app


async def test_a_repeat_over_the_limit_is_refused_not_clamped(tmp_path: Path) -> None:
    app = WhichtoolApp()
    async with app.run_test(size=SIZE) as pilot:
        await open_lab_run(app, pilot, tmp_path, "1001")
        await pilot.press("p")
        await pilot.pause()
        plan = str(app.screen.query_one("#run-plan", Static).render())
        assert "--repeat 1001 is outside 1-1000" in plan
        await pilot.press("r")
        await pilot.pause()
        assert app.session.progress is None  # nothing was planned with 1000 instead
