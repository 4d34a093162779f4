"""Provider keys go only where they belong (issue 12, item 1).

Loopback destinations are checked with the header-logging fake API. Non-loopback destinations
never see a byte: in-process builds run under a socket guard and an in-process httpx transport;
child processes get HTTP(S)_PROXY pointed at a loopback proxy that records and refuses.
"""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.support.cli import clean_env, run_binary, run_headless
from tests.support.fake_apis import FakeApi, chat_reply, fake_api_server
from tests.support.logging_proxy import LoggingProxy, logging_proxy
from tests.support.mcp_session import call, demo_workspace, mcp_session
from tests.support.run_project import write_project
from whichtool_tui.cli import main
from whichtool_tui.config import ProviderConfig, Settings
from whichtool_tui.providers.base import Provider, ProviderError, RouteRequest, ToolSpec
from whichtool_tui.providers.factory import build_provider
from whichtool_tui.providers.http import JsonPoster
from whichtool_tui.providers.key_routing import is_private_host
from whichtool_tui.usecases.options import ProviderOverrides, merge_provider
from whichtool_tui.usecases.providers import ProviderRequest, open_provider

pytestmark = pytest.mark.slow  # starts processes or servers

SENTINEL = "sk-SENTINEL-keyrouting-5d1e"
TOOLS = (ToolSpec("ping", "Ping a host.", {"type": "object"}),)


@pytest.fixture
def no_remote_sockets(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """Any attempt to resolve or connect to a non-loopback address fails and is recorded."""
    attempts: list[object] = []
    real_connect = socket.socket.connect
    real_getaddrinfo = socket.getaddrinfo

    def loopback(host: object) -> bool:
        return str(host) in ("127.0.0.1", "::1", "localhost")

    def connect(self: socket.socket, address: Any) -> None:
        if isinstance(address, tuple) and not loopback(address[0]):
            attempts.append(address)
            raise OSError("test guard: no traffic may leave the machine")
        real_connect(self, address)

    def getaddrinfo(host: Any, *args: Any, **kwargs: Any) -> Any:
        if not loopback(host):
            attempts.append(host)
            raise socket.gaierror("test guard: no name lookups off the machine")
        return real_getaddrinfo(host, *args, **kwargs)

    monkeypatch.setattr(socket.socket, "connect", connect)
    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    return attempts


@pytest.fixture
def in_process_transport(
    monkeypatch: pytest.MonkeyPatch, no_remote_sockets: list[object]
) -> Iterator[list[httpx.Request]]:
    """Every provider request is answered in process (a text reply) and recorded."""
    seen: list[httpx.Request] = []

    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, json=chat_reply(text="ok").json_body)

    def client(self: JsonPoster) -> httpx.AsyncClient:
        if self._client is None:
            self._client = httpx.AsyncClient(transport=httpx.MockTransport(answer))
        return self._client

    monkeypatch.setattr(JsonPoster, "_get_client", client)
    yield seen
    assert no_remote_sockets == []


def flagged(
    name: str | None, model: str, configured: ProviderConfig, env: dict[str, str]
) -> Provider:
    """The CLI's path: flags merged over a config, then the one provider builder."""
    choice = merge_provider(ProviderOverrides(name, model), Settings(provider=configured), "flag")
    return open_provider(ProviderRequest.of(choice), env)


def refusal(**kwargs: Any) -> ProviderError:
    with pytest.raises(ProviderError) as caught:
        build_provider(**kwargs)
    return caught.value


# --- the rule, in process -------------------------------------------------------------------


def test_a_config_base_url_applies_only_to_the_provider_it_names() -> None:
    lan = ProviderConfig(name="vllm", base_url="http://gpu-box.lan:8000/v1")
    env = {"OPENAI_API_KEY": SENTINEL}
    switched = flagged("openai", "m", lan, env)
    assert switched.identity.endpoint == "https://api.openai.com/v1/responses"
    same = flagged(None, "m", lan, env)
    assert same.identity.endpoint == "http://gpu-box.lan:8000/v1/chat/completions"


