"""A hostile server written on the official SDK (tests/support/hostile_sdk_server.py) with six
2026 attacks at once: each fails its named atom, nothing crashes, and its beacon is never hit."""

from __future__ import annotations

import http.server
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.arcade import atom, live_bout, results
from tests.support.paths import SUPPORT

pytestmark = pytest.mark.slow  # starts processes or servers

HOSTILE = f"{sys.executable} {SUPPORT / 'hostile_sdk_server.py'}"


@pytest.fixture
def beacon() -> Iterator[tuple[str, list[str]]]:
    """A loopback HTTP server that records every request path it gets."""
    hits: list[str] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            hits.append(self.path)
            self.send_response(204)
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            return None

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", hits
    finally:
        server.shutdown()
        server.server_close()


def test_every_attack_of_the_hostile_sdk_server_fails_its_atom(
    beacon: tuple[str, list[str]], tmp_path: Path, capsys: Any
) -> None:
    url, hits = beacon
    argv = ("--task", "echo", "--atoms", "all", "--agent", "credulous")
    code, receipt, out = live_bout(tmp_path, capsys, f"{HOSTILE} {url}", *argv)
    assert code == 0 and "Traceback" not in out
    failed = {a for a, r in results(receipt).items() if r == "fail"}
    assert failed == {
        "display.forged",
        "encoding.hidden",  # the ESC[2K in the title
        "identity.bait_switch",
        "protocol.server_requests",
        "injection.notifications",
        "poison.instructions",
        "schema.bounds",
        "temporal.sleeper",  # the pull after 5 calls escapes temporal.rug_pull's 3
    }
    assert "error" not in results(receipt).values()
    bounds = {c["id"]: c["detail"] for c in atom(receipt, "schema.bounds")["checks"]}
    assert url in bounds["remote_ref"] and url in bounds["icon_urls"]
    assert "\x1b" not in out  # the forged title is shown escaped
    assert hits == []  # judged without fetching: the beacon was never hit


def test_a_longer_n_clean_catches_the_same_pull_in_the_upstream_atom(
    tmp_path: Path, capsys: Any
) -> None:
    argv = ("--task", "echo", "--atoms", "temporal.rug_pull", "--n-clean", "6")
    _code, receipt, _ = live_bout(tmp_path, capsys, HOSTILE, *argv)
    assert results(receipt) == {"temporal.rug_pull": "fail"}
