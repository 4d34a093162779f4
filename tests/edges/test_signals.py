"""SIGTERM and SIGHUP clean up like Ctrl+C, and no process we started survives (issue 12, item 2).

Servers here ignore stdin EOF and SIGTERM, and start a grandchild that calls setsid(): it has
left the server's process group, so only a walk of the process tree (or being its subreaper)
finds it. Every wait below starts after the servers are up, so start-up time never counts.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from tests.support.paths import MISBEHAVING_SERVER as BAD_SERVER
from tests.support.processes import (
    gone_soon,
    is_running,
    processes_matching,
    read_pidfile,
    wait_for,
    wait_gone,
)
from whichtool_tui.errors import WhichtoolError
from whichtool_tui.files import _LIVE_TEMP_FILES, track_temp_file, write_atomic
from whichtool_tui.shutdown import finish

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(sys.platform != "linux", reason="reads /proc"),
]  # starts processes or servers
# Starts a setsid() grandchild carrying the marker, then ignores SIGTERM and never reads stdin.
STUBBORN = (
    "import signal, subprocess, sys, time; "
    "subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(90)', sys.argv[1]], "
    "start_new_session=True); "
    "signal.signal(signal.SIGTERM, signal.SIG_IGN); time.sleep(90)"
)
# Runs the CLI as its own process entry with SIGINT at its default disposition.
LAUNCH = (
    "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); "
    "os.execv(sys.executable, [sys.executable, '-m', 'whichtool_tui', *sys.argv[1:]])"
)
EXIT_WITHIN = 20.0  # counted from the signal, after every server is up
SIGNALS = [(signal.SIGTERM, 143), (signal.SIGHUP, 129)]


def _stop(process: subprocess.Popen[bytes], marker: str) -> None:
    if process.poll() is None:
        process.kill()
        process.wait()
    for pid in processes_matching(marker):
        os.kill(pid, signal.SIGKILL)


@pytest.mark.parametrize(("signum", "code"), SIGNALS)
def test_a_signal_on_a_hung_bout_kills_every_server_and_grandchild(
    tmp_path: Path, signum: int, code: int
) -> None:
    marker = f"arcade-stubborn-{uuid.uuid4().hex[:8]}"
    receipt = tmp_path / "r.json"
    argv = [
        sys.executable, "-c", LAUNCH,
        "bout", "--target", "stdio", "--allow-live", "--no-prompt", "--task", "echo",
        "--cmd", sys.executable, "--cmd=-c", "--cmd", STUBBORN, "--cmd", marker,
        "--sandbox", str(tmp_path / "sandbox"), "-o", str(receipt),
    ]  # fmt: skip
    process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        # Four atoms, each a server plus its setsid() grandchild, all up before the signal.
        assert wait_for(lambda: len(processes_matching(marker)) >= 8, 120)
        started = processes_matching(marker)
        process.send_signal(signum)
        _out, err = process.communicate(timeout=EXIT_WITHIN)
        assert wait_for(lambda: not [p for p in started if is_running(p)], 5)
    finally:
        _stop(process, marker)
    assert process.returncode == code, err
    assert f"stopped by {signal.Signals(signum).name}".encode() in err
    assert b"Traceback" not in err
    assert not receipt.exists()


def _inspect_config(folder: Path, mode: str, pidfile: Path) -> Path:
    config = folder / "whichtool.config.json"
    target = {
        "transport": "stdio",
        "command": sys.executable,
        "args": [str(BAD_SERVER), mode],
        "env": {"MISBEHAVE_PIDFILE": str(pidfile), "MISBEHAVE_SETSID": "1"},
    }
    config.write_text(json.dumps({"target": target}), encoding="utf-8")
    return config


@pytest.mark.parametrize(("signum", "code"), SIGNALS)
def test_a_signal_during_inspect_exits_like_ctrl_c(tmp_path: Path, signum: int, code: int) -> None:
    pidfile = tmp_path / "pids"
    config = _inspect_config(tmp_path, "hang-tools", pidfile)
    process = subprocess.Popen(
        [sys.executable, "-c", LAUNCH, "--no-ui", "inspect", "--config", str(config),
         "--out", str(tmp_path / "out.json")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp_path,
    )  # fmt: skip
    try:
        assert wait_for(lambda: pidfile.exists() and len(pidfile.read_text().split()) == 2, 120)
        server, grandchild = read_pidfile(pidfile)
        # The listing is in flight (the server never answers tools/list) before the signal.
        assert wait_for(lambda: is_running(server), 5)
        process.send_signal(signum)
        _out, err = process.communicate(timeout=EXIT_WITHIN)
        assert wait_gone(server) and wait_gone(grandchild)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == code, err
    assert b"Traceback" not in err
    assert not (tmp_path / "out.json").exists()
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


def test_a_setsid_grandchild_dies_with_its_server_on_a_normal_exit(tmp_path: Path) -> None:
    pidfile = tmp_path / "pids"
    config = _inspect_config(tmp_path, "slow-exit", pidfile)
    done = subprocess.run(
        [sys.executable, "-m", "whichtool_tui", "--no-ui", "inspect", "--config", str(config),
         "--format", "json"],
        capture_output=True, timeout=120, cwd=tmp_path, check=False,
    )  # fmt: skip
    server, grandchild = read_pidfile(pidfile)
    assert done.returncode == 0, done.stderr
    assert wait_gone(server) and wait_gone(grandchild)


def test_an_interrupted_write_leaves_neither_temp_file_nor_half_a_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "report.json"
    target.write_text("old", encoding="utf-8")
    real_replace = os.replace

    def interrupted(source: str, destination: object) -> None:
        raise KeyboardInterrupt  # what SIGTERM becomes, arriving mid-write

    monkeypatch.setattr(os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_atomic(target, "x" * 1_000_000)
    monkeypatch.setattr(os, "replace", real_replace)
    assert target.read_text(encoding="utf-8") == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.json"]
    # A temp file still registered when the process ends is removed by the exit path.
    stray = tmp_path / ".stray.tmp"
    stray.write_text("partial", encoding="utf-8")
    with track_temp_file(str(stray)):
        finish(process_entry=False)
        assert not stray.exists() and str(stray) not in _LIVE_TEMP_FILES
    with pytest.raises(WhichtoolError):
        write_atomic(tmp_path, "directories are refused")


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_sigterm_quits_the_tui_and_restores_the_terminal(tmp_path: Path) -> None:
    from tests.support.run_project import write_project
    from tests.support.tmux import start_terminal

    surface = write_project(tmp_path)
    terminal = start_terminal(tmp_path, f"inspect {surface}")
    try:
        terminal.wait_for("Findings", timeout=60)
        (app,) = [
            pid
            for pid in processes_matching(str(surface))
            if "EXIT=" not in Path(f"/proc/{pid}/cmdline").read_text(errors="replace")
        ]
        os.kill(app, signal.SIGTERM)
        shown = terminal.wait_for("EXIT=", timeout=EXIT_WITHIN)
    finally:
        terminal.tmux("kill-server")
    assert "EXIT=143" in shown
    assert "stopped by SIGTERM" in shown


# An app whose quit never finishes (as a full-screen app's can when its terminal was hung up):
# the quit hook is installed and does nothing, and the process would sleep for a minute.
HUNG_APP = (
    "import subprocess, sys, time\n"
    "from whichtool_tui import shutdown\n"
    "shutdown.install(process_entry=True)\n"
    "child = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(90)', sys.argv[1]])\n"
    "with shutdown.quit_hook(lambda: None):\n"
    "    print('ready', flush=True)\n"
    "    time.sleep(60)\n"
)


@pytest.mark.parametrize(("signum", "code"), SIGNALS)
def test_an_app_whose_quit_hangs_is_ended_after_the_deadline(signum: int, code: int) -> None:
    marker = f"hung-app-{uuid.uuid4().hex}"
    process = subprocess.Popen(
        [sys.executable, "-c", HUNG_APP, marker], stdout=subprocess.PIPE, stdin=subprocess.DEVNULL
    )
    try:
        assert process.stdout is not None and process.stdout.readline() == b"ready\n"
        assert processes_matching(marker)  # its child is up
        process.send_signal(signum)
        # The deadline is 5 s; 40 s only turns a hang into a failure.
        assert process.wait(timeout=40) == code
        assert gone_soon(marker), processes_matching(marker)
    finally:
        _stop(process, marker)