@pytest.mark.parametrize("url", ["http://10.0.0.1:8080/v1", "http://evil.example.com/v1"])
def test_a_key_never_goes_over_plain_http_off_the_machine(url: str) -> None:
    env = {"WHICHTOOL_PROVIDER_API_KEY": SENTINEL}
    error = refusal(name="openai-compatible", model="m", base_url=url, env=env)
    assert error.code == "provider/insecure-key-target"
    assert "--allow-http-provider" in (error.hint or "")
    assert SENTINEL not in error.message + (error.hint or "")
    # Without a key nothing secret travels, so the same URL is fine.
    assert build_provider("openai-compatible", "m", url, env={}).identity.endpoint


def test_the_opt_in_covers_private_hosts_only() -> None:
    env = {"WHICHTOOL_PROVIDER_API_KEY": SENTINEL}
    for url in ("http://10.0.0.1:8080/v1", "http://gpu-box.lan:8000/v1", "http://gpu/v1"):
        build_provider("openai-compatible", "m", url, env=env, allow_http=True)
    error = refusal(
        name="openai-compatible",
        model="m",
        base_url="http://evil.example.com/v1",
        env=env,
        allow_http=True,
    )
    assert error.code == "provider/insecure-key-target"
    assert is_private_host("192.168.1.5") and is_private_host("fd00::1")
    assert not is_private_host("8.8.8.8") and not is_private_host("evil.example.com")


@pytest.mark.parametrize(
    ("name", "key_env"),
    [
        ("openai", "OPENAI_API_KEY"),
        ("openai-chat", "OPENAI_API_KEY"),
        ("anthropic", "ANTHROPIC_API_KEY"),
        ("openrouter", "OPENROUTER_API_KEY"),
        ("together", "TOGETHER_API_KEY"),
    ],
)
def test_a_vendor_key_leaves_its_vendor_only_for_a_command_line_url(
    name: str, key_env: str
) -> None:
    env = {key_env: SENTINEL}
    for url in ("https://proxy.example/v1", "http://127.0.0.1:9/v1"):
        error = refusal(name=name, model="m", base_url=url, env=env, base_url_source="config")
        assert error.code == "provider/key-host-mismatch"
        assert "--base-url" in (error.hint or "")
        build_provider(name, "m", url, env=env, base_url_source="flag")
    configured = ProviderConfig(name=name, base_url="https://proxy.example/v1")
    with pytest.raises(ProviderError, match="goes only to"):
        flagged(None, "m", configured, env)


async def test_allowed_private_http_reaches_only_that_host(
    in_process_transport: list[httpx.Request],
) -> None:
    env = {"WHICHTOOL_PROVIDER_API_KEY": SENTINEL}
    provider = build_provider(
        "openai-compatible", "m", "http://10.0.0.1:8080/v1", env=env, allow_http=True
    )
    try:
        await provider.route(RouteRequest("ping", TOOLS, 0.0, 1))
    finally:
        await provider.aclose()
    (sent,) = in_process_transport
    assert str(sent.url) == "http://10.0.0.1:8080/v1/chat/completions"
    assert sent.headers["authorization"] == f"Bearer {SENTINEL}"


# --- run ------------------------------------------------------------------------------------


_env = clean_env


def _config(folder: Path, provider: dict[str, str]) -> None:
    (folder / "whichtool.config.json").write_text(
        json.dumps({"provider": provider}), encoding="utf-8"
    )


def _run(folder: Path, proxy: LoggingProxy, *args: str, key_env: str = "OPENAI_API_KEY") -> Any:
    return run_headless(
        "run",
        "surface.json",
        "--repeat",
        "1",
        "--no-cache",
        *args,
        env=_env({key_env: SENTINEL, **proxy.env()}),
        cwd=folder,
    )


def _assert_clean(api: FakeApi, proxy: LoggingProxy, *texts: str) -> None:
    assert api.requests == []
    assert all(SENTINEL not in str(r.headers) for r in proxy.requests)
    assert all(SENTINEL not in text for text in texts)


def test_run_with_another_provider_ignores_the_configs_base_url(tmp_path: Path) -> None:
    write_project(tmp_path)
    with fake_api_server() as api, logging_proxy() as proxy:
        _config(tmp_path, {"name": "vllm", "baseUrl": api.base_url + "/v1"})
        done = _run(tmp_path, proxy, "--provider", "openai-chat", "--model", "m")
        _assert_clean(api, proxy, done.stdout, done.stderr)
    # It went (via the refusing proxy) to OpenAI, never to the vllm URL.
    assert {r.target for r in proxy.requests} == {"api.openai.com:443"}
    assert (
        "requests and OPENAI_API_KEY go to https://api.openai.com/v1/chat/completions"
        in done.stderr
    )


