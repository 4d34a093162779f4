"""One config and one set of typed values give the same provider request, sources included, from
the CLI, the TUI's Run form and the MCP server (issue 25: requests that carry their provenance).

The request is what the key rule reads; if one face lost a value's source (as the TUI's form once
did), its request would differ here before any key could leave.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from whichtool_tui.cli import build_parser
from whichtool_tui.commands.mcp_server import server_options
from whichtool_tui.commands.run import _provider_request
from whichtool_tui.config import load_settings
from whichtool_tui.server.arguments import RunArguments
from whichtool_tui.server.handlers import agent_run_choice
from whichtool_tui.ui.session import Session, form_provider_choice
from whichtool_tui.usecases.providers import ProviderRequest

CONFIGURED_URL = "http://127.0.0.1:9/v1"
TYPED_URL = "http://127.0.0.1:10/v1"
CONFIG: dict[str, Any] = {
    "provider": {"name": "openai-compatible", "model": "m", "baseUrl": CONFIGURED_URL}
}


@pytest.fixture
def config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "whichtool.config.json"
    path.write_text(json.dumps(CONFIG), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return path


def cli_request(*flags: str) -> ProviderRequest:
    args = build_parser().parse_args(["--no-ui", "run", *flags])
    request: ProviderRequest = _provider_request(args, load_settings(args.config))
    return request


def tui_request(base_url: str | None, edited: bool) -> ProviderRequest:
    session = Session(loaded_settings=load_settings(None))
    form = session.run_form  # pre-filled from the config, as the Run screen shows it
    choice = form_provider_choice(session, form.provider, form.model, base_url, edited)
    return ProviderRequest.of(choice)


def mcp_request(config: Path, **arguments: Any) -> ProviderRequest:
    options = server_options(build_parser().parse_args(["mcp", "--config", str(config)]))
    return ProviderRequest.of(agent_run_choice(options, RunArguments(**arguments)))


def test_a_config_url_is_config_on_every_face(config: Path) -> None:
    expected = ProviderRequest(
        name="openai-compatible",
        model="m",
        base_url=CONFIGURED_URL,
        base_url_source="config",
    )
    assert cli_request() == expected
    assert tui_request(CONFIGURED_URL, edited=False) == expected
    assert mcp_request(config) == expected


def test_a_typed_url_is_the_persons_on_the_cli_and_in_the_form(config: Path) -> None:
    typed = cli_request("--base-url", TYPED_URL)
    assert typed.base_url == TYPED_URL and typed.base_url_source == "flag"
    edited = tui_request(TYPED_URL, edited=True)
    assert edited.base_url == TYPED_URL and edited.base_url_source == "form"
    # Typed back to the configured text, the field is still the user's.
    retyped = tui_request(CONFIGURED_URL, edited=True)
    assert retyped.base_url == CONFIGURED_URL and retyped.base_url_source == "form"
    assert typed.model_dump(exclude={"base_url_source"}) == edited.model_dump(
        exclude={"base_url_source"}
    )


def test_naming_another_provider_drops_the_config_url_on_every_face(config: Path) -> None:
    expected = ProviderRequest(
        name="openai-chat", model="m", base_url=None, base_url_source="preset"
    )
    assert cli_request("--provider", "openai-chat") == expected
    session = Session(loaded_settings=load_settings(None))
    form = session.run_form
    choice = form_provider_choice(session, "openai-chat", form.model, form.base_url)
    assert ProviderRequest.of(choice) == expected
    flags = ["mcp", "--config", str(config), "--allow-provider-overrides"]
    options = server_options(build_parser().parse_args(flags))
    agent = agent_run_choice(options, RunArguments(provider="openai-chat"))
    assert ProviderRequest.of(agent) == expected
