"""A command line builds only the parser of the command it runs, with the same result."""

from __future__ import annotations

import argparse
import gc
import json
import subprocess
import sys
from pathlib import Path

import pytest

from whichtool_tui.cli import COMMANDS, build_parser, invoked_command
from whichtool_tui.errors import WhichtoolError

LINES = [
    ["--no-ui", "inspect", "snapshots/time.json", "--format", "json", "--max-tools", "9"],
    ["--debug", "--theme", "textual-light", "inspect", "a.json", "--no-color"],
    ["--theme=textual-light", "run", "a.json", "--tasks", "t.yaml", "--provider", "keyword"],
    ["tasks", "lint", "a.json", "--tasks", "t.yaml"],
    ["diff", "base.json", "head.json", "--max-accuracy-drop", "0.05"],
    ["report", "run.json", "--format", "markdown"],
    ["bout", "--target", "fixture", "--no-prompt", "-o", "r.json"],
    ["--no-ui", "mcp"],
]


@pytest.mark.parametrize("argv", LINES, ids=lambda argv: " ".join(argv))
def test_one_command_parser_parses_as_the_full_one(argv: list[str]) -> None:
    only = invoked_command(argv)
    assert only in COMMANDS
    assert build_parser(only=only).parse_args(argv) == build_parser().parse_args(argv)


def test_the_command_is_the_first_word_that_is_not_a_top_level_flag() -> None:
    assert invoked_command(["--theme", "inspect", "run", "x"]) == "run"  # a flag's value
    assert invoked_command(["--debug", "inspect"]) == "inspect"
    assert invoked_command(["--version"]) == ""  # no command: none is configured
    assert invoked_command([]) == ""  # the TUI's home
    assert invoked_command(["--theme", "textual-light", "--demo"]) == ""
    assert invoked_command(["nonsense", "inspect"]) is None  # the full parser reports it
    assert invoked_command(["--print-completion", "bash", "inspect"]) is None


def test_no_command_parses_as_the_full_parser_and_keeps_its_help() -> None:
    for argv in ([], ["--demo"], ["--theme", "textual-light", "--no-ui"]):
        assert build_parser(only="").parse_args(argv) == build_parser().parse_args(argv)
    assert build_parser(only="").format_help() == build_parser().format_help()


def test_an_unknown_flag_is_the_same_error_with_one_command_configured() -> None:
    argv = ["inspect", "a.json", "--no-such-flag"]
    messages = []
    for parser in (build_parser(only="inspect"), build_parser()):
        with pytest.raises(WhichtoolError) as caught:
            parser.parse_args(argv)
        messages.append((caught.value.code, caught.value.message))
    assert messages[0] == messages[1]


def test_top_level_help_lists_every_command_either_way() -> None:
    full, one = build_parser().format_help(), build_parser(only="inspect").format_help()
    assert one == full
    for name in COMMANDS:
        assert name in one


def test_unconfigured_commands_have_no_flags_of_their_own() -> None:
    parser = build_parser(only="inspect")
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    run_flags = {
        flag for action in commands.choices["run"]._actions for flag in action.option_strings
    }
    assert "--provider" not in run_flags
    inspect_flags = {
        flag for action in commands.choices["inspect"]._actions for flag in action.option_strings
    }
    assert "--format" in inspect_flags


def test_an_in_process_inspect_leaves_the_callers_collector_alone(tmp_path: Path) -> None:
    from whichtool_tui.cli import main

    snapshot = tmp_path / "s.json"
    snapshot.write_text(
        json.dumps({"tools": [{"name": "get_time", "description": "The time in a zone."}]}),
        encoding="utf-8",
    )
    out = tmp_path / "r.json"
    frozen = gc.get_freeze_count()
    code = main(["--no-ui", "inspect", str(snapshot), "--format", "json", "--out", str(out)])
    assert code in (0, 1)
    assert json.loads(out.read_text(encoding="utf-8"))["surface"]["toolCount"] == 1
    assert gc.get_freeze_count() == frozen  # only the real process entry freezes its heap


@pytest.mark.slow  # starts a Python process
def test_a_small_inspect_imports_no_other_command_no_rich_and_no_numpy(tmp_path: Path) -> None:
    from tests.support.paths import SNAPSHOTS

    argv = ["--no-ui", "inspect", str(SNAPSHOTS / "demo-lab.json"), "--format", "terminal"]
    probe = (
        "import sys\n"
        "from whichtool_tui.cli import main\n"
        f"code = main({argv!r})\n"
        "loaded = [m for m in ('rich', 'numpy', 'whichtool_tui.commands.run',"
        " 'whichtool_tui.commands.diff', 'whichtool_tui.arcade.fixture') if m in sys.modules]\n"
        "print(loaded, code in (0, 1), file=sys.stderr)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        cwd=tmp_path,
        stdin=subprocess.DEVNULL,
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr.strip().splitlines()[-1] == "[] True"
