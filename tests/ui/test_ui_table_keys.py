"""One Home/End meaning in every table: the first and the last row (as in the timeline)."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import DataTable

from tests.support.ui import LAB_INSPECT, UI_DATA, wait_until
from whichtool_tui.artefacts import load_artefact
from whichtool_tui.ui.app import WhichtoolApp
from whichtool_tui.ui.widgets.virtual_table import VirtualTable

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("isolated_state")]  # the whole app


@pytest.mark.parametrize(
    ("opened", "section", "table"),
    [
        (LAB_INSPECT, "surface", "#tools"),
        (LAB_INSPECT, "surface", "#findings"),
        (UI_DATA / "lab-tasks.yaml", "tasks", "#task-table"),
    ],
)
async def test_home_and_end_go_to_the_first_and_last_row(
    opened: Path, section: str, table: str
) -> None:
    app = WhichtoolApp(load_artefact(opened))
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: app.current_mode == section, f"{section} opened")
        grid = app.screen.query_one(table)
        assert isinstance(grid, DataTable | VirtualTable)
        await wait_until(pilot, lambda: grid.row_count > 1, "the table filled")
        grid.focus()
        await pilot.press("end")
        assert cursor_of(grid) == grid.row_count - 1
        assert grid.scroll_x == 0
        await pilot.press("home")
        assert cursor_of(grid) == 0


def cursor_of(grid: DataTable[object] | VirtualTable) -> int:
    return grid.cursor_row if isinstance(grid, DataTable) else grid.cursor