def test_run_refuses_a_vendor_key_redirected_by_a_config(tmp_path: Path) -> None:
    write_project(tmp_path)
    with fake_api_server() as api, logging_proxy() as proxy:
        _config(tmp_path, {"name": "openai-chat", "model": "m", "baseUrl": api.base_url + "/v1"})
        for args in ((), ("--dry-run",)):
            done = _run(tmp_path, proxy, *args)
            assert done.returncode == 2, done.stderr
            assert done.stderr.startswith("whichtool-tui: Refusing to send OPENAI_API_KEY")
            assert "Traceback" not in done.stderr
        _assert_clean(api, proxy, done.stdout, done.stderr)
        assert proxy.requests == []


def test_run_sends_a_vendor_key_to_a_command_line_base_url(tmp_path: Path) -> None:
    write_project(tmp_path)
    with fake_api_server() as api, logging_proxy() as proxy:
        api.responder = lambda request: chat_reply(text="no tool")
        done = _run(
            tmp_path,
            proxy,
            "--provider",
            "openai-chat",
            "--model",
            "m",
            "--base-url",
            api.base_url + "/v1",
        )
    assert done.returncode in (0, 1), done.stderr
    assert api.requests and all(
        r.headers["authorization"] == f"Bearer {SENTINEL}" for r in api.requests
    )
    assert proxy.requests == []
    assert f"go to {api.base_url}/v1/chat/completions" in done.stderr


def test_run_plain_http_to_a_private_host_needs_the_opt_in(tmp_path: Path) -> None:
    write_project(tmp_path)
    base = ("--provider", "openai-compatible", "--model", "m", "--base-url", "http://10.0.0.1:9/v1")
    with logging_proxy() as proxy:
        refused = _run(tmp_path, proxy, *base, key_env="WHICHTOOL_PROVIDER_API_KEY")
        assert refused.returncode == 2
        assert "over plain HTTP to http://10.0.0.1:9/v1" in refused.stderr
        assert proxy.requests == []
        allowed = _run(
            tmp_path, proxy, *base, "--allow-http-provider", key_env="WHICHTOOL_PROVIDER_API_KEY"
        )
    # The loopback proxy is as far as it got: the request and key were meant for 10.0.0.1 only.
    assert allowed.returncode == 2  # every trial errored at the refusing proxy
    assert {r.target for r in proxy.requests} == {"http://10.0.0.1:9/v1/chat/completions"}
    assert all(r.headers["authorization"] == f"Bearer {SENTINEL}" for r in proxy.requests)
    assert SENTINEL not in allowed.stderr + allowed.stdout


def test_dry_run_prints_where_the_key_goes(tmp_path: Path) -> None:
    write_project(tmp_path)
    with logging_proxy() as proxy:
        done = _run(
            tmp_path,
            proxy,
            "--provider",
            "anthropic",
            "--model",
            "m",
            "--dry-run",
            key_env="ANTHROPIC_API_KEY",
        )
        unset = run_headless(
            "run",
            "surface.json",
            "--provider",
            "openai",
            "--model",
            "m",
            "--dry-run",
            env=_env({}),
            cwd=tmp_path,
        )
        local = run_headless(
            "run", "surface.json", "--provider", "keyword", "--dry-run", env=_env({}), cwd=tmp_path
        )
    assert done.returncode == 0, done.stderr
    assert (
        "endpoint      provider anthropic: requests and ANTHROPIC_API_KEY go to "
        "https://api.anthropic.com/v1/messages" in done.stdout
    )
    assert "(OPENAI_API_KEY is not set)" in unset.stdout
    assert "provider keyword: offline, no network requests" in local.stdout
    assert proxy.requests == []


# --- tasks generate ---------------------------------------------------------------------------


