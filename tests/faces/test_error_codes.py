"""One error code per condition, whichever face notices it: the CLI, the TUI or the MCP server.

Each row is one condition; each face is driven through its own entry point (the CLI's command,
the TUI's run worker, the MCP server's tool handler) and must report the row's code.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from tests.support.paths import SNAPSHOTS
from whichtool_tui.cli import build_parser
from whichtool_tui.commands import run as run_command
from whichtool_tui.config import parse_config
from whichtool_tui.errors import TASKS_INVALID, TOOL_LIMIT, TRIAL_LIMIT, WhichtoolError
from whichtool_tui.server import envelope
from whichtool_tui.server.app import _tool_handlers
from whichtool_tui.server.handlers import ServerState
from whichtool_tui.server.options import ServerOptions
from whichtool_tui.ui.app import WhichtoolApp, load_tasks_state
from whichtool_tui.ui.run_control import prepare_from_session
from whichtool_tui.ui.session import TargetChoice
from whichtool_tui.usecases.options import ProviderChoice

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("isolated_state")]

BAD_TASKS = "version: 1\ntasks:\n  - id: t1\n    prompt: do it\n    expected: no_such_tool\n"


@pytest.fixture
def workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The demo surface (6 tools), its 10 tasks and a task set naming a missing tool."""
    shutil.copy(SNAPSHOTS / "demo-lab.json", tmp_path / "demo-lab.json")
    shutil.copy(SNAPSHOTS / "demo-lab.tasks.yaml", tmp_path / "demo-lab.tasks.yaml")
    (tmp_path / "bad.tasks.yaml").write_text(BAD_TASKS, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


# condition -> (CLI flags, MCP operator options and agent arguments, TUI run knobs)
CONDITIONS: dict[str, dict[str, Any]] = {
    TRIAL_LIMIT: {
        "cli": ["--repeat", "10"],  # 100 trials > the default budget of 50
        "mcp": ({"max_trials": 10}, {"repeat": 5}),
        "tui": {"repeat": 10},
    },
    TOOL_LIMIT: {
        "cli": ["--max-tools", "2"],
        "mcp": ({"max_tools": 2}, {"repeat": 1}),
        "tui": {"repeat": 1, "max_tools": 2},
    },
    TASKS_INVALID: {
        "cli": ["--tasks", "bad.tasks.yaml"],
        "mcp": ({}, {"repeat": 1, "tasks": "bad.tasks.yaml"}),
        "tui": None,  # the Run screen blocks the run on lint errors before any worker starts
    },
    "provider/unknown": {
        "cli": ["--provider", "no-such-provider"],
        "mcp": (
            {"allow_provider_overrides": True, "allow_paid_runs": True},
            {"repeat": 1, "provider": "no-such-provider"},
        ),
        "tui": {"repeat": 1, "provider": "no-such-provider"},
    },
}


def cli_code(flags: list[str]) -> str:
    argv = ["--no-ui", "run", "demo-lab.json", "--tasks", "demo-lab.tasks.yaml"]
    argv += ["--provider", "keyword", "--no-cache", *flags]
    args = build_parser().parse_args(argv)
    with pytest.raises(WhichtoolError) as caught:
        run_command.execute(args)
    return caught.value.code


async def mcp_code(workspace: Path, operator: dict[str, Any], arguments: dict[str, Any]) -> str:
    settings = parse_config(
        {
            "target": {"transport": "snapshot", "path": "demo-lab.json"},
            "tasks": "demo-lab.tasks.yaml",
            "provider": {"name": "keyword"},
        },
        "test config",
    )
    state = ServerState(ServerOptions(settings=settings, workspace=workspace, **operator))
    handler: Callable[[ServerState, dict[str, Any]], Awaitable[dict[str, Any]]]
    handler = _tool_handlers()["run_evaluation"]
    try:  # exactly as the server's call_tool turns a raised error into the envelope
        body = await handler(state, arguments)
    except WhichtoolError as error:
        body = envelope.failure(error)
    code: str = body["error"]["code"]
    return code


async def tui_code(workspace: Path, knobs: dict[str, Any]) -> str:
    from dataclasses import replace

    app = WhichtoolApp()
    async with app.run_test(size=(120, 40)) as pilot:
        app.inspect_target(TargetChoice("snapshot", str(workspace / "demo-lab.json")))
        await app.workers.wait_for_complete()
        app.session.tasks = load_tasks_state(str(workspace / "demo-lab.tasks.yaml"))
        setup = prepare_from_session(app.session, knobs["repeat"])
        if "max_tools" in knobs:
            setup = replace(setup, options=replace(setup.options, max_tools=knobs["max_tools"]))
        choice = ProviderChoice(knobs.get("provider", "keyword"), None, None, "preset")
        app.start_run(setup, choice, use_cache=False)
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.session.last_error is not None
        return app.session.last_error.code


@pytest.mark.parametrize("condition", list(CONDITIONS))
async def test_one_code_per_condition_on_every_face(workspace: Path, condition: str) -> None:
    row = CONDITIONS[condition]
    import asyncio

    codes = {"cli": await asyncio.to_thread(cli_code, row["cli"])}
    codes["mcp"] = await mcp_code(workspace, *row["mcp"])
    if row["tui"] is not None:
        codes["tui"] = await tui_code(workspace, row["tui"])
    assert codes == dict.fromkeys(codes, condition), json.dumps(codes)
