"""Bare ``whichtool-tui`` in a folder with a config offers its target and task set."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from textual.widgets import Input

from tests.support.ui import UI_DATA, wait_until
from whichtool_tui.ui.app import WhichtoolApp

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("isolated_state")]  # the whole app


def project(folder: Path) -> None:
    shutil.copy(UI_DATA / "lab-tools.json", folder / "lab.json")
    shutil.copy(UI_DATA / "lab-tasks.yaml", folder / "lab.tasks.yaml")
    config = {"target": {"transport": "snapshot", "path": "lab.json"}, "tasks": "lab.tasks.yaml"}
    (folder / "whichtool.config.json").write_text(json.dumps(config), encoding="utf-8")


async def test_the_configs_target_and_tasks_are_offered_and_opened(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project(tmp_path)
    monkeypatch.chdir(tmp_path)
    app = WhichtoolApp()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        field = app.screen.query_one("#target-value", Input)
        assert field.value == "lab.json"
        assert "lab.tasks.yaml" in str(app.screen.query_one("#target-panel").border_subtitle)
        app.screen.query_one("#open-target").press()
        await wait_until(pilot, lambda: app.session.surface is not None, "the target inspected")
        assert app.current_mode == "surface"
        assert app.session.tasks is not None
        assert Path(app.session.tasks.path).name == "lab.tasks.yaml"


async def test_no_config_leaves_the_form_empty(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    app = WhichtoolApp()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert app.screen.query_one("#target-value", Input).value == ""
        assert not app.screen.query_one("#target-panel").border_subtitle
