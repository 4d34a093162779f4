"""OpenAI Responses against a real loopback server speaking its wire shape."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.support.fake_apis import FakeApi, FakeReply, responses_reply
from whichtool_tui.providers.base import ProviderError, RouteRequest, ToolSpec
from whichtool_tui.providers.factory import build_provider
from whichtool_tui.providers.openai_responses import ResponsesProvider

pytestmark = pytest.mark.slow  # starts processes or servers

SECRET = "sk-proj-SENTINEL-responses-0123456789"
TOOLS = (
    ToolSpec("create_issue", "Open a new issue.", {"type": "object", "properties": {}}),
    ToolSpec("close_issue", "Close an issue.", {"type": "object"}),
)


@pytest.fixture
async def openai(api: FakeApi) -> AsyncIterator[ResponsesProvider]:
    provider = build_provider(
        "openai",
        "gpt-x",
        api.base_url + "/v1",
        env={"OPENAI_API_KEY": SECRET},
        base_url_source="flag",  # typed: the only source a vendor key may follow off its host
    )
    assert isinstance(provider, ResponsesProvider)
    yield provider
    await provider.aclose()


def request(effort: str | None = None) -> RouteRequest:
    return RouteRequest("open a bug", TOOLS, temperature=0.0, seed=5, reasoning_effort=effort)


async def test_exact_body_without_seed(api: FakeApi, openai: ResponsesProvider) -> None:
    api.queue(responses_reply(calls=[("create_issue", '{"title": "bug"}')]))
    reply = await openai.route(request("minimal"))
    sent = api.requests[0]
    assert sent.path == "/v1/responses"
    assert sent.headers["authorization"] == f"Bearer {SECRET}"
    assert sent.json == {
        "model": "gpt-x",
        "store": False,
        "reasoning": {"effort": "minimal"},
        "input": "open a bug",
        "tools": [
            {
                "type": "function",
                "name": "create_issue",
                "description": "Open a new issue.",
                "parameters": {"type": "object", "properties": {}},
            },
            {
                "type": "function",
                "name": "close_issue",
                "description": "Close an issue.",
                "parameters": {"type": "object"},
            },
        ],
        "tool_choice": "auto",
        "temperature": 0.0,
    }
    assert [(c.name, c.arguments) for c in reply.calls] == [("create_issue", '{"title": "bug"}')]
    caps = openai.identity.capabilities
    assert (caps.seed, caps.temperature_zero) == (False, True)
    assert caps.unsupported_settings(0.0, 5, "minimal") == ("seed",)


async def test_no_reasoning_key_without_effort(api: FakeApi, openai: ResponsesProvider) -> None:
    api.queue(responses_reply(text="Which issue?", reasoning="pondering"))
    reply = await openai.route(request())
    assert "reasoning" not in api.requests[0].json
    assert reply.text == "Which issue?"
    assert reply.calls == ()
    assert reply.reasoning_chars == len("pondering")
    assert reply.usage is not None and reply.usage.prompt_tokens == 20


async def test_several_calls_keep_order(api: FakeApi, openai: ResponsesProvider) -> None:
    api.queue(responses_reply(calls=[("close_issue", "{}"), ("create_issue", "not json")]))
    reply = await openai.route(request())
    assert [(c.name, c.arguments) for c in reply.calls] == [
        ("close_issue", "{}"),
        ("create_issue", "not json"),
    ]


@pytest.mark.parametrize(
    ("reply", "code", "fragment"),
    [
        (
            responses_reply(text="cut", status="incomplete", incomplete_reason="max_output_tokens"),
            "provider/truncated",
            "max_output_tokens",
        ),
        (responses_reply(text="x", status="failed"), "provider/unexpected-stop", "'failed'"),
        (
            responses_reply(calls=[("close_issue", "{}")], item_status="in_progress"),
            "provider/unexpected-stop",
            "in_progress",
        ),
        (responses_reply(refusal="I won't do that."), "provider/refusal", "I won't"),
        (responses_reply(reasoning="only thinking"), "provider/malformed-reply", "no message"),
        (FakeReply(200, {"status": "completed"}), "provider/invalid-response", "output"),
    ],
)
async def test_status_rules(
    api: FakeApi, openai: ResponsesProvider, reply: FakeReply, code: str, fragment: str
) -> None:
    api.queue(reply)
    with pytest.raises(ProviderError) as caught:
        await openai.route(request())
    assert caught.value.code == code
    assert fragment in caught.value.message


async def test_generate_uses_max_output_tokens_and_refuses_calls(
    api: FakeApi, openai: ResponsesProvider
) -> None:
    api.queue(responses_reply(text="draft"), responses_reply(calls=[("close_issue", "{}")]))
    assert await openai.generate("write", 0.7, max_output_tokens=128) == "draft"
    assert api.requests[0].json == {
        "model": "gpt-x",
        "store": False,
        "input": "write",
        "temperature": 0.7,
        "max_output_tokens": 128,
    }
    with pytest.raises(ProviderError) as caught:
        await openai.generate("write", 0.7)
    assert caught.value.code == "provider/unexpected-calls"
