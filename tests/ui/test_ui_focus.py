"""Focus moves the product decides are made at once, never a message later, and a widget that
is replaced while focused never hands the focus along the chain (to an Input, where the next
section key would be typed): under load a key is often already on its way."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.widgets import Button, Input, Static

from tests.support.ui import LAB_INSPECT, UI_DATA, static_text, wait_until, wide_run
from whichtool_tui.artefacts import load_artefact
from whichtool_tui.ui.app import WhichtoolApp
from whichtool_tui.ui.run_control import RunProgress
from whichtool_tui.ui.screens.bout import BoutScreen
from whichtool_tui.ui.screens.results import ResultsScreen
from whichtool_tui.ui.screens.run import RunScreen
from whichtool_tui.ui.screens.surface import SurfaceScreen
from whichtool_tui.ui.widgets.heatmap import ConfusionHeatmap
from whichtool_tui.ui.widgets.surface_tables import ToolTable
from whichtool_tui.ui.widgets.timeline import RpcTimeline
from whichtool_tui.usecases.saved_runs import parse_report

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
        assert screen.focused is screen.query_one("#tools", ToolTable)
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


async def test_a_second_report_is_shown_in_the_focused_heatmap(tmp_path: Path) -> None:
    app = WhichtoolApp(load_artefact(UI_DATA / "lab-run.json"))
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(
            pilot,
            lambda: isinstance(app.screen.focused, ConfusionHeatmap),
            "the heatmap holds the focus",
        )
        screen = app.screen
        assert isinstance(screen, ResultsScreen)
        heatmap = screen.query_one(ConfusionHeatmap)
        await pilot.press("down", "right")
        wide = wide_run(tmp_path / "wide.json")
        app.session.run = parse_report(json.loads(wide.read_text()), "wide.json")
        # A new grid mounted under the old one's id while that one was still being removed
        # stopped the app (DuplicateIds); the grid is shown again, holding the focus.
        app.refresh_sections()
        assert screen.focused is heatmap and "get-resource-links" in heatmap.rows
        assert heatmap.cursor == (0, 0)
        await pilot.press("right")
        assert heatmap.cursor == (0, 1)  # the arrow reached the new grid
        said = f"{heatmap.rows[0]} → {heatmap.columns[1]}:"
        await wait_until(pilot, lambda: said in cell_info(screen), "the new cell is described")
        assert len(screen.query(ConfusionHeatmap)) == 1


def cell_info(screen: ResultsScreen) -> str:
    return static_text(screen.query_one("#cell-info", Static))


async def test_a_live_heatmap_over_other_tools_keeps_the_focus() -> None:
    app = WhichtoolApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("3")
        screen = app.screen
        assert isinstance(screen, RunScreen)
        first = RunProgress(planned=4, provider="keyword", tools=frozenset({"a", "b"}))
        first.done = 1  # the live panes show once a trial is in
        app.session.progress = first
        screen.draw_progress()
        heatmap = screen.query_one("#run-heatmap", ConfusionHeatmap)
        await wait_until(pilot, lambda: heatmap.is_mounted, "the live heatmap is mounted")
        screen.set_focus(heatmap)
        other = RunProgress(planned=4, provider="keyword", tools=frozenset({"c", "d", "e"}))
        other.done = 1
        app.session.progress = other
        screen.draw_progress()  # stopped the app (DuplicateIds) while it built a second grid
        assert screen.focused is heatmap and "e" in heatmap.rows
        assert len(screen.query(ConfusionHeatmap)) == 1
        await pilot.pause()
        assert app.is_running
