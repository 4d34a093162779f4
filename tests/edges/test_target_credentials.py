"""Credentials in target URLs and config headers (issue 12, item 8)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from whichtool_tui.cli import main
from whichtool_tui.errors import WhichtoolError
from whichtool_tui.mcp_client.auth import authorization_headers, check_http_url

pytestmark = pytest.mark.slow  # starts processes or servers


@pytest.mark.parametrize(
    "url", ["http://user:pw@127.0.0.1:9/mcp", "https://token@mcp.example.com/mcp"]
)
def test_userinfo_in_a_target_url_is_refused_with_a_hint(url: str) -> None:
    with pytest.raises(WhichtoolError) as caught:
        check_http_url(url)
    assert caught.value.code == "target/credential-in-url"
    assert "WHICHTOOL_HTTP_AUTHORIZATION" in (caught.value.hint or "")
    assert "pw" not in caught.value.message and "token@" not in caught.value.message


@pytest.mark.parametrize("header", ["X-Api-Key", "Cookie", "Authorization", "X-Session-Token"])
def test_credential_headers_follow_the_https_or_loopback_rule(header: str) -> None:
    config = {header: "s3cret"}
    with pytest.raises(WhichtoolError) as caught:
        authorization_headers("http://10.0.0.5:8000/mcp", config, {})
    assert caught.value.code == "http/insecure-authorization-target"
    assert header in caught.value.message and "s3cret" not in caught.value.message
    assert authorization_headers("https://mcp.example.com/mcp", config, {}) == config
    assert authorization_headers("http://127.0.0.1:8000/mcp", config, {}) == config
    plain = {"X-Request-Source": "ci"}
    assert authorization_headers("http://10.0.0.5:8000/mcp", plain, {}) == plain


def test_inspect_and_bout_refuse_userinfo_before_connecting(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    url = "http://alice:hunter2@127.0.0.1:9/mcp"
    assert main(["--no-ui", "inspect", url]) == 2
    err = capsys.readouterr().err
    assert "user name or password" in err and "hunter2" not in err
    assert main(["--no-ui", "bout", "--target", "http", "--url", url, "--allow-live",
                 "--no-prompt", "--sandbox", str(tmp_path / "sb")]) == 2  # fmt: skip
    err = capsys.readouterr().err
    assert "user name or password" in err and "hunter2" not in err
    config = tmp_path / "whichtool.config.json"
    config.write_text(
        json.dumps({"target": {"transport": "http", "url": "http://10.0.0.5:9/mcp",
                               "headers": {"Cookie": "sid=1"}}}),
        encoding="utf-8",
    )  # fmt: skip
    assert main(["--no-ui", "inspect"]) == 2
    assert "Refusing to send the Cookie header over plain HTTP" in capsys.readouterr().err
