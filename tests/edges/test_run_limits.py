"""Models that run forever (issue 12, item 9): per-request --timeout, --max-output-tokens in every
API shape (flags and config), and an early stop once the error budget cannot be met.
Everything runs against the loopback fake API through the real CLI entry point.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.fake_apis import (
    FakeApi,
    anthropic_reply,
    chat_reply,
    fake_api_server,
    http_error,
    responses_reply,
)
from tests.support.run_project import write_project
from whichtool_tui.cli import main

pytestmark = pytest.mark.slow  # starts processes or servers

SHAPES = [
    ("openai-compatible", "/v1", "max_tokens", chat_reply(text="no tool")),
    ("openai", "/v1", "max_output_tokens", responses_reply(text="no tool")),
    ("anthropic", "", "max_tokens", anthropic_reply(text="no tool")),
]
KEYS = {"openai": "OPENAI_API_KEY", "anthropic": "ANTHROPIC_API_KEY"}


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    write_project(tmp_path)
    monkeypatch.chdir(tmp_path)
    for name in KEYS.values():
        monkeypatch.setenv(name, "sk-test-not-a-real-key")
    return tmp_path


def _run(api: FakeApi, provider: str, suffix: str, *extra: str) -> int:
    return main(
        ["--no-ui", "run", "surface.json", "--provider", provider, "--model", "m",
         "--base-url", api.base_url + suffix, "--no-cache", "--repeat", "1", "--format", "json",
         *extra]
    )  # fmt: skip


@pytest.mark.parametrize(("provider", "suffix", "field", "reply"), SHAPES)
def test_max_output_tokens_is_sent_in_every_api_shape(
    project: Path, provider: str, suffix: str, field: str, reply: object,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    with fake_api_server() as api:
        api.responder = lambda request: reply  # type: ignore[assignment,return-value]
        assert _run(api, provider, suffix) in (0, 1)
        assert {r.json[field] for r in api.requests} == {1024}  # the default
        api.requests.clear()
        assert _run(api, provider, suffix, "--max-output-tokens", "64") in (0, 1)
        assert {r.json[field] for r in api.requests} == {64}
        api.requests.clear()
        (project / "whichtool.config.json").write_text(
            json.dumps({"trials": {"maxOutputTokens": 77, "timeout": 30}}), encoding="utf-8"
        )
        assert _run(api, provider, suffix) in (0, 1)
        assert {r.json[field] for r in api.requests} == {77}
    capsys.readouterr()


def test_timeout_is_per_request_and_named_in_the_hint(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with fake_api_server() as api:
        api.responder = lambda request: chat_reply(text="late").slow(5.0)
        code = _run(api, "openai-compatible", "/v1", "--timeout", "0.5", "--concurrency", "4")
    report = json.loads(capsys.readouterr().out)
    assert code == 2  # every trial timed out: an invalid run
    errors = [t["error"]["message"] for t in report["trials"] if t.get("error")]
    assert errors and all("did not answer within 0.5 s" in e for e in errors)
    assert "--timeout" in json.dumps(report)


@pytest.mark.parametrize("value", ["nan", "inf", "0", "-1"])
def test_timeout_must_be_a_finite_positive_number(
    project: Path, value: str, capsys: pytest.CaptureFixture[str]
) -> None:
    try:
        code = main(["--no-ui", "run", "surface.json", "--provider", "keyword", "--dry-run",
                     "--timeout", value])  # fmt: skip
    except SystemExit as exit_:
        code = int(exit_.code or 0)
    assert code == 2
    assert "--timeout" in capsys.readouterr().err


def test_the_run_stops_sending_once_the_error_budget_is_spent(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with fake_api_server() as api:
        api.responder = lambda request: http_error(500, "down")
        code = _run(
            api, "openai-compatible", "/v1", "--repeat", "5", "--concurrency", "1",
            "--max-error-rate", "0.1",
        )  # fmt: skip
        sent = len(api.requests)
    report = json.loads(capsys.readouterr().out)
    assert code == 2
    # 4 tasks x 5 = 20 trials, at most 2 may error: the third error ends the spending.
    assert sent == 3
    assert len(report["trials"]) == 20
    assert (
        sum("Not sent" in (t.get("error") or {}).get("message", "") for t in report["trials"]) == 17
    )
