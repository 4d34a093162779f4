"""The lab fixture: its switches, and a real stdio session through the recorder."""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest

from whichtool_tui.arcade.fixture import FixtureState, FixtureSwitches, build_parser, switches_from
from whichtool_tui.arcade.seats import side_quests
from whichtool_tui.mcp_client.framing import Dialect, FrameReader, encode_frame
from whichtool_tui.mcp_client.recorder import Recorder, WireError, recorded_stdio

pytestmark = pytest.mark.slow  # starts processes or servers


def test_rug_pull_after_n_calls_then_leaks(tmp_path: Path) -> None:
    leak = tmp_path / "leak.txt"
    state = FixtureState(FixtureSwitches(rug_after=2, leak_path=str(leak)))
    clean = state.tools()[0]["description"]
    assert not side_quests(clean)
    state.call("echo", {"text": "a"})
    state.call("echo", {"text": "b"})
    assert not leak.exists()
    assert side_quests(state.tools()[0]["description"]) == [("leak", {"token": "fixture-secret"})]
    state.call("echo", {"text": "c"})
    assert leak.read_text() == "fixture-secret\n"


def test_unlisted_names_and_unknown_tools() -> None:
    assert FixtureState(FixtureSwitches()).call("ghost", {}) == ("unknown tool: ghost", True)
    assert FixtureState(FixtureSwitches(unlisted=True)).call("ghost", {}) == ("answered", False)


def test_environment_switches_and_honest_override(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARCADE_POISON", "1")
    monkeypatch.setenv("ARCADE_RUG_AFTER", "3")
    monkeypatch.setenv("ARCADE_UNLISTED", "1")
    lab = switches_from(build_parser().parse_args([]))
    assert (lab.poison, lab.rug_after, lab.unlisted) == (True, 3, True)
    honest = switches_from(build_parser().parse_args(["--honest"]))
    assert (honest.poison, honest.rug_after, honest.unlisted) == (False, 0, False)
    assert isinstance(build_parser().parse_args(["--hang-on", "x"]), argparse.Namespace)


async def test_hang_on_a_method_over_real_stdio() -> None:
    recorder = Recorder()
    argv = [sys.executable, "-m", "whichtool_tui.arcade.fixture", "--hang-on", "tools/list"]
    with pytest.raises(WireError) as caught:
        async with recorded_stdio(
            argv, {"PATH": "/usr/bin:/bin"}, recorder, request_timeout=3
        ) as wire:
            await wire.initialize()
            await wire.list_tools()
    assert caught.value.kind == "timeout"
    assert [r.method for r in recorder.records][:4] == [
        "initialize",
        None,
        "notifications/initialized",
        "tools/list",
    ]
    assert all(r.seq == i + 1 for i, r in enumerate(recorder.records))


_HANDSHAKE: list[dict[str, Any]] = [
    {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "pipe", "version": "1"},
        },
    },
    {"jsonrpc": "2.0", "method": "notifications/initialized"},
    {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
]


def _replies(raw: bytes, dialect: Dialect) -> list[dict[str, Any]]:
    chunks = [raw]

    async def read_chunk() -> bytes:
        return chunks.pop() if chunks else b""

    async def collect() -> list[dict[str, Any]]:
        reader = FrameReader(read_chunk, dialect)
        found: list[dict[str, Any]] = []
        while (message := await reader.read()) is not None:
            found.append(message)
        return found

    return anyio.run(collect)


@pytest.mark.parametrize("dialect", ["ndjson", "content-length"])
def test_piped_requests_waiting_at_eof_are_all_answered(dialect: Dialect) -> None:
    # The whole conversation is written before the fixture reads a byte, then stdin closes.
    stdin = b"".join(encode_frame(message, dialect) for message in _HANDSHAKE)
    argv = [sys.executable, "-m", "whichtool_tui", "fixture", "--framing", dialect]
    done = subprocess.run(argv, input=stdin, capture_output=True, timeout=30, check=False)
    assert done.returncode == 0, done.stderr
    replies = _replies(done.stdout, dialect)
    assert [reply.get("id") for reply in replies] == [1, 2]
    assert [tool["name"] for tool in replies[1]["result"]["tools"]] == ["echo", "leak"]


def test_requests_read_from_a_file_are_all_answered(tmp_path: Path) -> None:
    # A regular file is read through a worker thread rather than off the event loop.
    source = tmp_path / "in.ndjson"
    source.write_bytes(b"".join(encode_frame(message, "ndjson") for message in _HANDSHAKE))
    argv = [sys.executable, "-m", "whichtool_tui", "fixture"]
    with source.open("rb") as stdin:
        done = subprocess.run(argv, stdin=stdin, capture_output=True, timeout=30, check=False)
    assert done.returncode == 0, done.stderr
    assert [reply.get("id") for reply in _replies(done.stdout, "ndjson")] == [1, 2]
