"""Recent lists files, never folders, and what the app saves joins it: runs, receipts, task
sets; a snapshot named by the config is remembered as its file."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from textual.widgets import Input

from tests.support.ui import UI_DATA, wait_until
from whichtool_tui.artefacts import load_artefact
from whichtool_tui.ui.app import WhichtoolApp
from whichtool_tui.ui.recent import load_recent
from whichtool_tui.ui.session import TargetChoice

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("isolated_state")]  # the whole app
SIZE = (120, 40)


def all_files(paths: list[str]) -> bool:
    return all(Path(path).is_file() for path in paths)


def recent_kinds() -> dict[str, str]:
    return {entry.path: entry.kind for entry in load_recent()}


async def save_through_prompt(app: WhichtoolApp, pilot: object, key: str, target: Path) -> None:
    await pilot.press(key)  # type: ignore[attr-defined]
    await pilot.pause()  # type: ignore[attr-defined]
    app.screen.query_one("#path", Input).value = str(target)
    await pilot.press("enter")  # type: ignore[attr-defined]
    await app.workers.wait_for_complete()
    await pilot.pause()  # type: ignore[attr-defined]


async def test_a_saved_run_and_task_set_join_recent(tmp_path: Path) -> None:
    app = WhichtoolApp(load_artefact(UI_DATA / "lab-run.json"))
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.current_mode == "results", "the run opened")
        await save_through_prompt(app, pilot, "s", tmp_path / "saved-run.json")
        tasks = tmp_path / "tasks.yaml"
        shutil.copy(UI_DATA / "lab-tasks.yaml", tasks)
        app.open_path(str(tasks))
        await wait_until(pilot, lambda: app.current_mode == "tasks", "the task set opened")
        await save_through_prompt(app, pilot, "s", tmp_path / "saved.tasks.yaml")
    kinds = recent_kinds()
    assert kinds[str((tmp_path / "saved-run.json").resolve())] == "run-report"
    assert kinds[str((tmp_path / "saved.tasks.yaml").resolve())] == "task-set"
    assert all_files(list(kinds))


async def test_a_saved_receipt_joins_recent(tmp_path: Path) -> None:
    app = WhichtoolApp(load_artefact(UI_DATA / "lab-receipt.json"))
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.current_mode == "bout", "the receipt opened")
        await save_through_prompt(app, pilot, "s", tmp_path / "kept-receipt.json")
    assert recent_kinds()[str((tmp_path / "kept-receipt.json").resolve())] == "receipt"


async def test_a_config_named_snapshot_is_remembered_as_its_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    snapshot = tmp_path / "lab.json"
    shutil.copy(UI_DATA / "lab-tools.json", snapshot)
    config = {"target": {"transport": "snapshot", "path": "lab.json"}}
    (tmp_path / "whichtool.config.json").write_text(json.dumps(config), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    app = WhichtoolApp()
    async with app.run_test(size=SIZE) as pilot:
        await app.inspect_target(TargetChoice("snapshot", "")).wait()  # "": the config's
        await pilot.pause()
        assert app.session.surface is not None
    assert list(recent_kinds()) == [str(snapshot.resolve())]
