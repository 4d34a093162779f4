"""tools/list over real HTTP on 127.0.0.1: Streamable HTTP, legacy SSE, auth and bad answers."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest

from tests.support import reference_servers
from tests.support.mcp_http_server import PAGE_SIZE, TOKEN, TOOL_COUNT, serve
from tests.support.net import RunningServer, free_port
from whichtool_tui.config import Settings, parse_config
from whichtool_tui.errors import ExitCode, WhichtoolError
from whichtool_tui.mcp_client.auth import AUTH_ENV, ORIGIN_ENV
from whichtool_tui.targets import fetch_listing, resolve_target

pytestmark = pytest.mark.slow  # starts processes or servers


@pytest.fixture(scope="module")
def server() -> Iterator[RunningServer]:
    with serve() as running:
        yield running


@pytest.fixture(autouse=True)
def _no_env_credential(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(AUTH_ENV, raising=False)
    monkeypatch.delenv(ORIGIN_ENV, raising=False)


async def _error_for(url: str, transport: str | None = None, seconds: float = 10) -> WhichtoolError:
    with pytest.raises(WhichtoolError) as caught:
        await fetch_listing(resolve_target(url, transport, Settings()), timeout=seconds)
    error = caught.value
    assert error.exit_code == ExitCode.ERROR
    assert "\n" not in error.message
    return error


async def test_streamable_http_follows_every_page(server: RunningServer) -> None:
    listing = await fetch_listing(resolve_target(server.url(), None, Settings()), timeout=10)
    assert listing.transport == "http"
    assert listing.ref == server.url()
    assert listing.server_name == "paged-test-server"
    assert [tool["name"] for tool in listing.raw_tools] == [
        f"tool_{index:02d}" for index in range(TOOL_COUNT)
    ]
    assert listing.raw_tools[0]["inputSchema"]["properties"]["n"] == {"type": "integer"}
    pages = -(-TOOL_COUNT // PAGE_SIZE)
    assert [(d.code, d.detail) for d in listing.diagnostics] == [
        ("mcp/paginated", {"pages": pages})
    ]


async def test_credential_like_url_is_redacted_and_warned(server: RunningServer) -> None:
    url = server.url("/mcp?token=abc123secret")
    listing = await fetch_listing(resolve_target(url, None, Settings()), timeout=10)
    assert "abc123secret" not in listing.ref
    assert "token=redacted" in listing.ref
    warnings = [d for d in listing.diagnostics if d.code == "http/credential-in-url"]
    assert len(warnings) == 1 and warnings[0].severity == "warning"
    assert "abc123secret" not in warnings[0].message


async def test_env_credential_reaches_its_exact_origin(
    server: RunningServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(AUTH_ENV, TOKEN)
    monkeypatch.setenv(ORIGIN_ENV, f"http://127.0.0.1:{server.port}")
    listing = await fetch_listing(resolve_target(server.url("/auth/mcp"), None, Settings()))
    assert len(listing.raw_tools) == TOOL_COUNT


async def test_a_target_without_env_credential_never_sends_it(
    server: RunningServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(AUTH_ENV, TOKEN)
    monkeypatch.setenv(ORIGIN_ENV, f"http://127.0.0.1:{server.port}")
    spec = replace(resolve_target(server.url("/auth/mcp"), None, Settings()), env_credential=False)
    with pytest.raises(WhichtoolError) as caught:
        await fetch_listing(spec, timeout=10)
    assert "401" in caught.value.message
    assert TOKEN.split()[-1] not in f"{caught.value.message} {caught.value.hint}"


async def test_missing_credential_gets_401_with_hint(server: RunningServer) -> None:
    error = await _error_for(server.url("/auth/mcp"))
    assert error.code == "http/status"
    assert "401" in error.message
    assert error.hint is not None and AUTH_ENV in error.hint and ORIGIN_ENV in error.hint


async def test_wrong_credential_is_refused_and_never_shown(
    server: RunningServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(AUTH_ENV, "Bearer wrong-secret-value-987")
    monkeypatch.setenv(ORIGIN_ENV, f"http://127.0.0.1:{server.port}/")
    error = await _error_for(server.url("/auth/mcp"))
    assert error.code == "http/status"
    assert "wrong-secret-value-987" not in f"{error.message} {error.hint}"


async def test_forbidden_gets_403_with_hint(server: RunningServer) -> None:
    error = await _error_for(server.url("/forbidden/mcp"))
    assert error.code == "http/status"
    assert "403" in error.message
    assert error.hint is not None and AUTH_ENV in error.hint


async def test_config_authorization_wins_over_env(
    server: RunningServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(AUTH_ENV, "Bearer elsewhere")
    monkeypatch.setenv(ORIGIN_ENV, "https://somewhere-else.example")
    settings = parse_config(
        {
            "target": {
                "transport": "http",
                "url": server.url("/auth/mcp"),
                "headers": {"Authorization": TOKEN},
            }
        },
        "test",
    )
    spec = resolve_target(None, None, settings)
    assert TOKEN not in repr(spec)
    listing = await fetch_listing(spec, timeout=10)
    assert len(listing.raw_tools) == TOOL_COUNT


@pytest.mark.parametrize(
    ("origin", "code"),
    [
        (None, "http/authorization-origin-required"),
        ("http://127.0.0.1:1", "http/authorization-origin-mismatch"),
        ("http://127.0.0.1:{port}/mcp", "http/invalid-authorization-origin"),
        ("ftp://127.0.0.1", "http/invalid-authorization-origin"),
    ],
)
async def test_env_credential_origin_rules(
    server: RunningServer, monkeypatch: pytest.MonkeyPatch, origin: str | None, code: str
) -> None:
    monkeypatch.setenv(AUTH_ENV, TOKEN)
    if origin is not None:
        monkeypatch.setenv(ORIGIN_ENV, origin.format(port=server.port))
    error = await _error_for(server.url("/auth/mcp"))
    assert error.code == code
    assert TOKEN not in f"{error.message} {error.hint}"


async def test_credential_for_plain_http_remote_origin_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # 192.0.2.0/24 is reserved for documentation: the refusal must come before any connection.
    monkeypatch.setenv(AUTH_ENV, TOKEN)
    monkeypatch.setenv(ORIGIN_ENV, "http://192.0.2.10")
    error = await _error_for("http://192.0.2.10/mcp")
    assert error.code == "http/insecure-authorization-target"


async def test_redirect_is_refused(server: RunningServer) -> None:
    error = await _error_for(server.url("/redirect/mcp"))
    assert error.code == "http/redirect"
    assert "307" in error.message
    assert server.url("/mcp") in error.message


async def test_oversize_body_is_refused(server: RunningServer) -> None:
    error = await _error_for(server.url("/huge/mcp"))
    assert error.code == "mcp/oversize"


async def test_plain_404_suggests_legacy_server(server: RunningServer) -> None:
    error = await _error_for(server.url("/missing/mcp"))
    assert error.code == "http/legacy-server-suspected"
    assert error.hint is not None and "legacy-sse" in error.hint


async def test_slow_server_times_out_by_name(server: RunningServer) -> None:
    error = await _error_for(server.url("/slow/mcp"), seconds=0.3)
    assert error.code == "mcp/timeout"


async def test_unreachable_server_is_named() -> None:
    error = await _error_for(f"http://127.0.0.1:{free_port()}/mcp", seconds=5)
    assert error.code == "http/unreachable"


@pytest.mark.parametrize("transport", ["legacy-sse", "sse"])
async def test_legacy_sse_server(server: RunningServer, transport: str) -> None:
    listing = await fetch_listing(resolve_target(server.url("/sse"), transport, Settings()))
    assert listing.transport == "legacy-sse"
    assert listing.server_name == "sse-test-server"
    assert sorted(tool["name"] for tool in listing.raw_tools) == ["add", "shout"]
    add = next(tool for tool in listing.raw_tools if tool["name"] == "add")
    assert add["inputSchema"]["required"] == ["a", "b"]


async def test_legacy_sse_client_on_a_streamable_endpoint_says_so(server: RunningServer) -> None:
    error = await _error_for(server.url("/mcp"), "legacy-sse")
    assert error.code == "http/status"
    assert error.hint is not None and "--transport http" in error.hint


async def test_streamable_client_on_a_legacy_endpoint_suspects_legacy(
    server: RunningServer,
) -> None:
    error = await _error_for(server.url("/sse"), "http")
    assert error.code == "http/legacy-server-suspected"


@pytest.mark.parametrize(
    ("mode", "transport", "path"),
    [("streamableHttp", "http", "/mcp"), ("sse", "legacy-sse", "/sse")],
)
async def test_everything_server_over_http(mode: str, transport: str, path: str) -> None:
    with reference_servers.everything_over_http(mode) as base:
        if base is None:
            pytest.skip("npm server-everything is not installed")
        listing = await fetch_listing(resolve_target(base + path, transport, Settings()))
    assert listing.transport == transport
    assert listing.server_name == "mcp-servers/everything"
    assert len(listing.raw_tools) == 13
    assert "echo" in {tool["name"] for tool in listing.raw_tools}


async def test_web_page_instead_of_mcp_is_named(server: RunningServer) -> None:
    error = await _error_for(server.url("/html/mcp"))
    assert error.code == "http/unexpected-content-type"
    assert "text/html" in error.message
