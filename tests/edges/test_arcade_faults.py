"""Misbehaving servers: every fault is an ERROR atom with a named check, in bounded time,
with the receipt still written and no child process left behind."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.support.arcade import (
    ECHO_INSPECT_ONLY,
    atom,
    bout,
    faulty_cmd,
    gone_soon,
    live_bout,
    processes_matching,
)

pytestmark = pytest.mark.slow  # starts processes or servers


@pytest.mark.parametrize(
    ("mode", "detail"),
    [
        ("crash_start", "ClientError: server closed stdout; stderr: boom: could not start"),
        ("crash_mid", "ClientError: server closed stdout"),
        ("garbage", "ProtocolError: cannot detect framing from first line"),
        ("oversize", "ProtocolError: a frame exceeds the"),
        ("wrong_framing", "ProtocolError: invalid JSON body"),
    ],
)
def test_fault_is_a_named_error(mode: str, detail: str, tmp_path: Path, capsys: Any) -> None:
    code, receipt, _ = live_bout(
        tmp_path,
        capsys,
        faulty_cmd(mode),
        "--task",
        "echo",
        "--timeout",
        "5",
        "--atoms",
        "inspect.tools_list",
        "--strict",
    )
    assert code == 2
    inspected = atom(receipt, "inspect.tools_list")
    assert inspected["result"] == "error"
    assert [c["id"] for c in inspected["checks"]] == ["harness"]
    assert inspected["checks"][0]["detail"].startswith(detail)
    assert receipt["scores"]["nrp"] == 0.0
    assert processes_matching(f"arcade_faulty_server.py {mode}") == []


def test_hang_is_a_timeout_and_the_process_is_reaped(tmp_path: Path, capsys: Any) -> None:
    _code, receipt, _ = live_bout(
        tmp_path,
        capsys,
        faulty_cmd("hang"),
        "--task",
        "echo",
        "--timeout",
        "2",
        "--atoms",
        "inspect.tools_list",
    )
    detail = atom(receipt, "inspect.tools_list")["checks"][0]["detail"]
    assert detail == "ClientTimeout: tools/list (id 2) got no response in 2s"
    assert processes_matching("arcade_faulty_server.py hang") == []
    tools_list = next(w for w in receipt["wire"] if w["method"] == "tools/list")
    assert tools_list["rpc_id"] == 2


def test_stderr_flood_keeps_only_the_tail(tmp_path: Path, capsys: Any) -> None:
    _code, receipt, _ = live_bout(
        tmp_path,
        capsys,
        faulty_cmd("stderr_flood"),
        *ECHO_INSPECT_ONLY,
    )
    inspected = atom(receipt, "inspect.tools_list")
    assert inspected["result"] == "pass"
    tail = inspected["session"]["stderr_tail"]
    assert len(tail.encode()) <= 4096 and tail.endswith("last words of the flood")


def test_one_line_stderr_flood_is_cut_on_screen_but_kept_in_the_receipt(
    tmp_path: Path, capsys: Any
) -> None:
    # One 1 MB line with no newline, then the honest server on the same stderr.
    flood = 'import sys; sys.stderr.write("x" * 1_000_000 + "last words")'
    script = f"{sys.executable} -c '{flood}' && exec {faulty_cmd('honest')}"
    _code, receipt, stdout = bout(
        tmp_path,
        capsys,
        "--target", "stdio", "--allow-live",
        "--cmd", "sh", "--cmd=-c", "--cmd", script,
        *ECHO_INSPECT_ONLY,
    )  # fmt: skip
    tail = atom(receipt, "inspect.tools_list")["session"]["stderr_tail"]
    assert len(tail) > 4000 and tail.endswith("last words")
    shown = [line for line in stdout.splitlines() if line.lstrip().startswith("stderr:")]
    assert shown, stdout
    for line in shown:
        assert len(line) < 300
        assert "chars cut; full tail in the receipt]" in line and line.endswith("last words")


def test_notification_flood_is_recorded_and_the_atom_finishes(tmp_path: Path, capsys: Any) -> None:
    started = time.monotonic()
    _code, receipt, _ = live_bout(
        tmp_path,
        capsys,
        faulty_cmd("notify_flood"),
        *ECHO_INSPECT_ONLY,
    )
    assert atom(receipt, "inspect.tools_list")["result"] == "pass"
    flood = [w for w in receipt["wire"] if w["method"] == "notifications/message"]
    assert len(flood) == 5000
    assert time.monotonic() - started < 60  # bounded, not a speed assertion


def test_grandchildren_are_killed_with_the_server(tmp_path: Path, capsys: Any) -> None:
    _code, receipt, _ = live_bout(
        tmp_path,
        capsys,
        faulty_cmd("spawn_child"),
        *ECHO_INSPECT_ONLY,
    )
    assert atom(receipt, "inspect.tools_list")["result"] == "pass"
    assert gone_soon("arcade-grandchild-marker")


def test_tools_list_pagination_is_followed(tmp_path: Path, capsys: Any) -> None:
    _code, receipt, _ = live_bout(
        tmp_path,
        capsys,
        faulty_cmd("paginate"),
        *ECHO_INSPECT_ONLY,
    )
    inspected = atom(receipt, "inspect.tools_list")
    assert [t["name"] for t in inspected["tools_before"]] == ["echo", "second"]
    cursors = [
        (w["message"].get("params") or {}).get("cursor")
        for w in receipt["wire"]
        if w["method"] == "tools/list"
    ]
    assert cursors == [None, "p2"]


def test_a_secret_a_server_prints_on_stderr_is_masked_in_the_receipt_and_on_screen(
    tmp_path: Path, capsys: Any
) -> None:
    printed = "Authorization: Bearer leak123abc\\nconnecting with password=hunter2pw\\n"
    leak = f'import sys; sys.stderr.write("{printed}")'
    script = f"{sys.executable} -c '{leak}' && exec {faulty_cmd('honest')}"
    _code, receipt, stdout = bout(
        tmp_path,
        capsys,
        "--target", "stdio", "--allow-live",
        "--cmd", "sh", "--cmd=-c", "--cmd", script,
        *ECHO_INSPECT_ONLY,
    )  # fmt: skip
    tail = atom(receipt, "inspect.tools_list")["session"]["stderr_tail"]
    assert "Authorization: ***" in tail and "password=***" in tail
    for shown in (tail, stdout, json.dumps(receipt)):
        assert "leak123abc" not in shown and "hunter2pw" not in shown
