"""The Open prompt completes paths: typed start, right arrow, the whole file name."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Input

from tests.support.ui import wait_until
from whichtool_tui.ui.app import WhichtoolApp
from whichtool_tui.ui.modals.path_prompt import PathPrompt

pytestmark = pytest.mark.usefixtures("isolated_state")


def make_file(path: Path) -> None:
    path.write_text("[]", encoding="utf-8")


async def test_right_arrow_takes_the_completed_path(tmp_path: Path) -> None:
    make_file(tmp_path / "only-snapshot.json")
    app = WhichtoolApp()
    async with app.run_test(size=(120, 40)) as pilot:
        app.ask_open_file()
        await pilot.pause()
        assert isinstance(app.screen, PathPrompt)
        field = app.screen.query_one("#path", Input)
        field.focus()
        await pilot.press(*f"{tmp_path}/on")
        await wait_until(pilot, lambda: bool(field._suggestion), "a completion is suggested")
        await pilot.press("right")
        assert field.value == f"{tmp_path}/only-snapshot.json"
