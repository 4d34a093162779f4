"""Pilot tests that a stray key never loses work: confirmations, undo, comments kept on save."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from textual.widgets import Button, DataTable, Input, Select

from tests.support.processes import wait_for
from tests.support.ui import UI_DATA, lab_report, lab_tools, live_children, wait_until
from whichtool_tui.artefacts import load_artefact
from whichtool_tui.tasks.load import load_task_set
from whichtool_tui.ui.app import WhichtoolApp
from whichtool_tui.ui.modals.confirm import ConfirmModal
from whichtool_tui.ui.modals.quit import QuitModal
from whichtool_tui.ui.modals.task_editor import TaskEditor
from whichtool_tui.ui.session import TargetChoice
from whichtool_tui.ui.surface_model import build_surface_view

SIZE = (120, 40)
pytestmark = pytest.mark.usefixtures("isolated_state")


def opening(path: Path) -> str:
    return path.read_text(encoding="utf-8")[:200]


def text_of(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def bytes_of(path: Path) -> bytes:
    return path.read_bytes()


@pytest.fixture
def task_file(tmp_path: Path) -> Path:
    target = tmp_path / "tasks.yaml"
    target.write_text(
        "# Tasks for the lab surface.\n# Keep distractor.joke: it is the over-trigger probe.\n"
        + (UI_DATA / "lab-tasks.yaml").read_text(encoding="utf-8"),
        encoding="utf-8",
    )
    return target


async def test_tasks_arrive_focused_and_delete_is_undone(task_file: Path) -> None:
    app = WhichtoolApp(load_artefact(task_file))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        table = app.screen.query_one("#task-table", DataTable)
        assert table.has_focus and table.cursor_row == 0  # keys work at once, on a visible row
        state = app.session.tasks
        assert state is not None
        await pilot.press("down", "d")
        assert [t.id for t in state.tasks] == ["users.list", "weather.rome", "distractor.joke"]
        assert any("u undoes" in n.message for n in app._notifications)
        await pilot.press("u")
        assert [t.id for t in state.tasks][:2] == ["users.list", "users.search"]
        assert table.row_count == 4
        await pilot.press("c", "d", "d")  # copy, then two deletes: undone one at a time
        assert len(state.tasks) == 3
        await pilot.press("u", "u", "u")
        assert [t.id for t in state.tasks] == [
            "users.list",
            "users.search",
            "weather.rome",
            "distractor.joke",
        ]
        assert app.screen.check_action("undo", ()) is False  # nothing left: hidden from footer


async def test_quit_with_unsaved_edits_asks_and_no_keeps_the_app(task_file: Path) -> None:
    app = WhichtoolApp(load_artefact(task_file))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("d")
        await pilot.press("ctrl+q")
        assert isinstance(app.screen, QuitModal)
        assert "unsaved edits" in str(app.screen.query_one("Static").content)
        await pilot.press("enter")  # Cancel holds the focus: ^q Enter keeps the edits
        assert not isinstance(app.screen, QuitModal) and app.is_running
        await pilot.press("ctrl+q", "n")
        assert not isinstance(app.screen, QuitModal) and app.is_running
        await pilot.press("q")  # a section's q goes home, never out of the app
        assert app.current_mode == "home" and app.is_running
        await pilot.press("q")  # q on home quits, but asks first: the edits are not saved
        assert isinstance(app.screen, QuitModal)
        await pilot.press("y")
        await pilot.pause()
        assert not app.is_running
        assert app.cancelled_on_quit == []  # unsaved edits are not "cancelled work"


async def test_quit_with_nothing_at_risk_does_not_ask() -> None:
    app = WhichtoolApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("2")
        await pilot.press("q")
        assert app.current_mode == "home"
        await pilot.press("q")
        await pilot.pause()
        assert not app.is_running


@pytest.mark.slow
async def test_quit_while_inspecting_asks_and_says_what_was_cancelled(tmp_path: Path) -> None:
    silent = tmp_path / "silent_server.py"
    silent.write_text("import time\ntime.sleep(120)\n", encoding="utf-8")
    app = WhichtoolApp()
    async with app.run_test(size=SIZE) as pilot:
        app.inspect_target(TargetChoice("stdio", f"{sys.executable} {silent}"))
        await wait_until(pilot, lambda: bool(live_children()), "the server process started")
        await pilot.press("ctrl+q")
        assert isinstance(app.screen, QuitModal)
        assert "inspecting the target" in str(app.screen.query_one("Static").content)
        await pilot.press("ctrl+q")  # a second ctrl+q confirms
        await pilot.pause()
    assert app.cancelled_on_quit == ["inspecting the target"]
    assert wait_for(lambda: not live_children(), 10), "the server outlived the app"


async def test_save_and_quit_writes_the_edits_then_exits(task_file: Path) -> None:
    app = WhichtoolApp(load_artefact(task_file))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("d")
        assert app.session.tasks is not None and app.session.tasks.dirty
        left = [task.id for task in app.session.tasks.tasks]
        await pilot.press("ctrl+q")
        assert isinstance(app.screen, QuitModal)
        app.screen.query_one("#quit-save", Button).press()
        await pilot.pause()
        await pilot.pause()
        assert not app.is_running
    assert [task.id for task in load_task_set(task_file).task_set.tasks] == left


async def test_save_keeps_the_files_opening_comments(task_file: Path, tmp_path: Path) -> None:
    """The file is kept as written: the user's comments stay where they were, first."""
    written = text_of(task_file)
    app = WhichtoolApp(load_artefact(task_file))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("d", "s")
        await pilot.press("enter")  # the default is the file it came from
        await pilot.pause()
    header = written.split("\ntasks:")[0]
    assert text_of(task_file).split("\ntasks:")[0] == header
    assert opening(task_file).startswith(
        "# Tasks for the lab surface.\n# Keep distractor.joke: it is the over-trigger probe.\n"
    )
    assert len(load_task_set(task_file).task_set.tasks) == 3


