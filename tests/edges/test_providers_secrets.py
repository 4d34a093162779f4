"""A sentinel key echoed back by a hostile or buggy server never reaches an error or identity."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.fake_apis import (
    FakeApi,
    FakeReply,
    anthropic_reply,
    chat_reply,
    fake_api_server,
    responses_reply,
)
from whichtool_tui.providers.base import ProviderError, RouteRequest, ToolSpec
from whichtool_tui.providers.factory import build_provider
from whichtool_tui.providers.presets import PRESETS

pytestmark = pytest.mark.slow  # starts processes or servers

SENTINEL = "sk-SENTINEL-3f9a2c7e5b1d4068"
TOOLS = (ToolSpec("ping", "Ping a host.", {"type": "object"}),)


@pytest.fixture(scope="module")
def api() -> Iterator[FakeApi]:
    with fake_api_server() as server:
        yield server


def hostile_replies(api_shape: str) -> list[FakeReply]:
    echoed = f"your key {SENTINEL} is wrong"
    shaped = {
        "chat": [
            chat_reply(refusal=echoed),
            chat_reply(text="x", finish_reason=SENTINEL),
        ],
        "responses": [
            responses_reply(refusal=echoed),
            responses_reply(text="x", status=SENTINEL),
        ],
        "messages": [
            anthropic_reply(
                stop_reason="refusal", stop_details={"type": "refusal", "category": SENTINEL}
            ),
            anthropic_reply(text="x", stop_reason=SENTINEL),
        ],
    }[api_shape]
    return [
        FakeReply(401, body=echoed.encode()),
        FakeReply(400, {"error": {"message": echoed, "param": "reasoning_effort"}}),
        FakeReply(500, body=(echoed * 20).encode()),
        FakeReply(200, body=f"<html>{echoed}".encode()),
        *shaped,
    ]


@pytest.mark.parametrize("name", sorted(n for n, p in PRESETS.items() if p.key_env))
async def test_sentinel_never_appears(api: FakeApi, name: str) -> None:
    preset = PRESETS[name]
    assert preset.key_env is not None
    base_url = api.base_url + ("" if preset.api == "messages" else "/v1")
    provider = build_provider(
        name, "m", base_url, env={preset.key_env: SENTINEL}, retries=0, base_url_source="flag"
    )
    replies = hostile_replies(preset.api)
    api.queue(*replies)
    seen: list[str] = [repr(provider.identity), repr(getattr(provider, "options", ""))]
    try:
        for _ in replies:
            with pytest.raises(ProviderError) as caught:
                await provider.route(RouteRequest("ping it", TOOLS, 0.0, 1, "high"))
            seen += [str(caught.value), caught.value.message, caught.value.hint or ""]
    finally:
        await provider.aclose()
    sent = api.requests[-len(replies) :]
    assert all(SENTINEL in str(r.headers) for r in sent)  # it did go where it belongs
    assert not [text for text in seen if SENTINEL in text]
    assert any("***" in text for text in seen)
