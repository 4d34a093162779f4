"""Which commands open the TUI, on which screen, and with what; and that headless stays headless.

The decision tests fake only the terminal (``isatty``); the StartPoint a command builds is
recorded at ``run_app``, the one door into the interactive face. Pilot tests then open those
StartPoints in the real app.
"""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import DataTable, Input, Select, Static

from tests.support.paths import REPO
from tests.support.ui import LAB_TOOLS, UI_DATA, live_children, static_text
from whichtool_tui.cli import build_parser, main
from whichtool_tui.ui.app import StartPoint, WhichtoolApp
from whichtool_tui.ui.session import ReviewOptions, RunForm
from whichtool_tui.ui.widgets.surface_tables import FindingTable, ToolTable

SIZE = (120, 40)
DEMO = REPO / "snapshots" / "demo-lab.json"
DEMO_TASKS = REPO / "snapshots" / "demo-lab.tasks.yaml"
LAB_RUN = UI_DATA / "lab-run.json"
LAB_HEAD = UI_DATA / "lab-run-head.json"
LAB_RUN_TASKS = UI_DATA / "lab-run-tasks.yaml"
FIXTURE_CMD = f"{sys.executable} -m whichtool_tui.arcade.fixture"


class Tty(io.StringIO):
    """A text stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


pytestmark = [
    pytest.mark.slow,
    pytest.mark.usefixtures("isolated_state"),
]  # starts processes or servers


class TerminalSys:
    """The ``sys`` the CLI's terminal check sees: stdin and stdout are terminals."""

    stdin = Tty()
    stdout = Tty()

    def __getattr__(self, name: str) -> Any:
        return getattr(sys, name)


@pytest.fixture
def terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """As when a person types the command (output itself still goes to pytest's capture)."""
    monkeypatch.setattr("whichtool_tui.commands._parser.sys", TerminalSys())


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """Every call that would open the app, with its arguments (the app itself is not run)."""
    calls: list[dict[str, Any]] = []

    def record(artefact: Any = None, debug: bool = False, start: StartPoint | None = None) -> int:
        calls.append({"artefact": artefact, "start": start})
        return 0

    monkeypatch.setattr("whichtool_tui.ui.app.run_app", record)
    return calls


def decision(argv: list[str]) -> bool:
    """What the command's own opens_tui says for these arguments."""
    import importlib

    args, _extras = build_parser().parse_known_args(argv)
    if args.command == "tasks":
        module = importlib.import_module("whichtool_tui.commands.tasks")
        return bool(module.lint_opens_tui(args))
    module = importlib.import_module(f"whichtool_tui.commands.{args.command}")
    return bool(module.opens_tui(args))


CASES = [
    (["inspect", str(DEMO)], True),
    (["inspect", "--transport", "stdio", FIXTURE_CMD], True),
    (["inspect", "http://127.0.0.1:9/mcp"], True),
    (["inspect", str(DEMO), "--max-tools", "3", "--max-context-tokens", "10"], True),
    (["inspect", str(DEMO), "--format", "json"], False),
    (["inspect", str(DEMO), "--out", "r.txt"], False),
    (["inspect", str(DEMO), "--save-snapshot", "s.json"], False),
    (["run", str(DEMO), "--tasks", str(DEMO_TASKS)], True),
    (["run", str(DEMO), "--dry-run"], False),
    (["run", str(DEMO), "--format", "json"], False),
    (["run", str(DEMO), "--out", "r.json"], False),
    (["tasks", "lint", str(DEMO)], True),
    (["tasks", "lint", str(DEMO), "--format", "json"], False),
    (["bout", "--target", "fixture"], True),
    (["bout", "--target", "fixture", "--no-prompt"], False),
    (["diff", str(LAB_RUN), str(LAB_HEAD)], True),
    (["diff", str(LAB_RUN), str(LAB_HEAD), "--format", "markdown"], False),
    (["diff", str(LAB_RUN), str(LAB_HEAD), "--out", "d.txt"], False),
]


@pytest.mark.parametrize(("argv", "expected"), CASES)
def test_decision_on_a_terminal(argv: list[str], expected: bool, terminal: None) -> None:
    assert decision(argv) is expected
    assert decision(["--no-ui", *argv]) is False
    assert decision([*argv, "--no-ui"]) is False


@pytest.mark.parametrize(("argv", "_expected"), CASES)
def test_no_terminal_never_opens_the_app(argv: list[str], _expected: bool) -> None:
    assert decision(argv) is False  # pytest's stdin is not a terminal


