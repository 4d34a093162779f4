"""The fixture's stdio answers, byte for byte, against transcripts recorded from the SDK server.

``tests/golden/arcade/fixture-transcripts.json`` holds what the fixture answered when it was the
SDK's lowlevel server (recorded interactively, one message at a time); the hand-written loop must
answer each conversation identically, including refusals, odd ids, garbage and every switch.
UPDATE_GOLDENS=1 regenerates the transcripts (only do that on purpose).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.support import paths
from whichtool_tui.arcade.fixture import FixtureState, FixtureSwitches
from whichtool_tui.arcade.fixture_rpc import FixtureSession
from whichtool_tui.mcp_client.frames import encode_frame

pytestmark = pytest.mark.slow  # starts processes or servers

GOLDEN = paths.GOLDEN / "arcade" / "fixture-transcripts.json"
Message = dict[str, Any] | str


def _init(version: str = "2025-06-18", rpc_id: int = 1) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "id": rpc_id,
        "method": "initialize",
        "params": {
            "protocolVersion": version,
            "capabilities": {},
            "clientInfo": {"name": "p", "version": "1"},
        },
    }


def _req(rpc_id: Any, method: str, params: Any = None) -> dict[str, Any]:
    message: dict[str, Any] = {"jsonrpc": "2.0", "id": rpc_id, "method": method}
    if params is not None:
        message["params"] = params
    return message


def _call(rpc_id: int, name: str, arguments: Any = None, **extra: Any) -> dict[str, Any]:
    params: dict[str, Any] = {"name": name, **extra}
    if arguments is not None:
        params["arguments"] = arguments
    return _req(rpc_id, "tools/call", params)


INITED = {"jsonrpc": "2.0", "method": "notifications/initialized"}
HS: list[Message] = [_init(), INITED]
ENVELOPE = {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}


def _caps(
    rpc_id: int, capabilities: Any, client: Any, version: str = "2025-06-18", **extra: Any
) -> dict[str, Any]:
    params = {"protocolVersion": version, "capabilities": capabilities, "clientInfo": client}
    return _req(rpc_id, "initialize", {**params, **extra})


CONVERSATIONS: dict[str, tuple[list[str], list[Message]]] = {
    "basic": ([], [*HS, _req(2, "tools/list"), _call(3, "echo", {"text": "hi"}),
                   _call(4, "leak", {"token": "t"}), _call(5, "ghost", {}), _req(6, "ping"),
                   _req(7, "ping", {})]),
    "versions": ([], [_init("2024-11-05", 1), _init("2025-03-26", 2), _init("2025-11-25", 3),
                      _init("1999-01-01", 4), _init("2026-07-28", 5), _req(6, "initialize", {}),
                      _req(7, "initialize", {"protocolVersion": "2025-06-18"}),
                      _req(8, "initialize")]),
    "v2024": ([], [_init("2024-11-05"), INITED, _req(2, "tools/list"),
                   _call(3, "echo", {"text": "x"})]),
    "v2025-11": ([], [_init("2025-11-25"), INITED, _req(2, "tools/list"),
                      _call(3, "echo", {"text": "x"})]),
    "before_init": ([], [_req(1, "tools/list"), _call(2, "echo", {"text": "a"}), _req(3, "ping"),
                         _req(4, "resources/list"), _req(5, "nope/x"), _init(rpc_id=6),
                         _req(7, "tools/list")]),
    "no_inited": ([], [_init(), _req(2, "tools/list"), _call(3, "echo", {"text": "a"})]),
    "unknown": ([], [*HS, _req(2, "resources/list"), _req(3, "prompts/list"), _req(4, "foo/bar"),
                     _req(5, "completion/complete", {}),
                     _req(6, "logging/setLevel", {"level": "info"}),
                     _req(7, "resources/read", {"uri": "x"})]),
    "bad_params": ([], [*HS, _req(2, "tools/call", {}), _req(3, "tools/call", {"name": 5}),
                        _call(4, "echo", [1]), _call(5, "echo"), _call(6, "echo", {"text": 3}),
                        _call(7, "echo", {}), _req(8, "tools/list", {"cursor": "abc"}),
                        _req(9, "tools/list", {"cursor": 5}),
                        _call(10, "echo", {"text": "a", "extra": 1}),
                        _call(11, "echo", {"text": "a"}, _meta={"progressToken": 1}),
                        _req(12, "tools/list", {"_meta": {}})]),
    "ids": ([], [*HS, _req("s1", "tools/list"), _req(0, "ping"),
                 {"jsonrpc": "2.0", "id": None, "method": "ping"},
                 {"jsonrpc": "2.0", "id": 1.5, "method": "ping"},
                 {"jsonrpc": "2.0", "id": True, "method": "ping"},
                 {"jsonrpc": "1.0", "id": 9, "method": "ping"}, {"id": 10, "method": "ping"},
                 {"jsonrpc": "2.0", "id": 11, "method": "ping", "params": [1]},
                 {"jsonrpc": "2.0", "id": 12}, {"jsonrpc": "2.0", "id": 13, "result": {}},
                 {"jsonrpc": "2.0", "id": 901, "result": {}}, _req(14, "ping")]),
    "garbage": ([], ["not json", "[1,2]", '{"a":', "", "   ", _init(), INITED, "[]",
                     _req(2, "ping")]),
    "notifs": ([], [*HS, {"jsonrpc": "2.0", "method": "notifications/cancelled",
                          "params": {"requestId": 2}},
                    {"jsonrpc": "2.0", "method": "notifications/roots/list_changed"},
                    {"jsonrpc": "2.0", "method": "foo"}, _req(2, "ping")]),
    "poison": (["--poison"], [*HS, _req(2, "tools/list")]),
    "rug": (["--rug-after", "2", "--leak-path", "{leak}"],
            [*HS, _req(2, "tools/list"),
             *[_call(3 + i, "echo", {"text": str(i)}) for i in range(3)],
             _req(9, "tools/list")]),
    "unlisted": (["--unlisted"], [*HS, _call(2, "ghost", {})]),
    "notify": (["--notify"], [*HS, _req(2, "tools/list"), _req(3, "tools/list")]),
    "server_request": (["--server-request"],
                       [*HS, _req(2, "tools/list"),
                        {"jsonrpc": "2.0", "id": 901, "error": {"code": -1, "message": "no"}},
                        _req(3, "ping")]),
    "hang": (["--hang-on", "tools/list"], [*HS, _req(2, "tools/list"), _req(3, "ping")]),
    "hang_init": (["--hang-on", "initialize"], [*HS, _req(2, "ping")]),
    "honest": (["--honest", "--poison", "--rug-after", "1", "--unlisted"],
               [*HS, _call(2, "echo", {"text": "a"}), _req(3, "tools/list"),
                _call(4, "ghost", {})]),
    "secret_env": (["--poison"], [*HS, _req(2, "tools/list")]),
    "unicode": ([], [*HS, _call(2, "echo", {"text": 'héllo \u2028 😀 "q" <>&'})]),
    "modern_after": ([], [*HS, _req(2, "tools/list", {"_meta": ENVELOPE}),
                          _call(3, "echo", {"text": "a"}, _meta={"progressToken": "t"}),
                          _call(4, "echo", {"text": "a"}, _meta={"progressToken": 1.5}),
                          _init("2025-03-26", 5), _req(6, "tools/list")]),
    "caps": ([], [_caps(1, {"roots": {"listChanged": True}, "sampling": {}, "elicitation": {}},
                        {"name": "p", "version": "1"}),
                  _caps(2, {"roots": {"listChanged": "x"}}, {"name": "p", "version": "1"}),
                  _caps(3, {}, {"name": "p"}),
                  _caps(4, {}, {"name": "p", "version": "1"}, "2024-11-05", extra=1),
                  _req(5, "tools/list")]),
    "cl": (["--framing", "content-length"], [*HS, _req(2, "tools/list")]),
}  # fmt: skip
ENVIRONMENTS = {"secret_env": {"ARCADE_SECRET": "s3cr3t"}}


def _frame(message: Message, content_length: bool) -> bytes:
    if isinstance(message, str):
        body = message.encode("utf-8")
        return (
            b"Content-Length: %d\r\n\r\n%s" % (len(body), body) if content_length else body + b"\n"
        )
    if content_length:
        return encode_frame(message, "content-length")
    return json.dumps(message).encode("utf-8") + b"\n"


def _converse(name: str, tmp_path: Path) -> dict[str, Any]:
    import subprocess

    args, messages = CONVERSATIONS[name]
    leak = tmp_path / "leak.txt"
    argv = [sys.executable, "-m", "whichtool_tui.arcade.fixture"]
    argv += [arg.replace("{leak}", str(leak)) for arg in args]
    content_length = "content-length" in args
    stdin = b"".join(_frame(message, content_length) for message in messages)
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), **ENVIRONMENTS.get(name, {})}
    if "PYTHONPATH" in os.environ:
        env["PYTHONPATH"] = os.environ["PYTHONPATH"]
    done = subprocess.run(argv, input=stdin, capture_output=True, timeout=120, env=env, check=False)
    assert done.returncode == 0, done.stderr.decode(errors="replace")
    found: dict[str, Any] = {"stdout": done.stdout.decode("utf-8")}
    if name == "rug":
        found["leak"] = leak.read_text(encoding="utf-8") if leak.exists() else None
    return found


@pytest.mark.parametrize("name", sorted(CONVERSATIONS))
def test_stdio_answers_match_the_recorded_sdk_transcript(name: str, tmp_path: Path) -> None:
    found = _converse(name, tmp_path)
    if os.environ.get("UPDATE_GOLDENS") == "1":
        recorded = json.loads(GOLDEN.read_text(encoding="utf-8"))
        recorded[name] = found
        text = json.dumps(recorded, indent=1, ensure_ascii=False, sort_keys=True) + "\n"
        GOLDEN.write_text(text, encoding="utf-8")
    assert found == json.loads(GOLDEN.read_text(encoding="utf-8"))[name]


def test_every_conversation_has_a_transcript() -> None:
    assert set(json.loads(GOLDEN.read_text(encoding="utf-8"))) == set(CONVERSATIONS)


def test_a_session_answers_in_arrival_order_with_the_switch_messages_first() -> None:
    session = FixtureSession(FixtureState(FixtureSwitches(notify=True, server_request=True)))
    assert [m["id"] for m in session.handle(_init())] == [1]
    replies = session.handle(_req(2, "tools/list"))
    assert [m.get("method") for m in replies] == [
        "notifications/message",
        "sampling/createMessage",
        None,
    ]
    assert [tool["name"] for tool in replies[-1]["result"]["tools"]] == ["echo", "leak"]
    assert session.handle({"jsonrpc": "2.0", "id": 901, "result": {}}) == []
