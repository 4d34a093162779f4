"""The shared poster against a real loopback server: errors, caps, timeouts, retries, secrets."""

from __future__ import annotations

import asyncio
import socket
import threading

import pytest

from tests.support.fake_apis import (
    FakeApi,
    FakeReply,
    chat_reply,
    http_error,
    malformed_json,
)
from whichtool_tui.providers.base import ProviderError, RouteRequest, ToolSpec
from whichtool_tui.providers.http import MAX_RESPONSE_BYTES, JsonPoster, backoff_seconds

pytestmark = pytest.mark.slow  # starts processes or servers

SECRET = "sk-SENTINEL-http-poster-0123456789abcdef"
HEADERS = {"content-type": "application/json", "authorization": f"Bearer {SECRET}"}


class SleepLog:
    """Records backoff delays instead of waiting them out (the server stays real)."""

    def __init__(self) -> None:
        self.delays: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.delays.append(seconds)


def poster(**kwargs: object) -> JsonPoster:
    return JsonPoster(secrets=(SECRET,), key_env="OPENAI_API_KEY", **kwargs)  # type: ignore[arg-type]


def test_backoff_doubles_from_half_a_second() -> None:
    assert [backoff_seconds(n) for n in (1, 2, 3, 4)] == [0.5, 1.0, 2.0, 4.0]


async def test_http_error_text_is_redacted_and_truncated(api: FakeApi) -> None:
    body = f"upstream said: key {SECRET} rejected at https://user:pw@x.example/a?token=abc " + (
        "z" * 600
    )
    api.queue(FakeReply(500, body=body.encode()))
    client = poster()
    with pytest.raises(ProviderError) as caught:
        await client.post(api.base_url + "/v1/chat/completions", {"a": 1}, HEADERS)
    await client.aclose()
    error = caught.value
    prefix = f"{api.base_url}/v1/chat/completions answered HTTP 500: "
    assert error.message.startswith(prefix)
    excerpt = error.message[len(prefix) :]
    assert len(excerpt) == 300
    assert excerpt.startswith("upstream said: key *** rejected at https://***@x.example/a?token=")
    assert "pw" not in excerpt and "abc" not in excerpt
    assert SECRET not in error.message
    assert error.retryable and error.status == 500
    assert error.code == "provider/http-error"


@pytest.mark.parametrize(
    ("status", "retryable"), [(429, True), (503, True), (400, False), (404, False)]
)
async def test_retryable_statuses(api: FakeApi, status: int, retryable: bool) -> None:
    api.queue(http_error(status, "nope"))
    client = poster()
    with pytest.raises(ProviderError) as caught:
        await client.post(api.base_url + "/x", {}, HEADERS)
    await client.aclose()
    assert caught.value.retryable is retryable
    assert len(api.requests) == 1  # no automatic retry by default


async def test_403_hint_names_the_env_key(api: FakeApi) -> None:
    api.queue(http_error(403, f"forbidden for {SECRET}"))
    client = poster()
    with pytest.raises(ProviderError) as caught:
        await client.post(api.base_url + "/x", {}, HEADERS)
    await client.aclose()
    assert caught.value.hint == "The endpoint refused the credentials: check OPENAI_API_KEY."
    assert SECRET not in str(caught.value)


async def test_opt_in_retries_429_and_5xx_with_backoff(api: FakeApi) -> None:
    api.queue(http_error(429, "slow down"), http_error(502, "bad gateway"), chat_reply(text="ok"))
    sleeps = SleepLog()
    client = poster(retries=3, sleep=sleeps)
    answer = await client.post(api.base_url + "/x", {"n": 1}, HEADERS)
    await client.aclose()
    assert answer["choices"][0]["message"]["content"] == "ok"
    assert len(api.requests) == 3
    assert sleeps.delays == [0.5, 1.0]


