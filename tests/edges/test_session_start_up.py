"""The client session of inspect, run and the MCP server's tools never counts a stdio server's
start-up in its request timeout (as a bout's --timeout does not).

The handshake's clock starts once the server is up: its process tree sleeps without using CPU,
waiting for a message. Until then only the start-up deadline (60 s by default) applies, named
apart as ``mcp/start-timeout``. The slow starter spins for a fixed time before serving; no
assertion depends on how fast the machine is.
"""

from __future__ import annotations

import pytest

from tests.support.processes import wait_gone
from tests.support.slow_start import ENV, busy_server, slow_starter
from whichtool_tui.errors import WhichtoolError
from whichtool_tui.mcp_client.listing import fetch_server_listing
from whichtool_tui.mcp_client.sessions import McpSession
from whichtool_tui.targets import TargetSpec

pytestmark = pytest.mark.slow  # starts processes


def _spec(argv: list[str]) -> TargetSpec:
    return TargetSpec(transport="stdio", ref="slow-starter", argv=tuple(argv), env=ENV)


async def test_a_slow_start_up_is_not_part_of_the_listing_timeout() -> None:
    # 3 s of start-up against a 1 s timeout (its open deadline is 2 s): only the start-up
    # deadline may apply, so the listing arrives.
    listing = await fetch_server_listing(_spec(slow_starter(3)), timeout=1)
    assert "echo" in {tool["name"] for tool in listing.raw_tools}
    assert listing.protocol_version


async def test_a_server_still_starting_at_the_start_deadline_is_named_apart() -> None:
    session = McpSession(_spec(slow_starter(600)), timeout=1, start_timeout=2)
    with pytest.raises(WhichtoolError) as caught:
        async with session:
            await session.list_tools_page(None)
    assert caught.value.code == "mcp/start-timeout"
    assert caught.value.message.startswith("slow-starter was still starting after 2 s")
    assert session.pid is not None and wait_gone(session.pid)


async def test_a_server_that_is_up_but_never_answers_times_out_on_the_request_clock() -> None:
    # Idle and silent on initialize: the 1 s request timeout applies, not the 60 s start-up.
    spec = _spec(slow_starter(0, "--hang-on", "initialize"))
    with pytest.raises(WhichtoolError) as caught:
        await fetch_server_listing(spec, timeout=1)
    assert caught.value.code == "mcp/timeout"
    assert "did not answer initialize within 1 s" in caught.value.message


async def test_initialize_is_sent_at_once_so_a_server_that_never_sleeps_still_opens() -> None:
    # The server answers while a thread of it keeps spinning: it never looks up, so only the
    # handshake sent before that (its clock waiting, not the message) lets the session open.
    # Held until the server slept, initialize would go out only at the 60 s start-up deadline.
    session = McpSession(_spec(busy_server()), timeout=1)
    async with session:
        page = await session.list_tools_page(None)
        assert session.protocol_version
    assert "echo" in {tool["name"] for tool in page["tools"]}
    assert session.pid is not None and wait_gone(session.pid)
