"""Anthropic Messages against a real loopback server speaking its wire shape."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.support.fake_apis import FakeApi, FakeReply, anthropic_reply
from whichtool_tui.providers.anthropic import AnthropicProvider
from whichtool_tui.providers.base import ProviderError, RouteRequest, ToolSpec, can_generate
from whichtool_tui.providers.factory import build_provider

pytestmark = pytest.mark.slow  # starts processes or servers

SECRET = "sk-ant-SENTINEL-0123456789abcdef"
TOOLS = (
    ToolSpec(
        "search_docs",
        "Search the documentation.",
        {"type": "object", "properties": {"q": {"$ref": "#/$defs/q"}}, "$defs": {"q": {}}},
    ),
    ToolSpec("open_page", "Open a page by URL.", {"type": "object"}),
)


@pytest.fixture
async def claude(api: FakeApi) -> AsyncIterator[AnthropicProvider]:
    provider = build_provider(
        "anthropic",
        "claude-x",
        api.base_url,
        env={"ANTHROPIC_API_KEY": SECRET},
        base_url_source="flag",  # typed: the only source a vendor key may follow off its host
    )
    assert isinstance(provider, AnthropicProvider)
    yield provider
    await provider.aclose()


def request(prompt: str = "find the install guide") -> RouteRequest:
    return RouteRequest(prompt, TOOLS, temperature=0.0, seed=99, reasoning_effort="high")


async def test_exact_body_and_headers(api: FakeApi, claude: AnthropicProvider) -> None:
    api.queue(anthropic_reply(calls=[("search_docs", {"q": "install"})]))
    reply = await claude.route(request())
    sent = api.requests[0]
    assert sent.path == "/v1/messages"
    assert sent.headers["x-api-key"] == SECRET
    assert sent.headers["anthropic-version"] == "2023-06-01"
    assert sent.headers["content-type"] == "application/json"
    assert "authorization" not in sent.headers
    # No temperature, seed, tool_choice, parallel-tool switch or reasoning effort.
    assert sent.json == {
        "model": "claude-x",
        "max_tokens": 8192,
        "messages": [{"role": "user", "content": "find the install guide"}],
        "tools": [
            {
                "name": "search_docs",
                "description": "Search the documentation.",
                "input_schema": TOOLS[0].input_schema,
            },
            {
                "name": "open_page",
                "description": "Open a page by URL.",
                "input_schema": TOOLS[1].input_schema,
            },
        ],
    }
    assert [(c.name, c.arguments) for c in reply.calls] == [("search_docs", {"q": "install"})]
    assert reply.usage is not None
    assert (reply.usage.prompt_tokens, reply.usage.completion_tokens) == (12, 5)


def test_capabilities_declare_every_setting_unsupported() -> None:
    provider = build_provider("anthropic", "m", None, env={"ANTHROPIC_API_KEY": SECRET})
    caps = provider.identity.capabilities
    assert (caps.seed, caps.temperature_zero, caps.logprobs, caps.disable_thinking) == (
        False,
        False,
        False,
        False,
    )
    assert caps.unsupported_settings(0.0, 5, "high") == ("temperature", "seed", "reasoning_effort")
    assert provider.identity.endpoint == "https://api.anthropic.com/v1/messages"
    assert can_generate(provider)


async def test_text_blocks_concatenate_and_thinking_counts(
    api: FakeApi, claude: AnthropicProvider
) -> None:
    api.queue(
        FakeReply(
            200,
            {
                "content": [
                    {"type": "thinking", "thinking": "abcd"},
                    {"type": "text", "text": "Which "},
                    {"type": "text", "text": "page?"},
                ],
                "stop_reason": "end_turn",
            },
        )
    )
    reply = await claude.route(request())
    assert reply.calls == ()
    assert reply.text == "Which page?"
    assert reply.reasoning_chars == 4
    assert reply.usage is None


async def test_several_tool_use_blocks(api: FakeApi, claude: AnthropicProvider) -> None:
    api.queue(anthropic_reply(calls=[("open_page", {"url": "a"}), ("search_docs", {})], text="ok"))
    reply = await claude.route(request())
    assert [c.name for c in reply.calls] == ["open_page", "search_docs"]
    assert reply.text == "ok"


@pytest.mark.parametrize(
    ("reply", "code", "fragment"),
    [
        (
            anthropic_reply(
                stop_reason="refusal", stop_details={"type": "refusal", "category": "cyber"}
            ),
            "provider/refusal",
            "category: cyber",
        ),
        (anthropic_reply(text="cut", stop_reason="max_tokens"), "provider/truncated", "max_tokens"),
        (
            anthropic_reply(text="x", stop_reason="pause_turn"),
            "provider/unexpected-stop",
            "pause_turn",
        ),
        (anthropic_reply(text="x", stop_reason="tool_use"), "provider/malformed-reply", "without"),
        (
            anthropic_reply(calls=[("open_page", {})], stop_reason="end_turn"),
            "provider/malformed-reply",
            "under stop_reason",
        ),
        (FakeReply(200, {"stop_reason": "end_turn"}), "provider/invalid-response", "content"),
    ],
)
async def test_stop_reason_rules(
    api: FakeApi, claude: AnthropicProvider, reply: FakeReply, code: str, fragment: str
) -> None:
    api.queue(reply)
    with pytest.raises(ProviderError) as caught:
        await claude.route(request())
    assert caught.value.code == code
    assert fragment in caught.value.message


async def test_generate_sends_no_tools_and_requires_text(
    api: FakeApi, claude: AnthropicProvider
) -> None:
    api.queue(anthropic_reply(text="- task one"), anthropic_reply(text=""))
    assert await claude.generate("draft", 0.7, max_output_tokens=300) == "- task one"
    assert api.requests[0].json == {
        "model": "claude-x",
        "max_tokens": 300,
        "messages": [{"role": "user", "content": "draft"}],
    }
    with pytest.raises(ProviderError) as caught:
        await claude.generate("draft", 0.7)
    assert caught.value.code == "provider/empty-text"


async def test_401_hint_names_the_key_and_hides_it(api: FakeApi, claude: AnthropicProvider) -> None:
    api.queue(FakeReply(401, {"error": {"message": f"invalid x-api-key {SECRET}"}}))
    with pytest.raises(ProviderError) as caught:
        await claude.route(request())
    error = caught.value
    assert error.message.startswith(f"{api.base_url}/v1/messages answered HTTP 401: ")
    assert error.hint is not None and "ANTHROPIC_API_KEY" in error.hint
    assert SECRET not in error.message and SECRET not in error.hint
    assert SECRET not in repr(claude.options)
