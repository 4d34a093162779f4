"""Where a person decides, the plan says which values a config file chose (issue 25).

A discovered config can set a run's limits and sampling; the ``run --dry-run`` plan, the Run
screen's plan and the MCP server's JSON plan say so, and the Run screen's fields keep the
config's source until the user edits them (then ``form``, even typed back to the same text).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Input, Static

from tests.support.demo_workspace import demo_workspace
from tests.support.mcp_session import call, mcp_session
from tests.support.ui import static_text
from whichtool_tui.cli import main
from whichtool_tui.ui.app import WhichtoolApp
from whichtool_tui.ui.screens.run import RunScreen
from whichtool_tui.ui.session import TargetChoice

pytestmark = pytest.mark.usefixtures("isolated_state")

CONFIG: dict[str, Any] = {
    "target": {"transport": "snapshot", "path": "demo-lab.json"},
    "tasks": "demo-lab.tasks.yaml",
    "provider": {"name": "keyword"},
    "trials": {"repeat": 3, "seed": 7, "maxTrials": 40, "maxTools": 9},
    "thresholds": {"minAccuracy": 0.5},
}
FROM_CONFIG = "trials.repeat 3, trials.seed 7, thresholds.minAccuracy 0.5"


@pytest.fixture
def workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    return demo_workspace(tmp_path, CONFIG, monkeypatch)


def test_the_dry_run_plan_marks_what_the_config_set(
    workspace: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--no-ui", "run", "--dry-run"]) == 0
    plan = capsys.readouterr().out
    assert "safety limit  40 trials (config; hard maximum 1000)" in plan
    assert "tool limit    9 tools (config; the surface has" in plan
    assert f"from config   {FROM_CONFIG}\n" in plan
    assert main(["--no-ui", "run", "--dry-run", "--max-trials", "30", "--repeat", "2"]) == 0
    typed = capsys.readouterr().out
    assert "safety limit  30 trials (hard maximum 1000)" in typed
    assert "from config   trials.seed 7, thresholds.minAccuracy 0.5\n" in typed


@pytest.mark.slow
async def test_the_mcp_plan_carries_the_sources(workspace: Path) -> None:
    config = workspace / "whichtool.config.json"
    async with mcp_session(workspace, ["--max-tools", "8"], config=config) as session:
        body = await call(session, "run_evaluation", dryRun=True, repeat=2)
    assert "error" not in body, body
    assert body["data"]["plan"]["sources"] == {
        "repeat": "agent",
        "seed": "config",
        "maxTrials": "config",
        "maxTools": "flag",
        "minAccuracy": "config",
    }


def plan_text(screen: RunScreen) -> str:
    return " ".join(static_text(screen.query_one("#run-plan", Static)).split())


@pytest.mark.slow
async def test_the_run_screen_keeps_the_config_source_until_a_field_is_edited(
    workspace: Path,
) -> None:
    app = WhichtoolApp()
    async with app.run_test(size=(120, 40)) as pilot:
        app.inspect_target(TargetChoice("snapshot", str(workspace / "demo-lab.json")))
        await app.workers.wait_for_complete()
        app.open_path(str(workspace / "demo-lab.tasks.yaml"))
        await pilot.press("3")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, RunScreen)
        repeat = screen.query_one("#run-repeat", Input)
        assert repeat.value == "3"
        setup = screen._setup(quiet=True)
        assert setup is not None
        assert setup.options.sources["repeat"] == "config"
        assert setup.options.sources["max_trials"] == "config"
        shown = plan_text(screen)
        assert "40 trials (config)" in shown and "9 tools (config)" in shown
        assert f"from config: {FROM_CONFIG}" in shown

        repeat.focus()
        repeat.action_end()
        await pilot.press("backspace", "3")  # typed back to the same text: the user's now
        await pilot.pause()
        assert repeat.value == "3"
        setup = screen._setup(quiet=True)
        assert setup is not None and setup.options.repeat == 3
        assert setup.options.sources["repeat"] == "form"
        assert "from config: trials.seed 7, thresholds.minAccuracy 0.5" in plan_text(screen)
