"""End to end against a real llama.cpp server (xllamacpp) running SmolLM2-135M on loopback.

The model is tiny and its chat template has no tool support, so it mostly answers in text or is
cut off at the output cap. What this proves is the wire path: our exact request bodies are
accepted by a real server, and every answer becomes calls/text or a named ProviderError.
"""

from __future__ import annotations

from typing import Any

import pytest

from whichtool_tui.providers.base import ProviderError, RouteReply, RouteRequest, ToolSpec
from whichtool_tui.providers.calls import normalize_calls
from whichtool_tui.providers.factory import build_provider

pytestmark = pytest.mark.slow

MAX_OUTPUT_TOKENS = 12
# Errors a tiny model may legitimately cause; anything else (or an exception of another type)
# is a failure of ours.
EXPECTED_ERROR_CODES = {
    "provider/truncated",
    "provider/unexpected-stop",
    "provider/malformed-reply",
    "provider/malformed-call",
}
TOOLS = (
    ToolSpec(
        "get_weather",
        "Get the current weather for a city.",
        {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
    ),
    ToolSpec(
        "send_email",
        "Send an email to one recipient.",
        {
            "type": "object",
            "properties": {"to": {"type": "string"}, "body": {"type": "string"}},
            "required": ["to", "body"],
        },
    ),
    ToolSpec("list_files", "List the files in a folder.", {"type": "object", "properties": {}}),
)
PROMPTS = ("What is the weather in Paris?", "Reply with one word: yes")


def _check_outcome(outcome: RouteReply | ProviderError) -> None:
    if isinstance(outcome, ProviderError):
        assert outcome.code in EXPECTED_ERROR_CODES, (outcome.code, outcome.message)
        assert outcome.message.startswith("http://127.0.0.1:")
        return
    calls = normalize_calls(outcome)
    assert all(call.name is None or isinstance(call.name, str) for call in calls)
    assert isinstance(outcome.text, str)
    assert outcome.calls or outcome.text.strip()
    assert outcome.usage is not None and (outcome.usage.completion_tokens or 0) > 0


async def _route_all(provider: Any) -> list[RouteReply | ProviderError]:
    outcomes: list[RouteReply | ProviderError] = []
    try:
        for prompt in PROMPTS:
            try:
                outcomes.append(await provider.route(RouteRequest(prompt, TOOLS, 0.0, 7)))
            except ProviderError as error:
                outcomes.append(error)
    finally:
        await provider.aclose()
    return outcomes


async def test_openai_compatible_chat_completions(llama_base_url: str) -> None:
    provider = build_provider(
        "openai-compatible",
        "smollm2",
        llama_base_url + "/v1",
        env={},
        timeout=60,
        max_output_tokens=MAX_OUTPUT_TOKENS,
    )
    outcomes = await _route_all(provider)
    assert len(outcomes) == len(PROMPTS)
    for outcome in outcomes:
        _check_outcome(outcome)


async def test_anthropic_messages(llama_base_url: str) -> None:
    provider = build_provider(
        "anthropic",
        "smollm2",
        llama_base_url,
        env={"ANTHROPIC_API_KEY": "local-server-ignores-this"},
        timeout=60,
        max_output_tokens=MAX_OUTPUT_TOKENS,
        base_url_source="flag",  # typed: a vendor key may follow only a typed URL off its host
    )
    outcomes = await _route_all(provider)
    assert len(outcomes) == len(PROMPTS)
    for outcome in outcomes:
        _check_outcome(outcome)
        if isinstance(outcome, ProviderError):
            assert "local-server-ignores-this" not in outcome.message


async def test_generate_over_chat_completions(llama_base_url: str) -> None:
    provider = build_provider(
        "openai-compatible", "smollm2", llama_base_url + "/v1", env={}, timeout=60
    )
    try:
        text = await provider.generate("Say hello.", 0.0, max_output_tokens=MAX_OUTPUT_TOKENS)  # type: ignore[attr-defined]
    except ProviderError as error:
        assert error.code in EXPECTED_ERROR_CODES | {"provider/empty-text"}
    else:
        assert text.strip()
    finally:
        await provider.aclose()
