"""Which Authorization header an HTTP target gets: origin matching, loopback and HTTPS rules."""

from __future__ import annotations

import pytest

from whichtool_tui.errors import WhichtoolError
from whichtool_tui.mcp_client.auth import (
    AUTH_ENV,
    ORIGIN_ENV,
    authorization_headers,
    credential_in_url_warning,
    is_loopback_host,
    url_origin,
)

SECRET = "Bearer s3cr3t-value"


def _refusal(url: str, env: dict[str, str], headers: dict[str, str] | None = None) -> str:
    with pytest.raises(WhichtoolError) as caught:
        authorization_headers(url, headers, env)
    assert SECRET not in f"{caught.value.message} {caught.value.hint}"
    return caught.value.code


@pytest.mark.parametrize(
    ("url", "origin"),
    [
        ("https://Example.COM/mcp", "https://example.com"),
        ("https://example.com:443/x", "https://example.com"),
        ("http://example.com:80", "http://example.com"),
        ("http://127.0.0.1:8080/mcp?x=1", "http://127.0.0.1:8080"),
        ("http://[::1]:9/mcp", "http://[::1]:9"),
        ("ftp://example.com", None),
        ("not a url", None),
    ],
)
def test_url_origin(url: str, origin: str | None) -> None:
    assert url_origin(url) == origin


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("localhost", True),
        ("127.0.0.1", True),
        ("127.8.9.10", True),
        ("::1", True),
        ("10.0.0.1", False),
        ("example.com", False),
        (None, False),
    ],
)
def test_loopback(host: str | None, loopback: bool) -> None:
    assert is_loopback_host(host) is loopback


def test_no_credential_no_header() -> None:
    assert authorization_headers("http://example.com/mcp", None, {}) == {}


def test_env_credential_with_exact_origin_over_https() -> None:
    env = {AUTH_ENV: SECRET, ORIGIN_ENV: "https://mcp.example.com"}
    headers = authorization_headers("https://MCP.example.com:443/mcp", {"X-Other": "1"}, env)
    assert headers == {"X-Other": "1", "Authorization": SECRET}


def test_env_credential_to_loopback_over_http() -> None:
    env = {AUTH_ENV: SECRET, ORIGIN_ENV: "http://localhost:3000"}
    assert authorization_headers("http://localhost:3000/mcp", None, env)["Authorization"] == SECRET


@pytest.mark.parametrize(
    ("origin", "url", "code"),
    [
        (None, "https://a.example/mcp", "http/authorization-origin-required"),
        ("", "https://a.example/mcp", "http/authorization-origin-required"),
        ("https://a.example/mcp", "https://a.example/mcp", "http/invalid-authorization-origin"),
        ("https://u:p@a.example", "https://a.example/mcp", "http/invalid-authorization-origin"),
        ("a.example", "https://a.example/mcp", "http/invalid-authorization-origin"),
        ("https://a.example", "https://b.example/mcp", "http/authorization-origin-mismatch"),
        ("https://a.example", "http://a.example/mcp", "http/authorization-origin-mismatch"),
        ("https://a.example", "https://a.example:8443/mcp", "http/authorization-origin-mismatch"),
        ("http://a.example", "http://a.example/mcp", "http/insecure-authorization-target"),
    ],
)
def test_env_credential_refusals(origin: str | None, url: str, code: str) -> None:
    env = {AUTH_ENV: SECRET}
    if origin is not None:
        env[ORIGIN_ENV] = origin
    assert _refusal(url, env) == code


def test_config_authorization_wins_and_still_needs_a_safe_channel() -> None:
    env = {AUTH_ENV: "Bearer other", ORIGIN_ENV: "https://elsewhere.example"}
    headers = authorization_headers("https://a.example/mcp", {"authorization": SECRET}, env)
    assert headers == {"authorization": SECRET}
    assert _refusal("http://a.example/mcp", {}, {"Authorization": SECRET}) == (
        "http/insecure-authorization-target"
    )


@pytest.mark.parametrize(
    ("url", "warned"),
    [
        ("https://a.example/mcp", False),
        ("https://user:pw@a.example/mcp", True),
        ("https://a.example/mcp?key=1", True),
        ("https://a.example/mcp#x", True),
        ("https://a.example/v1/abcdef0123456789xyz/mcp", True),
        ("https://a.example/very-long-but-plain-name/mcp", False),
    ],
)
def test_credential_in_url_warning(url: str, warned: bool) -> None:
    warning = credential_in_url_warning(url)
    assert (warning is not None) is warned
    if warning is not None:
        assert warning.code == "http/credential-in-url"
        assert warning.severity == "warning"
        assert "pw" not in warning.message and "abcdef0123456789xyz" not in warning.message
