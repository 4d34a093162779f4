"""Hints reach the user intact: redaction hides secrets, not the advice around them."""

from __future__ import annotations

import pytest

from tests.support.cli import run_headless


@pytest.mark.slow
def test_origin_hint_survives_redaction(cli_env: dict[str, str]) -> None:
    env = dict(cli_env, WHICHTOOL_HTTP_AUTHORIZATION="Bearer sentinel-secret-value")
    env.pop("WHICHTOOL_HTTP_AUTHORIZATION_ORIGIN", None)
    result = run_headless("inspect", "http://127.0.0.1:9/mcp", env=env)
    assert result.returncode == 2
    lines = result.stderr.splitlines()
    assert lines[0].startswith("whichtool-tui: WHICHTOOL_HTTP_AUTHORIZATION is set but")
    assert "e.g. https://mcp.example.com" in lines[1]
    assert "(invalid URL)" not in result.stderr
    assert "sentinel-secret-value" not in result.stderr + result.stdout
