"""Shell completion (shtab), NO_COLOR as no-color.org defines it, and --version naming the
program: through the real binary."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.cli import run_binary
from tests.support.paths import REPO
from whichtool_tui import __version__
from whichtool_tui.cli import COMMANDS

pytestmark = pytest.mark.slow  # starts processes or servers


def _bash_complete(script: Path, *words: str) -> list[str]:
    """What bash offers after ``words`` (the last one is being typed), via the script."""
    quoted = " ".join(f"'{word}'" for word in words)
    probe = (
        f"source '{script}'\n"
        f"COMP_WORDS=({quoted}); COMP_CWORD={len(words) - 1}\n"
        f'COMP_LINE="${{COMP_WORDS[*]}}"; COMP_POINT=${{#COMP_LINE}}\n'
        "_shtab_whichtool_tui\n"
        'printf "%s\\n" "${COMPREPLY[@]}"\n'
    )
    done = subprocess.run(
        ["bash", "--norc", "--noprofile", "-c", probe],
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    return done.stdout.split()


@pytest.fixture(scope="module")
def bash_script(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if shutil.which("bash") is None:
        pytest.skip("bash is not installed")
    done = run_binary("--print-completion", "bash")
    assert done.returncode == 0, done.stderr
    path = tmp_path_factory.mktemp("completion") / "whichtool-tui.bash"
    path.write_text(done.stdout, encoding="utf-8")
    return path


def test_bash_completes_every_command(bash_script: Path) -> None:
    assert set(_bash_complete(bash_script, "whichtool-tui", "")) >= set(COMMANDS)
    assert _bash_complete(bash_script, "whichtool-tui", "ins") == ["inspect"]


def test_bash_completes_a_commands_flags(bash_script: Path) -> None:
    assert _bash_complete(bash_script, "whichtool-tui", "inspect", "--save") == ["--save-snapshot"]
    assert "--wrap-target" in _bash_complete(bash_script, "whichtool-tui", "bout", "--wr")


@pytest.mark.parametrize(
    ("shell", "marker"), [("zsh", "#compdef whichtool-tui"), ("tcsh", "complete")]
)
def test_zsh_and_tcsh_scripts_are_generated(shell: str, marker: str) -> None:
    done = run_binary("--print-completion", shell)
    assert done.returncode == 0, done.stderr
    assert marker in done.stdout and "inspect" in done.stdout


def test_an_unknown_shell_is_refused() -> None:
    done = run_binary("--print-completion", "fish")
    assert done.returncode == 2
    assert "invalid choice" in done.stderr and "Traceback" not in done.stderr


def test_version_names_the_program() -> None:
    done = run_binary("--version")
    assert done.returncode == 0
    assert done.stdout == f"whichtool-tui {__version__}\n"


def test_completion_support_is_not_imported_on_an_ordinary_start() -> None:
    probe = (
        "import sys\nfrom whichtool_tui.cli import main\n"
        "try:\n    main(['--no-ui', '--version'])\nexcept SystemExit:\n    pass\n"
        "print('shtab' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True
    )
    assert done.stdout.strip().splitlines()[-1] == "False"


def _inspect_colour(no_color: str | None) -> str:
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    env["FORCE_COLOR"] = "1"
    if no_color is not None:
        env["NO_COLOR"] = no_color
    done = run_binary("--no-ui", "inspect", str(REPO / "snapshots" / "clean.json"), env=env)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_an_empty_no_color_does_not_turn_colour_off() -> None:
    """no-color.org: NO_COLOR counts only when it is present and not an empty string."""
    assert "\x1b[" in _inspect_colour("")
    assert "\x1b[" not in _inspect_colour("1")
    assert "\x1b[" in _inspect_colour(None)
