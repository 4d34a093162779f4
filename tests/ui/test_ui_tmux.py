"""Smoke test of the installed binary in a real terminal (tmux): what a person would see."""

from __future__ import annotations

import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support import paths
from tests.support.tmux import Terminal, footer_line, start_terminal

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
]  # starts processes or servers


@pytest.fixture
def terminal(tmp_path: Path) -> Iterator[Terminal]:
    term = start_terminal(tmp_path)
    try:
        yield term
    finally:
        term.close()


def test_sections_demo_and_quit(terminal: Terminal) -> None:
    for text in ("Try it", "1 Surface", "5 Bout", "Demo"):
        terminal.wait_for(text)
    for key, text in (
        ("1", "No surface yet"),
        ("2", "No task set loaded"),
        ("3", "Load a live target or snapshot first"),
        ("4", "No run report loaded"),
        ("5", "No receipt loaded"),
    ):
        terminal.press(key)
        terminal.wait_for(text)
    terminal.press("?")
    terminal.wait_for("command palette")
    terminal.press("Escape")
    terminal.wait_until(lambda pane: "command palette" not in pane, "the help screen closed")
    time.sleep(0.5)  # a quick key after ESC would read as alt+key
    terminal.press("0")
    terminal.wait_for("Try it")
    terminal.press("d")
    terminal.wait_for("Tools (6)", timeout=30)
    terminal.wait_for("Findings (worst first)")  # painted a frame later under load
    terminal.press("4")
    terminal.wait_for("Confusion (rows expected", timeout=30)
    terminal.wait_for("accuracy")
    terminal.press("5")
    # The demo's bout may still be running ("Wire (…, live)"): wait for its finished receipt,
    # and for the guess keys it enables in the footer, so the keys below reach a settled
    # screen and quitting has no bout at risk to ask about.
    terminal.wait_for("Your call before the verdicts", timeout=45)
    terminal.wait_until(lambda pane: "Followed" in footer_line(pane), "the guess keys are on")
    terminal.press("0")
    terminal.wait_for("Try it")
    terminal.wait_for("demo-lab.json")  # the recent list remembers the demo surface
    terminal.press("C-q")
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and "Try it" in terminal.screen():
        time.sleep(0.1)
    assert "Try it" not in terminal.screen()
    assert "Traceback" not in terminal.screen()


def quit_app(terminal: Terminal) -> str:
    """ctrl+q, then the shell's EXIT line; returns the pane after the app is gone."""
    terminal.press("C-q")
    shown = terminal.wait_for("EXIT=", timeout=15)
    assert "Traceback" not in shown
    return shown


def test_run_opens_on_its_plan_and_spends_nothing_before_r(tmp_path: Path) -> None:
    snapshots = paths.SNAPSHOTS
    arguments = f"run {snapshots / 'demo-lab.json'} --tasks {snapshots / 'demo-lab.tasks.yaml'}"
    terminal = start_terminal(tmp_path, arguments)
    try:
        terminal.wait_for("Nothing run yet", timeout=30)
        # The form and the plan are filled in by workers: wait for each, never assume a frame.
        terminal.wait_for("10 tasks × 5 repeats = 50 trials", timeout=30)
        terminal.wait_for("provider keyword", timeout=30)
        terminal.press("r")
        terminal.wait_for("finished: press 4", timeout=30)
        assert "EXIT=0" in quit_app(terminal)  # the finished run's verdict (ok), as headless
    finally:
        terminal.close()


def test_bout_runs_on_its_screen_and_hides_verdicts_until_the_guess(tmp_path: Path) -> None:
    receipt = tmp_path / "r.json"
    arguments = f"bout --target fixture --strict --sandbox {tmp_path / 'sb'} -o {receipt}"
    terminal = start_terminal(tmp_path, arguments)
    try:
        terminal.wait_for("Your call before the verdicts", timeout=45)
        before = terminal.wait_until(  # h is "held" only once the guess is on, else home
            lambda pane: "Held" in footer_line(pane), "the guess keys are on"
        )
        assert "Wire (" in before and "PASS" not in before and "FAIL" not in before
        assert receipt.is_file()  # -o is written as soon as the bout ends
        terminal.press("h")
        terminal.wait_for("PASS", timeout=15)
        terminal.wait_for("FAIL")  # the lab fixture misbehaves on purpose
        assert "EXIT=1" in quit_app(terminal)  # --strict: a FAIL gates, as headless
    finally:
        terminal.close()


def test_resizing_mid_session_keeps_tabs_footer_keys_and_heatmap(tmp_path: Path) -> None:
    from tests.support.ui import wide_run

    report = wide_run(tmp_path / "wide-run.json")
    terminal = start_terminal(tmp_path, f"open {report}")
    try:
        terminal.wait_for("Confusion (rows expected", timeout=30)
        # The arrows below move the heatmap's cursor only once it holds the focus: its enter
        # key (Trials) is in the footer then. The pane's title is drawn before that.
        shown = terminal.wait_until(
            lambda pane: "Trials" in footer_line(pane), "the heatmap holds the focus"
        )
        assert "4 Results" in shown and "? help" in shown.splitlines()[0]
        terminal.tmux("resize-window", "-t", "s", "-x", "80", "-y", "24")
        lines = terminal.wait_for("^p palette", timeout=15).splitlines()
        header = lines[0]
        assert all(tab in header for tab in ("1 Surf", "2 Task", "3 Run", "4 Res", "5 Bout"))
        assert "? Help" in lines[-1] and "^q Quit" in lines[-1] and "^p" in lines[-1]
        assert "get-res…ce-links" in "\n".join(lines)  # row labels stay distinct
        terminal.press(*["Right"] * 14)
        terminal.wait_for("+ (multiple calls)", timeout=15)  # the last column is reachable
        terminal.tmux("resize-window", "-t", "s", "-x", "120", "-y", "40")
        shown = terminal.wait_for("4 Results   5 Bout  │ ? help", timeout=15)
        assert "Traceback" not in shown
        assert "EXIT=0" in quit_app(terminal)
    finally:
        terminal.close()
