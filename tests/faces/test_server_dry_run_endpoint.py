"""The MCP server's dry run names where the prompts and the key would go, before any is spent.

Issue 12 asks that the endpoint every key goes to is printed by a dry run; the CLI has its
`endpoint` row, and an agent calling `run_evaluation` with `dryRun` gets the same line (and the
URL and key variable as fields) in its answer. Nothing is sent: the fake API must see nothing.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.fake_apis import chat_reply, fake_api_server
from tests.support.mcp_session import call, demo_workspace, mcp_session

pytestmark = pytest.mark.slow  # starts the server as a process

SECRET = "sk-sentinel-dry-run-0123456789"


async def test_dry_run_names_the_endpoint_and_the_key_that_would_go_there(tmp_path: Path) -> None:
    with fake_api_server() as api:
        api.responder = lambda request: chat_reply(calls=[("list_orders", "{}")])
        base = api.base_url + "/v1"
        config = demo_workspace(
            tmp_path, {"name": "openai-compatible", "model": "m", "baseUrl": base}
        )
        async with mcp_session(
            tmp_path,
            ["--allow-paid-runs"],
            config=config,
            env={"WHICHTOOL_PROVIDER_API_KEY": SECRET},
        ) as session:
            dry = await call(session, "run_evaluation", dryRun=True, repeat=1)
            sent_by_the_dry_run = len(api.requests)
            await call(session, "run_evaluation", repeat=1)
    assert sent_by_the_dry_run == 0  # a dry run sends nothing
    assert api.requests  # the real run did, and the operator's log said where first
    log = (tmp_path / "server-stderr.log").read_text(encoding="utf-8")
    assert "whichtool-tui mcp: run_evaluation: provider openai-compatible: requests and " in log
    assert SECRET not in log
    provider = dry["data"]["plan"]["provider"]
    assert provider["endpoint"] == base + "/chat/completions"
    assert provider["keyEnv"] == "WHICHTOOL_PROVIDER_API_KEY"
    line = f"provider openai-compatible: requests and WHICHTOOL_PROVIDER_API_KEY go to {base}"
    assert provider["destination"] == line + "/chat/completions"
    assert line in dry["summary"]
    assert SECRET not in json.dumps(dry)


async def test_dry_run_after_a_provider_switch_names_the_vendors_own_host(tmp_path: Path) -> None:
    # The operator's config points at a private box; an agent switching to openai-chat must be
    # told (and the key must go) to api.openai.com, never to the operator's URL.
    config = demo_workspace(
        tmp_path, {"name": "vllm", "model": "m", "baseUrl": "http://gpu-box.lan:8000/v1"}
    )
    async with mcp_session(
        tmp_path, ["--allow-provider-overrides"], config=config, env={"OPENAI_API_KEY": SECRET}
    ) as session:
        dry = await call(
            session, "run_evaluation", dryRun=True, provider="openai-chat", model="m", repeat=1
        )
        unset = await call(session, "run_evaluation", dryRun=True, provider="anthropic", model="m")
    provider = dry["data"]["plan"]["provider"]
    assert provider["endpoint"] == "https://api.openai.com/v1/chat/completions"
    assert provider["keyEnv"] == "OPENAI_API_KEY"
    assert "gpu-box" not in json.dumps(dry)
    # A key that is not set is named as the one that would travel, and said to be missing.
    missing = unset["data"]["plan"]["provider"]
    assert missing["endpoint"].startswith("https://api.anthropic.com/")
    assert missing["destination"].endswith("(ANTHROPIC_API_KEY is not set)")