async def test_an_empty_task_set_starts_without_a_model(tmp_path: Path) -> None:
    out = tmp_path / "new.yaml"
    app = WhichtoolApp()
    async with app.run_test(size=SIZE) as pilot:
        app.session.surface = build_surface_view(lab_report(), lab_tools())
        await pilot.press("2", "n")
        state = app.session.tasks
        assert state is not None and state.tasks == []
        assert state.surface == app.session.surface.surface_hash
        await pilot.press("a")
        assert isinstance(app.screen, TaskEditor)
        app.screen.query_one("#task-id", Input).value = "users.list"
        app.screen.query_one("#task-prompt", Input).value = "Show me every user"
        app.screen.query_one("#task-expected", Select).value = "list_users"
        await pilot.click("#task-save")
        await pilot.pause()
        assert [t.id for t in state.tasks] == ["users.list"] and state.dirty
        await pilot.press("n")  # a second new set would drop the edit: it asks
        assert isinstance(app.screen, ConfirmModal)
        await pilot.press("escape")
        await pilot.press("s")
        app.screen.query_one("#path", Input).value = str(out)
        await pilot.press("enter")
        await pilot.pause()
        assert not state.dirty
    assert [t.id for t in load_task_set(out).task_set.tasks] == ["users.list"]


async def test_save_never_offers_a_path_inside_the_installed_package() -> None:
    from whichtool_tui.ui.app import load_tasks_state
    from whichtool_tui.ui.engine import demo_folder

    folder = demo_folder()
    assert folder is not None
    app = WhichtoolApp()
    async with app.run_test(size=SIZE) as pilot:
        app.session.tasks = load_tasks_state(str(folder / "demo-lab.tasks.yaml"))
        await pilot.press("2", "s")
        await pilot.pause()
        assert app.screen.query_one("#path", Input).value == "demo-lab.tasks.yaml"
        await pilot.press("escape")


async def test_an_unedited_save_from_the_tasks_screen_keeps_the_bytes(task_file: Path) -> None:
    written = bytes_of(task_file)
    app = WhichtoolApp(load_artefact(task_file))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("s", "enter")
        await pilot.pause()
    assert bytes_of(task_file) == written
