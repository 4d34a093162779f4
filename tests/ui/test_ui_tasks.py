"""Pilot tests of the Tasks section: edit the table, lint follows, mutations, save round trip."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import DataTable, Input, Select, Static

from tests.support.fake_apis import chat_reply, fake_api_server
from tests.support.ui import UI_DATA, lab_report, lab_tools, static_text
from whichtool_tui.artefacts import load_artefact
from whichtool_tui.tasks.load import load_task_set
from whichtool_tui.ui.app import WhichtoolApp
from whichtool_tui.ui.modals.generate import GenerateDialog
from whichtool_tui.ui.modals.mutation_preview import MutationPreview
from whichtool_tui.ui.modals.task_editor import TaskEditor
from whichtool_tui.ui.surface_model import build_surface_view

SIZE = (120, 40)


pytestmark = [
    pytest.mark.slow,
    pytest.mark.usefixtures("isolated_state"),
]  # starts processes or servers


@pytest.fixture
def task_file(tmp_path: Path) -> Path:
    target = tmp_path / "tasks.yaml"
    shutil.copy(UI_DATA / "lab-tasks.yaml", target)
    return target


def lint_text(app: WhichtoolApp) -> str:
    return static_text(app.screen.query_one("#tasks-lint", Static))


async def test_open_task_set_shows_table_and_lint(task_file: Path) -> None:
    app = WhichtoolApp(load_artefact(task_file))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.current_mode == "tasks"
        table = app.screen.query_one("#task-table", DataTable)
        assert table.row_count == 4
        assert "— none —" in str(table.get_row_at(3)[2])
        assert "no surface loaded" in lint_text(app)
        # With the surface loaded, coverage findings appear.
        app.session.surface = build_surface_view(lab_report(), lab_tools())
        app.refresh_sections()
        await pilot.pause()
        assert "tasks/uncovered-tools" in lint_text(app)
        assert "delete_user" in lint_text(app)


async def test_add_edit_delete_copy_and_save_round_trip(task_file: Path, tmp_path: Path) -> None:
    app = WhichtoolApp(load_artefact(task_file))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.session.surface = build_surface_view(lab_report(), lab_tools())
        app.refresh_sections()
        await pilot.pause()
        app.screen.query_one("#task-table", DataTable).focus()
        await pilot.press("a")
        assert isinstance(app.screen, TaskEditor)
        app.screen.query_one("#task-id", Input).value = "users.delete"
        app.screen.query_one("#task-prompt", Input).value = "Remove the account of user 42"
        app.screen.query_one("#task-expected", Select).value = "delete_user"
        await pilot.click("#task-save")
        await pilot.pause()
        assert not isinstance(app.screen, TaskEditor)
        state = app.session.tasks
        assert state is not None and state.dirty
        assert state.tasks[-1].expected == "delete_user"
        assert "tasks/uncovered-tools" not in lint_text(app)
        # Duplicate id is refused inside the editor.
        await pilot.press("a")
        app.screen.query_one("#task-id", Input).value = "users.list"
        app.screen.query_one("#task-prompt", Input).value = "x"
        await pilot.click("#task-save")
        assert isinstance(app.screen, TaskEditor)
        assert "already used" in static_text(app.screen.query_one("#task-error"))
        await pilot.press("escape")
        table = app.screen.query_one("#task-table", DataTable)
        assert table.has_focus
        table.move_cursor(row=0)
        await pilot.press("c")
        assert state.tasks[1].id == "users.list.copy"
        assert "tasks/duplicate-prompt" in lint_text(app)
        await pilot.press("d")
        assert [task.id for task in state.tasks][:2] == ["users.list", "users.search"]
        table.move_cursor(row=0)
        await pilot.press("e")
        app.screen.query_one("#task-prompt", Input).value = "List all users please"
        await pilot.click("#task-save")
        await pilot.pause()
        assert state.tasks[0].prompt == "List all users please"
        saved = tmp_path / "out.yaml"
        await pilot.press("s")
        app.screen.query_one("#path", Input).value = str(saved)
        await pilot.press("enter")
        await pilot.pause()
        assert not state.dirty
        reloaded = load_task_set(saved).task_set
        assert reloaded.tasks == state.tasks


async def test_mutation_preview_adds_variants(task_file: Path) -> None:
    app = WhichtoolApp(load_artefact(task_file))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.screen.query_one("#task-table", DataTable).focus()
        await pilot.press("m")
        assert isinstance(app.screen, MutationPreview)
        shown = app.screen.query_one("#mutation-table", DataTable).row_count
        assert shown > 0
        await pilot.press("a")
        await pilot.pause()
        state = app.session.tasks
        assert state is not None and len(state.tasks) == 4 + shown
        assert all(task.derived_from is not None for task in state.tasks[4:])


DRAFT = {
    "tasks": [
        {
            "id": "users.all",
            "prompt": "Who is in my workspace?",
            "expected": "list_users",
            "tags": ["read"],
        },
        {
            "id": "users.find",
            "prompt": "Find Ada's account",
            "expected": "search_users",
            "tags": ["read"],
        },
        {
            "id": "users.remove",
            "prompt": "Remove Bob's account for good",
            "expected": "delete_user",
            "tags": ["write"],
        },
        {
            "id": "weather.now",
            "prompt": "Is it raining in Oslo?",
            "expected": "get_weather",
            "tags": ["read"],
        },
        {"id": "made.up", "prompt": "Archive the team", "expected": "archive_team", "tags": []},
        {
            "id": "distractor.rename",
            "prompt": "Rename the workspace",
            "expected": None,
            "tags": ["distractor"],
        },
    ]
}


@pytest.fixture
def drafting_server() -> Iterator[str]:
    """A Chat Completions endpoint on loopback that answers every request with DRAFT as text."""
    with fake_api_server() as api:
        api.responder = lambda _request: chat_reply(text=json.dumps(DRAFT), usage=None)
        yield api.base_url + "/v1"


async def draft_with(app: WhichtoolApp, pilot: Pilot[None], base_url: str, out: Path) -> None:
    """Fill the open Generate dialog for the drafting server, press Go and wait for the draft."""
    app.screen.query_one("#gen-provider", Select).value = "openai-compatible"
    app.screen.query_one("#gen-model", Input).value = "m"
    app.screen.query_one("#gen-base-url", Input).value = base_url
    app.screen.query_one("#gen-path", Input).value = str(out)
    await pilot.click("#gen-go")
    await app.workers.wait_for_complete()
    await pilot.pause()


async def test_generate_drafts_and_refuses_to_overwrite(
    drafting_server: str, tmp_path: Path
) -> None:
    app = WhichtoolApp()
    async with app.run_test(size=SIZE) as pilot:
        app.session.surface = build_surface_view(lab_report(), lab_tools())
        await pilot.press("2", "g")
        assert isinstance(app.screen, GenerateDialog)
        out = tmp_path / "draft.yaml"
        await draft_with(app, pilot, drafting_server, out)
        state = app.session.tasks
        assert state is not None and state.path == str(out)
        assert [t.id for t in state.tasks] == [
            "users.all",
            "users.find",
            "users.remove",
            "weather.now",
            "distractor.rename",
        ]
        assert load_task_set(out).task_set.tasks == state.tasks
        assert app.screen.query_one("#task-table", DataTable).row_count == 5
        before = out.read_text()
        await pilot.press("g")
        await draft_with(app, pilot, drafting_server, out)
        assert out.read_text() == before
        assert any("already exists" in n.message for n in app._notifications)
