"""One focus and escape model: escape leaves a text field (the next key is a key), then closes
the innermost view, then goes back; nothing focuses a hidden widget; enter on a row opens it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Input

from tests.support.ui import LAB_TOOLS, UI_DATA, wait_until
from tests.support.ui_run import open_lab_run
from whichtool_tui.artefacts import load_artefact
from whichtool_tui.ui.app import WhichtoolApp
from whichtool_tui.ui.modals.task_editor import TaskEditor
from whichtool_tui.ui.screens.surface import SurfaceScreen
from whichtool_tui.ui.widgets.timeline import RpcTimeline

SIZE = (120, 40)
pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("isolated_state")]  # the whole app


def focus_is_visible(app: WhichtoolApp) -> bool:
    """Nothing holds the focus, or what does is on screen (a hidden field would eat keys)."""
    focused = app.screen.focused
    return focused is None or (focused.display and focused.visible and focused.is_on_screen)


async def test_slash_on_an_empty_surface_traps_no_keys() -> None:
    app = WhichtoolApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("1")
        assert app.current_mode == "surface"
        assert focus_is_visible(app), app.screen.focused
        await pilot.press("slash")
        assert focus_is_visible(app), app.screen.focused
        search = app.screen.query_one("#surface-search", Input)
        await pilot.press("2")
        assert search.value == ""
        assert app.current_mode == "tasks"


async def test_an_empty_surface_offers_no_keys_that_do_nothing() -> None:
    app = WhichtoolApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("1")
        screen = app.screen
        for action in ("search", "view_pair", "toggle_raw", "save_snapshot", "reinspect"):
            assert not screen.check_action(action, ()), action
        assert screen.check_action("back", ())


@pytest.mark.parametrize("field", ["#run-model", "#run-base-url", "#run-repeat", "#run-seconds"])
async def test_escape_leaves_a_run_form_field_and_the_next_key_is_a_key(
    tmp_path: Path, field: str
) -> None:
    app = WhichtoolApp()
    async with app.run_test(size=SIZE) as pilot:
        await open_lab_run(app, pilot, tmp_path, "1")
        box = app.screen.query_one(field, Input)
        box.focus()
        await pilot.pause()
        before = box.value
        await pilot.press("escape")
        assert app.screen.focused is None
        assert app.current_mode == "run"  # the first escape only left the field
        await pilot.press("p", "4")
        assert box.value == before
        assert app.current_mode == "results"


async def test_escape_leaves_the_home_target_field() -> None:
    app = WhichtoolApp()
    async with app.run_test(size=SIZE) as pilot:
        box = app.screen.query_one("#target-value", Input)
        box.focus()
        await pilot.press("escape", "1")
        assert box.value == ""
        assert app.current_mode == "surface"


async def test_escape_leaves_the_bout_filters_for_the_wire() -> None:
    app = WhichtoolApp(load_artefact(UI_DATA / "lab-receipt.json"))
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.current_mode == "bout", "the receipt opened")
        for field in ("#f-search", "#f-method"):
            box = app.screen.query_one(field, Input)
            box.focus()
            await pilot.press("escape")
            assert app.screen.focused is not box
            assert isinstance(app.screen.focused, RpcTimeline)
            await pilot.press("x")  # clear filters, not typed
            assert box.value == ""
        assert app.current_mode == "bout"


@pytest.mark.parametrize("section", ["surface", "tasks", "run", "results", "bout"])
async def test_escape_on_a_section_goes_back(section: str) -> None:
    app = WhichtoolApp()
    async with app.run_test(size=SIZE) as pilot:
        app.switch_mode(section)
        await pilot.pause()
        app.screen.set_focus(None)
        await pilot.press("escape")
        assert app.current_mode == "home"
        await pilot.press("escape")  # on home escape stops: quitting is q or ^q
        assert app.is_running and app.current_mode == "home"


async def surface_of_tools(app: WhichtoolApp, pilot: Any) -> SurfaceScreen:
    await wait_until(pilot, lambda: app.session.surface is not None, "the snapshot inspected")
    await wait_until(pilot, lambda: isinstance(app.screen, SurfaceScreen), "on the Surface")
    screen = app.screen
    assert isinstance(screen, SurfaceScreen)
    return screen


@pytest.mark.parametrize("key", ["q", "escape"])
async def test_q_or_escape_closes_the_raw_json_view_before_leaving(key: str) -> None:
    app = WhichtoolApp(load_artefact(LAB_TOOLS))
    async with app.run_test(size=SIZE) as pilot:
        screen = await surface_of_tools(app, pilot)
        await pilot.press("j")
        assert screen._raw
        await pilot.press(key)
        assert app.current_mode == "surface" and not screen._raw
        await pilot.press(key)
        assert app.current_mode == "home"


async def test_escape_closes_the_surface_search_and_keeps_its_filter() -> None:
    app = WhichtoolApp(load_artefact(LAB_TOOLS))
    async with app.run_test(size=SIZE) as pilot:
        screen = await surface_of_tools(app, pilot)
        await pilot.press("slash", *"user")
        search = screen.query_one("#surface-search", Input)
        assert search.value == "user"
        await pilot.press("escape")
        assert not search.display and focus_is_visible(app)
        assert screen.focused is not None and screen.focused.id == "tools"
        await pilot.press("2")
        assert app.current_mode == "tasks"


async def test_enter_on_a_task_row_edits_it(tmp_path: Path) -> None:
    app = WhichtoolApp(load_artefact(UI_DATA / "lab-tasks.yaml"))
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.current_mode == "tasks", "the task set opened")
        await pilot.press("down", "enter")
        assert isinstance(app.screen, TaskEditor)
        await pilot.press("escape")
        assert app.current_mode == "tasks" and not isinstance(app.screen, TaskEditor)