def test_headless_faces_are_unchanged_with_no_ui(
    terminal: None, opened: list[dict[str, Any]], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--no-ui", "inspect", str(DEMO)]) == 0  # warnings only: the review passes
    assert "overlap/high" in capsys.readouterr().out
    assert main(["--no-ui", "diff", str(LAB_RUN), str(LAB_HEAD)]) == 0
    assert "diff/resolved-confusion" in capsys.readouterr().out
    assert main(["--no-ui", "tasks", "lint", str(DEMO), "--tasks", str(DEMO_TASKS)]) == 0
    assert capsys.readouterr().out
    assert opened == []


def test_inspect_opens_live_and_config_targets(
    terminal: None, opened: list[dict[str, Any]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert main(["inspect", "--transport", "stdio", FIXTURE_CMD, "--max-tools", "3"]) == 0
    start = opened[-1]["start"]
    assert start.target == ("stdio", FIXTURE_CMD) and start.section == "surface"
    assert start.review == ReviewOptions(None, 3, None, None)
    assert main(["inspect", "http://127.0.0.1:9/mcp"]) == 0
    assert opened[-1]["start"].target == ("http", "http://127.0.0.1:9/mcp")
    monkeypatch.chdir(tmp_path)
    config = {"target": {"transport": "snapshot", "path": str(DEMO)}}
    (tmp_path / "whichtool.config.json").write_text(json.dumps(config))
    assert main(["inspect"]) == 0
    assert opened[-1]["start"].target == ("snapshot", "")  # the app reads the config target


def test_bad_input_is_refused_before_the_app_opens(
    terminal: None,
    opened: list[dict[str, Any]],
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    assert main(["inspect", "not-a-target"]) == 2
    assert main(["run", "not-a-target", "--tasks", str(DEMO_TASKS)]) == 2
    assert main(["bout", "--target", "stdio"]) == 2  # needs --cmd: said before any window
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    assert main(["inspect", str(broken)]) == 2
    bad_tasks = tmp_path / "tasks.yaml"
    bad_tasks.write_text("version: 1\ntasks: [&a {id: x}]\n")  # anchors are refused
    assert main(["run", str(DEMO), "--tasks", str(bad_tasks)]) == 2
    assert main(["tasks", "lint", str(DEMO), "--tasks", str(bad_tasks)]) == 2
    assert opened == []
    err = capsys.readouterr().err
    assert err.count("whichtool-tui: ") == 6 and "Traceback" not in err


def test_run_tasks_bout_and_diff_build_their_start_points(
    terminal: None, opened: list[dict[str, Any]], tmp_path: Path
) -> None:
    argv = ["run", str(DEMO), "--tasks", str(DEMO_TASKS), "--repeat", "2", "--seed", "7"]
    assert main([*argv, "--provider", "mock"]) == 0
    start = opened[-1]["start"]
    assert start.section == "run" and start.tasks == str(DEMO_TASKS)
    assert start.target == ("snapshot", str(DEMO))
    form = start.run_form
    assert form.provider == "mock" and form.options.repeat == 2 and form.options.seed == 7
    assert form.cache is None and form.cache_dir is None  # the cache on, at its default folder
    cache_dir = str(tmp_path / "c")
    assert main([*argv, "--no-cache", "--cache-dir", cache_dir]) == 0
    form = opened[-1]["start"].run_form
    assert form.cache is False and form.cache_dir == cache_dir

    assert main(["tasks", "lint", str(DEMO), "--tasks", str(DEMO_TASKS)]) == 0
    start = opened[-1]["start"]
    assert start.section == "tasks" and start.target == ("snapshot", str(DEMO))

    receipt = tmp_path / "r.json"
    argv = ["bout", "--target", "fixture", "--atoms", "inspect.tools_list", "-o", str(receipt)]
    assert main([*argv, "--sandbox", str(tmp_path / "sb")]) == 0
    start = opened[-1]["start"]
    assert start.bout.kind == "fixture" and start.bout.atom_ids == ["inspect.tools_list"]
    assert start.bout_output == str(receipt) and not receipt.exists()  # the app runs it

    assert main(["diff", str(LAB_RUN), str(LAB_HEAD)]) == 0
    start = opened[-1]["start"]
    assert start.section == "results" and start.diff.comparable is True  # the typed report
    assert live_children() == []


async def test_run_start_point_shows_the_plan_and_spends_nothing() -> None:
    from whichtool_tui.commands.run import build_options
    from whichtool_tui.config import Settings

    args, _ = build_parser().parse_known_args(["run", "--repeat", "2", "--seed", "7"])
    form = RunForm(provider="mock", model="m1", options=build_options(args, Settings()))
    start = StartPoint(
        target=("snapshot", str(LAB_TOOLS)), tasks=str(LAB_RUN_TASKS), section="run", run_form=form
    )
    app = WhichtoolApp(start=start)
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.current_mode == "run"
        plan = static_text(app.screen.query_one("#run-plan", Static))
        assert "6 tasks × 2 repeats = 12 trials" in plan and "seed 7" in plan
        assert app.screen.query_one("#run-provider", Select).value == "mock"
        assert app.screen.query_one("#run-model", Input).value == "m1"
        assert app.session.progress is None and app.session.run is None


async def test_tasks_and_diff_start_points_open_their_screens() -> None:
    lab = ("snapshot", str(LAB_TOOLS))
    start = StartPoint(target=lab, tasks=str(LAB_RUN_TASKS), section="tasks")
    app = WhichtoolApp(start=start)
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.current_mode == "tasks"
        assert app.session.surface is not None and app.session.tasks is not None
        assert app.screen.query_one("#task-table", DataTable).row_count == 6
    data = json.loads((UI_DATA / "lab-diff.json").read_text())
    app = WhichtoolApp(start=StartPoint(diff=data, section="results"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.current_mode == "results"
        assert app.screen.query_one("#diff-body").display
        shown = static_text(app.screen.query_one("#diff-view", Static))
        assert "resolved list_users <-> search_users" in shown


async def test_stdio_start_point_inspects_a_live_server() -> None:
    app = WhichtoolApp(start=StartPoint(target=("stdio", FIXTURE_CMD), section="surface"))
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.current_mode == "surface"
        view = app.session.surface
        assert view is not None and view.transport == "stdio" and view.rules_known
        assert app.screen.query_one("#tools", ToolTable).row_count == len(view.tools) > 0
    assert live_children() == []


async def test_config_rule_off_hides_its_finding_and_shows_off(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    rules = {"annotations/partial-coverage": "off", "descriptions/identical": "warning"}
    (tmp_path / "whichtool.config.json").write_text(json.dumps({"inspect": {"rules": rules}}))
    app = WhichtoolApp(start=StartPoint(target=("snapshot", str(LAB_TOOLS))))
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        view = app.session.surface
        assert view is not None
        codes = {finding.code: finding.severity for finding in view.findings}
        assert "annotations/partial-coverage" not in codes
        assert codes["descriptions/identical"] == "warning"
        findings = app.screen.query_one("#findings", FindingTable)
        assert findings.row_count == len(view.findings)
        first = findings.cells(0)
        assert "fix:" in str(first[-1])  # the worst finding carries its fix under its message
        table = app.screen.query_one("#rules", DataTable)
        assert not table.display
        await pilot.press("k")
        assert table.display
        severity, setting, _code = table.get_row("annotations/partial-coverage")
        assert str(severity) == "○ off" and str(setting) == "off by config"
        assert str(table.get_row_at(0)[2]) == "annotations/partial-coverage"  # off first
        severity, setting, _ = table.get_row("descriptions/identical")
        assert "warn" in str(severity) and str(setting) == "was error"
        severity, setting, _ = table.get_row("surface/malformed-tool")
        assert str(setting) == "fixed"
        assert "1 off" in str(table.border_title)
        await pilot.press("k")
        assert not table.display


async def test_saved_report_lists_rules_with_config_unknown() -> None:
    from whichtool_tui.artefacts import load_artefact

    app = WhichtoolApp(load_artefact(UI_DATA / "lab-inspect.json"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("k")
        table = app.screen.query_one("#rules", DataTable)
        assert table.display and "config unknown" in str(table.border_subtitle)
        assert "0 off" in str(table.border_title)


def test_exit_codes_after_the_app_follow_what_the_session_holds() -> None:
    import argparse

    from whichtool_tui.commands import bout as bout_command
    from whichtool_tui.commands import run as run_command
    from whichtool_tui.evaluation.reader import load_run_report
    from whichtool_tui.reports.run_verdict import run_exit_code
    from whichtool_tui.ui.bout_model import view_of_receipt
    from whichtool_tui.ui.session import Session

    assert run_command._ui_exit(Session()) == 0  # quit before running: nothing was judged
    report = load_run_report(str(LAB_RUN))
    assert run_command._ui_exit(Session(run=report)) == run_exit_code(report)
    strict = argparse.Namespace(strict=True)
    assert bout_command._ui_exit(Session(), strict) == 2  # the bout failed: no receipt
    receipt = json.loads((UI_DATA / "lab-receipt.json").read_text())
    session = Session(bout=view_of_receipt(receipt, "lab"))
    results = {atom["result"] for atom in receipt["atoms"]}
    assert "fail" in results and "error" not in results
    assert bout_command._ui_exit(session, strict) == 1
    assert bout_command._ui_exit(session, argparse.Namespace(strict=False)) == 0


def test_inspect_exit_code_after_the_app_is_the_reviews() -> None:
    from whichtool_tui.commands import inspect as inspect_command
    from whichtool_tui.ui.session import Session
    from whichtool_tui.ui.surface_model import build_surface_view

    assert inspect_command._ui_exit(Session()) == 2  # the target never loaded
    report = json.loads((UI_DATA / "lab-inspect.json").read_text())
    assert report["ok"] is False  # an error finding
    assert inspect_command._ui_exit(Session(surface=build_surface_view(report))) == 1
    report["ok"] = True
    assert inspect_command._ui_exit(Session(surface=build_surface_view(report))) == 0


def test_the_home_reads_a_config_file_only_when_there_is_one(
    terminal: None,
    opened: list[dict[str, Any]],
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main([]) == 0
    assert opened[-1]["start"].settings is None  # no file: the app builds the defaults when read
    config = tmp_path / "whichtool.config.json"
    config.write_text(json.dumps({"trials": {"repeat": 3}}))
    assert main([]) == 0
    assert opened[-1]["start"].settings.trials.repeat == 3
    config.write_text("{not json")
    assert main([]) == 2  # a broken config is one line before the app opens, as before
    assert len(opened) == 2
    err = capsys.readouterr().err
    assert err.startswith("whichtool-tui: ") and "Traceback" not in err
