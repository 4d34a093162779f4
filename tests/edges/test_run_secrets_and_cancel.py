"""Secrets never leave the process, and Ctrl+C aborts a real run with 130 and no report."""

from __future__ import annotations

import json
import os
import signal
import subprocess
from pathlib import Path

import pytest

from tests.support.cli import binary_path
from tests.support.fake_apis import FakeReply, chat_reply, fake_api_server
from tests.support.places import PlatformDirs
from tests.support.processes import wait_for
from tests.support.run_project import run_args, write_project
from whichtool_tui.cli import main

pytestmark = pytest.mark.slow  # starts processes or servers

SENTINEL = "sk-sentinel-7f3a9c1e5b2d4e6f8a0b"
AUTH_SENTINEL = "Bearer auth-sentinel-0d9e8f7a6b5c"


def test_sentinel_keys_appear_in_no_file_and_no_output(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    platform_dirs: PlatformDirs,
) -> None:
    monkeypatch.chdir(tmp_path)
    write_project(tmp_path)
    for name in (
        "OPENAI_API_KEY",
        "ANTHROPIC_API_KEY",
        "OPENROUTER_API_KEY",
        "TOGETHER_API_KEY",
        "WHICHTOOL_PROVIDER_API_KEY",
    ):
        monkeypatch.setenv(name, SENTINEL)
    monkeypatch.setenv("WHICHTOOL_HTTP_AUTHORIZATION", AUTH_SENTINEL)
    monkeypatch.setenv("WHICHTOOL_HTTP_AUTHORIZATION_ORIGIN", "http://127.0.0.1")
    (tmp_path / "whichtool.config.json").write_text(
        json.dumps({"report": {"formats": ["json", "markdown", "terminal"], "out": "all/run"}})
    )
    calls = 0

    def answer(request: object) -> FakeReply:
        nonlocal calls
        calls += 1
        if calls % 3 == 0:  # an error body that echoes the credential back
            return FakeReply(401, {"error": {"message": f"bad key {SENTINEL}"}})
        return chat_reply(calls=[("read_file", '{"path": "a"}')])

    outputs = []
    with fake_api_server() as api:
        api.responder = answer
        for extra in (["--format", "json", "--out", "run.json"], ["--max-error-rate", "1"]):
            main(run_args(api.base_url, "--repeat", "3", *extra))
            captured = capsys.readouterr()
            outputs += [captured.out, captured.err]
    assert api.requests[0].headers["authorization"] == f"Bearer {SENTINEL}"  # it was really sent
    cached = [path for path in platform_dirs.cache.rglob("*") if path.is_file()]
    assert any(path.parent.parent.name == "trials" for path in cached)  # the default cache
    written = [path for path in tmp_path.rglob("*") if path.is_file()] + cached
    assert (tmp_path / "run.json").exists() and (tmp_path / "all" / "run.md").exists()
    for path in written:
        content = path.read_bytes()
        assert SENTINEL.encode() not in content, path
        assert b"auth-sentinel" not in content, path
    for text in outputs:
        assert SENTINEL not in text and "auth-sentinel" not in text
    report = json.loads((tmp_path / "run.json").read_text())
    assert any(t["verdict"] == "error" for t in report["trials"])


def test_ctrl_c_exits_130_and_writes_no_report(tmp_path: Path, cli_env: dict[str, str]) -> None:
    write_project(tmp_path)
    with fake_api_server() as api:
        api.responder = lambda _request: chat_reply(calls=[("read_file", "{}")]).slow(30)
        process = subprocess.Popen(
            [
                binary_path(),
                *run_args(api.base_url),
                "--format",
                "json",
                "--out",
                "run.json",
                "--no-cache",
            ],
            cwd=tmp_path,
            env=cli_env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            wait_for(lambda: len(api.requests) >= 4, 30, interval=0.05)
            assert len(api.requests) == 4  # concurrency 4: four requests in flight
            process.send_signal(signal.SIGINT)
            out, err = process.communicate(timeout=15)
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
    assert process.returncode == 130, err
    assert "cancelled" in err and "Traceback" not in err
    assert out == ""
    assert not (tmp_path / "run.json").exists()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".run.json")]
    assert os.path.exists(tmp_path / "surface.json")
