"""`inspect --host` end to end: the JSON section, the gate, config keys, bad input."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.support.cli import run_headless
from tests.support.upstream_schemas import upstream_validator
from tests.unit.hosts.surfaces import schema, tool

pytestmark = pytest.mark.slow
SCHEMA = upstream_validator("inspect-report")


def _snapshot(tmp_path: Path, tools: list[dict[str, Any]]) -> Path:
    path = tmp_path / "tools.json"
    path.write_text(json.dumps({"tools": tools}), encoding="utf-8")
    return path


def _broken(tmp_path: Path) -> Path:
    return _snapshot(
        tmp_path,
        [
            tool("items.get"),
            tool("search", inputSchema=schema(oneOf=[{"required": ["id"]}])),
            tool("long", description="x" * 2100),
        ],
    )


def test_without_host_the_json_is_exactly_upstreams_shape(tmp_path: Path, cli_env: dict) -> None:
    snapshot = _broken(tmp_path)
    plain = run_headless("inspect", str(snapshot), "--format", "json", env=cli_env)
    assert plain.returncode == 0, plain.stderr
    data = json.loads(plain.stdout)
    assert "hosts" not in data
    assert list(SCHEMA.iter_errors(data)) == []
    hosted = run_headless(
        "inspect", str(snapshot), "--format", "json", "--host", "all", env=cli_env
    )
    with_hosts = json.loads(hosted.stdout)
    assert [v["host"] for v in with_hosts.pop("hosts")][:2] == ["anthropic", "chatgpt-apps"]
    assert with_hosts == data  # the hosts section is purely additive


def test_the_hosts_section_has_the_issue_shape(tmp_path: Path, cli_env: dict) -> None:
    done = run_headless(
        "inspect", str(_broken(tmp_path)), "--format", "json",
        "--host", "claude-code", "--host", "openai", "--host-server-name", "srv", env=cli_env,
    )  # fmt: skip
    claude, openai = json.loads(done.stdout)["hosts"]
    assert claude["host"] == "claude-code" and claude["compatible"] is False
    effects = {(f["tool"], f["rule"], f["effect"]) for f in claude["findings"]}
    assert effects == {
        ("items.get", "claude-code/full-name-64", "request-rejected"),
        ("search", "claude-code/root-combinator", "tool-dropped"),
        ("long", "claude-code/description-2048", "truncated"),
    }
    truncated = next(f for f in claude["findings"] if f["effect"] == "truncated")
    assert truncated["truncation"] == {"at": 2048, "unseen": "x" * 52}
    assert all(f["source"] and f["verified"] == "2026-12-03" for f in claude["findings"])
    assert openai["readiness"] == {"toolCount": 3, "toolsSeen": 0, "tokensLoaded": 0}


def test_require_host_gates_the_exit_code(tmp_path: Path, cli_env: dict) -> None:
    snapshot = _broken(tmp_path)
    failing = run_headless(
        "inspect", str(snapshot), "--format", "json", "--require-host", "anthropic", env=cli_env
    )
    assert failing.returncode == 1
    # a host none of these defects breaks passes the gate
    passing = run_headless(
        "inspect", str(snapshot), "--format", "json", "--require-host", "gemini-json-schema",
        "--host", "anthropic", env=cli_env,
    )  # fmt: skip
    assert passing.returncode == 0, passing.stderr


def test_config_keys_name_and_require_hosts(tmp_path: Path, cli_env: dict) -> None:
    snapshot = _broken(tmp_path)
    config = tmp_path / "whichtool.config.json"
    config.write_text(json.dumps({"inspect": {"requireHosts": ["openai"]}}), encoding="utf-8")
    done = run_headless(
        "inspect", str(snapshot), "--format", "json", "--config", str(config), env=cli_env
    )
    assert done.returncode == 1
    assert [v["host"] for v in json.loads(done.stdout)["hosts"]] == ["openai"]
    config.write_text(json.dumps({"inspect": {"hosts": ["nope"]}}), encoding="utf-8")
    bad = run_headless(
        "inspect", str(snapshot), "--format", "json", "--config", str(config), env=cli_env
    )
    assert bad.returncode == 2 and "unknown host `nope`" in bad.stderr
    assert "Traceback" not in bad.stderr


def test_an_unknown_host_is_one_line_and_exit_2(tmp_path: Path, cli_env: dict) -> None:
    done = run_headless("inspect", str(_broken(tmp_path)), "--host", "nope", env=cli_env)
    assert done.returncode == 2
    assert done.stderr.splitlines()[0].endswith("Unknown host `nope`. Available: " + (
        "anthropic, chatgpt-apps, claude-code, claude-directory, gemini, gemini-json-schema, "
        "mcp-spec, mcp-typescript-sdk, openai, openai-strict, vscode-copilot, all"
    ))  # fmt: skip
    assert "Traceback" not in done.stderr


def test_terminal_and_markdown_show_the_matrix_first(tmp_path: Path, cli_env: dict) -> None:
    snapshot = _broken(tmp_path)
    args = ("inspect", str(snapshot), "--host", "anthropic", "--host", "claude-code")
    terminal = run_headless(*args, "--format", "terminal", env=cli_env).stdout
    section = terminal[terminal.index("Hosts (") :]
    matrix = section.splitlines()[2:6]
    assert matrix[0].split() == ["tool", "anthropic", "claude-code"]
    assert matrix[1].split() == ["items.get", "rejected", "rejected"]
    assert matrix[2].split() == ["long", "ok", "truncated"]
    assert matrix[3].split() == ["search", "rejected", "dropped"]
    assert section.index("INCOMPATIBLE") > section.index("search")
    markdown = run_headless(*args, "--format", "markdown", env=cli_env).stdout
    assert "| `long` | ✓ | truncated |" in markdown
    assert "| `anthropic` | ❌ incompatible | 0/3 | ~0 |  |" in markdown


def test_outside_strings_are_escaped_in_every_text_format(tmp_path: Path, cli_env: dict) -> None:
    snapshot = _snapshot(tmp_path, [tool("evil|<b>\x1b[31m")])
    args = ("inspect", str(snapshot), "--host", "openai")
    terminal = run_headless(*args, "--format", "terminal", env=cli_env).stdout
    assert "\x1b" not in terminal
    markdown = run_headless(*args, "--format", "markdown", env=cli_env).stdout
    section = markdown[markdown.index("### Hosts") :]
    assert "\x1b" not in section  # the control character is shown escaped, never sent
    assert "| `evil\\|<b>\\x1b[31m` | request-rejected |" in section


def test_the_fix_patch_applies_with_jsonpatch_and_reinspects_clean(
    tmp_path: Path, cli_env: dict
) -> None:
    import jsonpatch

    snapshot = _snapshot(
        tmp_path,
        [
            tool("items.get", annotations={}),
            tool("search", inputSchema=schema(oneOf=[{"required": ["id"]}])),
            tool("report", outputSchema={"description": "the report"}),
        ],
    )
    hosts = ("--require-host", "anthropic", "--require-host", "mcp-typescript-sdk",
             "--require-host", "chatgpt-apps")  # fmt: skip
    patch = tmp_path / "hosts.patch.json"
    before = run_headless(
        "inspect", str(snapshot), "--format", "json", *hosts, "--host-fix-out", str(patch),
        env=cli_env,
    )  # fmt: skip
    assert before.returncode == 1
    assert f"to {patch} (applies to" in before.stderr
    operations = json.loads(patch.read_text(encoding="utf-8"))
    fixed = jsonpatch.JsonPatch(operations).apply(json.loads(snapshot.read_text(encoding="utf-8")))
    patched = tmp_path / "patched.json"
    patched.write_text(json.dumps(fixed), encoding="utf-8")
    after = run_headless("inspect", str(patched), "--format", "json", *hosts, env=cli_env)
    assert after.returncode == 0, after.stdout
    assert all(v["compatible"] for v in json.loads(after.stdout)["hosts"])


def test_host_fix_out_needs_a_host(tmp_path: Path, cli_env: dict) -> None:
    done = run_headless(
        "inspect", str(_broken(tmp_path)), "--host-fix-out", str(tmp_path / "p.json"),
        env=cli_env,
    )  # fmt: skip
    assert done.returncode == 2 and "needs --host" in done.stderr


def test_readiness_reports_the_hosts_tool_search_after_tasks(cli_env: dict) -> None:
    from tests.support.paths import SNAPSHOTS

    done = run_headless(
        "inspect", str(SNAPSHOTS / "git.json"), "--tasks", str(SNAPSHOTS / "git.tasks.yaml"),
        "--retriever", "claude-code", "--host", "claude-code", "--host", "openai",
        "--format", "json", env=cli_env,
    )  # fmt: skip
    report = json.loads(done.stdout)
    claude, openai = report["hosts"]
    (summary,) = [s for s in report["findability"]["summary"] if s["retriever"] == "claude-code"]
    assert claude["readiness"]["toolSearch"] == {
        "search": "claude-code",
        "k": summary["k"],
        "foundAtK": summary["foundAtK"],
        "missed": summary["missed"],
    }
    assert "toolSearch" not in openai["readiness"]  # no profile models an OpenAI tool search


def test_the_patch_never_overwrites_the_snapshot_or_the_report(
    tmp_path: Path, cli_env: dict
) -> None:
    snapshot = _broken(tmp_path)
    before = snapshot.read_text(encoding="utf-8")
    for clash in (
        ("--host-fix-out", str(snapshot)),
        ("--out", "r.json", "--host-fix-out", "r.json"),
    ):
        done = run_headless(
            "inspect", str(snapshot), "--host", "openai", *clash, env=cli_env, cwd=tmp_path
        )
        assert done.returncode == 2 and done.stderr.count("\n") <= 2
        # The one output rule refuses the snapshot as the command's input; the two outputs
        # named alike are inspect's own refusal.
        assert "--host-fix-out names a file" in done.stderr or "it is the input" in done.stderr
    assert snapshot.read_text(encoding="utf-8") == before
