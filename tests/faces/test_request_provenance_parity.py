"""One config and one set of typed values give the same requests, sources included, from the CLI,
the TUI's Run form and the MCP server (issue 25: requests that carry their provenance).

The provider request is what the key rule reads; if one face lost a value's source (as the TUI's
form once did), its request would differ here before any key could leave. The run and inspect
options carry a source per value too (``flag`` on the CLI, ``form`` for a TUI field the user
edited, ``agent`` for the MCP server, else ``config`` or ``default``): the same values must give
the same sources on every face, the face's own name aside.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from whichtool_tui.cli import build_parser
from whichtool_tui.commands.mcp_server import server_options
from whichtool_tui.commands.run import _provider_request, build_options
from whichtool_tui.config import load_settings
from whichtool_tui.server.arguments import InspectArguments, RunArguments
from whichtool_tui.server.handlers import agent_inspect_options, agent_run_choice, run_options_for
from whichtool_tui.server.options import ServerOptions
from whichtool_tui.ui.engine import review_options as ui_review_options
from whichtool_tui.ui.run_control import form_run_options, run_form_options
from whichtool_tui.ui.session import ReviewOptions, Session, form_provider_choice
from whichtool_tui.usecases.api import InspectOptions, RunOptions
from whichtool_tui.usecases.inspect import request_from_flags, review_options
from whichtool_tui.usecases.providers import ProviderRequest

CONFIGURED_URL = "http://127.0.0.1:9/v1"
TYPED_URL = "http://127.0.0.1:10/v1"
CONFIG: dict[str, Any] = {
    "provider": {"name": "openai-compatible", "model": "m", "baseUrl": CONFIGURED_URL},
    "trials": {"repeat": 3, "concurrency": 2, "seed": 7, "maxTools": 9, "maxTrials": 40},
    "thresholds": {"minAccuracy": 0.8, "maxContextTokens": 5000},
}
# Where each run option comes from under CONFIG when a face types nothing.
CONFIGURED: dict[str, str] = {
    name: "config"
    for name in (
        "repeat",
        "concurrency",
        "seed",
        "max_tools",
        "max_trials",
        "min_accuracy",
        "max_context_tokens",
    )
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


# Run and inspect options: values and sources, face by face.


def cli_run_options(*flags: str) -> RunOptions:
    args = build_parser().parse_args(["--no-ui", "run", *flags])
    return build_options(args, load_settings(args.config))


def tui_run_options(typed: dict[str, Any], edited: tuple[str, ...] = ()) -> RunOptions:
    """The Run form's options: its fields as shown (pre-filled unless ``typed``) over the
    config's merge, as the Run screen plans them."""
    session = Session(loaded_settings=load_settings(None))
    shown = run_form_options(session)
    fields = {"repeat": shown.repeat, "seconds_per_trial": shown.seconds_per_trial, **typed}
    return form_run_options(session, fields, edited)


def mcp_server(config: Path) -> ServerOptions:
    return server_options(build_parser().parse_args(["mcp", "--config", str(config)]))


def mcp_run_options(config: Path, **arguments: Any) -> RunOptions:
    return run_options_for(mcp_server(config), RunArguments.model_validate(arguments))


def as_typed(sources: Mapping[str, str], face: str) -> dict[str, str]:
    """The sources with the face's own name said as ``typed``, and defaults left out."""
    return {
        name: "typed" if source == face else source
        for name, source in sources.items()
        if source != "default"
    }


def test_config_values_keep_the_config_source_on_every_face(config: Path) -> None:
    cli = cli_run_options()
    tui = tui_run_options({})
    mcp = mcp_run_options(config)
    assert cli.repeat == 3 and cli.max_trials == 40 and cli.thresholds.min_accuracy == 0.8
    assert cli == tui == mcp
    for face, options in (("flag", cli), ("form", tui), ("agent", mcp)):
        assert as_typed(options.sources, face) == CONFIGURED, face
    assert cli.sources["temperature"] == tui.sources["temperature"] == "default"


def test_a_typed_repeat_is_the_faces_own_on_every_face(config: Path) -> None:
    cli = cli_run_options("--repeat", "4")
    tui = tui_run_options({"repeat": 4})
    mcp = mcp_run_options(config, repeat=4)
    assert cli.repeat == 4 and cli == tui == mcp
    expected = {**CONFIGURED, "repeat": "typed"}
    assert as_typed(cli.sources, "flag") == expected
    assert as_typed(tui.sources, "form") == expected
    assert as_typed(mcp.sources, "agent") == expected
    assert (cli.sources["repeat"], tui.sources["repeat"], mcp.sources["repeat"]) == (
        "flag",
        "form",
        "agent",
    )


def test_a_form_field_is_the_users_once_edited_even_typed_back(config: Path) -> None:
    assert tui_run_options({"repeat": 3}).sources["repeat"] == "config"  # shown, untouched
    assert tui_run_options({"repeat": 3}, edited=("repeat",)).sources["repeat"] == "form"


def test_typed_gates_and_concurrency_match_between_the_cli_and_an_agent(config: Path) -> None:
    cli = cli_run_options("--repeat", "4", "--concurrency", "3", "--min-accuracy", "0.9")
    mcp = mcp_run_options(config, repeat=4, concurrency=3, minAccuracy=0.9)
    assert cli == mcp and cli.concurrency == 3 and cli.thresholds.min_accuracy == 0.9
    typed = dict.fromkeys(("repeat", "concurrency", "min_accuracy"), "typed")
    assert (
        as_typed(cli.sources, "flag")
        == as_typed(mcp.sources, "agent")
        == {
            **CONFIGURED,
            **typed,
        }
    )


def test_the_operators_budget_flags_stay_the_operators_under_an_agent(config: Path) -> None:
    flags = ["mcp", "--config", str(config), "--max-trials", "30"]
    server = server_options(build_parser().parse_args(flags))
    options = run_options_for(server, RunArguments.model_validate({"repeat": 4}))
    assert options.max_trials == 30 and options.sources["max_trials"] == "flag"
    assert options.max_tools == 9 and options.sources["max_tools"] == "config"
    assert options.sources["repeat"] == "agent"


def cli_inspect_options(*flags: str) -> InspectOptions:
    args = build_parser().parse_args(["--no-ui", "inspect", *flags])
    return review_options(request_from_flags(args, None), load_settings(args.config))


def tui_inspect_options(**flags: Any) -> InspectOptions:
    """The Surface screen's review: the ``inspect`` command's flags, as it opens the app."""
    return ui_review_options(ReviewOptions(None, **flags), load_settings(None))


def test_inspect_options_carry_the_same_sources_on_every_face(config: Path) -> None:
    cli = cli_inspect_options("--max-context-tokens", "4000")
    tui = tui_inspect_options(max_context_tokens=4000)
    agent = agent_inspect_options(
        mcp_server(config), InspectArguments.model_validate({"maxContextTokens": 4000})
    )
    assert cli == tui == agent
    assert (cli.max_tools, cli.max_context_tokens, cli.approximates) == (
        9,
        4000,
        "openai-compatible",
    )
    expected = {"max_tools": "config", "max_context_tokens": "typed", "provider": "config"}
    assert as_typed(cli.sources, "flag") == expected
    assert as_typed(tui.sources, "flag") == expected  # the TUI's review values are flags
    assert as_typed(agent.sources, "agent") == expected
    untyped = cli_inspect_options()
    assert untyped.max_context_tokens == 5000 and untyped.sources["max_context_tokens"] == "config"