async def test_retries_stop_at_the_limit_and_skip_client_errors(api: FakeApi) -> None:
    api.queue(http_error(500), http_error(500), http_error(500), path="/x")
    sleeps = SleepLog()
    client = poster(retries=1, sleep=sleeps)
    with pytest.raises(ProviderError) as first:
        await client.post(api.base_url + "/x", {}, HEADERS)
    assert first.value.status == 500 and sleeps.delays == [0.5]
    assert api.pending() == 1 and len(api.requests) == 2
    api.queue(http_error(400, "bad"), path="/y")
    with pytest.raises(ProviderError) as second:
        await client.post(api.base_url + "/y", {}, HEADERS)
    await client.aclose()
    assert second.value.status == 400
    assert sleeps.delays == [0.5]


async def test_malformed_json_and_non_object(api: FakeApi) -> None:
    api.queue(malformed_json(), FakeReply(200, [1, 2, 3]))
    client = poster()
    with pytest.raises(ProviderError) as bad_json:
        await client.post(api.base_url + "/x", {}, HEADERS)
    with pytest.raises(ProviderError) as not_object:
        await client.post(api.base_url + "/x", {}, HEADERS)
    await client.aclose()
    assert bad_json.value.code == "provider/invalid-json"
    assert not bad_json.value.retryable
    assert not_object.value.code == "provider/invalid-response"


@pytest.mark.parametrize("chunked", [False, True])
async def test_answers_over_16_mib_are_refused(api: FakeApi, chunked: bool) -> None:
    api.queue(FakeReply(200, body=b"x" * (MAX_RESPONSE_BYTES + 10), chunked=chunked))
    client = poster()
    with pytest.raises(ProviderError) as caught:
        await client.post(api.base_url + "/x", {}, HEADERS)
    await client.aclose()
    assert caught.value.code == "provider/response-too-large"
    assert "16 MiB" in caught.value.message


async def test_slow_answer_times_out(api: FakeApi) -> None:
    api.queue(chat_reply(text="late").slow(2.0))
    client = poster(timeout=0.3)
    with pytest.raises(ProviderError) as caught:
        await client.post(api.base_url + "/x", {}, HEADERS)
    await client.aclose()
    assert caught.value.code == "provider/timeout"
    assert caught.value.retryable


async def test_unreachable_endpoint_is_a_retryable_error() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    client = poster()
    with pytest.raises(ProviderError) as caught:
        await client.post(f"http://127.0.0.1:{port}/v1?api_key={SECRET}", {}, HEADERS)
    await client.aclose()
    assert caught.value.code == "provider/unreachable"
    assert caught.value.retryable
    assert caught.value.message.startswith(f"http://127.0.0.1:{port}/v1?api_key=redacted")
    assert SECRET not in caught.value.message


async def test_concurrent_requests_share_one_client(api: FakeApi) -> None:
    api.responder = lambda _request: chat_reply(text="ok").slow(0.05)
    client = poster()
    results = await asyncio.gather(
        *(client.post(api.base_url + "/x", {"i": i}, HEADERS) for i in range(8))
    )
    shared = client._client
    await client.aclose()
    assert shared is not None
    assert len(results) == 8 and len(api.requests) == 8
    assert sorted(r.json["i"] for r in api.requests) == list(range(8))


def test_tools_in_request_are_plain_data() -> None:
    tool = ToolSpec("a", None, {"type": "object"})
    request = RouteRequest("p", (tool,), 0.0, 0)
    assert request.task_id is None and request.trial_index is None


async def test_cancelling_an_in_flight_request_propagates(api: FakeApi) -> None:
    arrived = threading.Event()

    def respond(_request: object) -> FakeReply:
        arrived.set()
        return chat_reply(text="late").slow(1.0)

    api.responder = respond
    client = poster()
    task = asyncio.create_task(client.post(api.base_url + "/x", {}, HEADERS))
    assert await asyncio.to_thread(arrived.wait, 10)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert task.cancelled()
    await client.aclose()
    assert client._client is None


async def test_a_request_json_cannot_carry_is_refused_before_sending(api: FakeApi) -> None:
    client = poster()
    with pytest.raises(ProviderError) as caught:
        await client.post(api.base_url + "/x", {"schema": {"maximum": float("nan")}}, HEADERS)
    await client.aclose()
    assert caught.value.code == "provider/invalid-request"
    assert api.requests == []
