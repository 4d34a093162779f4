"""`bout --target http` reads answers through the capped client (issue 12, item 7): a server that
answers with an endless body is cut off at 16 MiB and the bout ends in one line, no traceback."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

import pytest

from tests.support.arcade import http_bout
from tests.support.net import serve_handler

CHUNK = b"x" * (1024 * 1024)


@contextmanager
def flooding_server() -> Iterator[tuple[str, list[int]]]:
    """Answers every POST with chunked JSON-looking bytes until the client stops reading."""
    sent: list[int] = []

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self) -> None:
            self.rfile.read(int(self.headers.get("content-length") or 0))
            self.send_response(200)
            self.send_header("content-type", "application/json")
            self.send_header("transfer-encoding", "chunked")
            self.end_headers()
            total = 0
            try:
                self.wfile.write(b'{"jsonrpc": "2.0", "id": 0, "result": {"x": "')
                while total < 3 * 1024 * 1024 * 1024:  # would be 3 GiB if nobody stopped
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(CHUNK), CHUNK))
                    total += len(CHUNK)
            except OSError:
                pass
            sent.append(total)

        def log_message(self, format: str, *args: object) -> None:
            return

    with serve_handler(Handler) as port:
        yield f"http://127.0.0.1:{port}/mcp", sent


@pytest.mark.slow
def test_an_endless_http_answer_is_cut_off_at_the_cap(tmp_path: Path, capsys: Any) -> None:
    with flooding_server() as (url, sent):
        code, receipt, err = http_bout(
            tmp_path, capsys, url, "--task", "echo", "--atoms", "poison.follow_through"
        )
    assert "Traceback" not in err
    assert code in (0, 1, 2)
    # The client stopped reading far below what the server would have sent.
    assert sent and max(sent) < 512 * 1024 * 1024
    if receipt:
        assert receipt["atoms"][0]["result"] == "error"
