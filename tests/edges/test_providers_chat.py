"""The Chat Completions family against a real loopback server speaking its wire shape."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.support.fake_apis import FakeApi, chat_reply, http_error
from whichtool_tui.providers.base import ProviderError, RouteRequest, ToolSpec
from whichtool_tui.providers.chat_completions import ChatCompletionsProvider
from whichtool_tui.providers.factory import build_provider

pytestmark = pytest.mark.slow  # starts processes or servers

SECRET = "sk-test-SENTINEL-chat-0123456789abcdef"
TOOLS = (
    ToolSpec(
        "get_user",
        "Get one user by id.",
        {"type": "object", "properties": {"id": {"type": "integer"}}, "required": ["id"]},
    ),
    ToolSpec("list_users", None, {"type": "object", "$defs": {"x": {}}, "properties": {}}),
)


@pytest.fixture
async def chat(api: FakeApi) -> AsyncIterator[ChatCompletionsProvider]:
    provider = build_provider(
        "openai-compatible",
        "fake-model",
        api.base_url + "/v1/",
        env={"WHICHTOOL_PROVIDER_API_KEY": SECRET},
    )
    assert isinstance(provider, ChatCompletionsProvider)
    yield provider
    await provider.aclose()


def request(**overrides: object) -> RouteRequest:
    values: dict[str, object] = {"prompt": "fetch user 7", "tools": TOOLS, "temperature": 0.0}
    values["seed"] = 1234
    values.update(overrides)
    return RouteRequest(**values)  # type: ignore[arg-type]


async def test_exact_request_body_and_headers(api: FakeApi, chat: ChatCompletionsProvider) -> None:
    api.queue(chat_reply(calls=[("get_user", '{"id": 7}')]))
    reply = await chat.route(request(reasoning_effort="low"))
    sent = api.requests[0]
    assert sent.method == "POST"
    assert sent.path == "/v1/chat/completions"
    assert sent.headers["authorization"] == f"Bearer {SECRET}"
    assert sent.headers["content-type"] == "application/json"
    assert sent.json == {
        "model": "fake-model",
        "messages": [{"role": "user", "content": "fetch user 7"}],
        "tools": [
            {
                "type": "function",
                "function": {
                    "name": "get_user",
                    "description": "Get one user by id.",
                    "parameters": TOOLS[0].input_schema,
                },
            },
            {
                "type": "function",
                "function": {"name": "list_users", "parameters": TOOLS[1].input_schema},
            },
        ],
        "temperature": 0.0,
        "reasoning_effort": "low",
        "seed": 1234,
    }
    assert "tool_choice" not in sent.json
    assert [(c.name, c.arguments) for c in reply.calls] == [("get_user", '{"id": 7}')]
    assert reply.usage is not None and reply.usage.prompt_tokens == 30
    assert reply.usage.completion_tokens == 9
    assert reply.stop_reason == "tool_calls"


async def test_several_calls_text_and_reasoning(
    api: FakeApi, chat: ChatCompletionsProvider
) -> None:
    api.queue(
        chat_reply(
            calls=[("get_user", '{"id": 1}'), ("list_users", "{}")],
            text="calling both",
            reasoning_content="think" * 3,
        )
    )
    reply = await chat.route(request())
    assert [c.name for c in reply.calls] == ["get_user", "list_users"]
    assert reply.text == "calling both"
    assert reply.reasoning_chars == 15


async def test_text_only_is_an_abstention(api: FakeApi, chat: ChatCompletionsProvider) -> None:
    api.queue(chat_reply(text="Which user do you mean?"))
    reply = await chat.route(request())
    assert reply.calls == ()
    assert reply.text == "Which user do you mean?"


@pytest.mark.parametrize(
    ("reply", "code", "fragment"),
    [
        (chat_reply(text="cut", finish_reason="length"), "provider/truncated", "length"),
        (chat_reply(finish_reason="content_filter"), "provider/content-filter", "content filter"),
        (
            chat_reply(text="?", finish_reason="function_call"),
            "provider/unexpected-stop",
            "'function_call'",
        ),
        (chat_reply(finish_reason="tool_calls"), "provider/malformed-reply", "without calls"),
        (
            chat_reply(calls=[("get_user", "{}")], finish_reason="stop"),
            "provider/malformed-reply",
            "under finish_reason stop",
        ),
        (chat_reply(refusal="I can't help with that."), "provider/refusal", "I can't help"),
    ],
)
async def test_finish_reason_rules(
    api: FakeApi, chat: ChatCompletionsProvider, reply: object, code: str, fragment: str
) -> None:
    api.queue(reply)  # type: ignore[arg-type]
    with pytest.raises(ProviderError) as caught:
        await chat.route(request())
    assert caught.value.code == code
    assert fragment in caught.value.message
    assert caught.value.message.startswith(chat.endpoint)
    assert not caught.value.retryable


async def test_400_reasoning_effort_hint(api: FakeApi, chat: ChatCompletionsProvider) -> None:
    api.queue(http_error(400, "Unrecognized request argument supplied: reasoning_effort"))
    with pytest.raises(ProviderError) as caught:
        await chat.route(request(reasoning_effort="high"))
    assert caught.value.hint is not None and "--reasoning-effort none" in caught.value.hint
    assert caught.value.status == 400


async def test_400_lists_names_outside_the_pattern_and_never_rewrites(
    api: FakeApi, chat: ChatCompletionsProvider
) -> None:
    dotted = (ToolSpec("files.read", "Read a file.", {"type": "object"}), *TOOLS)
    api.queue(http_error(400, "Invalid 'tools[0].function.name'"))
    with pytest.raises(ProviderError) as caught:
        await chat.route(request(tools=dotted))
    assert caught.value.hint is not None and "files.read" in caught.value.hint
    assert api.requests[0].json["tools"][0]["function"]["name"] == "files.read"


async def test_ollama_preset_ignores_reasoning_effort_and_sends_no_key(api: FakeApi) -> None:
    provider = build_provider(
        "ollama", "qwen3", api.base_url + "/v1", env={"OPENAI_API_KEY": SECRET}
    )
    try:
        api.queue(chat_reply(text="hello"))
        await provider.route(request(reasoning_effort="high"))
    finally:
        await provider.aclose()
    sent = api.requests[0]
    assert "reasoning_effort" not in sent.json
    assert sent.json["seed"] == 1234
    assert "authorization" not in sent.headers
    assert provider.identity.capabilities.unsupported_settings(0.0, 1, "high") == (
        "reasoning_effort",
    )


async def test_generate_posts_without_tools(api: FakeApi) -> None:
    provider = build_provider("vllm", "m", api.base_url + "/v1", env={})
    assert isinstance(provider, ChatCompletionsProvider)
    try:
        api.queue(chat_reply(text="draft text"), chat_reply(text="  "))
        text = await provider.generate("write tasks", 0.7, max_output_tokens=64)
        with pytest.raises(ProviderError) as caught:
            await provider.generate("again", 0.7)
    finally:
        await provider.aclose()
    assert text == "draft text"
    assert api.requests[0].json == {
        "model": "m",
        "messages": [{"role": "user", "content": "write tasks"}],
        "temperature": 0.7,
        "max_tokens": 64,
    }
    assert caught.value.code == "provider/empty-text"
