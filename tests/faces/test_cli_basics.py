"""The command line's global contract: version, help, unknown input, exit codes, import boundary."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.support.cli import run_binary as run_cli
from whichtool_tui import __version__
from whichtool_tui.cli import COMMANDS, main

pytestmark = pytest.mark.slow  # starts processes or servers


def test_version_prints_version_and_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out.strip() == f"whichtool-tui {__version__}"


def test_unknown_command_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["frobnicate"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err[0] == "whichtool-tui: Unknown command `frobnicate`"
    assert "Traceback" not in "\n".join(err)


def test_unknown_flag_is_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--no-ui", "--frobnicate"]) == 2
    assert capsys.readouterr().err.startswith("whichtool-tui: Unknown flag")


def test_every_spec_command_is_registered() -> None:
    expected = {
        "inspect",
        "tasks",
        "run",
        "report",
        "diff",
        "cache",
        "bout",
        "atoms",
        "receipt",
        "tape",
        "dataset",
        "fixture",
        "mcp",
        "open",
    }
    assert expected <= set(COMMANDS)


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_command_has_help(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main([command, "--help"])
    assert stop.value.code == 0
    assert f"whichtool-tui {command}" in capsys.readouterr().out


def test_no_command_without_terminal_prints_help() -> None:
    result = run_cli("--no-ui")
    assert result.returncode == 0
    assert "COMMAND" in result.stdout


@pytest.mark.parametrize("args", [["--no-ui", "--version"], ["--no-ui", "--help"]])
def test_headless_start_never_imports_textual(args: list[str]) -> None:
    probe = (
        "import sys\n"
        "from whichtool_tui.cli import main\n"
        f"try:\n    main({args!r})\nexcept SystemExit:\n    pass\n"
        "print('textual' in sys.modules, 'pydantic' in sys.modules)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True
    )
    assert result.stdout.strip().splitlines()[-1] == "False False"


def test_debug_flag_shows_traceback_for_errors() -> None:
    result = run_cli("--debug", "frobnicate")
    assert result.returncode == 2
    assert "Traceback" in result.stderr
    assert "whichtool-tui: Unknown command `frobnicate`" in result.stderr


def test_demo_without_a_terminal_says_how_to_run_it_headless() -> None:
    result = run_cli("--no-ui", "--demo")
    assert result.returncode == 2
    lines = result.stderr.splitlines()
    assert lines[0] == "whichtool-tui: the demo is interactive and needs a terminal"
    assert "--provider keyword" in lines[1]
