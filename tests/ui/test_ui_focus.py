"""Focus moves the product decides are made at once, never a message later, and a widget that
is replaced while focused never hands the focus along the chain (to an Input, where the next
section key would be typed): under load a key is often already on its way."""

from __future__ import annotations

import pytest
from textual.widgets import Button, DataTable, Input

from tests.support.ui import LAB_INSPECT, UI_DATA, wait_until
from whichtool_tui.artefacts import load_artefact
from whichtool_tui.ui.app import WhichtoolApp
from whichtool_tui.ui.screens.bout import BoutScreen
from whichtool_tui.ui.screens.surface import SurfaceScreen
from whichtool_tui.ui.widgets.timeline import RpcTimeline

SIZE = (120, 40)
pytestmark = [
    pytest.mark.slow,
    pytest.mark.usefixtures("isolated_state"),
]  # runs the whole TUI app


async def test_home_starts_on_the_demo_button() -> None:
    app = WhichtoolApp()
    async with app.run_test(size=SIZE) as pilot:
        focused = app.screen.focused
        assert isinstance(focused, Button) and focused.id == "demo"
        await pilot.press("1")
        assert app.current_mode == "surface"


async def test_surface_search_gives_the_focus_back_before_the_field_hides() -> None:
    app = WhichtoolApp(load_artefact(LAB_INSPECT))
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.current_mode == "surface", "the surface opened")
        screen = app.screen
        assert isinstance(screen, SurfaceScreen)
        search = screen.query_one("#surface-search", Input)
        screen.action_search()
        assert screen.focused is search  # at once: a letter typed next is a filter
        await pilot.press(*"user")
        assert search.value == "user"
        screen.search_done()
        # At once: a hidden field that kept the focus would take the next key.
        assert screen.focused is screen.query_one("#tools", DataTable)
        assert not search.display
        await pilot.press("2")
        assert app.current_mode == "tasks"


async def test_bout_keys_move_the_focus_at_once() -> None:
    app = WhichtoolApp(load_artefact(UI_DATA / "lab-receipt.json"))
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(
            pilot, lambda: isinstance(app.screen.focused, RpcTimeline), "the wire holds the focus"
        )
        screen = app.screen
        assert isinstance(screen, BoutScreen)
        timeline = screen.focused
        screen.action_search()
        assert screen.focused is screen.query_one("#f-search", Input)
        screen.action_focus_timeline()
        assert screen.focused is timeline
        screen.action_search()
        screen.action_next_mark(1)
        assert screen.focused is timeline
        await pilot.press("0")
        assert app.current_mode == "home"
