"""Pilot tests: the TUI's save prompts ask before overwriting and never create a folder
(issue 12, item 3). A missing folder is refused in one line naming it, and the prompt stays
open; an existing file is replaced only after a yes."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from textual.widgets import Input, Static

from tests.support.ui import UI_DATA, static_text
from whichtool_tui.artefacts import load_artefact
from whichtool_tui.ui.app import WhichtoolApp
from whichtool_tui.ui.modals.confirm import ConfirmModal
from whichtool_tui.ui.modals.path_prompt import PathPrompt

SIZE = (120, 40)

pytestmark = pytest.mark.usefixtures("isolated_state")


async def test_an_existing_file_is_replaced_only_after_yes(tmp_path: Path) -> None:
    existing = tmp_path / "run.json"
    existing.write_text("keep me\n", encoding="utf-8")
    app = WhichtoolApp(load_artefact(UI_DATA / "lab-run.json"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("s")
        assert isinstance(app.screen, PathPrompt)
        app.screen.query_one("#path", Input).value = str(existing)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmModal)  # asked, nothing written yet
        assert existing.read_text(encoding="utf-8") == "keep me\n"
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, PathPrompt)  # no: back to the prompt, file untouched
        assert existing.read_text(encoding="utf-8") == "keep me\n"
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmModal)
        await pilot.press("y")
        await pilot.pause()
        assert not isinstance(app.screen, (PathPrompt, ConfirmModal))
    saved = json.loads(existing.read_text(encoding="utf-8"))
    assert saved["schemaVersion"] == "whichtool.run/2"


async def test_a_missing_folder_is_refused_in_one_line_and_never_created(tmp_path: Path) -> None:
    missing = tmp_path / "no-such-folder" / "deeper"
    app = WhichtoolApp(load_artefact(UI_DATA / "lab-run.json"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("s")
        app.screen.query_one("#path", Input).value = str(missing / "run.json")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, PathPrompt)  # still asking: nothing was written
        error = static_text(app.screen.query_one("#path-error", Static))
        assert error.count("\n") == 0 and "does not exist" in error
        assert "no-such-folder/deeper" in error
        assert not (tmp_path / "no-such-folder").exists()
        # A new name in an existing folder is saved without a question.
        fresh = tmp_path / "fresh.json"
        app.screen.query_one("#path", Input).value = str(fresh)
        await pilot.press("enter")
        await pilot.pause()
        assert not isinstance(app.screen, (PathPrompt, ConfirmModal))
    assert json.loads(fresh.read_text(encoding="utf-8"))["schemaVersion"] == "whichtool.run/2"


async def test_a_folder_is_refused_and_saving_back_to_the_opened_file_does_not_ask(
    tmp_path: Path,
) -> None:
    task_file = tmp_path / "tasks.yaml"
    shutil.copy(UI_DATA / "lab-tasks.yaml", task_file)
    app = WhichtoolApp(load_artefact(task_file))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("s")
        assert isinstance(app.screen, PathPrompt)
        prompt = app.screen.query_one("#path", Input)
        default = prompt.value
        prompt.value = str(tmp_path)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, PathPrompt)
        assert "is a directory" in static_text(app.screen.query_one("#path-error", Static))
        prompt.value = default  # the file the set was opened from
        await pilot.press("enter")
        await pilot.pause()
        assert not isinstance(app.screen, (PathPrompt, ConfirmModal))
    assert "tasks:" in task_file.read_text(encoding="utf-8")
