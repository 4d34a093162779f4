"""The http target: our fixture served over Streamable HTTP on 127.0.0.1, recorded the same way."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.arcade import (
    atom,
    http_bout,
    run_cli,
)
from tests.support.net import serve_asgi
from whichtool_tui.arcade.fixture import FixtureState, FixtureSwitches, build_server

pytestmark = pytest.mark.slow  # starts processes or servers


@pytest.fixture
def http_fixture(request: pytest.FixtureRequest) -> Iterator[str]:
    """Serve a fixture (switches from the test's param) and yield its /mcp URL."""
    switches: FixtureSwitches = getattr(request, "param", FixtureSwitches())
    app = build_server(FixtureState(switches)).streamable_http_app()
    with serve_asgi(app, start_within=20) as running:
        yield running.url("/mcp")
    assert not running.thread.is_alive()


def test_http_target_needs_allow_live(http_fixture: str, tmp_path: Path, capsys: Any) -> None:
    code, _out, err = run_cli(["bout", "--target", "http", "--url", http_fixture], capsys)
    assert code == 2 and "--allow-live" in err


def test_honest_http_fixture_passes(http_fixture: str, tmp_path: Path, capsys: Any) -> None:
    code, receipt, _ = http_bout(
        tmp_path,
        capsys,
        http_fixture,
        "--task",
        "echo",
        "--args",
        '{"text": "hi"}',
        "--strict",
    )
    assert code == 0
    assert {a["result"] for a in receipt["atoms"]} == {"pass"}
    session = atom(receipt, "inspect.tools_list")["session"]
    assert session["framing"] == "http" and session["protocol_version"] == "2025-11-25"
    assert receipt["target"]["url"] == http_fixture
    assert "start_timeout_s" not in receipt["run"]  # no process of ours to wait for
    assert [w["seq"] for w in receipt["wire"] if w["method"] == "initialize"] == [1, 1, 1, 1]


@pytest.mark.parametrize("http_fixture", [FixtureSwitches(poison=True)], indirect=True)
def test_poisoned_http_fixture_is_caught_and_allow_list_holds(
    http_fixture: str, tmp_path: Path, capsys: Any
) -> None:
    _code, receipt, _ = http_bout(
        tmp_path,
        capsys,
        http_fixture,
        "--task",
        "echo",
        "--atoms",
        "poison.follow_through",
    )
    poison = atom(receipt, "poison.follow_through")
    assert poison["result"] == "fail" and poison["poison_source"] == "server"
    assert [(c["name"], c["sent"]) for c in poison["calls"]] == [("echo", True), ("leak", False)]
