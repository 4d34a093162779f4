"""One config, three faces: the CLI, the TUI's Run screen and the MCP server run alike.

The options each face would spend are compared field for field, and each face then spends a
real keyword run whose report must carry the same settings block.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Input

from tests.support.demo_workspace import demo_workspace
from tests.support.mcp_session import call, mcp_session
from tests.support.ui import wait_until
from whichtool_tui.cli import build_parser, main
from whichtool_tui.commands.mcp_server import server_options
from whichtool_tui.commands.run import build_options
from whichtool_tui.config import load_settings
from whichtool_tui.evaluation.engine import RunOptions
from whichtool_tui.evaluation.report_model import RunReport
from whichtool_tui.server.arguments import RunArguments
from whichtool_tui.server.handlers import run_options_for
from whichtool_tui.ui.app import StartPoint, WhichtoolApp
from whichtool_tui.ui.run_control import prepare_from_session
from whichtool_tui.ui.screens.run import RunScreen
from whichtool_tui.ui.session import TargetChoice

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("isolated_state")]

SIZE = (120, 40)
CONFIG: dict[str, Any] = {
    "target": {"transport": "snapshot", "path": "demo-lab.json"},
    "tasks": "demo-lab.tasks.yaml",
    "provider": {"name": "keyword"},
    "trials": {
        "seed": 7,
        "concurrency": 2,
        "repeat": 3,
        "temperature": 0.5,
        "maxTools": 8,
        "maxTrials": 40,
    },
    "thresholds": {
        "minAccuracy": 0.25,
        "maxOverTrigger": 0.9,
        "maxErrorRate": 0.2,
        "minScored": 3,
        "maxContextTokens": 100_000,
    },
    "inspect": {"rules": {"names/subject-not-in-description": "off"}},
}
EXPECTED = RunOptions(
    repeat=3,
    seed=7,
    concurrency=2,
    temperature=0.5,
    max_trials=40,
    max_tools=8,
)


@pytest.fixture
def workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder with the demo surface, its tasks and the config, as the working directory."""
    return demo_workspace(tmp_path, CONFIG, monkeypatch)


def settings_block(report: RunReport) -> dict[str, Any]:
    """What a run was held to and how it sampled: must not depend on the face."""
    repro = report.reproducibility
    execution = report.execution
    return {
        "seed": repro.seed,
        "repeat": repro.repeat,
        "temperature": repro.temperature,
        "concurrency": repro.concurrency,
        "permuted": repro.permuted,
        "reasoningEffort": repro.reasoning_effort,
        "planned": execution.planned,
        "maxErrorRate": execution.max_error_rate,
        "minScored": execution.min_scored,
        "thresholds": [t.model_dump() for t in report.thresholds],
    }


def cli_options() -> RunOptions:
    args = build_parser().parse_args(["--no-ui", "run"])
    return build_options(args, load_settings(args.config))


def mcp_options(workspace: Path) -> RunOptions:
    args = build_parser().parse_args(["mcp", "--config", str(workspace / "whichtool.config.json")])
    return run_options_for(server_options(args), RunArguments())


def screen_options(app: WhichtoolApp) -> RunOptions:
    """The options the Run screen would spend on ``r``: its fields over the merged form."""
    screen = app.screen
    assert isinstance(screen, RunScreen)
    return prepare_from_session(app.session, screen.repeat(), screen.seconds_per_trial()).options


def expected_options() -> RunOptions:
    from dataclasses import replace

    from whichtool_tui.evaluation.thresholds import ThresholdSettings

    gates = ThresholdSettings(
        min_accuracy=0.25,
        max_over_trigger=0.9,
        max_context_tokens=100_000,
        max_error_rate=0.2,
        min_scored=3,
    )
    return replace(EXPECTED, thresholds=gates)


async def test_one_config_gives_the_same_options_and_run_on_every_face(workspace: Path) -> None:
    expected = expected_options()
    assert cli_options() == expected
    assert mcp_options(workspace) == expected

    # The CLI spends it headless.
    cli_argv = ["--no-ui", "run", "--format", "json", "--out", "cli.json"]
    assert await asyncio.to_thread(main, cli_argv) in (0, 1)
    from whichtool_tui.evaluation.reader import load_run_report

    cli_report = load_run_report(workspace / "cli.json")

    # The TUI, reached from home: inspect the target, open the task set, go to Run, press r.
    app = WhichtoolApp()
    async with app.run_test(size=SIZE) as pilot:
        app.inspect_target(TargetChoice("snapshot", str(workspace / "demo-lab.json")))
        await app.workers.wait_for_complete()
        app.open_path(str(workspace / "demo-lab.tasks.yaml"))
        await pilot.press("3")
        await pilot.pause()
        assert app.screen.query_one("#run-repeat", Input).value == "3"
        assert screen_options(app) == expected
        await pilot.press("r")
        await app.workers.wait_for_complete()
        assert app.session.run is not None
        home_report = app.session.run

    # The TUI's demo: its run uses the same config.
    demo = WhichtoolApp(start=StartPoint(demo=True))
    async with demo.run_test(size=SIZE) as pilot:
        await wait_until(  # generous: the demo inspects, runs and starts a bout on 2 cores
            pilot, lambda: demo.session.run is not None, "the demo's run finished", 180.0
        )
        await demo.workers.wait_for_complete()
        demo_report = demo.session.run
        assert demo_report is not None
        await pilot.press("3")
        await pilot.pause()
        assert screen_options(demo) == expected

    # The MCP server's run_evaluation, over real stdio, with the full report in a file.
    config = workspace / "whichtool.config.json"
    async with mcp_session(workspace, ["--result-file", "mcp.json"], config=config) as session:
        body = await call(session, "run_evaluation")
    assert "error" not in body, body
    mcp_report = load_run_report(workspace / "mcp.json")

    blocks = [settings_block(r) for r in (cli_report, home_report, demo_report, mcp_report)]
    assert blocks[0]["seed"] == 7 and blocks[0]["repeat"] == 3 and blocks[0]["concurrency"] == 2
    assert blocks[0]["planned"] == 30 and blocks[0]["minScored"] == 3
    assert all(block == blocks[0] for block in blocks), blocks
