"""Target inference and the config target: which kind of target, and the named refusals."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from whichtool_tui.config import Settings, parse_config
from whichtool_tui.errors import ExitCode, WhichtoolError
from whichtool_tui.mcp_client.command import child_environment, split_command
from whichtool_tui.targets import load_listing, normalize_transport, resolve_target

pytestmark = pytest.mark.slow  # starts processes or servers


def _settings(target: dict[str, Any] | None) -> Settings:
    return parse_config({"target": target} if target is not None else {}, "test")


def _code(target: str | None, transport: str | None, settings: Settings) -> str:
    with pytest.raises(WhichtoolError) as caught:
        resolve_target(target, transport, settings)
    assert caught.value.exit_code == ExitCode.ERROR
    return caught.value.code


@pytest.mark.parametrize(
    ("target", "transport"),
    [
        ("http://127.0.0.1:8000/mcp", "http"),
        ("HTTPS://mcp.example.com/mcp", "http"),
        ("snapshots/time.json", "snapshot"),
        ("Surface.JSON", "snapshot"),
    ],
)
def test_inference(target: str, transport: str) -> None:
    assert resolve_target(target, None, Settings()).transport == transport


@pytest.mark.parametrize("target", ["node server.js", "server.yaml", "ftp://host/x", "mcp"])
def test_anything_else_is_ambiguous(target: str) -> None:
    with pytest.raises(WhichtoolError) as caught:
        resolve_target(target, None, Settings())
    assert caught.value.code == "target/ambiguous"
    assert caught.value.hint is not None and "--transport stdio" in caught.value.hint


def test_forced_stdio_splits_without_a_shell() -> None:
    spec = resolve_target(
        "node 'my server.js' --name \"a b\" x\\ y ; rm -rf /", "stdio", Settings()
    )
    assert spec.transport == "stdio"
    assert spec.argv == ("node", "my server.js", "--name", "a b", "x y", ";", "rm", "-rf", "/")
    assert spec.env == {}


@pytest.mark.parametrize("line", ["", "   ", "node 'unclosed"])
def test_bad_command_lines(line: str) -> None:
    assert _code(line or " ", "stdio", Settings()) == "target/invalid-command"


def test_forced_http_needs_a_url() -> None:
    assert _code("localhost:8000", "http", Settings()) == "target/invalid-url"


def test_transport_names_and_aliases() -> None:
    assert normalize_transport("SSE") == "legacy-sse"
    assert normalize_transport("legacy-sse") == "legacy-sse"
    assert resolve_target("http://127.0.0.1/sse", "sse", Settings()).transport == "legacy-sse"
    assert _code("x.json", "websocket", Settings()) == "target/unknown-transport"


def test_no_target_anywhere_is_missing() -> None:
    assert _code(None, None, Settings()) == "target/missing"


def test_config_target_is_used_when_no_argument() -> None:
    settings = _settings(
        {"transport": "stdio", "command": "node", "args": ["s.js"], "env": {"K": "v"}}
    )
    spec = resolve_target(None, None, settings)
    assert spec.argv == ("node", "s.js")
    assert spec.env == {"K": "v"}
    assert "'v'" not in repr(spec)


def test_config_command_without_args_is_split() -> None:
    spec = resolve_target(None, None, _settings({"transport": "stdio", "command": "node s.js"}))
    assert spec.argv == ("node", "s.js")


def test_transport_flag_without_target_needs_matching_config() -> None:
    settings = _settings({"transport": "http", "url": "http://127.0.0.1:9/mcp"})
    assert resolve_target(None, "http", settings).url == "http://127.0.0.1:9/mcp"
    assert _code(None, "stdio", settings) == "target/missing"


def test_cli_target_wins_over_config_and_ignores_its_env() -> None:
    settings = _settings({"transport": "stdio", "command": "node", "env": {"SECRET": "x"}})
    spec = resolve_target("python3 server.py", "stdio", settings)
    assert spec.argv == ("python3", "server.py")
    assert spec.env == {}


def test_url_ref_is_redacted() -> None:
    spec = resolve_target("https://user:pw@mcp.example.com/mcp?key=abc#frag", None, Settings())
    assert "pw" not in spec.ref and "abc" not in spec.ref and "frag" not in spec.ref
    assert spec.ref.startswith("https://***@mcp.example.com/mcp?")


def test_snapshot_target_loads_without_network(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "s.json").write_text(json.dumps({"tools": [{"name": "a"}]}), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    spec = resolve_target("s.json", None, Settings())
    assert spec.ref == "s.json"
    listing = load_listing(spec)
    assert listing.transport == "snapshot"
    assert listing.raw_tools == [{"name": "a"}]


def test_config_snapshot_target(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "t.json").write_text("[]", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    spec = resolve_target(None, "snapshot", _settings({"transport": "snapshot", "path": "t.json"}))
    assert [d.code for d in load_listing(spec).diagnostics] == ["snapshot/bare-array"]


def test_split_command_keeps_shell_metacharacters_literal() -> None:
    assert split_command("echo `id` $HOME | cat") == ["echo", "`id`", "$HOME", "|", "cat"]


def test_child_environment_allowlist() -> None:
    parent = {"PATH": "/bin", "HOME": "/h", "AWS_SECRET_ACCESS_KEY": "x", "TMPDIR": "/t"}
    assert child_environment({"EXTRA": "1"}, parent) == {
        "PATH": "/bin",
        "HOME": "/h",
        "TMPDIR": "/t",
        "EXTRA": "1",
    }


def test_importing_targets_does_not_load_the_sdk() -> None:
    import subprocess
    import sys

    code = (
        "import sys, whichtool_tui.targets as t; "
        "from whichtool_tui.config import Settings; "
        "t.resolve_target('node s.js', 'stdio', Settings()); "
        "print(sorted(m for m in ('mcp', 'anyio', 'httpx2', 'textual') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