def test_tasks_generate_ignores_another_providers_config_url(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    in_process_transport: list[httpx.Request],
    capsys: pytest.CaptureFixture[str],
) -> None:
    surface = write_project(tmp_path)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("OPENAI_API_KEY", SENTINEL)
    with fake_api_server() as api:
        _config(tmp_path, {"name": "vllm", "baseUrl": api.base_url + "/v1"})
        code = main(
            [
                "--no-ui",
                "tasks",
                "generate",
                str(surface),
                "--provider",
                "openai-chat",
                "--model",
                "m",
                "--out",
                str(tmp_path / "drafted.yaml"),
            ]
        )
        assert api.requests == []
    assert code == 2  # the in-process answer is not a task draft
    assert {str(r.url) for r in in_process_transport} == {
        "https://api.openai.com/v1/chat/completions"
    }
    err = capsys.readouterr().err
    assert "requests and OPENAI_API_KEY go to https://api.openai.com" in err
    assert SENTINEL not in err


def test_tasks_generate_refuses_plain_http_off_the_machine(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, no_remote_sockets: list[object]
) -> None:
    surface = write_project(tmp_path)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("WHICHTOOL_PROVIDER_API_KEY", SENTINEL)
    code = main(
        [
            "--no-ui",
            "tasks",
            "generate",
            str(surface),
            "--provider",
            "openai-compatible",
            "--model",
            "m",
            "--base-url",
            "http://evil.example.com/v1",
        ]
    )
    assert code == 2 and no_remote_sockets == []
    assert not (tmp_path / "whichtool.tasks.yaml.tmp").exists()


# --- bout model seats -------------------------------------------------------------------------


def test_bout_refuses_a_seat_endpoint_the_key_may_not_reach(tmp_path: Path) -> None:
    done = run_binary(
        "--no-ui",
        "bout",
        "--target",
        "fixture",
        "--agent",
        "openai-chat:m",
        "--seat-endpoint",
        "http://evil.example.com/v1",
        "--no-prompt",
        "-o",
        str(tmp_path / "receipt.json"),
        env=_env({"OPENAI_API_KEY": SENTINEL}),
        cwd=tmp_path,
    )
    assert done.returncode == 2
    assert done.stderr.count("\n") <= 2 and "over plain HTTP" in done.stderr
    assert not (tmp_path / "receipt.json").exists()


# --- the MCP server ---------------------------------------------------------------------------


async def test_mcp_agent_switching_provider_never_gets_the_operators_url(
    tmp_path: Path,
) -> None:
    with fake_api_server() as api, logging_proxy() as proxy:
        config = demo_workspace(
            tmp_path, {"name": "openai-compatible", "model": "m", "baseUrl": api.base_url + "/v1"}
        )
        async with mcp_session(
            tmp_path,
            ["--allow-paid-runs", "--allow-provider-overrides"],
            config=config,
            env={"OPENAI_API_KEY": SENTINEL, **proxy.env()},
        ) as session:
            ran = await call(session, "run_evaluation", provider="openai-chat", model="m", repeat=1)
    assert api.requests == []
    assert proxy.requests and {r.target for r in proxy.requests} == {"api.openai.com:443"}
    assert SENTINEL not in json.dumps(ran)


# --- the Action ------------------------------------------------------------------------------


def test_the_action_never_picks_up_a_repository_config(tmp_path: Path) -> None:
    from tests.support.action import action_workspace, run_action

    workspace = action_workspace(tmp_path)
    # A pull request could add this: it would fail the gate (and could redirect a key).
    (workspace / "whichtool.config.json").write_text(
        json.dumps({"thresholds": {"minAccuracy": 1.0}, "provider": {"name": "vllm"}}),
        encoding="utf-8",
    )
    run = run_action(workspace, target="demo-lab.json", provider="keyword", repeat="1")
    assert all(code == 0 for code in run.codes.values()), run.logs
    assert run.outputs["run"]["exit-code"] == "0"
    explicit = tmp_path / "chosen.json"
    explicit.write_text(json.dumps({"thresholds": {"minAccuracy": 1.0}}), encoding="utf-8")
    gated = run_action(
        workspace, target="demo-lab.json", provider="keyword", repeat="1", config=str(explicit)
    )
    assert gated.outputs["run"]["exit-code"] == "1" and gated.codes["gate"] == 1
